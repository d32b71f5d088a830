#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, docs/fuzzing.md) with clang 14, ASan
# and UBSan into build-fuzz/ and runs each for SECONDS (default 600).
#   scripts/fuzz.sh [SECONDS] [TARGET...]     targets: kineto nsys rundb control gui_models
# (gui_models needs Qt 6, as the GUI does.)
# FUZZ_JOBS=N runs N targets at a time (default 1). Exits non-zero when any
# target finds a crash, a leak, a timeout, an out-of-memory or a sanitizer
# report; the input that did it is left in build-fuzz/artifacts/<target>/ and
# the log in build-fuzz/logs/<target>.log. Copy such an input into
# tests/fuzz_regressions/<target>/ once it is fixed (docs/fuzzing.md).
#
# Seeds: fuzz/seeds/<target>/ (small, hand-made, committed as text: SQL for
# databases, plain JSON for gzip; fuzz/make_seeds.cmake builds them) and, when
# ../shared/traces is there, slices of the real traces made afresh here:
# Kineto traces cut to a few events of each kind, the nsys export cut to the
# tables the importer reads and a few rows each, and run.db files imported
# from both by build/cli/damscope when a normal build has made it. The corpus
# each run grows stays in build-fuzz/corpus/<target>/ for the next run.
# Installs the Debian 12 packages it needs when missing (root or sudo).
set -euo pipefail

seconds="${1:-600}"
if [ $# -gt 0 ]; then shift; fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(kineto nsys rundb control gui_models); fi
jobs="${FUZZ_JOBS:-1}"
cd "$(dirname "$0")/.."
root="$(pwd)"
build="$root/build-fuzz"

bash scripts/install-deps.sh --sanitizers

CC=clang-14 CXX=clang++-14 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DDAMSCOPE_FUZZ=ON -DDAMSCOPE_BUILD_TESTS=OFF -DDAMSCOPE_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target "${targets[@]/%/_fuzz}" damscope_fuzz_inputs

# Seeds, made afresh each run.
seeds="$build/seeds"
rm -rf "$seeds"
for t in "${targets[@]}"; do
  mkdir -p "$seeds/$t" "$build/corpus/$t" "$build/artifacts/$t" "$build/logs"
  cp "$build"/fuzz/seeds/"$t"/* "$seeds/$t/"   # made from fuzz/seeds/ (fuzz/make_seeds.cmake)
done
traces="$root/../shared/traces"
damscope="$root/build/cli/damscope"
if [ -d "$traces" ]; then
  slices="$build/slices"
  rm -rf "$slices"
  mkdir -p "$slices"
  for f in "$traces"/kineto/*.json.gz; do
    name="$(basename "$f" .json.gz)"
    gzip -dc "$f" | awk -f fuzz/slice_kineto.awk >"$slices/$name.json"
  done
  # The importer's tables, a few rows each, in small pages.
  keep="'StringIds','ENUM_NSYS_EVENT_TYPE','ENUM_CUDA_MEM_KIND','TARGET_INFO_SESSION_START_TIME',
        'CUPTI_ACTIVITY_KIND_KERNEL','CUPTI_ACTIVITY_KIND_MEMCPY','CUPTI_ACTIVITY_KIND_MEMSET',
        'CUPTI_ACTIVITY_KIND_RUNTIME','CUPTI_ACTIVITY_KIND_SYNCHRONIZATION','NVTX_EVENTS',
        'TARGET_INFO_GPU','PROCESSES','ThreadNames','TARGET_INFO_SYSTEM_ENV','EXPORT_META_DATA',
        'META_DATA_EXPORT'"
  for f in "$traces"/nsys/*.sqlite; do
    name="$(basename "$f" .sqlite)"
    cp "$f" "$slices/full.sqlite"
    chmod u+w "$slices/full.sqlite"
    statements="$(sqlite3 "$slices/full.sqlite" \
      "SELECT 'DROP VIEW \"' || name || '\";' FROM sqlite_master WHERE type = 'view';
       SELECT 'DROP TABLE \"' || name || '\";' FROM sqlite_master
         WHERE type = 'table' AND name NOT IN ($keep) AND name NOT LIKE 'sqlite_%';
       SELECT 'DELETE FROM \"' || name || '\" WHERE rowid NOT IN (SELECT rowid FROM \"' ||
              name || '\" LIMIT ' || (CASE name WHEN 'StringIds' THEN 400 ELSE 6 END) || ');'
         FROM sqlite_master WHERE type = 'table' AND name IN ($keep);")"
    sqlite3 "$slices/full.sqlite" "$statements PRAGMA page_size = 512; VACUUM;"
    cp "$slices/full.sqlite" "$slices/$name.sqlite"
    rm -f "$slices/full.sqlite"
  done
  for t in "${targets[@]}"; do
    case "$t" in
      kineto) cp "$slices"/*.json "$seeds/kineto/" ;;
      nsys) cp "$slices"/*.sqlite "$seeds/nsys/" ;;
      rundb)
        if [ -x "$damscope" ]; then
          for f in "$slices"/*.json "$slices"/*.sqlite; do
            out="$seeds/rundb/$(basename "$f").db"
            # Analysed, so that the seeds hold results tables too.
            if "$damscope" analyze -o "$out" "$f" >/dev/null 2>&1 ||
              "$damscope" import -o "$out" "$f" >/dev/null 2>&1; then
              sqlite3 "$out" "PRAGMA journal_mode = DELETE; PRAGMA page_size = 512; VACUUM;" >/dev/null
            fi
          done
        fi
        ;;
    esac
  done
fi

max_len() {
  case "$1" in
    control) echo 4096 ;;
    gui_models) echo 16384 ;;  # text, at most 256 events (fuzz/gui_models_fuzz.cc)
    *) echo 65536 ;;
  esac
}

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
if symbolizer="$(command -v llvm-symbolizer-14)"; then export ASAN_SYMBOLIZER_PATH="$symbolizer"; fi

run_target() {
  local t="$1"
  # -timeout: one input taking 30 s is a hang; -rss_limit_mb: 2 GiB is a blow-up.
  "$build/fuzz/${t}_fuzz" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=30 \
    -max_len="$(max_len "$t")" -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$t/" "$build/corpus/$t" "$seeds/$t" \
    >"$build/logs/$t.log" 2>&1
}

status=0
declare -A pids=()
for t in "${targets[@]}"; do
  echo "fuzz.sh: $t for $seconds s ($(ls "$seeds/$t" | wc -l) seeds, $(ls "$build/corpus/$t" | wc -l) in the corpus)"
  run_target "$t" &
  pids[$t]=$!
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
done
for t in "${targets[@]}"; do
  if ! wait "${pids[$t]}"; then
    status=1
    echo "fuzz.sh: $t FAILED; log: $build/logs/$t.log" >&2
    grep -E "ERROR|runtime error|fuzz check failed|Test unit written" "$build/logs/$t.log" >&2 || true
  fi
  # The last status line and the final statistics.
  grep -E "^#[0-9]+[[:space:]]+DONE" "$build/logs/$t.log" | tail -1 | sed "s/^/fuzz.sh: $t: /" || true
  grep -E "stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)" \
    "$build/logs/$t.log" | sed "s/^/fuzz.sh: $t: /" || true
done
exit "$status"
