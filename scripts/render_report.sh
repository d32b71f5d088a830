#!/usr/bin/env bash
# Renders a damscope HTML report to PNG with headless Chromium, to look at it
# as a reader would (docs/report.md shows one such image).
#   scripts/render_report.sh REPORT.html OUT.png [WIDTH [HEIGHT]]
# WIDTH defaults to 1200 CSS pixels and HEIGHT to 3600: Chromium's screenshot
# is of the window, so HEIGHT must cover the page. Installs Debian's chromium
# when it is missing (root or sudo).
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: scripts/render_report.sh REPORT.html OUT.png [WIDTH [HEIGHT]]" >&2
  exit 2
fi
report="$(realpath "$1")"
out="$(realpath -m "$2")"
width="${3:-1200}"
height="${4:-3600}"
if [ ! -f "$report" ]; then
  echo "render_report: $1: no such file" >&2
  exit 2
fi
if ! command -v chromium >/dev/null; then
  bash "$(dirname "$0")/install-deps.sh" --chromium
fi
# --no-sandbox: Chromium refuses to run as root with its sandbox; the page is
# our own file and the report loads nothing from the network.
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size="${width},${height}" --screenshot="$out" "file://$report" 2>/dev/null
echo "$out"
