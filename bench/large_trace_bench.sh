#!/usr/bin/env bash
# The first analysis of a large trace (issue 26): `damscope analyze TRACE`
# (import + analysis + store into a fresh run.db) of a synthetic Kineto trace
# of about 2.1 x KERNELS events, with the page writer on and off
# (DAMSCOPE_PAGE_WRITER, trace/trace_writer.h), ROUNDS rounds that alternate
# the two (sqlite3, apt: sqlite3, counts the stored events), so that the load of a shared machine falls on both alike. Prints
# each run's wall time and peak RSS (/usr/bin/time, apt: time) and the run.db's
# size, then the range of each setting.
#   bench/large_trace_bench.sh [BUILD_DIR] [KERNELS] [ROUNDS]
#   (defaults: build, 4800000 kernels, about 10 M events, and 3 rounds)
#
# The trace: bench/synthetic_trace.h's training trace written by
# synthetic_run_db, then exported by `damscope export --chrome` as .json.gz
# (which the Kineto importer reads back); made once and kept in
# $DAMSCOPE_LARGE_DIR (default /tmp/damscope-large-KERNELS): 10 M events take
# minutes to make, about 3 GB of JSON, 0.4 GB compressed. Not part of the
# test suite.
set -euo pipefail
build=$(realpath "${1:-build}")
kernels=${2:-4800000}
rounds=${3:-3}
damscope="$build/cli/damscope"
maker="$build/bench/synthetic_run_db"
for program in "$damscope" "$maker"; do
  if [ ! -x "$program" ]; then
    echo "large_trace_bench: $program not found; build the damscope and synthetic_run_db targets" >&2
    exit 2
  fi
done
[ -x /usr/bin/time ] || { echo "large_trace_bench: /usr/bin/time not found (apt-get install time)" >&2; exit 2; }

dir=${DAMSCOPE_LARGE_DIR:-/tmp/damscope-large-$kernels}
mkdir -p "$dir"
trace="$dir/trace.json.gz"
if [ ! -f "$trace" ]; then
  echo "large_trace_bench: making $trace"
  "$maker" "$kernels" "$dir/synthetic.db"
  "$damscope" export --no-store --force --chrome "$dir/partial.json.gz" "$dir/synthetic.db" >/dev/null
  rm -f "$dir/synthetic.db" "$dir"/synthetic.db-*
  mv "$dir/partial.json.gz" "$trace"
fi

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs"
echo "trace: $trace ($(stat -c %s "$trace") bytes)"
work="$dir/work"
mkdir -p "$work"
cd "$work"
for ((r = 0; r < rounds; r++)); do
  for setting in on off; do
    rm -f ./*.db ./*.db-*
    DAMSCOPE_PAGE_WRITER=$setting /usr/bin/time -f '%e %M' -o time.txt \
      "$damscope" analyze -o run.db "$trace" >/dev/null 2>err.txt || { cat err.txt >&2; exit 1; }
    read -r s kb <time.txt
    printf 'page writer %-3s %7.2f s  %7.1f MB peak RSS  run.db %6.1f MB  (load %s)\n' "$setting" \
      "$s" "$(awk "BEGIN{print $kb/1024}")" "$(awk "BEGIN{print $(stat -c %s run.db)/1048576}")" \
      "$(cut -d' ' -f1 /proc/loadavg)" | tee -a runs.txt
  done
done
events=$(sqlite3 run.db "SELECT (SELECT count(*) FROM kernels) + (SELECT count(*) FROM memcpys) +
  (SELECT count(*) FROM memsets) + (SELECT count(*) FROM api_calls) + (SELECT count(*) FROM ranges) +
  (SELECT count(*) FROM syncs) + (SELECT count(*) FROM counters)")
echo "events stored: $events"
for setting in on off; do
  grep "^page writer $setting " runs.txt | tail -n "$rounds" | awk -v s="$setting" '
    { t[NR] = $4; m[NR] = $6 }
    END { lo = hi = t[1]; mlo = mhi = m[1]
          for (i = 2; i <= NR; i++) { if (t[i] < lo) lo = t[i]; if (t[i] > hi) hi = t[i]
                                      if (m[i] < mlo) mlo = m[i]; if (m[i] > mhi) mhi = m[i] }
          printf "page writer %-3s %.2f-%.2f s, %.0f-%.0f MB peak RSS (%d runs)\n", s, lo, hi, mlo, mhi, NR }'
done
rm -f ./*.db ./*.db-* runs.txt time.txt err.txt
