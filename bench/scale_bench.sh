#!/usr/bin/env bash
# A job of many ranks (issue 13): RANKS copies of one rank's trace, each made
# a distinct rank of a RANKS-rank job, then
#   1. `damscope analyze --no-store` over all of them (-j: every core), and
#      the same with -j 1: wall time and peak RSS (targets for 1,000 ranks:
#      under 60 s and under 1 GB);
#   2. the multi-node workflow: every rank analysed on its own into its
#      run.db (as each node would, here RANKS processes, nproc at a time),
#      then one `damscope analyze` over the run.db files that puts the job
#      together from the stored results (target: under 10 s), checked to
#      print the same JSON as the full analysis.
#   bench/scale_bench.sh [BUILD_DIR] [RANKS] [TRACE]
#   (defaults: build, 1000, ../shared/traces/kineto/nccl_2rank_a100.json.gz;
#   the copies are kept in $DAMSCOPE_SCALE_DIR, default /tmp/damscope-scale-RANKS)
set -euo pipefail
build=${1:-build}
ranks=${2:-1000}
trace=${3:-$(dirname "$0")/../../shared/traces/kineto/nccl_2rank_a100.json.gz}
damscope=$(realpath "$build/cli/damscope")
[ -x "$damscope" ] || { echo "scale_bench: $damscope not found; build it first" >&2; exit 2; }
[ -r "$trace" ] || { echo "scale_bench: $trace: no such trace" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "scale_bench: GNU time (/usr/bin/time) is needed: apt-get install time" >&2; exit 2; }
dir=${DAMSCOPE_SCALE_DIR:-/tmp/damscope-scale-$ranks}
mkdir -p "$dir"
cores=$(nproc)

# The copies: the trace's own rank and job size replaced (Kineto's
# distributedInfo), so that each file is a distinct rank of one job.
if [ ! -f "$dir/complete" ]; then
  echo "scale_bench: writing $ranks copies of $(basename "$trace") to $dir"
  zcat -f "$trace" >"$dir/base.json"
  grep -q '"rank": *[0-9]*, *"world_size": *[0-9]*' "$dir/base.json" ||
    { echo "scale_bench: $trace has no distributedInfo rank to rewrite" >&2; exit 2; }
  seq 0 $((ranks - 1)) | xargs -P "$cores" -I{} sh -c \
    "sed -E 's/\"rank\": *[0-9]+, *\"world_size\": *[0-9]+/\"rank\": {}, \"world_size\": $ranks/' '$dir/base.json' | gzip -1 >'$dir/rank{}.json.gz'"
  rm "$dir/base.json"
  touch "$dir/complete"
fi
inputs=()
for ((r = 0; r < ranks; r++)); do inputs+=("$dir/rank$r.json.gz"); done
events=$("$damscope" analyze --no-store --format json "${inputs[0]}" >/dev/null 2>&1; zcat "${inputs[0]}" | grep -o '"ph"' | wc -l)
echo "scale_bench: $ranks ranks of $(basename "$trace") ($events events each), $cores cores"

# measure NAME COMMAND...: wall seconds and peak RSS of one command.
measure() {
  local name=$1
  shift
  /usr/bin/time -f "%e %M" -o "$dir/time.txt" "$@" >"$dir/$name.out" 2>"$dir/$name.err" ||
    { cat "$dir/$name.err" >&2; exit 1; }
  read -r seconds kb <"$dir/time.txt"
  printf 'scale_bench: %-44s %8.2f s  %8.1f MB peak RSS\n' "$name" "$seconds" "$(awk "BEGIN {print $kb / 1024}")"
}

measure "analyze --no-store -j $cores ($ranks ranks)" "$damscope" analyze --no-store --format json -j "$cores" "${inputs[@]}"
cp "$dir/analyze --no-store -j $cores ($ranks ranks).out" "$dir/full.json"
measure "analyze --no-store -j 1 ($ranks ranks)" "$damscope" analyze --no-store --format json -j 1 "${inputs[@]}"
cmp -s "$dir/full.json" "$dir/analyze --no-store -j 1 ($ranks ranks).out" ||
  { echo "scale_bench: -j 1 and -j $cores printed different results" >&2; exit 1; }
echo "scale_bench: -j 1 and -j $cores print the same JSON"

# The multi-node workflow: one analysis per rank, as each node would run it.
rm -f "$dir"/rank*.db
start=$(date +%s.%N)
printf '%s\n' "${inputs[@]}" | xargs -P "$cores" -I{} sh -c \
  'f={}; "$0" analyze -j 1 -o "${f%.json.gz}.db" "$f" >/dev/null' "$damscope"
per_rank=$(awk "BEGIN {print $(date +%s.%N) - $start}")
printf 'scale_bench: %-44s %8.2f s  (%d at a time)\n' "per-rank analyze into run.db ($ranks ranks)" "$per_rank" "$cores"
stores=("${inputs[@]/%.json.gz/.db}")
measure "merge from stored results ($ranks run.db)" "$damscope" analyze --format json "${stores[@]}"
# The merge names its inputs (the run.db files) where the full analysis named
# the traces, and says where it stored; otherwise the two must agree.
sed -E 's/"stored_in": *"[^"]*"/"stored_in": null/g; s/\.db"/.json.gz"/g' \
  "$dir/merge from stored results ($ranks run.db).out" >"$dir/merged.json"
if cmp -s "$dir/full.json" "$dir/merged.json"; then
  echo "scale_bench: the merge prints the same JSON as the full analysis"
else
  echo "scale_bench: the merge differs from the full analysis (diff $dir/full.json $dir/merged.json)" >&2
  exit 1
fi
