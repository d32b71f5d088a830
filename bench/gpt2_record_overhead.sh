#!/usr/bin/env bash
# Recording overhead on the bundled GPT-2 trainer: its step time with and
# without `damscope record` (per-op NVTX ranges on, CPU sampling at 100 Hz).
#   bench/gpt2_record_overhead.sh [BUILD_DIR] [PAIRS] [-- TRAINER FLAGS...]
# Runs PAIRS pairs of runs, interleaved (plain, recorded, plain, recorded...)
# so that drift in the machine's speed hits both sides alike. Each run's
# figure is the median step time of its steps after the first three (warm-up:
# page faults, OpenBLAS buffers); the overhead is the median over the pairs of
# recorded / plain - 1 (each pair ran back to back, so the machine's drift
# cancels), with the ratio of the medians beside it. Prints one line per pair
# and the figure. Target (issue 10): at most 3 %.
set -euo pipefail
build=${1:-build}
pairs=${2:-5}
shift $(( $# > 2 ? 2 : $# ))
[ "${1:-}" = "--" ] && shift
flags=("$@")
[ ${#flags[@]} -gt 0 ] || flags=(--config small --steps 25)

trainer="$build/reference_workloads/gpt2/gpt2-train"
damscope="$build/cli/damscope"
for f in "$trainer" "$damscope"; do
  [ -x "$f" ] || { echo "gpt2_record_overhead: $f is not built" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The median step_ms of a --log-json file, after the warm-up steps.
median_step() {
  python3 - "$1" <<'EOF'
import json, statistics, sys
ms = [json.loads(line)["step_ms"] for line in open(sys.argv[1]) if line.strip()]
print(f"{statistics.median(ms[3:] if len(ms) > 6 else ms):.3f}")
EOF
}

plain=() recorded=()
for i in $(seq 1 "$pairs"); do
  "$trainer" "${flags[@]}" --log-json "$work/plain.jsonl" >/dev/null
  p=$(median_step "$work/plain.jsonl")
  "$damscope" record --force -o "$work/run.db" -- \
    "$trainer" "${flags[@]}" --log-json "$work/recorded.jsonl" >/dev/null 2>"$work/record.err"
  r=$(median_step "$work/recorded.jsonl")
  plain+=("$p") recorded+=("$r")
  echo "pair $i: plain $p ms/step, recorded $r ms/step"
done
python3 - "${plain[*]}" "${recorded[*]}" "${flags[*]}" <<'EOF'
import statistics, sys
plain = [float(x) for x in sys.argv[1].split()]
recorded = [float(x) for x in sys.argv[2].split()]
p, r = statistics.median(plain), statistics.median(recorded)
paired = statistics.median(100 * (b - a) / a for a, b in zip(plain, recorded))
print(f"gpt2-train {sys.argv[3]}: median step {p:.2f} ms plain, {r:.2f} ms recorded; "
      f"recording overhead {paired:+.1f} % (median of {len(plain)} pairs; "
      f"ratio of the medians {100 * (r - p) / p:+.1f} %; target <= 3 %)")
EOF
