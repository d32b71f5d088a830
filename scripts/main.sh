#!/usr/bin/env bash
# The main job, from a fresh Debian 12 machine: install what damscope needs,
# build it, record a real training run — the bundled GPT-2 trainer — with
# `damscope record`, diagnose it with `damscope analyze` (the D·A·M verdict
# and what to change first) and write the diagnosis as an HTML report.
#   scripts/main.sh [TRACE...]
# With traces (PyTorch profiler JSON, nsys SQLite exports, run.db files) it
# diagnoses those instead of recording. Results go to out/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh >/dev/null

damscope=build/cli/damscope
mkdir -p out

diagnose() {  # diagnose TRACE NAME: analyse, report, say where the files are
  "$damscope" analyze --force -o "out/$2.db" "$1"
  "$damscope" report --force -o "out/$2-report.html" "out/$2.db"
  echo
}

if [ $# -gt 0 ]; then
  for t in "$@"; do
    name=$(basename "$t"); name=${name%%.*}
    diagnose "$t" "$name"
  done
  exit 0
fi

# The trainer's CPU backend; the CUDA backend takes over where a GPU is
# present once it exists (the next issue). The `small` config on the text of
# the GPL, 30 steps: well under a minute here.
trainer=build/reference_workloads/gpt2/gpt2-train
data=/usr/share/common-licenses/GPL-3
[ -f "$data" ] || data=""
echo "main: recording the GPT-2 trainer (CPU backend, config small) with damscope record" >&2
"$damscope" record --force -o out/gpt2-small.db -- \
  "$trainer" --device cpu --config small --steps 30 ${data:+--data "$data"}
echo
"$damscope" analyze out/gpt2-small.db
"$damscope" report --force -o out/gpt2-small-report.html out/gpt2-small.db
echo
echo "main: the run is in out/gpt2-small.db, its diagnosis in out/gpt2-small-report.html"
if [ -x build/gui/damscope-gui ]; then
  echo "main: open it in the GUI: build/gui/damscope-gui out/gpt2-small.db"
fi
echo "main: diagnose your own trace: scripts/main.sh my_profile.pt.trace.json.gz"
