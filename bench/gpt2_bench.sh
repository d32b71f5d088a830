#!/usr/bin/env bash
# Step time, tokens/s and MFU of gpt2-train on this machine, per config and
# per scenario: the figures in docs/gpt2-trainer.md. Each run's figure is the
# median step of its steps 2..N (gpt2-train's "done" line); with REPEATS > 1
# every run is repeated and the table shows the best repetition (the one
# least disturbed by other work on the machine) and the range of all. The
# load average is printed too: on a shared machine the figures move with it.
#   bench/gpt2_bench.sh [BUILD_DIR] [STEPS] [REPEATS] [EXTRA gpt2-train FLAGS...]
#   (defaults: build, 10, 1)
set -euo pipefail
build=${1:-build}
steps=${2:-10}
repeats=${3:-1}
shift $(($# > 3 ? 3 : $#))
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
for run in "${runs[@]}"; do
  name=${run%%|*}
  # shellcheck disable=SC2206  # the flags are words on purpose
  args=(${run#*|})
  best="" all=()
  for ((r = 0; r < repeats; r++)); do
    out=$("$bin" "${args[@]}" --steps "$steps" "$@")
    if [ $first = 1 ]; then
      echo "$out" | head -1  # the machine's measured peak and bandwidth
      printf '%-24s %-18s %10s %12s %7s  %s\n' "run" "shape" "step ms" "tokens/s" "MFU" \
        "step ms of each repetition"
      first=0
    fi
    shape=$(echo "$out" | sed -n 's/^model gpt2 \([^:]*\):.* | batch \([0-9]*\) x seq \([0-9]*\) .*/\1, \2 x \3/p')
    done_line=$(echo "$out" | grep '^done')
    ms=$(echo "$done_line" | sed -n 's/.*median step \([0-9.]*\) ms.*/\1/p')
    all+=("$ms")
    if [ -z "$best" ] || awk -v a="$ms" -v b="$best" 'BEGIN { exit !(a < b) }'; then
      best=$ms
      tps=$(echo "$done_line" | sed -n 's/.*| \([0-9,]*\) tok\/s.*/\1/p')
      mfu=$(echo "$done_line" | sed -n 's/.*MFU \([0-9.]*%\).*/\1/p')
    fi
  done
  printf '%-24s %-18s %10s %12s %7s  %s\n' "$name" "$shape" "$best" "$tps" "$mfu" "${all[*]}"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
