#!/usr/bin/env bash
# clang-tidy 14 with the checks .clang-tidy keeps clean, any warning an error.
#   scripts/tidy.sh [BUILD_DIR]         the C++ files changed since the commit
#                                       .clang-tidy-checked names (the whole tree
#                                       was clean there), and the sources beside
#                                       changed headers: what scripts/test.sh runs
#   scripts/tidy.sh --all [BUILD_DIR]   every C++ source the build compiles (about
#                                       25 minutes of CPU: 5 s a file); when clean,
#                                       record HEAD in .clang-tidy-checked and commit it
# BUILD_DIR (default build/) must hold compile_commands.json (CMake exports it).
# CUDA sources (.cu) are left out: nvcc's flags are not clang's.
set -euo pipefail
cd "$(dirname "$0")/.."
all=0
if [ "${1:-}" = "--all" ]; then all=1; shift; fi
build="${1:-build}"
[ -f "$build/compile_commands.json" ] || { echo "tidy: no $build/compile_commands.json (build first)" >&2; exit 2; }
command -v clang-tidy-14 >/dev/null || bash scripts/install-deps.sh --tidy >/dev/null

# The sources the build compiles, relative to the project root.
mapfile -t compiled < <(python3 - "$build/compile_commands.json" "$PWD" <<'PY'
import json, os, sys
root = sys.argv[2]
for entry in json.load(open(sys.argv[1])):
    f = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    if f.startswith(root + "/") and f.endswith(".cc") and "/build" not in f[len(root):]:
        print(os.path.relpath(f, root))
PY
)
if [ "$all" -eq 1 ]; then
  files=("${compiled[@]}")
else
  base="$(cat .clang-tidy-checked)"
  mapfile -t changed < <(git diff --name-only "$base" HEAD -- '*.cc' '*.h'; git diff --name-only -- '*.cc' '*.h')
  files=()
  for f in "${compiled[@]}"; do
    for c in "${changed[@]}"; do
      if [ "$f" = "$c" ] || [ "${f%.cc}.h" = "$c" ]; then files+=("$f"); break; fi
    done
  done
fi
if [ ${#files[@]} -eq 0 ]; then
  echo "tidy: no C++ source changed since $(cat .clang-tidy-checked | cut -c1-12)"
  exit 0
fi
echo "tidy: ${#files[@]} files" >&2
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
printf '%s\n' "${files[@]}" |
  xargs -P "$(nproc)" -n 4 clang-tidy-14 -p "$build" --quiet --warnings-as-errors='*' \
    >"$log" 2>&1 || {
  grep -E "(warning|error):" "$log" | sort -u >&2
  echo "tidy: clang-tidy found the above (checks in .clang-tidy)" >&2
  exit 1
}
echo "tidy: ${#files[@]} files clean"
