#!/usr/bin/env bash
# Checks a trace recorded from tests/programs/cuda_workload (see
# scripts/gpu_selftest.sh): every kind of GPU activity arrived, exactly as
# often as the program did it, linked to its launch call, on the same clock as
# the NVTX ranges, and nothing was dropped.
#
#   scripts/check_gpu_trace.sh TRACE.db
# Expectations come from the environment (what cuda_workload printed):
#   EXPECT_STEPS EXPECT_KERNELS EXPECT_GRAPH_KERNELS EXPECT_COPIES
#   EXPECT_MEMSETS EXPECT_NCCL_KERNELS (at least this many NCCL kernels)
#   EXPECT_NCCL (1: NCCL kernels must be there)
# Prints one line per check; exits 0 when all pass, 1 otherwise. Needs the
# sqlite3 shell or, where it is missing (GPU machines often lack it), python3.
set -uo pipefail

trace=${1:?usage: check_gpu_trace.sh TRACE.db}
: "${EXPECT_STEPS:?}" "${EXPECT_KERNELS:?}" "${EXPECT_GRAPH_KERNELS:?}" "${EXPECT_COPIES:?}"
: "${EXPECT_MEMSETS:?}" "${EXPECT_NCCL_KERNELS:=1}" "${EXPECT_NCCL:=1}"
if command -v sqlite3 >/dev/null; then
  q() { sqlite3 -batch -noheader "$trace" "$1"; }
elif command -v python3 >/dev/null; then
  # The sqlite3 shell's -batch -noheader output: columns joined by '|', NULL empty.
  q() {
    python3 -c 'import sqlite3, sys
for row in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in row))' "$trace" "$1"
  }
else
  echo "check_gpu_trace: neither sqlite3 nor python3 is installed"
  exit 1
fi
[ -f "$trace" ] || { echo "check_gpu_trace: $trace: no such file"; exit 1; }

failed=0
total=0
# check NAME ACTUAL OP EXPECTED   (OP: = or >=)
check() {
  local name=$1 actual=$2 op=$3 expected=$4 ok=1
  total=$((total + 1))
  case $op in
    "=") [ "$actual" = "$expected" ] || ok=0 ;;
    ">=") [ -n "$actual" ] && [ "$actual" -ge "$expected" ] 2>/dev/null || ok=0 ;;
  esac
  if [ $ok = 1 ]; then
    printf 'ok    %-58s %s\n' "$name" "$actual"
  else
    printf 'FAIL  %-58s %s (expected %s %s)\n' "$name" "${actual:-<none>}" "$op" "$expected"
    failed=$((failed + 1))
  fi
}
kernels_named() {  # SQL LIKE pattern on the demangled kernel name
  q "SELECT COUNT(*) FROM kernels k JOIN strings s ON s.id = k.name WHERE s.value LIKE '$1'"
}
steps=$EXPECT_STEPS

# Rows launched by an API call inside an NVTX "step" range of the calling
# thread: the program's own work, not what CUDA or NCCL do while starting up.
in_step() {
  echo "EXISTS (SELECT 1 FROM api_calls a JOIN ranges r ON r.thread_id = a.thread_id JOIN strings rs ON rs.id = r.name WHERE a.correlation_id = $1.correlation_id AND rs.value = 'step' AND a.ts BETWEEN r.ts AND r.ts + r.dur)"
}

# The file and the recording.
check "finalized (sorted, indexed)" "$(q "SELECT value FROM meta WHERE key='collector.finalized'")" = 1
check "GPU activity recorded" "$(q "SELECT value FROM meta WHERE key='collector.gpu'")" = recorded
check "nothing dropped" "$(q "SELECT COALESCE((SELECT value FROM stats WHERE name='collector.dropped_records'), 0)")" = 0
check "GPUs with name and SMs" "$(q "SELECT COUNT(*) FROM devices WHERE kind='gpu' AND sm_count > 0 AND name IS NOT NULL")" ">=" 1

# Kernels, graph kernels, NCCL kernels.
check "kernels vector_add + scale" "$(( $(kernels_named 'vector_add(%') + $(kernels_named 'scale(%') ))" = "$EXPECT_KERNELS"
check "graph kernels (graph_id set)" "$(q "SELECT COUNT(*) FROM kernels k JOIN strings s ON s.id = k.name WHERE s.value LIKE 'graph_node(%' AND k.graph_id IS NOT NULL AND k.graph_node_id IS NOT NULL")" = "$EXPECT_GRAPH_KERNELS"
check "graph kernels share their cudaGraphLaunch's correlation" "$(q "SELECT COUNT(*) FROM kernels k JOIN strings s ON s.id = k.name WHERE s.value LIKE 'graph_node(%' AND EXISTS (SELECT 1 FROM api_calls a JOIN strings n ON n.id = a.name WHERE a.correlation_id = k.correlation_id AND n.value LIKE 'cudaGraphLaunch%')")" = "$EXPECT_GRAPH_KERNELS"
nccl=$(q "SELECT COUNT(*) FROM kernels k JOIN strings s ON s.id = k.name WHERE (s.value LIKE 'ncclKernel\_%' ESCAPE '\' OR s.value LIKE 'ncclDevKernel\_%' ESCAPE '\' OR s.value LIKE 'ncclSymkDevKernel\_%' ESCAPE '\') AND $(in_step k)")
if [ "$EXPECT_NCCL" = 1 ]; then
  check "NCCL kernels in steps (ncclKernel_/ncclDevKernel_/ncclSymkDevKernel_)" "$nccl" ">=" "$EXPECT_NCCL_KERNELS"
  check "NCCL kernels present at all" "$nccl" ">=" 1
fi
check "cudaLaunchKernel calls" "$(q "SELECT COUNT(*) FROM api_calls a JOIN strings s ON s.id = a.name WHERE s.value LIKE 'cudaLaunchKernel%'")" ">=" "$EXPECT_KERNELS"

# Links and clocks.
check "kernels without a launch call" "$(q "SELECT COUNT(*) FROM kernels k WHERE NOT EXISTS (SELECT 1 FROM api_calls a WHERE a.correlation_id = k.correlation_id)")" = 0
check "kernels starting before their launch call" "$(q "SELECT COUNT(*) FROM kernels k WHERE k.ts < (SELECT MIN(a.ts) FROM api_calls a WHERE a.correlation_id = k.correlation_id)")" = 0
check "GPU activity outside the recording window" "$(q "SELECT (SELECT COUNT(*) FROM kernels WHERE ts < (SELECT value FROM meta WHERE key='collector.window_start_ns') OR ts > (SELECT value FROM meta WHERE key='collector.window_end_ns')) + (SELECT COUNT(*) FROM memcpys WHERE ts < (SELECT value FROM meta WHERE key='collector.window_start_ns') OR ts > (SELECT value FROM meta WHERE key='collector.window_end_ns'))")" = 0
check "program kernels launched outside an NVTX step of their thread" "$(q "SELECT COUNT(*) FROM kernels k JOIN strings s ON s.id = k.name WHERE (s.value LIKE 'vector_add(%' OR s.value LIKE 'scale(%' OR s.value LIKE 'graph_node(%') AND NOT $(in_step k)")" = 0

# Copies, memsets, synchronization.
check "HtoD copies from pageable memory in steps" "$(q "SELECT COUNT(*) FROM memcpys m WHERE copy_kind='HtoD' AND src_kind='pageable' AND $(in_step m)")" = "$steps"
check "HtoD copies from pinned memory in steps" "$(q "SELECT COUNT(*) FROM memcpys m WHERE copy_kind='HtoD' AND src_kind='pinned' AND $(in_step m)")" = "$steps"
check "DtoH copies in steps" "$(q "SELECT COUNT(*) FROM memcpys m WHERE copy_kind='DtoH' AND $(in_step m)")" = "$steps"
check "host-device copies in steps" "$(q "SELECT COUNT(*) FROM memcpys m WHERE copy_kind IN ('HtoD','DtoH') AND bytes > 0 AND $(in_step m)")" = "$EXPECT_COPIES"
check "memsets in steps" "$(q "SELECT COUNT(*) FROM memsets m WHERE bytes > 0 AND $(in_step m)")" = "$EXPECT_MEMSETS"
check "stream synchronizations" "$(q "SELECT COUNT(*) FROM syncs WHERE kind='stream_synchronize'")" ">=" "$steps"
check "event synchronizations" "$(q "SELECT COUNT(*) FROM syncs WHERE kind='event_synchronize'")" ">=" "$steps"
check "synchronizations without their waiting thread" "$(q "SELECT COUNT(*) FROM syncs WHERE thread_id IS NULL")" = 0

# NVTX.
check "NVTX step ranges" "$(q "SELECT COUNT(*) FROM ranges r JOIN strings s ON s.id = r.name WHERE s.value = 'step' AND r.category = (SELECT id FROM strings WHERE value = 'nvtx')")" = "$steps"
check "NVTX forward ranges inside their step" "$(q "SELECT COUNT(*) FROM ranges r JOIN strings s ON s.id = r.name JOIN ranges p ON p.id = r.parent_id JOIN strings ps ON ps.id = p.name WHERE s.value = 'forward' AND ps.value = 'step'")" = "$steps"

if [ $failed -ne 0 ]; then
  echo "check_gpu_trace: FAILED $failed of $total checks ($trace)"
  exit 1
fi
echo "check_gpu_trace: all $total checks passed ($trace)"
