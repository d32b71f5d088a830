#!/usr/bin/env bash
# Data parallel on the CPU: two ranks of gpt2-train under mpirun on this
# machine, each recorded by `damscope record` and the job analysed by
# `damscope analyze`: tokens/s of the job (the trainer's "done" line: median
# step of steps 2..N, both ranks' tokens) and the exposed-communication share
# of the step (the D·A·M scorecard, mean of the two ranks), with the
# all-reduce after the backward pass and overlapped with it (--overlap).
# With REPEATS > 1 every run is repeated and the table shows the best
# repetition by tokens/s (the one least disturbed by other work on this
# shared machine) and the range of all.
#   bench/gpt2_data_parallel_bench.sh [BUILD_DIR] [STEPS] [REPEATS] [EXTRA gpt2-train FLAGS...]
#   (defaults: build, 10, 1; the runs below add their own flags)
set -euo pipefail
build=${1:-build}
steps=${2:-10}
repeats=${3:-1}
shift $(($# > 3 ? 3 : $#))
bin="$build/reference_workloads/gpt2/gpt2-train"
damscope="$build/cli/damscope"
for f in "$bin" "$damscope"; do
  [ -x "$f" ] || { echo "gpt2_data_parallel_bench: $f not found; build it first" >&2; exit 2; }
done
command -v mpirun >/dev/null || { echo "gpt2_data_parallel_bench: mpirun not found (libopenmpi-dev openmpi-bin)" >&2; exit 2; }
as_root=()
[ "$(id -u)" = 0 ] && as_root=(--allow-run-as-root)

runs=(
  "small, 4 x 128, 25 MB buckets|--config small --batch 4 --seq 128 --bucket-mb 25"
  "small, 4 x 128, 1 MB buckets|--config small --batch 4 --seq 128 --bucket-mb 1"
  "wide, 1 x 64, 4 MB buckets|--config wide --batch 1 --seq 64 --bucket-mb 4"
  "scenario communication-bound|--scenario communication-bound"
)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "2 ranks (mpirun -np 2), $steps steps each run, best of $repeats"
printf '%-34s %-8s %10s %10s %13s  %s\n' run all-reduce "tokens/s" "step ms" "exposed comm" "tokens/s of every repetition"
for run in "${runs[@]}"; do
  name=${run%%|*}
  flags=${run#*|}
  for mode in after overlap; do
    extra=()
    [ "$mode" = overlap ] && extra=(--overlap)
    best_toks=0 best_line= all=
    for ((rep = 0; rep < repeats; rep++)); do
      rm -f "$tmp"/run*.db
      # shellcheck disable=SC2086
      out=$(mpirun -np 2 --oversubscribe "${as_root[@]}" "$damscope" record -o "$tmp/run.db" -- \
            "$bin" $flags --steps "$steps" "${extra[@]}" "$@" 2>/dev/null)
      done_line=$(grep '^done' <<<"$out")
      toks=$(sed -n 's/.*| \([0-9,]*\) tok\/s.*/\1/p' <<<"$done_line")
      step=$(sed -n 's/.*median step \([0-9.]*\) ms.*/\1/p' <<<"$done_line")
      all="$all${all:+, }$toks"
      if [ "${toks//,/}" -gt "$best_toks" ]; then
        best_toks=${toks//,/}
        exposed=$("$damscope" analyze --no-store --format json "$tmp/run.rank0.db" "$tmp/run.rank1.db" |
          python3 -c 'import json,sys; r=json.load(sys.stdin)["ranks"]; print("%.1f %%" % (sum(x["scorecard"]["exposed_communication"] for x in r)/len(r)))')
        best_line=$(printf '%-34s %-8s %10s %10s %13s' "$name" "$mode" "$toks" "$step" "$exposed")
      fi
    done
    echo "$best_line  $all"
  done
done
