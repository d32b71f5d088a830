#!/usr/bin/env bash
# Builds damscope's tests with a sanitizer (clang 14, -O1 -g) and runs them.
#   scripts/sanitize.sh thread    ThreadSanitizer into build-tsan/; runs the
#                                 tests labelled "threads" (tests/CMakeLists.txt):
#                                 those that use threads or run programs that do
#   scripts/sanitize.sh address   AddressSanitizer + UndefinedBehaviorSanitizer
#                                 into build-asan/; runs the whole non-GPU suite
# Exits non-zero on any sanitizer report, in a test or in a program a test
# runs (damscope, the recorded test programs): reports go to files under
# <build>/sanitizer-reports/, which must stay empty. Run from any directory;
# installs the Debian 12 packages it needs when they are missing (root or sudo).
set -euo pipefail

mode="${1:-}"
case "$mode" in
  thread) build=build-tsan ;;
  address) build=build-asan ;;
  *)
    echo "usage: scripts/sanitize.sh thread|address" >&2
    exit 2
    ;;
esac
cd "$(dirname "$0")/.."
root="$(pwd)"

# The project's own packages, clang 14 with its sanitizer runtimes and
# llvm-symbolizer for the stacks.
bash scripts/install-deps.sh --sanitizers

# The collector needs the CUDA toolkit's headers (not a GPU); as in build.sh.
if [ -z "${CUDA_HOME:-}" ] && [ -d /usr/local/cuda ]; then export CUDA_HOME=/usr/local/cuda; fi
if [ -n "${CUDA_HOME:-}" ] && [ -x "$CUDA_HOME/bin/nvcc" ]; then
  export PATH="$CUDA_HOME/bin:$PATH"
fi

start=$(date +%s)
CC=clang-14 CXX=clang++-14 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS_DEBUG="-O1 -g" -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
  -DDAMSCOPE_SANITIZE="$mode" -DDAMSCOPE_BUILD_BENCH=OFF
cmake --build "$build" -j "$(nproc)"
built=$(date +%s)

reports="$root/$build/sanitizer-reports"
rm -rf "$reports"
mkdir -p "$reports"
common="halt_on_error=1:log_path=$reports/report"
if symbolizer="$(command -v llvm-symbolizer-14)"; then
  common="$common:external_symbolizer_path=$symbolizer"
fi
# A sanitizer slows a program down several times, and a few end-to-end tests
# time a recorded program (a --duration window must hold two 100 ms steps of
# a program that starts meanwhile): a failed test gets up to three tries. A
# report still fails the run, whatever the tries, since reports are files.
ctest_args=(--output-on-failure -j "$(nproc)" --repeat until-pass:3)
if [ "$mode" = thread ]; then
  export TSAN_OPTIONS="$common:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
  ctest_args+=(-L threads -LE gpu)
else
  export ASAN_OPTIONS="$common:detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
  # The OpenMP runtime's own descriptors, never freed (scripts/lsan.supp).
  export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
  export UBSAN_OPTIONS="$common:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
  ctest_args+=(-LE gpu)
fi

status=0
(cd "$build" && ctest "${ctest_args[@]}") || status=$?
finished=$(date +%s)

found=$(find "$reports" -type f | sort)
if [ -n "$found" ]; then
  echo "sanitize.sh: sanitizer reports:" >&2
  for f in $found; do
    echo "=== $f" >&2
    cat "$f" >&2
  done
  status=1
fi
echo "sanitize.sh: $mode: build $((built - start)) s, tests $((finished - built)) s," \
  "$(echo "$found" | grep -c . || true) report file(s), exit $status"
exit "$status"
