// The Kineto (PyTorch profiler) JSON importer on small traces written by the
// tests: both trace formats, exact timestamps, metadata as JSON or as Python
// literals, NCCL and FLOP arguments, ROCm traces, and every kind of bad input.
#include <gtest/gtest.h>

#include <filesystem>

#include "analyzer/importers/io/input_file.h"
#include "analyzer/importers/kineto/kineto_importer.h"
#include "analyzer/importers/kineto/kineto_internal.h"
#include "analyzer/importers/trace_import.h"
#include "fuzz/fuzz_checks.h"
#include "tests/test_support.h"
#include "tests/trickle_text.h"

namespace damscope {
namespace {

using testing::TempDir;

Result<TraceTables> importText(std::string json) {
  return importKinetoJson(json, "test.json");
}

// A current-format trace (PyTorch 2.x): one step with an op launching a
// kernel, an NCCL kernel, copies, a sync, memory samples and metadata.
// baseTimeNanoseconds comes after traceEvents, as Kineto writes it.
constexpr const char* kCurrentTrace = R"json({
  "schemaVersion": 1,
  "deviceProperties": [
    {"id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85899345920, "computeMajor": 8,
     "computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
     "regsPerBlock": 65536, "warpSize": 32, "sharedMemPerBlock": 49152, "numSms": 108,
     "regsPerMultiprocessor": 65536, "sharedMemPerMultiprocessor": 167936}],
  "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 8},
  "traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#4", "pid": 100, "tid": 101,
     "ts": 1000.0, "dur": 500.5, "args": {"External id": 1, "Record function id": 9, "Ev Idx": 0}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 100, "tid": 101,
     "ts": 1010.25, "dur": 40, "args": {"External id": 2, "Input Dims": [[64, 64], [64, 64]], "flops": 524288}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": 101,
     "ts": 1020, "dur": 5, "args": {"External id": 2, "cbid": 211, "correlation": 77}},
    {"ph": "s", "id": 77, "pid": 100, "tid": 101, "ts": 1020, "cat": "ac2g", "name": "ac2g"},
    {"ph": "X", "cat": "kernel", "name": "ampere_sgemm_64x32_nn", "pid": 0, "tid": 7,
     "ts": 1030.5, "dur": 12.125, "args": {"External id": 2, "queued": 0, "device": 0, "context": 1,
     "stream": 7, "correlation": 77, "registers per thread": 96, "shared memory": 8192,
     "blocks per SM": 0.5, "warps per SM": 2, "grid": [54, 1, 1], "block": [128, 1, 1],
     "est. achieved occupancy %": 6}},
    {"ph": "f", "id": 77, "pid": 0, "tid": 7, "ts": 1030.5, "cat": "ac2g", "name": "ac2g", "bp": "e"},
    {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
     "pid": 0, "tid": 20, "ts": 1100, "dur": 200, "args": {"External id": 3, "device": 0, "stream": 20,
     "correlation": 78, "grid": [2, 1, 1], "block": [640, 1, 1], "Collective name": "allreduce",
     "In msg nelems": 2049000, "dtype": "Float", "Group size": 8}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7,
     "ts": 1005, "dur": 3, "args": {"device": 0, "stream": 7, "correlation": 70, "bytes": 4096,
     "memory bandwidth (GB/s)": 1.3}},
    {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7,
     "ts": 1008, "dur": 1, "args": {"device": 0, "stream": 7, "correlation": 71, "bytes": 128}},
    {"ph": "X", "cat": "cuda_sync", "name": "Stream Sync", "pid": 0, "tid": 7, "ts": 1300, "dur": 8,
     "args": {"cuda_sync_kind": "Stream Sync", "stream": 7, "correlation": 90, "device": 0}},
    {"ph": "X", "cat": "gpu_user_annotation", "name": "## forward ##", "pid": 0, "tid": 7,
     "ts": 1030, "dur": 20, "args": {"External id": 2}},
    {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 100, "tid": 101,
     "ts": 1011, "args": {"Device Type": 1, "Device Id": 0, "Bytes": 16384,
     "Total Allocated": 1048576, "Total Reserved": 2097152}},
    {"name": "process_name", "ph": "M", "ts": 1000, "pid": 100, "tid": 0, "args": {"name": "python3"}},
    {"name": "thread_name", "ph": "M", "ts": 1000, "pid": 100, "tid": 101, "args": {"name": "main thread"}},
    {"ph": "X", "cat": "Trace", "ts": 990, "dur": 900, "pid": "Spans", "tid": "PyTorch Profiler",
     "name": "PyTorch Profiler (0)", "args": {"Op count": 0}},
    {"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces",
     "tid": "Trace PyTorch Profiler", "ts": 990}
  ],
  "traceName": "/tmp/trace.json",
  "displayTimeUnit": "ms",
  "baseTimeNanoseconds": 1700000000000000000
})json";

TEST(KinetoImporter, CurrentFormatFillsEveryTable) {
  auto result = importText(kCurrentTrace);
  ASSERT_TRUE(result.ok()) << result.error().message();
  const TraceTables& t = result.value();
  constexpr int64_t kBase = 1700000000000000000;

  ASSERT_EQ(t.kernels.size(), 2u);
  EXPECT_EQ(t.kernels.ts[0], kBase + 1030500);  // µs -> ns, then the base
  EXPECT_EQ(t.kernels.dur[0], 12125);
  EXPECT_EQ(t.kernels.device[0], 0);
  EXPECT_EQ(t.kernels.stream[0], 7);
  EXPECT_EQ(t.kernels.correlation_id[0], 77);
  EXPECT_EQ(t.kernels.external_id[0], 2);
  EXPECT_EQ(t.kernels.grid_x[0], 54);
  EXPECT_EQ(t.kernels.block_x[0], 128);
  EXPECT_EQ(t.kernels.registers_per_thread[0], 96);
  EXPECT_EQ(t.kernels.shared_memory_bytes[0], 8192);
  EXPECT_DOUBLE_EQ(t.kernels.occupancy_pct[0], 6);
  EXPECT_EQ(t.kernels.args[0], "");  // every argument had a column or was derived
  EXPECT_EQ(
      t.kernels.args[1],
      R"json({"Collective name":"allreduce","In msg nelems":2049000,"dtype":"Float","Group size":8})json");

  ASSERT_EQ(t.api_calls.size(), 1u);
  EXPECT_EQ(t.api_calls.api[0], ApiKind::kRuntime);
  EXPECT_EQ(t.strings.get(t.api_calls.name[0]), "cudaLaunchKernel");
  EXPECT_EQ(t.api_calls.cbid[0], 211);
  EXPECT_EQ(t.api_calls.correlation_id[0], t.kernels.correlation_id[0]);

  ASSERT_EQ(t.memcpys.size(), 1u);
  EXPECT_EQ(t.memcpys.copy_kind[0], CopyKind::kHtoD);
  EXPECT_EQ(t.memcpys.src_kind[0], MemoryKind::kPageable);
  EXPECT_EQ(t.memcpys.dst_kind[0], MemoryKind::kDevice);
  EXPECT_EQ(t.memcpys.bytes[0], 4096);
  ASSERT_EQ(t.memsets.size(), 1u);
  EXPECT_EQ(t.memsets.memory_kind[0], MemoryKind::kDevice);
  ASSERT_EQ(t.syncs.size(), 1u);
  EXPECT_EQ(t.syncs.kind[0], SyncKind::kStreamSynchronize);
  EXPECT_EQ(t.syncs.stream[0], 7);

  ASSERT_EQ(t.ranges.size(), 3u);  // step, op, GPU annotation; sorted by time
  EXPECT_EQ(t.strings.get(t.ranges.name[0]), "ProfilerStep#4");
  EXPECT_EQ(t.strings.get(t.ranges.category[0]), "user_annotation");
  EXPECT_EQ(t.ranges.dur[0], 500500);
  EXPECT_EQ(t.strings.get(t.ranges.name[1]), "aten::mm");
  EXPECT_EQ(t.ranges.depth[1], 1);
  EXPECT_EQ(t.ranges.parent_id[1], 0);
  EXPECT_EQ(t.ranges.args[1], R"json({"Input Dims":[[64, 64], [64, 64]],"flops":524288})json");
  EXPECT_EQ(t.strings.get(t.ranges.category[2]), "gpu_user_annotation");
  EXPECT_EQ(t.ranges.device[2], 0);
  EXPECT_TRUE(isNull(t.ranges.thread_id[2]));

  ASSERT_EQ(t.kernel_metrics.size(), 1u);  // the op's flops argument
  EXPECT_EQ(t.kernel_metrics.range_id[0], 1);
  EXPECT_DOUBLE_EQ(t.kernel_metrics.flops[0], 524288);
  EXPECT_EQ(t.kernel_metrics.source[0], MetricSource::kEstimated);

  ASSERT_EQ(t.counters.size(), 2u);
  EXPECT_EQ(t.strings.get(t.counters.name[0]), "memory_allocated_bytes");
  EXPECT_DOUBLE_EQ(t.counters.value[0], 1048576);
  EXPECT_EQ(t.counters.device[0], 0);

  ASSERT_EQ(t.processes.size(), 1u);
  EXPECT_EQ(t.processes.pid[0], 100);
  EXPECT_EQ(t.strings.get(t.processes.name[0]), "python3");
  EXPECT_EQ(t.processes.rank[0], 3);
  EXPECT_EQ(t.processes.world_size[0], 8);
  EXPECT_EQ(t.strings.get(t.processes.comm_backend[0]), "nccl");
  ASSERT_EQ(t.threads.size(), 1u);
  EXPECT_EQ(t.threads.tid[0], 101);
  EXPECT_EQ(t.strings.get(t.threads.name[0]), "main thread");

  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.strings.get(t.devices.name[0]), "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(t.strings.get(t.devices.vendor[0]), "nvidia");
  EXPECT_EQ(t.devices.sm_count[0], 108);
  EXPECT_EQ(t.devices.max_threads_per_sm[0], 2048);
  EXPECT_EQ(t.devices.memory_bytes[0], 85899345920);

  EXPECT_EQ(t.getMeta("source_format"), "kineto");
  EXPECT_EQ(t.getMeta("profiler_span_start_ns"), std::to_string(kBase + 990000));
  EXPECT_EQ(t.getStat("kineto.flow_events"), 2);
  EXPECT_EQ(t.getStat("kineto.events"), 16);
}

// The 2021 format (PyTorch 1.8/1.9 profiler, TensorBoard plugin samples):
// capitalised categories, "external id", string thread ids, "stream 7".
TEST(KinetoImporter, Format2021WithStringThreadIds) {
  auto result = importText(R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "Operator", "name": "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
     "pid": 25738, "tid": "25738", "ts": 1623142623460111, "dur": 25000, "args": {"Device": 25738,
     "External id": 2, "Trace name": "PyTorch Profiler", "Trace iteration": 0}},
    {"ph": "X", "cat": "Runtime", "name": "cudaMemcpyAsync", "pid": 25738, "tid": "25738",
     "ts": 1623142623529088, "dur": 2022, "args": {"cbid": 41, "correlation": 34417, "external id": 537,
     "external ts": 1623142623529071}},
    {"ph": "X", "cat": "Memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": "stream 7",
     "ts": 1623142623529248, "dur": 1940, "args": {"device": 0, "context": 1, "stream": 7,
     "correlation": 34417, "external id": 537, "bytes": 19267584}},
    {"ph": "X", "cat": "Kernel", "name": "volta_scudnn_128x64_relu_medium_nn_v1", "pid": 0,
     "tid": "stream 7", "ts": 1623142623531639, "dur": 605, "args": {"queued": 0, "device": 0,
     "context": 1, "stream": 7, "correlation": 34442, "external id": 544, "registers per thread": 128,
     "shared memory": 16384, "grid": [3136, 1, 1], "block": [128, 1, 1]}},
    {"ph": "X", "cat": "Memset", "name": "Memset (Device)", "pid": 0, "tid": "stream 7",
     "ts": 1623142623579729, "dur": 1, "args": {"device": 0, "stream": 7, "correlation": 38304, "bytes": 128000}},
    {"ph": "i", "s": "t", "name": "[memory]", "pid": 25738, "tid": 25738, "ts": 1623142623460121,
     "args": {"Device Type": 0, "Device Id": -1, "Bytes": 4}},
    {"name": "thread_name", "ph": "M", "ts": 1623142623460016, "pid": 25738, "tid": "25738",
     "args": {"name": "thread 25738 (python)"}}
  ]})json");
  ASSERT_TRUE(result.ok()) << result.error().message();
  const TraceTables& t = result.value();
  ASSERT_EQ(t.kernels.size(), 1u);
  EXPECT_EQ(t.kernels.ts[0], 1623142623531639000);
  EXPECT_EQ(t.kernels.stream[0], 7);
  EXPECT_EQ(t.kernels.external_id[0], 544);
  ASSERT_EQ(t.memcpys.size(), 1u);
  EXPECT_EQ(t.memcpys.src_kind[0], MemoryKind::kPinned);
  EXPECT_EQ(t.memcpys.correlation_id[0], 34417);
  ASSERT_EQ(t.api_calls.size(), 1u);
  EXPECT_EQ(t.api_calls.external_id[0], 537);
  EXPECT_EQ(t.api_calls.thread_id[0], t.ranges.thread_id[0]);
  ASSERT_EQ(t.ranges.size(), 1u);
  EXPECT_EQ(t.strings.get(t.ranges.category[0]), "cpu_op");
  EXPECT_EQ(t.ranges.args[0], R"json({"Device":25738})json");
  ASSERT_EQ(t.threads.size(), 1u);
  EXPECT_EQ(t.threads.tid[0], 25738);
  EXPECT_EQ(t.strings.get(t.threads.name[0]), "thread 25738 (python)");
  EXPECT_EQ(t.counters.size(), 0u);  // no totals in 2021 memory events
  EXPECT_EQ(t.getStat("kineto.memory_events_without_totals"), 1);
}

TEST(KinetoImporter, NanosecondResolutionFloatsAreExact) {
  auto result = importText(R"json({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1712195495505583.2, "dur": 4.928,
     "args": {"device": 0, "stream": 7, "correlation": 1}}], "displayTimeUnit": "ns"})json");
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_EQ(result->kernels.ts[0], 1712195495505583200);
  EXPECT_EQ(result->kernels.dur[0], 4928);
}

// Released Kineto versions write deviceProperties and distributedInfo as
// Python literals inside JSON strings.
TEST(KinetoImporter, MetadataAsPythonLiterals) {
  auto result = importText(R"json({
    "deviceProperties": "[{'id': 1, 'name': 'Tesla V100-SXM2-32GB', 'totalGlobalMem': 34079637504, 'computeMajor': 7, 'computeMinor': 0, 'numSms': 80, 'warpSize': 32, 'isIntegrated': False}]",
    "distributedInfo": "{'backend': 'gloo', 'rank': 34, 'world_size': 300, 'pg_config': None}",
    "traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 2, "ts": 5, "dur": 1}]})json");
  ASSERT_TRUE(result.ok()) << result.error().message();
  const TraceTables& t = result.value();
  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.devices.device[0], 1);
  EXPECT_EQ(t.strings.get(t.devices.name[0]), "Tesla V100-SXM2-32GB");
  EXPECT_EQ(t.devices.sm_count[0], 80);
  EXPECT_EQ(t.processes.rank[0], 34);
  EXPECT_EQ(t.processes.world_size[0], 300);
  EXPECT_EQ(t.strings.get(t.processes.comm_backend[0]), "gloo");
}

// A device field beyond int64 has no integer value: it reads as absent.
TEST(KinetoImporter, DevicePropertiesOutOfIntegerRangeReadAsAbsent) {
  auto result = importText(R"json({
    "deviceProperties": [{"id": 0, "name": "GPU", "numSms": 1e300, "totalGlobalMem": -1e19}],
    "traceEvents": []})json");
  ASSERT_TRUE(result.ok()) << result.error().message();
  const TraceTables& t = result.value();
  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_TRUE(isNull(t.devices.sm_count[0]));
  EXPECT_TRUE(isNull(t.devices.memory_bytes[0]));
}

TEST(KinetoImporter, RocmTraceKeepsHipNamesAndAmdVendor) {
  auto result = importText(R"json({
    "deviceProperties": [{"id": 2, "name": "AMD Instinct MI250X", "warpSize": 64, "numSms": 104}],
    "traceEvents": [
      {"ph": "X", "cat": "cuda_runtime", "name": "hipMemcpyWithStream", "pid": 9, "tid": 9, "ts": 10,
       "dur": 60.204, "args": {"External id": 8, "stream": "0x0", "cid": 153, "correlation": 117,
       "kind": "1"}},
      {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Host -> Device)", "pid": 2, "tid": 0,
       "ts": 20, "dur": 22.441, "args": {"External id": 8, "device": 2, "stream": 0,
       "correlation": 117, "kind": "HtoD"}}]})json");
  ASSERT_TRUE(result.ok()) << result.error().message();
  const TraceTables& t = result.value();
  EXPECT_EQ(t.strings.get(t.devices.vendor[0]), "amd");
  ASSERT_EQ(t.memcpys.size(), 1u);
  EXPECT_EQ(t.memcpys.device[0], 2);
  EXPECT_EQ(t.memcpys.copy_kind[0], CopyKind::kHtoD);
  EXPECT_EQ(t.memcpys.src_kind[0], MemoryKind::kUnknown);  // "Host" says nothing about pinning
  ASSERT_EQ(t.api_calls.size(), 1u);
  EXPECT_EQ(t.api_calls.cbid[0], 153);
  EXPECT_EQ(t.strings.get(t.api_calls.name[0]), "hipMemcpyWithStream");
}

TEST(KinetoImporter, SassCountersBecomeMeasuredFlops) {
  auto result = importText(R"json({"traceEvents": [
    {"ph": "X", "cat": "cuda_profiler_range", "name": "gemm", "pid": 0, "tid": 0, "ts": 1, "dur": 2,
     "args": {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 100,
              "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum": 10,
              "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum": 1,
              "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum": 1000,
              "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum": 0}}]})json");
  ASSERT_TRUE(result.ok()) << result.error().message();
  const TraceTables& t = result.value();
  ASSERT_EQ(t.kernel_metrics.size(), 1u);
  // An FMA is two operations (Nsight Compute roofline): 2*100 + 10 + 1 + 2*1000.
  EXPECT_DOUBLE_EQ(t.kernel_metrics.flops[0], 2211);
  EXPECT_EQ(t.kernel_metrics.source[0], MetricSource::kMeasured);
  EXPECT_EQ(t.ranges.device[0], 0);
}

TEST(KinetoImporter, BareEventArrayIsAccepted) {
  auto result = importText(
      R"json([{"ph": "X", "cat": "cpu_op", "name": "op", "pid": 1, "tid": 1, "ts": 1, "dur": 1}])json");
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_EQ(result->ranges.size(), 1u);
}

// Strings without escapes are read in place, the others unescaped: a key or
// value spelled with escapes means the same as the plain one.
TEST(KinetoImporter, EscapedKeysAndValuesReadAsThePlainOnes) {
  auto result = importText(R"json({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": "stream 7", "ts": 1, "dur": 2,
     "args": {"correlation": 5, "device": 0, "stream": 7, "note": "plain"}},
    {"p\u0068": "X", "c\u0061t": "k\u0065rnel", "n\u0061me": "gemm\"q\"", "pid": 0,
     "t\u0069d": "str\u0065am 7", "ts": 3, "dur": 2,
     "args": {"correl\u0061tion": 6, "device": 0, "stream": 7, "n\u006fte": "\u00e9"}}
  ]})json");
  ASSERT_TRUE(result.ok()) << result.error().message();
  const TraceTables& t = result.value();
  ASSERT_EQ(t.kernels.size(), 2u);
  EXPECT_EQ(t.strings.get(t.kernels.name[0]), "gemm");
  EXPECT_EQ(t.strings.get(t.kernels.name[1]), "gemm\"q\"");
  EXPECT_EQ(t.kernels.stream, (std::vector<int64_t>{7, 7}));
  EXPECT_EQ(t.kernels.correlation_id, (std::vector<int64_t>{5, 6}));
  EXPECT_EQ(t.kernels.args[0], R"({"note":"plain"})");
  EXPECT_EQ(t.kernels.args[1], R"({"note":"\u00e9"})");
}

TEST(KinetoImporter, RangesSkippedForWantOfAThreadArePlacedAsLostSpans) {
  // a and b overlap and c starts where b ends: one span of three; d alone.
  auto result = importText(R"json({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "kept", "pid": 1, "tid": 1, "ts": 1, "dur": 100},
    {"ph": "X", "cat": "cpu_op", "name": "d", "pid": "Spans", "tid": "x", "ts": 60, "dur": 2},
    {"ph": "X", "cat": "cpu_op", "name": "a", "pid": "Spans", "tid": "x", "ts": 20, "dur": 10},
    {"ph": "X", "cat": "cpu_op", "name": "c", "pid": "Spans", "tid": "x", "ts": 35, "dur": 5},
    {"ph": "X", "cat": "cpu_op", "name": "b", "pid": "Spans", "tid": "x", "ts": 25, "dur": 10}
  ],
  "baseTimeNanoseconds": 1700000000000000000})json");
  ASSERT_TRUE(result.ok()) << result.error().message();
  const TraceTables& t = result.value();
  EXPECT_EQ(t.getStat("kineto.ranges_without_thread"), 4);
  ASSERT_EQ(t.lost_spans.size(), 2u);
  const int64_t base = 1'700'000'000'000'000'000;
  EXPECT_EQ(t.lost_spans.ts, (std::vector<int64_t>{base + 20'000, base + 60'000}));
  EXPECT_EQ(t.lost_spans.dur, (std::vector<int64_t>{20'000, 2'000}));
  EXPECT_EQ(t.lost_spans.events, (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(t.lost_spans.stat[0], "kineto.ranges_without_thread");
  EXPECT_EQ(t.ranges.ts[0], base + 1'000) << "on the same clock as the events";
}

TEST(KinetoImporter, OddEventsAreCountedNotFatal) {
  auto result = importText(R"json({"traceEvents": [
    42,
    {"ph": "X", "cat": "cpu_op", "name": "no ts", "pid": 1, "tid": 1, "dur": 1},
    {"ph": "X", "cat": "cpu_op", "name": "negative", "pid": 1, "tid": 1, "ts": 5, "dur": -3},
    {"ph": "X", "cat": "my_category", "name": "custom", "pid": 1, "tid": 1, "ts": 6, "dur": 0},
    {"ph": "B", "name": "begin", "pid": 1, "tid": 1, "ts": 7},
    {"ph": "X", "cat": "cpu_op", "name": "no thread", "pid": "Spans", "tid": "x", "ts": 8, "dur": 1}
  ]})json");
  ASSERT_TRUE(result.ok()) << result.error().message();
  const TraceTables& t = result.value();
  EXPECT_EQ(t.getStat("kineto.non_object_events"), 1);
  EXPECT_EQ(t.getStat("kineto.events_without_ts"), 1);
  EXPECT_EQ(t.getStat("kineto.bad_durations"), 1);
  EXPECT_EQ(t.getStat("kineto.unsupported_phase_events"), 1);
  EXPECT_EQ(t.getStat("kineto.ranges_without_thread"), 1);
  ASSERT_EQ(t.ranges.size(), 2u);
  EXPECT_EQ(t.ranges.dur[0], 0);
  EXPECT_EQ(t.strings.get(t.ranges.category[1]), "my_category");
}

struct BadJson {
  const char* name;
  const char* text;
  const char* expected;  // substring of the error
};

class KinetoBadJson : public ::testing::TestWithParam<BadJson> {};

TEST_P(KinetoBadJson, FailsWithAClearMessage) {
  auto result = importText(GetParam().text);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message().find(GetParam().expected), std::string::npos)
      << result.error().message();
  EXPECT_EQ(result.error().message().rfind("test.json: ", 0), 0u) << result.error().message();
  EXPECT_EQ(result.error().message().find('\n'), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    BadInput, KinetoBadJson,
    ::testing::Values(
        BadJson{"Truncated", R"json({"traceEvents": [{"ph": "X", "cat": "kernel", "na)json",
                "invalid Kineto JSON"},
        BadJson{"TruncatedAfterEvent", R"json({"traceEvents": [{"ph": "X"}, )json",
                "invalid Kineto JSON"},
        BadJson{"NoTraceEvents", R"json({"schemaVersion": 1})json", "no \"traceEvents\""},
        BadJson{"TraceEventsNotArray", R"json({"traceEvents": 7})json", "not an array"},
        BadJson{"Scalar", "12", "not a trace"},
        BadJson{"ArrayOfJunk", R"json([1, "two", null, [3], {"name": "x"}])json",
                "none of the 5 entries of the event array is a trace event"},
        BadJson{"TraceEventsOfJunk", R"json({"traceEvents": [{}, 7]})json",
                "none of the 2 entries"},
        BadJson{"TrailingGarbage", R"json({"traceEvents": []} xyz)json", "invalid Kineto JSON"},
        BadJson{"BrokenString", "{\"traceEvents\": [{\"name\": \"a\x01\"}]}",
                "invalid Kineto JSON"}),
    [](const auto& info) { return std::string(info.param.name); });

Result<TraceTables> importInWindows(std::string json, size_t window_bytes) {
  return importKinetoJson(json, "test.json", {}, window_bytes);
}

// As importInWindows, the text arriving a byte past each point the reader
// waits at (TrickleText).
Result<TraceTables> importTrickling(std::string json, size_t window_bytes) {
  testing::TrickleText text(json, kJsonPadding);
  return importKinetoText(text, "test.json", {}, window_bytes);
}

// Windows as small as a few bytes cut every event and every key of the head
// somewhere: the tables are those of a whole read.
TEST(KinetoWindows, AnyWindowSizeGivesTheTablesOfAWholeRead) {
  auto whole = importInWindows(kCurrentTrace, 0);
  ASSERT_TRUE(whole.ok()) << whole.error().message();
  const std::string expected = fuzz::tablesText(whole.value());
  for (size_t window : {1, 7, 64, 300, 1000, 4096}) {
    SCOPED_TRACE(window);
    auto windowed = importInWindows(kCurrentTrace, window);
    ASSERT_TRUE(windowed.ok()) << windowed.error().message();
    EXPECT_EQ(fuzz::tablesText(windowed.value()), expected);
    auto trickled = importTrickling(kCurrentTrace, window);
    ASSERT_TRUE(trickled.ok()) << trickled.error().message();
    EXPECT_EQ(fuzz::tablesText(trickled.value()), expected);
  }
}

// A text that arrives piece by piece is read in windows as it comes, not
// waited for whole: the reader asks for it many times before its end, and
// releases what it has read (which TrickleText overwrites) up to the keys
// after the event array.
TEST(KinetoWindows, ArrivingTextIsReadAsItComesAndReleased) {
  std::string json = kCurrentTrace;
  testing::TrickleText text(json, kJsonPadding);
  auto tables = importKinetoText(text, "test.json", {}, 64);
  ASSERT_TRUE(tables.ok()) << tables.error().message();
  EXPECT_GT(text.calls(), json.size() / 64);
  EXPECT_GT(text.released(), std::string_view(kCurrentTrace).rfind(']'));
}

// Bad input over several lines, in small windows: the error a whole read gives.
TEST(KinetoWindows, BadInputFailsAsInAWholeRead) {
  const std::string bad[] = {
      "{\"traceEvents\": [\n{\"ph\": \"X\", \"name\": \"a\"},\n{\"ph\": \"X\", \"na",
      "{\"traceEvents\": [\n{\"ph\": \"X\", \"name\": \"a\"},\n{\"ph\": \"X\"},\n]}",
      "{\"traceEvents\": [\n{\"ph\": \"X\", \"name\": \"a\"}\n{\"ph\": \"X\"}\n]}",
      "{\"traceEvents\": [\n{\"ph\": \"X\", \"name\": \"a\"},\n7,\n{\"ph\": \"X\"}\n]}",
      "{\"traceEvents\": [\n{\"ph\": \"X\", \"name\": \"a\"},\n{\"ph\": \"X\"}\n]}\nxyz",
      "{\"traceEvents\": [\n{\"ph\": \"X\", \"name\": \"a\"},\n{\"ph\": \"X\"}\n],\n\"x\": }",
      "{\"traceEvents\": [\n{\"ph\": \"X\", \"name\": \"a\"},\n{\"ph\": \"X\", \"grid\": [1\n",
      "[\n{\"ph\": \"X\", \"name\": \"a\"},\n{\"ph\": \"X\", \"name\": \"b\"}\n]\n]",
      "{\"traceEvents\": [\n{\"ph\": \"X\", \"name\": \"a\x01\"},\n{\"ph\": \"X\"}\n]}",
  };
  for (const std::string& text : bad) {
    SCOPED_TRACE(text);
    auto whole = importInWindows(text, 0);
    for (size_t window : {1, 8, 30}) {
      for (bool trickle : {false, true}) {
        auto windowed = trickle ? importTrickling(text, window) : importInWindows(text, window);
        ASSERT_EQ(windowed.ok(), whole.ok()) << window << (trickle ? " trickling" : "");
        if (whole.ok()) {
          EXPECT_EQ(fuzz::tablesText(windowed.value()), fuzz::tablesText(whole.value()));
        } else {
          EXPECT_EQ(windowed.error().message(), whole.error().message());
        }
      }
    }
  }
}

// The real traces, read in the default windows, in small ones and whole.
TEST(KinetoWindows, SharedTracesReadInWindowsAsWhole) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  for (const auto& entry :
       std::filesystem::directory_iterator(testing::sharedTracesDir() + "/kineto")) {
    const std::string path = entry.path().string();
    SCOPED_TRACE(path);
    auto json = gunzipFile(path, kJsonPadding);
    ASSERT_TRUE(json.ok()) << json.error().message();
    auto whole = importInWindows(json.value(), 0);
    ASSERT_TRUE(whole.ok()) << whole.error().message();
    const std::string expected = fuzz::tablesText(whole.value());
    for (size_t window : {kKinetoWindowBytes, size_t{4096}}) {
      auto windowed = importInWindows(json.value(), window);
      ASSERT_TRUE(windowed.ok()) << windowed.error().message();
      EXPECT_EQ(fuzz::tablesText(windowed.value()), expected) << window;
      // Read in windows indeed: no part of a real trace needs a whole read.
      kineto::ImportState state(path);
      kineto::EventRouter router(state);
      kineto::ReadMode mode{window};
      WholeText text(json.value(), kJsonPadding);
      ASSERT_TRUE(kineto::readDocument(text, state, router, {}, mode).ok());
      EXPECT_FALSE(mode.retry && mode.window_bytes == 0) << window;
    }
    auto trickled = importTrickling(json.value(), kKinetoWindowBytes);
    ASSERT_TRUE(trickled.ok()) << trickled.error().message();
    EXPECT_EQ(fuzz::tablesText(trickled.value()), expected);
  }
}

// Through the front door: format detection and gzip, as `damscope import` sees files.
TEST(TraceImport, GzipAndPlainJsonGiveTheSameTables) {
  TempDir dir;
  testing::writeFile(dir.file("trace.json"), kCurrentTrace);
  testing::writeGzip(dir.file("trace.json.gz"), kCurrentTrace);
  testing::writeGzip(dir.file("no-extension"), kCurrentTrace);
  auto plain = importTrace(dir.file("trace.json"));
  auto gz = importTrace(dir.file("trace.json.gz"));
  auto sniffed = importTrace(dir.file("no-extension"));
  ASSERT_TRUE(plain.ok() && gz.ok() && sniffed.ok());
  EXPECT_EQ(plain->kernels.ts, gz->kernels.ts);
  EXPECT_EQ(plain->ranges.name.size(), sniffed->ranges.name.size());
}

TEST(TraceImport, BadFilesFailWithOneLineNamingTheFile) {
  TempDir dir;
  testing::writeGzip(dir.file("truncated.json.gz"), kCurrentTrace, 200);
  std::string corrupt = testing::readFile(dir.file("truncated.json.gz"));
  testing::writeGzip(dir.file("whole.json.gz"), kCurrentTrace);
  corrupt = testing::readFile(dir.file("whole.json.gz"));
  corrupt[corrupt.size() / 2] ^= 0x55;
  corrupt[corrupt.size() / 2 + 1] ^= 0x55;
  testing::writeFile(dir.file("corrupt.json.gz"), corrupt);
  testing::writeGzip(dir.file("notjson.gz"), "hello, world\n");
  testing::writeFile(dir.file("empty.json"), "");
  testing::writeFile(dir.file("text.txt"), "just some text\n");
  testing::writeFile(dir.file("fake.sqlite"),
                     std::string("SQLite format 3\0garbage garbage garbage", 39));

  const std::pair<std::string, std::string> cases[] = {
      {dir.file("truncated.json.gz"), "truncated gzip stream"},
      {dir.file("corrupt.json.gz"), "gzip"},
      {dir.file("notjson.gz"), "gzip content is not JSON"},
      {dir.file("empty.json"), "empty file"},
      {dir.file("text.txt"), "unrecognised format"},
      {dir.file("missing.json"), "No such file"},
      {dir.path(), "is a directory"},
      {dir.file("fake.sqlite"), "SQLite"},
  };
  for (const auto& [path, expected] : cases) {
    auto result = importTrace(path);
    ASSERT_FALSE(result.ok()) << path;
    const std::string& message = result.error().message();
    EXPECT_EQ(message.rfind(path, 0), 0u) << message;
    EXPECT_NE(message.find(expected), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace damscope
