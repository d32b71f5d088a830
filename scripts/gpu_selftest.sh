#!/usr/bin/env bash
# The collector's GPU self-test, for a machine with an NVIDIA GPU: records
# tests/programs/cuda_workload with `damscope record` and checks with
# scripts/check_gpu_trace.sh that its kernels (plain, CUDA-graph and NCCL),
# copies, memsets, synchronizations, devices and NVTX ranges all arrived,
# linked to their launch calls and on one clock.
#
#   scripts/gpu_selftest.sh [BUILD_DIR]        (default: build)
# Exits 0 when every check passes, 1 when one fails, 77 when there is no GPU
# (CTest runs it as collector_gpu_selftest, label "gpu", 77 = skipped).
# NCCL is loaded at run time (libnccl.so.2 or $DAMSCOPE_NCCL_LIBRARY, e.g.
# from `pip install nvidia-nccl-cu13`); without it the NCCL checks fail,
# unless DAMSCOPE_SELFTEST_NO_NCCL=1 says it is not expected.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}

if [ ! -r /proc/driver/nvidia/version ] || ! ls /dev/nvidia[0-9]* >/dev/null 2>&1; then
  echo "gpu_selftest: SKIP: no NVIDIA GPU and driver on this machine"
  exit 77
fi
damscope=$build/cli/damscope
workload=$build/tests/cuda_workload
for f in "$damscope" "$workload"; do
  [ -x "$f" ] || { echo "gpu_selftest: $f is not built (the CUDA compiler is needed at configure time)"; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
steps=4
echo "gpu_selftest: damscope record -- $workload --steps $steps"
"$damscope" record -o "$tmp/run.db" -- "$workload" --steps $steps >"$tmp/out.txt"
cat "$tmp/out.txt"
summary=$(tail -n 1 "$tmp/out.txt")
field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$summary"; }

export EXPECT_STEPS=$(field steps)
export EXPECT_KERNELS=$(field kernels)
export EXPECT_GRAPH_KERNELS=$(field graph_kernels)
export EXPECT_COPIES=$(field copies)
export EXPECT_MEMSETS=$(field memsets)
export EXPECT_NCCL_KERNELS=$(field nccl_kernels_min)
export EXPECT_NCCL=1
if [ "$(field nccl)" != yes ]; then
  if [ "${DAMSCOPE_SELFTEST_NO_NCCL:-0}" = 1 ]; then
    echo "gpu_selftest: NCCL not loadable; NCCL checks skipped (DAMSCOPE_SELFTEST_NO_NCCL=1)"
    export EXPECT_NCCL=0
  else
    echo "gpu_selftest: FAIL: NCCL could not be loaded ($summary); install NCCL or set DAMSCOPE_NCCL_LIBRARY (DAMSCOPE_SELFTEST_NO_NCCL=1 skips the NCCL checks)"
    exit 1
  fi
fi
bash scripts/check_gpu_trace.sh "$tmp/run.db"
