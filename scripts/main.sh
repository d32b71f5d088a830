#!/usr/bin/env bash
# The main job, from a fresh Debian 12 machine: install what damscope needs,
# build it, then import traces and show what they hold.
#   scripts/main.sh [TRACE...]
# Without arguments it uses the real GPU traces in ../shared/traces when they
# are present (they are not part of the repository).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh >/dev/null

traces=("$@")
if [ ${#traces[@]} -eq 0 ]; then
  for t in ../shared/traces/kineto/v100_rank1.json.gz ../shared/traces/nsys/saxpy_mpi_a100_nsys2022.sqlite; do
    [ -f "$t" ] && traces+=("$t")
  done
fi
if [ ${#traces[@]} -eq 0 ]; then
  echo "main: damscope is built (build/cli/damscope). Give it a trace:" >&2
  echo "  scripts/main.sh my_profile.pt.trace.json.gz   # PyTorch profiler or nsys SQLite export" >&2
  exit 0
fi

mkdir -p out
for t in "${traces[@]}"; do
  name=$(basename "$t"); name=${name%%.*}
  build/cli/damscope import -f "$t" -o "out/$name.db"
  build/cli/damscope info "out/$name.db"
  echo
done
