#!/usr/bin/env bash
# The main job, from a fresh Debian 12 machine: install what damscope needs,
# build it, then diagnose traces: import, analyse, print the D·A·M verdict and
# what to change first, keep the results in out/*.db and write each
# diagnosis as an HTML report, out/*-report.html.
#   scripts/main.sh [TRACE...]
# Without arguments it diagnoses the real GPU traces in ../shared/traces when
# they are present (they are not part of the repository).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh >/dev/null

traces=("$@")
if [ ${#traces[@]} -eq 0 ]; then
  for t in ../shared/traces/kineto/resnet50_workers0.pt.trace.json.gz \
           ../shared/traces/kineto/resnet50_workers4.pt.trace.json.gz \
           ../shared/traces/kineto/v100_rank1.json.gz; do
    [ -f "$t" ] && traces+=("$t")
  done
fi
if [ ${#traces[@]} -eq 0 ]; then
  echo "main: damscope is built (build/cli/damscope). Give it a trace to diagnose:" >&2
  echo "  scripts/main.sh my_profile.pt.trace.json.gz   # PyTorch profiler JSON or nsys SQLite export" >&2
  echo "  build/cli/damscope record -o run.db -- python train.py   # or record a run" >&2
  exit 0
fi

mkdir -p out
for t in "${traces[@]}"; do
  name=$(basename "$t"); name=${name%%.*}
  build/cli/damscope analyze --force -o "out/$name.db" "$t"
  build/cli/damscope report --force -o "out/$name-report.html" "out/$name.db"
  echo
done
