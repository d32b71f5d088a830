#!/usr/bin/env bash
# The first analysis of a large trace (issue 26): `damscope analyze TRACE`
# (import + analysis + store into a fresh run.db) of a synthetic Kineto trace
# of about 2.1 x KERNELS events, ROUNDS times: each run's wall time and peak
# RSS (/usr/bin/time, apt: time) and the run.db's size, then their range.
# Given a second build, the rounds alternate the two, so that the load of a
# shared machine falls on both alike (how the page writer was measured
# against SQLite's inserts).
#   bench/large_trace_bench.sh [BUILD_DIR] [KERNELS] [ROUNDS] [OTHER_BUILD_DIR]
#   (defaults: build, 4800000 kernels, about 10 M events, and 3 rounds)
#
# The trace: bench/synthetic_trace.h's training trace written by
# synthetic_run_db, then exported by `damscope export --chrome` as .json.gz
# (which the Kineto importer reads back); made once and kept in
# $DAMSCOPE_LARGE_DIR (default /tmp/damscope-large-KERNELS): 10 M events take
# minutes to make, 3.1 GB of JSON, 0.26 GB compressed. Not part of the test
# suite.
set -euo pipefail
builds=("$(realpath "${1:-build}")")
kernels=${2:-4800000}
rounds=${3:-3}
[ -n "${4:-}" ] && builds+=("$(realpath "$4")")
for build in "${builds[@]}"; do
  if [ ! -x "$build/cli/damscope" ]; then
    echo "large_trace_bench: $build/cli/damscope not found; build the damscope target" >&2
    exit 2
  fi
done
maker="${builds[0]}/bench/synthetic_run_db"
[ -x /usr/bin/time ] || { echo "large_trace_bench: /usr/bin/time not found (apt-get install time)" >&2; exit 2; }

dir=${DAMSCOPE_LARGE_DIR:-/tmp/damscope-large-$kernels}
mkdir -p "$dir"
trace="$dir/trace.json.gz"
if [ ! -f "$trace" ]; then
  [ -x "$maker" ] || { echo "large_trace_bench: $maker not found; build synthetic_run_db" >&2; exit 2; }
  echo "large_trace_bench: making $trace"
  "$maker" "$kernels" "$dir/synthetic.db"
  "${builds[0]}/cli/damscope" export --no-store --force --chrome "$dir/partial.json.gz" \
    "$dir/synthetic.db" >/dev/null
  rm -f "$dir/synthetic.db" "$dir"/synthetic.db-*
  mv "$dir/partial.json.gz" "$trace"
fi

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs"
echo "trace: $trace ($(stat -c %s "$trace") bytes)"
work="$dir/work"
mkdir -p "$work"
cd "$work"
rm -f runs.txt
for ((r = 0; r < rounds; r++)); do
  for b in "${!builds[@]}"; do
    rm -f ./*.db ./*.db-*
    /usr/bin/time -f '%e %M' -o time.txt "${builds[$b]}/cli/damscope" analyze -o run.db "$trace" \
      >/dev/null 2>err.txt || { cat err.txt >&2; exit 1; }
    read -r s kb <time.txt
    printf '%s %.2f %.1f %.1f\n' "$b" "$s" "$(awk "BEGIN{print $kb/1024}")" \
      "$(awk "BEGIN{print $(stat -c %s run.db)/1048576}")" >>runs.txt
    printf '%-40s %7.2f s  %7.1f MB peak RSS  run.db %6.1f MB  (load %s)\n' "${builds[$b]}" \
      "$s" "$(awk "BEGIN{print $kb/1024}")" "$(awk "BEGIN{print $(stat -c %s run.db)/1048576}")" \
      "$(cut -d' ' -f1 /proc/loadavg)"
  done
done
events=$(sqlite3 run.db "SELECT (SELECT count(*) FROM kernels) + (SELECT count(*) FROM memcpys) +
  (SELECT count(*) FROM memsets) + (SELECT count(*) FROM api_calls) + (SELECT count(*) FROM ranges) +
  (SELECT count(*) FROM syncs) + (SELECT count(*) FROM counters)")
echo "events stored: $events"
for b in "${!builds[@]}"; do
  awk -v b="$b" -v name="${builds[$b]}" '$1 == b {
      if (n++ == 0) { lo = hi = $2; mlo = mhi = $3 }
      if ($2 < lo) lo = $2; if ($2 > hi) hi = $2; if ($3 < mlo) mlo = $3; if ($3 > mhi) mhi = $3 }
    END { printf "%s: %.2f-%.2f s, %.0f-%.0f MB peak RSS (%d runs)\n", name, lo, hi, mlo, mhi, n }' runs.txt
done
rm -f ./*.db ./*.db-* runs.txt time.txt err.txt
