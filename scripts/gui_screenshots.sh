#!/usr/bin/env bash
# The screenshots in docs/images/: damscope-gui opens real traces and saves a
# view once the analysis has finished (--screenshot). Offscreen by default;
# with --xvfb, in a real X window under Xvfb (installs xvfb when missing), to
# see what a person sees with a window manager's fonts and scaling.
#   scripts/gui_screenshots.sh [--xvfb] [OUT_DIR]      (default docs/images)
# Needs ../shared/traces and a built build/gui/damscope-gui; the roofline
# shot records the GPT-2 trainer for 8 steps (the CPU run has an op-level
# roofline from the trainer's FLOP and byte counts), the two-rank shots a
# CPU data-parallel job of two ranks under mpirun (the straggler scenario).
# The window at the two sizes users judge it at (gui-SUBJECT-1600x1000.png,
# gui-SUBJECT-1280x800.png): resnet50_workers0, the saxpy nsys export, the
# two-rank job stacked, and the trainer's recording. gui-lost-records.png: a
# recording whose NVTX ring overflowed, its loss crosshatched.
set -euo pipefail
cd "$(dirname "$0")/.."

xvfb=0
if [ "${1:-}" = "--xvfb" ]; then
  xvfb=1
  shift
fi
out=${1:-docs/images}
traces=../shared/traces/kineto
gui=build/gui/damscope-gui
[ -x "$gui" ] || { echo "gui_screenshots: build first (bash scripts/build.sh)" >&2; exit 2; }
[ -d "$traces" ] || { echo "gui_screenshots: $traces is absent" >&2; exit 2; }
mkdir -p "$out"

run_gui() {
  if [ "$xvfb" = 1 ]; then
    command -v xvfb-run >/dev/null || bash scripts/install-deps.sh --xvfb
    xvfb-run -a -s "-screen 0 1920x1200x24" "$gui" "$@"
  else
    QT_QPA_PLATFORM=offscreen "$gui" "$@"
  fi
}

resnet=$traces/resnet50_workers0.pt.trace.json.gz
run_gui "$resnet" --screenshot "$out/gui-timeline.png" --view timeline
run_gui "$resnet" --screenshot "$out/gui-diagnosis.png" --view diagnosis
run_gui "$resnet" --screenshot "$out/gui-charts.png" --view charts
# One step (the third analysed, 0.363-0.543 s from the trace's start)
# selected as a window: the diagnosis re-scoped to it, the chip in the tool bar.
run_gui "$resnet" --screenshot "$out/gui-window.png" --view timeline --window 0.36..0.55
run_gui "$traces/nccl_2rank_a100.json.gz" --screenshot "$out/gui-statistics.png" --view statistics
run_gui "$traces/diff_control_a100.json.gz" --screenshot "$out/gui-modules.png" --view modules

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build/cli/damscope record -o "$tmp/gpt2.db" -- \
  build/reference_workloads/gpt2/gpt2-train --config small --steps 8 >/dev/null
run_gui "$tmp/gpt2.db" --screenshot "$out/gui-roofline.png" --view roofline

mpi_root=()
[ "$(id -u)" = 0 ] && mpi_root=(--allow-run-as-root)
mpirun -np 2 "${mpi_root[@]}" build/cli/damscope record -o "$tmp/job.db" -- \
  build/reference_workloads/gpt2/gpt2-train --scenario straggler --steps 6 >/dev/null

# Lost records on the timeline: the NVTX test workload's burst of 200,000
# ranges into a 16 KiB ring, which the writer cannot drain in time.
DAMSCOPE_NVTX_RING_KB=16 build/cli/damscope record -o "$tmp/lost.db" -- \
  build/tests/nvtx_workload --steps 4 --step-ms 300 --burst 200000 >/dev/null 2>&1
run_gui "$tmp/lost.db" --screenshot "$out/gui-lost-records.png" --view timeline --size 1280x800

for size in 1600x1000 1280x800; do
  run_gui "$resnet" --screenshot "$out/gui-resnet50-$size.png" --view timeline --size "$size"
  run_gui ../shared/traces/nsys/saxpy_mpi_a100_nsys2022.sqlite \
    --screenshot "$out/gui-saxpy-$size.png" --view timeline --size "$size"
  run_gui "$tmp/job.rank0.db" "$tmp/job.rank1.db" \
    --screenshot "$out/gui-two-ranks-$size.png" --view timeline --size "$size"
  run_gui "$tmp/gpt2.db" --screenshot "$out/gui-trainer-$size.png" --view timeline --size "$size"
done
ls -l "$out"/gui-*.png
