#!/usr/bin/env bash
# The first analysis of one trace (issue 13): wall time and peak RSS of
# `damscope analyze TRACE` (import + analysis + store into a fresh run.db) and
# of `damscope analyze --no-store TRACE`, best of RUNS each, measured with
# /usr/bin/time (apt: time) in an empty temporary directory; the same for the
# trace decompressed (a .gz trace only), as the plain .json that PyTorch's
# profiler writes by default; then the import rate end to end, file on disk to tables in memory (import_bench's
# BM_ImportToTables: events are stored rows; json events count every entry of
# traceEvents, flows and metadata included). Best of several runs because the
# machine is shared: the best run is the one least disturbed by other work.
#   bench/first_analysis_bench.sh [BUILD_DIR] [TRACE] [RUNS]
#   (defaults: build, ../shared/traces/kineto/v100_rank1.json.gz, 5)
#
# With HTA_SOURCE=<a HolisticTraceAnalysis checkout> (the folder holding
# hta/; Debian's python3 with scripts/install-deps.sh --hta), HTA's load +
# temporal breakdown of the same trace is measured in the same run, best of
# RUNS (bench/hta_first_analysis.py; HTA_PYTHON picks the interpreter,
# default /usr/bin/python3), and the ratios issue 13 sets targets on are
# printed: HTA's time over damscope's, with and without the store, and
# damscope's peak RSS over HTA's.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath "${1:-build}")
trace=$(realpath "${2:-$here/../../shared/traces/kineto/v100_rank1.json.gz}")
runs=${3:-5}
damscope="$build/cli/damscope"
import_bench="$build/bench/import_bench"
for program in "$damscope" "$import_bench"; do
  if [ ! -x "$program" ]; then
    echo "first_analysis_bench: $program not found; build the damscope and import_bench targets" >&2
    exit 2
  fi
done
if [ ! -x /usr/bin/time ]; then
  echo "first_analysis_bench: /usr/bin/time not found (apt-get install time)" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# best_of LABEL ARGS...: runs `damscope analyze ARGS TRACE` RUNS times in the
# empty directory, removing what it wrote before each run.
best_of() {
  local label=$1 s kb
  best_s="" best_kb=""
  shift
  for ((r = 0; r < runs; r++)); do
    rm -f ./*.db ./*.db-*
    /usr/bin/time -f '%e %M' -o time.txt "$damscope" analyze "$@" "$trace" >/dev/null 2>err.txt ||
      { cat err.txt >&2; exit 1; }
    read -r s kb <time.txt
    if [ -z "$best_s" ] || awk "BEGIN{exit !($s < $best_s)}"; then best_s=$s; fi
    if [ -z "$best_kb" ] || [ "$kb" -lt "$best_kb" ]; then best_kb=$kb; fi
  done
  printf '%-34s %6.2f s  %6.1f MB peak RSS\n' "$label" "$best_s" "$(awk "BEGIN{print $best_kb/1024}")"
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "trace: $trace ($(stat -c %s "$trace") bytes); best of $runs"
best_of "analyze (import+analysis+store)"
store_s=$best_s store_kb=$best_kb
best_of "analyze --no-store" --no-store
no_store_s=$best_s

if [ -n "${HTA_SOURCE:-}" ]; then
  hta_python=${HTA_PYTHON:-/usr/bin/python3}
  mkdir "$work/hta_trace"
  ln -s "$trace" "$work/hta_trace/$(basename "$trace")"
  hta_best_s="" hta_best_kb=""
  for ((r = 0; r < runs; r++)); do
    /usr/bin/time -f '%e %M' -o time.txt "$hta_python" "$here/hta_first_analysis.py" \
      "$HTA_SOURCE" "$work/hta_trace" >hta.txt 2>err.txt || { cat err.txt >&2; exit 1; }
    read -r _ load breakdown idle compute non_compute < <(grep '^hta ' hta.txt)
    read -r _ kb <time.txt
    s=$(awk "BEGIN{print $load + $breakdown}")
    if [ -z "$hta_best_s" ] || awk "BEGIN{exit !($s < $hta_best_s)}"; then hta_best_s=$s; fi
    if [ -z "$hta_best_kb" ] || [ "$kb" -lt "$hta_best_kb" ]; then hta_best_kb=$kb; fi
  done
  printf '%-34s %6.2f s  %6.1f MB peak RSS (load + temporal breakdown, in the process; idle %s %%, compute %s %%, non-compute %s %%)\n' \
    "HTA ($HTA_SOURCE)" "$hta_best_s" "$(awk "BEGIN{print $hta_best_kb/1024}")" "$idle" "$compute" "$non_compute"
  awk -v h="$hta_best_s" -v a="$store_s" -v n="$no_store_s" -v hk="$hta_best_kb" -v dk="$store_kb" 'BEGIN{
    printf "HTA / damscope: %.1fx with the store (target >= 15x), %.1fx with --no-store (target >= 25x); peak RSS %.2f of HTA'"'"'s (target <= 0.25)\n",
      h / a, h / n, dk / hk }'
fi
if [[ "$trace" == *.gz ]]; then
  gzip -dc "$trace" >"$work/plain.json"
  gz_trace=$trace
  trace="$work/plain.json"
  best_of "plain .json: analyze"
  best_of "plain .json: analyze --no-store" --no-store
  trace=$gz_trace
fi

DAMSCOPE_BENCH_TRACE="$trace" "$import_bench" --benchmark_filter='^BM_ImportToTables(/real_time)?$' \
  --benchmark_repetitions="$runs" --benchmark_format=json 2>/dev/null >import.json
python3 - import.json <<'EOF'
import json, sys
runs = [b for b in json.load(open(sys.argv[1]))["benchmarks"] if b.get("run_type") == "iteration"]
best = min(runs, key=lambda b: b["real_time"])
print(f"import, file to tables              {best['real_time']:6.1f} ms  "
      f"{best['events_per_s'] / 1e6:.2f} M events/s ({best['events']:,.0f} rows), "
      f"{best['json_events_per_s'] / 1e6:.2f} M json events/s")
EOF
