#!/usr/bin/env bash
# Installs what damscope needs to build and test, from Debian 12 packages.
# Run as root (or with sudo) on a fresh machine; safe to run again.
# CUDA is not a Debian package here: when $CUDA_HOME (or /usr/local/cuda) holds
# a toolkit, the CUDA parts are built too; without it they are skipped.
#   scripts/install-deps.sh [--sanitizers] [--chromium] [--xvfb] [--hta]
#     --sanitizers  clang 14 with its sanitizer and libFuzzer runtimes
#                   (libclang-rt-14-dev, only "recommended" by clang-14),
#                   llvm-symbolizer (llvm-14) and clang's OpenMP runtime
#                   (libomp-14-dev, for gpt2-train): sanitize.sh and fuzz.sh
#     --chromium    headless Chromium: render_report.sh
#     --xvfb        a virtual X server: damscope-gui in a real window without a
#                   display (gui_screenshots.sh --xvfb)
#     --hta         the Python packages HolisticTraceAnalysis runs on, to
#                   measure it beside damscope (bench/first_analysis_bench.sh)
#     --tidy        clang-tidy 14: scripts/tidy.sh (.clang-tidy's checks)
set -euo pipefail

packages=(
  build-essential cmake pkg-config git ca-certificates
  libsqlite3-dev sqlite3      # trace store
  libsimdjson-dev             # Kineto JSON parsing
  zlib1g-dev                  # .json.gz traces
  libcli11-dev                # command line
  libfmt-dev                  # formatting
  nlohmann-json3-dev          # JSON output (info --json, reports)
  libgtest-dev libgmock-dev   # tests
  libbenchmark-dev            # bench/
  libopenblas-dev             # GPT-2 trainer: SGEMM (CBLAS) for the CPU backend
  libopenmpi-dev openmpi-bin  # GPT-2 trainer: data parallel on the CPU (MPI), mpirun
  qt6-base-dev qt6-charts-dev # damscope-gui: Widgets, Charts
  libqt6sql6-sqlite           #   its SQLite driver
  libqt6opengl6-dev           #   needed by Charts' CMake files (not pulled in without recommends)
)
for group in "$@"; do
  case "$group" in
    --sanitizers) packages+=(clang-14 libclang-rt-14-dev llvm-14 libomp-14-dev) ;;  # libomp: gpt2-train's OpenMP under clang
    --chromium) packages+=(chromium) ;;
    --xvfb) packages+=(xvfb xauth) ;;
    --tidy) packages+=(clang-tidy-14) ;;
    # HolisticTraceAnalysis's dependencies (its source is the user's checkout):
    # bench/first_analysis_bench.sh with HTA_SOURCE; matplotlib-venn for HTA 0.1.
    --hta) packages+=(python3-pandas python3-plotly python3-psutil python3-networkx python3-yaml
                      python3-matplotlib python3-matplotlib-venn time) ;;
    *)
      echo "install-deps: unknown option $group (expected --sanitizers, --chromium, --xvfb, --hta or --tidy)" >&2
      exit 2
      ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
