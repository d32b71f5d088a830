#!/usr/bin/env bash
# Installs what damscope needs, builds it and runs the whole test suite.
# Tests that need ../shared/traces skip when it is absent; GPU tests skip
# without a device.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
cd build
ctest --output-on-failure -j "$(nproc)"
