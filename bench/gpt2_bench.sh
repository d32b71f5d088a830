#!/usr/bin/env bash
# Step time, tokens/s and MFU of gpt2-train on this machine, per config and
# per scenario: the figures in docs/gpt2-trainer.md. Each run prints the
# median step of steps 2..N ("done" line of gpt2-train); the header gives
# the measured peak FLOP/s and bandwidth. The load average is printed too:
# the machine must be otherwise idle for the figures to mean anything.
#   bench/gpt2_bench.sh [BUILD_DIR] [STEPS] [EXTRA gpt2-train FLAGS...]
#   (defaults: build, 10)
set -euo pipefail
build=${1:-build}
steps=${2:-10}
shift $(($# > 2 ? 2 : $#))
bin="$build/reference_workloads/gpt2/gpt2-train"
if [ ! -x "$bin" ]; then
  echo "gpt2_bench: $bin not found; build the gpt2-train target first" >&2
  exit 2
fi

runs=(
  "tiny|--config tiny"
  "small|--config small"
  "scenario balanced|--scenario balanced"
  "scenario data-bound|--scenario data-bound"
  "scenario compute-bound|--scenario compute-bound"
  "scenario memory-bound|--scenario memory-bound"
)

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
first=1
printf '%-24s %-34s %10s %12s %7s\n' "run" "shape" "step ms" "tokens/s" "MFU"
for run in "${runs[@]}"; do
  name=${run%%|*}
  # shellcheck disable=SC2206  # the flags are words on purpose
  args=(${run#*|})
  out=$("$bin" "${args[@]}" --steps "$steps" "$@")
  if [ $first = 1 ]; then
    echo "$out" | head -1 | sed 's/^/  /' >&2
    first=0
  fi
  shape=$(echo "$out" | sed -n 's/^model gpt2 \([^:]*\):.* | batch \([0-9]*\) x seq \([0-9]*\) .*/\1, \2 x \3/p')
  done_line=$(echo "$out" | grep '^done')
  ms=$(echo "$done_line" | sed -n 's/.*median step \([0-9.]*\) ms.*/\1/p')
  tps=$(echo "$done_line" | sed -n 's/.*| \([0-9,]*\) tok\/s.*/\1/p')
  mfu=$(echo "$done_line" | sed -n 's/.*MFU \([0-9.]*%\).*/\1/p')
  printf '%-24s %-34s %10s %12s %7s\n' "$name" "$shape" "$ms" "$tps" "$mfu"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
