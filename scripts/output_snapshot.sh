#!/usr/bin/env bash
# Writes what damscope prints and exports for every trace in ../shared/traces
# into one folder, paths replaced by placeholders, so that two builds can be
# compared file by file: a refactoring that must not change behaviour shows
# an empty `diff -r`.
#   scripts/output_snapshot.sh DAMSCOPE OUT_DIR [TRACES_DIR]
# For each trace: `analyze --format json` (a first analysis that stores, the
# same again reading the stored results, and --no-store), `report` as HTML,
# Markdown and JSON, `export --chrome`; for a two-rank job and a pair of runs,
# `analyze`, `report` and `diff`. Each command runs in a fresh scratch folder
# (its run.db files go there), which the outputs name as <scratch>.
#   scripts/output_snapshot.sh build/cli/damscope /tmp/after
#   diff -r /tmp/before /tmp/after && echo identical
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
damscope="$(realpath "$1")"
out="$(mkdir -p "$2" && realpath "$2")"
traces="$(realpath "${3:-$root/../shared/traces}")"
[ -d "$traces" ] || { echo "output_snapshot: no traces in $traces" >&2; exit 2; }

scratch=""
fresh() {  # a new empty working folder
  [ -n "$scratch" ] && rm -rf "$scratch"
  scratch="$(mktemp -d /tmp/damscope-snapshot.XXXXXX)"
}
trap '[ -n "$scratch" ] && rm -rf "$scratch"' EXIT

# run NAME CMD...: stdout of CMD into OUT/NAME (paths made placeholders), and
# its exit code into OUT/NAME.rc; stderr (the progress line) is dropped.
run() {
  local name="$1"; shift
  local rc=0
  (cd "$scratch" && "$@") >"$out/$name.raw" 2>/dev/null || rc=$?
  echo "$rc" >"$out/$name.rc"
  sed -e "s#$scratch#<scratch>#g" -e "s#$traces#<traces>#g" "$out/$name.raw" >"$out/$name"
  rm -f "$out/$name.raw"
}
# keep NAME FILE: a file a command wrote into the scratch folder.
keep() {
  if [ -f "$scratch/$2" ]; then
    sed -e "s#$scratch#<scratch>#g" -e "s#$traces#<traces>#g" "$scratch/$2" >"$out/$1"
  else
    echo "(not written)" >"$out/$1"
  fi
}

mapfile -t files < <(find "$traces" -type f \( -name '*.json.gz' -o -name '*.sqlite' \) | sort)
for trace in "${files[@]}"; do
  name="$(basename "$trace")"; name="${name%%.*}"
  fresh
  run "$name.analyze.json" "$damscope" analyze --format json "$trace"
  run "$name.analyze-again.json" "$damscope" analyze --format json "$trace"
  run "$name.analyze.txt" "$damscope" analyze "$trace"
  run "$name.report.stdout" "$damscope" report -o report.html "$trace"
  keep "$name.report.html" report.html
  run "$name.report.md" "$damscope" report -o - --format md "$trace"
  run "$name.report.json" "$damscope" report -o - --format json "$trace"
  run "$name.export.stdout" "$damscope" export "$trace" --chrome chrome.json
  keep "$name.export.json" chrome.json
  fresh
  run "$name.analyze-nostore.json" "$damscope" analyze --no-store --format json "$trace"
  run "$name.report-nostore.md" "$damscope" report --no-store -o - --format md "$trace"
  fresh
  # Report and export before any analysis: they analyse and store it themselves.
  run "$name.report-first.stdout" "$damscope" report -o report.html "$trace"
  keep "$name.report-first.html" report.html
  fresh
  run "$name.export-first.stdout" "$damscope" export "$trace" --chrome chrome.json
  keep "$name.export-first.json" chrome.json
done

# Several ranks of one job, and two runs compared.
k="$traces/kineto"
if [ -f "$k/nccl_2rank_a100.json.gz" ] && [ -f "$k/v100_rank1.json.gz" ]; then
  job=("$k/nccl_2rank_a100.json.gz" "$k/v100_rank1.json.gz")
  fresh
  run job.report-first.md "$damscope" report -o - --format md "${job[@]}"
  run job.analyze.json "$damscope" analyze --format json "${job[@]}"
  run job.analyze-again.json "$damscope" analyze --format json "${job[@]}"
  run job.report.stdout "$damscope" report -o report.html "${job[@]}"
  keep job.report.html report.html
  fresh
  run job.analyze-nostore.txt "$damscope" analyze --no-store "${job[@]}"
fi
if [ -f "$k/diff_control_a100.json.gz" ] && [ -f "$k/diff_test_v100.json.gz" ]; then
  fresh
  run diff.txt "$damscope" diff "$k/diff_control_a100.json.gz" "$k/diff_test_v100.json.gz"
  run diff.json "$damscope" diff --format json "$k/diff_control_a100.json.gz" \
    "$k/diff_test_v100.json.gz"
fi
echo "output_snapshot: $(ls "$out" | wc -l) files in $out"
