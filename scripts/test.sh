#!/usr/bin/env bash
# Installs what damscope needs, builds it and runs the whole test suite,
# clang-tidy on the C++ files changed since the tree was last checked whole
# (scripts/tidy.sh, .clang-tidy), then a fuzz smoke: each fuzz target for FUZZ_SMOKE_SECONDS (default 15; 0 skips
# it), so that an input that crashes a reader fails CI (docs/fuzzing.md).
# Tests that need ../shared/traces skip when it is absent; GPU tests skip
# without a device.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
(cd build && ctest --output-on-failure -j "$(nproc)")
bash scripts/tidy.sh build
smoke="${FUZZ_SMOKE_SECONDS:-15}"
if [ "$smoke" -gt 0 ]; then FUZZ_JOBS="$(nproc)" bash scripts/fuzz.sh "$smoke"; fi
