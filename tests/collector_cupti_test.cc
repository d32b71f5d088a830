// CUPTI records -> trace rows, without a GPU: real CUPTI 13 record structs
// (CUpti_ActivityKernel10, Memcpy6, MemcpyPtoP4, Memset4, API,
// Synchronization2, ExternalCorrelation, Overhead3, Device5, Context3) are
// filled in memory, packed back to back as CUPTI packs a buffer, decoded, and
// checked against what lands in the trace file. Covers NCCL kernel names,
// graph launches (one call, many kernels), records whose correlation partner
// arrives later or in another buffer, and unusual values. Where libcupti is
// installed, its own cuptiActivityGetNextRecord must walk the same buffers
// the same way as the decoder's PackedRecordWalker.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <map>
#include <vector>

#include "collector/capture_writer.h"
#include "collector/cupti_activity_decoder.h"
#include "collector/cupti_session.h"
#include "collector/gpu_activity_rows.h"
#include "collector/trace_finalizer.h"
#include "tests/fabricated_cupti.h"
#include "tests/test_support.h"
#include "trace/trace_reader.h"

namespace damscope::collector {
namespace {

using damscope::testing::TempDir;

using damscope::testing::PackedBuffer;

constexpr uint64_t kT0 = 1'700'000'000'000'000'000ull;

CUpti_ActivityKernel10& kernel(PackedBuffer& b, const char* name, uint32_t correlation,
                               uint64_t start, uint64_t end) {
  return damscope::testing::addKernel(b, name, correlation, start, end);
}

CUpti_ActivityAPI& api(PackedBuffer& b, CUpti_ActivityKind kind, uint32_t cbid,
                       uint32_t correlation, uint64_t start, uint64_t end, uint32_t tid) {
  return damscope::testing::addApi(b, kind, cbid, correlation, start, end, tid);
}

// Decodes buffers into a capture file through the production sink, then
// finalizes (sorts) and reads it back.
class CuptiToStore : public ::testing::Test {
 protected:
  void SetUp() override {
    CaptureFileOptions options;
    options.path = dir_.file("gpu.db");
    options.process.pid = 4242;
    auto capture = CaptureWriter::create(options);
    ASSERT_TRUE(capture.ok()) << capture.error().message();
    capture_ = std::move(capture).value();
    capture_->setMeta("collector.finalized", "0");
    rows_ = std::make_unique<GpuActivityRows>(*capture_, 0);
  }

  void decode(PackedBuffer& buffer) {
    size_t unreadable = 0;
    decodePackedBuffer(buffer.data(), buffer.size(), *rows_, &unreadable);
    unreadable_ += unreadable;
  }
  void commit() {
    rows_->resolvePending();
    ASSERT_TRUE(capture_->commit().ok());
  }
  TraceTables finish() {
    rows_->resolvePending(true);
    EXPECT_TRUE(capture_->finish().ok());
    EXPECT_TRUE(finalizeTraceFile(dir_.file("gpu.db")).ok());
    auto trace = readTrace(dir_.file("gpu.db"));
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().message());
    return trace.ok() ? std::move(trace).value() : TraceTables();
  }
  static std::string name(const TraceTables& t, StringId id) {
    return std::string(t.strings.get(id));
  }

  TempDir dir_;
  std::unique_ptr<CaptureWriter> capture_;
  std::unique_ptr<GpuActivityRows> rows_;
  size_t unreadable_ = 0;
};

TEST_F(CuptiToStore, EveryKindLandsInItsTableWithItsFields) {
  PackedBuffer b;
  auto& dev = b.add<CUpti_ActivityDevice5>(CUPTI_ACTIVITY_KIND_DEVICE);
  dev.id = 0;
  dev.name = "NVIDIA H100 80GB HBM3";
  dev.globalMemorySize = 85'899'345'920ull;
  dev.globalMemoryBandwidth = 3'352'320'000ull;  // KB/s
  dev.coreClockRate = 1'980'000;                 // kHz
  dev.numMultiprocessors = 132;
  dev.computeCapabilityMajor = 9, dev.computeCapabilityMinor = 0;
  dev.numThreadsPerWarp = 32;
  dev.maxWarpsPerMultiprocessor = 64;
  dev.maxBlocksPerMultiprocessor = 32;
  dev.maxThreadsPerBlock = 1024;
  dev.maxRegistersPerBlock = 65536, dev.maxRegistersPerMultiprocessor = 65536;
  dev.maxSharedMemoryPerBlock = 49152, dev.maxSharedMemoryPerMultiprocessor = 233472;
  dev.l2CacheSize = 52'428'800;
  for (int i = 0; i < 16; ++i) dev.uuid.bytes[i] = static_cast<char>(0x10 + i);
  auto& ctx = b.add<CUpti_ActivityContext3>(CUPTI_ACTIVITY_KIND_CONTEXT);
  ctx.contextId = 1, ctx.deviceId = 0;

  api(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 11,
      kT0 + 100, kT0 + 900, 5001);
  kernel(b, "_Z10matmul_f32PKfS0_Pfi", 11, kT0 + 1000, kT0 + 5000);
  api(b, CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2, 12, kT0 + 1100,
      kT0 + 1300, 5001);
  auto& m = b.add<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
  m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
  m.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
  m.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  m.bytes = 1 << 20;
  m.start = kT0 + 6000, m.end = kT0 + 9000;
  m.deviceId = 0, m.contextId = 1, m.streamId = 7, m.correlationId = 12;
  auto& p2p = b.add<CUpti_ActivityMemcpyPtoP4>(CUPTI_ACTIVITY_KIND_MEMCPY2);
  p2p.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
  p2p.srcKind = p2p.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  p2p.bytes = 4096;
  p2p.start = kT0 + 9100, p2p.end = kT0 + 9200;
  p2p.deviceId = 0, p2p.streamId = 9, p2p.srcDeviceId = 0, p2p.dstDeviceId = 1;
  p2p.correlationId = 13;
  auto& ms = b.add<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
  ms.value = 0xAB;
  ms.bytes = 256;
  ms.start = kT0 + 9300, ms.end = kT0 + 9400;
  ms.deviceId = 0, ms.contextId = 1, ms.streamId = 7, ms.correlationId = 14;
  ms.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  api(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, 15,
      kT0 + 9500, kT0 + 12000, 5001);
  auto& sync = b.add<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
  sync.start = kT0 + 9600, sync.end = kT0 + 11900;
  sync.correlationId = 15, sync.contextId = 1, sync.streamId = 7;
  sync.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  auto& ovh = b.add<CUpti_ActivityOverhead3>(CUPTI_ACTIVITY_KIND_OVERHEAD);
  ovh.overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH;
  ovh.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
  ovh.objectId.pt.processId = 4242, ovh.objectId.pt.threadId = 5001;
  ovh.start = kT0 + 12100, ovh.end = kT0 + 12600;
  decode(b);
  const TraceTables t = finish();
  EXPECT_EQ(unreadable_, 0u);

  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(name(t, t.devices.name[0]), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(t.devices.kind[0], DeviceKind::kGpu);
  EXPECT_EQ(t.devices.sm_count[0], 132);
  EXPECT_EQ(t.devices.memory_bytes[0], 85'899'345'920);
  EXPECT_DOUBLE_EQ(t.devices.memory_bandwidth_bytes_per_s[0], 3.35232e12);
  EXPECT_EQ(t.devices.sm_clock_hz[0], 1'980'000'000);
  EXPECT_EQ(t.devices.max_threads_per_sm[0], 2048);
  EXPECT_EQ(t.devices.l2_cache_bytes[0], 52'428'800);
  EXPECT_EQ(name(t, t.devices.uuid[0]), "GPU-10111213-1415-1617-1819-1a1b1c1d1e1f");

  ASSERT_EQ(t.kernels.size(), 1u);
  EXPECT_EQ(t.kernels.ts[0], static_cast<int64_t>(kT0 + 1000));
  EXPECT_EQ(t.kernels.dur[0], 4000);
  EXPECT_EQ(name(t, t.kernels.name[0]), "matmul_f32(float const*, float const*, float*, int)");
  EXPECT_EQ(t.kernels.stream[0], 7);
  EXPECT_EQ(t.kernels.correlation_id[0], 11);
  EXPECT_EQ(t.kernels.grid_x[0], 80);
  EXPECT_EQ(t.kernels.grid_y[0], 2);
  EXPECT_EQ(t.kernels.block_x[0], 256);
  EXPECT_EQ(t.kernels.registers_per_thread[0], 40);
  EXPECT_EQ(t.kernels.shared_memory_bytes[0], 5120);
  EXPECT_TRUE(isNull(t.kernels.graph_id[0]));
  EXPECT_TRUE(t.kernels.args[0].empty());

  ASSERT_EQ(t.api_calls.size(), 3u);
  EXPECT_EQ(name(t, t.api_calls.name[0]), "cudaLaunchKernel");
  EXPECT_EQ(t.api_calls.api[0], ApiKind::kRuntime);
  EXPECT_EQ(name(t, t.api_calls.name[1]), "cuMemcpyHtoDAsync_v2");
  EXPECT_EQ(t.api_calls.api[1], ApiKind::kDriver);
  EXPECT_EQ(t.api_calls.cbid[0], CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
  ASSERT_EQ(t.threads.size(), 1u);
  EXPECT_EQ(t.threads.tid[0], 5001);
  EXPECT_EQ(t.api_calls.thread_id[0], 0);

  ASSERT_EQ(t.memcpys.size(), 2u);
  EXPECT_EQ(t.memcpys.copy_kind[0], CopyKind::kHtoD);
  EXPECT_EQ(t.memcpys.src_kind[0], MemoryKind::kPageable);
  EXPECT_EQ(t.memcpys.dst_kind[0], MemoryKind::kDevice);
  EXPECT_EQ(t.memcpys.bytes[0], 1 << 20);
  EXPECT_TRUE(isNull(t.memcpys.src_device[0]));
  EXPECT_EQ(t.memcpys.copy_kind[1], CopyKind::kPtoP);
  EXPECT_EQ(t.memcpys.src_device[1], 0);
  EXPECT_EQ(t.memcpys.dst_device[1], 1);
  EXPECT_EQ(t.memcpys.stream[1], 9);

  ASSERT_EQ(t.memsets.size(), 1u);
  EXPECT_EQ(t.memsets.value[0], 0xAB);
  EXPECT_EQ(t.memsets.bytes[0], 256);
  EXPECT_EQ(t.memsets.memory_kind[0], MemoryKind::kDevice);

  ASSERT_EQ(t.syncs.size(), 1u);
  EXPECT_EQ(t.syncs.kind[0], SyncKind::kStreamSynchronize);
  EXPECT_EQ(t.syncs.thread_id[0], 0);  // through the cudaStreamSynchronize call's correlation
  EXPECT_EQ(t.syncs.device[0], 0);     // through the context record
  EXPECT_EQ(t.syncs.stream[0], 7);
  EXPECT_TRUE(isNull(t.syncs.event_id[0]));

  ASSERT_EQ(t.ranges.size(), 1u);
  EXPECT_EQ(name(t, t.ranges.category[0]), "cupti_overhead");
  EXPECT_EQ(name(t, t.ranges.name[0]), "cupti_buffer_flush");
  EXPECT_EQ(t.ranges.thread_id[0], 0);
  EXPECT_EQ(t.ranges.dur[0], 500);
}

TEST_F(CuptiToStore, NcclKernelNamesArriveAsNcclKernels) {
  PackedBuffer b;
  // NCCL's device kernels as NCCL 2.x builds them: extern "C" names in older
  // releases, C++-mangled ones with a kernel-argument template in newer ones.
  kernel(b, "ncclKernel_AllReduce_RING_LL_Sum_float", 21, kT0 + 100, kT0 + 200);
  kernel(b, "_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE", 22,
         kT0 + 300, kT0 + 400);
  kernel(b, "ncclSymkDevKernel_AllReduce_RSxLD_AGxST_sum_f32", 23, kT0 + 500, kT0 + 600);
  decode(b);
  const TraceTables t = finish();
  ASSERT_EQ(t.kernels.size(), 3u);
  EXPECT_EQ(name(t, t.kernels.name[0]), "ncclKernel_AllReduce_RING_LL_Sum_float");
  EXPECT_EQ(name(t, t.kernels.name[1]),
            "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)");
  EXPECT_EQ(name(t, t.kernels.name[2]), "ncclSymkDevKernel_AllReduce_RSxLD_AGxST_sum_f32");
  for (size_t i = 0; i < 3; ++i) {
    const std::string n = name(t, t.kernels.name[i]);
    EXPECT_TRUE(n.rfind("ncclKernel_", 0) == 0 || n.rfind("ncclDevKernel_", 0) == 0 ||
                n.rfind("ncclSymkDevKernel_", 0) == 0)
        << n;
  }
}

TEST_F(CuptiToStore, GraphLaunchIsOneCallWithManyKernels) {
  PackedBuffer b;
  api(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, 31, kT0 + 10,
      kT0 + 50, 6001);
  const char* names[] = {"_Z5embedv", "_Z9layernormv", "_Z4geluv", "_Z7softmaxv"};
  for (int i = 0; i < 4; ++i) {
    auto& k = kernel(b, names[i], 31, kT0 + 100 + i * 100, kT0 + 180 + i * 100);
    k.graphId = 9;
    k.graphNodeId = 900 + i;
  }
  decode(b);
  const TraceTables t = finish();
  ASSERT_EQ(t.api_calls.size(), 1u);
  EXPECT_EQ(name(t, t.api_calls.name[0]), "cudaGraphLaunch");
  ASSERT_EQ(t.kernels.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(t.kernels.correlation_id[i], 31);
    EXPECT_EQ(t.kernels.graph_id[i], 9);
    EXPECT_EQ(t.kernels.graph_node_id[i], 900 + static_cast<int64_t>(i));
  }
  EXPECT_EQ(name(t, t.kernels.name[2]), "gelu()");
}

TEST_F(CuptiToStore, CorrelationPartnersMayArriveLaterAndInOtherBatches) {
  // GPU buffer first: kernels and a sync whose API call and external id are
  // in a thread buffer delivered two commits later, in reverse order.
  PackedBuffer gpu;
  kernel(gpu, "_Z1bv", 42, kT0 + 3000, kT0 + 3100);
  kernel(gpu, "_Z1av", 41, kT0 + 1000, kT0 + 1100);
  auto& sync = gpu.add<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
  sync.start = kT0 + 4000, sync.end = kT0 + 5000;
  sync.correlationId = 43;
  sync.contextId = 2;  // no kernel ran in it; its context record comes last
  sync.streamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  sync.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  decode(gpu);
  commit();  // the kernels and the sync are written incomplete

  PackedBuffer host;
  auto& ext2 =
      host.add<CUpti_ActivityExternalCorrelation>(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
  ext2.externalKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;
  ext2.externalId = 7002;
  ext2.correlationId = 42;
  api(host, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, 43,
      kT0 + 3900, kT0 + 5100, 6002);
  api(host, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 42,
      kT0 + 2900, kT0 + 2950, 6002);
  auto& ext1 =
      host.add<CUpti_ActivityExternalCorrelation>(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
  ext1.externalKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;
  ext1.externalId = 7001;
  ext1.correlationId = 41;
  api(host, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 41,
      kT0 + 900, kT0 + 950, 6002);
  commit();  // nothing new from the GPU side
  decode(host);
  PackedBuffer context_only;
  auto& ctx = context_only.add<CUpti_ActivityContext3>(CUPTI_ACTIVITY_KIND_CONTEXT);
  ctx.contextId = 2, ctx.deviceId = 3;
  decode(context_only);
  const TraceTables t = finish();

  ASSERT_EQ(t.kernels.size(), 2u);  // sorted by time: "a" (41) first
  EXPECT_EQ(t.kernels.correlation_id[0], 41);
  EXPECT_EQ(t.kernels.external_id[0], 7001);
  EXPECT_EQ(t.kernels.correlation_id[1], 42);
  EXPECT_EQ(t.kernels.external_id[1], 7002);
  ASSERT_EQ(t.syncs.size(), 1u);
  EXPECT_EQ(t.syncs.kind[0], SyncKind::kContextSynchronize);
  ASSERT_FALSE(isNull(t.syncs.thread_id[0]));
  EXPECT_EQ(t.threads.tid[static_cast<size_t>(t.syncs.thread_id[0])], 6002);
  EXPECT_EQ(t.syncs.device[0], 3);
  EXPECT_TRUE(isNull(t.syncs.stream[0]));
  ASSERT_EQ(t.api_calls.size(), 3u);
  EXPECT_EQ(t.api_calls.external_id[0], 7001);  // its external record came first
  EXPECT_EQ(t.getStat(GpuActivityRows::kStatUnresolved), 0);
}

TEST_F(CuptiToStore, CorrelationThatNeverArrivesIsCountedNotInvented) {
  PackedBuffer b;
  auto& sync = b.add<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE;
  sync.start = kT0 + 10, sync.end = kT0 + 20;
  sync.correlationId = 99;
  sync.contextId = 5;  // no context record, no kernel on it
  sync.streamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  sync.cudaEventId = 17;
  decode(b);
  commit();
  commit();
  commit();
  const TraceTables t = finish();
  ASSERT_EQ(t.syncs.size(), 1u);
  EXPECT_TRUE(isNull(t.syncs.thread_id[0]));
  EXPECT_TRUE(isNull(t.syncs.device[0]));
  EXPECT_EQ(t.syncs.event_id[0], 17);
  EXPECT_EQ(t.getStat(GpuActivityRows::kStatUnresolved), 2);  // thread and device
}

TEST_F(CuptiToStore, UnusualValuesAreKeptOrCountedNeverGuessed) {
  PackedBuffer b;
  kernel(b, "_Z4zerov", 51, 0, 0);                       // no timestamps: skipped, counted
  kernel(b, "_Z9backwardsv", 52, kT0 + 500, kT0 + 100);  // end before start: dur 0, counted
  auto& huge = kernel(b, "_Z4hugev", 0xFFFFFFFF, kT0 + 600, kT0 + 700);
  huge.deviceId = 0xFFFFFFFF;  // beyond int32: NULL, counted
  huge.streamId = 0xFFFFFFFF;
  huge.gridX = std::numeric_limits<int32_t>::max();
  huge.clusterX = 2, huge.clusterY = 1, huge.clusterZ = 1;
  huge.launchType = CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE;
  kernel(b, nullptr, 53, kT0 + 800, kT0 + 900);                   // no name
  kernel(b, "_Z9farfuturev", 54, 1ull << 63, (1ull << 63) + 10);  // beyond int64 ns: skipped
  auto& weird_copy = b.add<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
  weird_copy.copyKind = 200;  // newer than this build
  weird_copy.srcKind = 99;
  weird_copy.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_MANAGED;
  weird_copy.start = kT0 + 1000, weird_copy.end = kT0 + 1001;
  weird_copy.correlationId = 0;
  weird_copy.runtimeCorrelationId = 55;  // only the runtime correlation is known
  api(b, CUPTI_ACTIVITY_KIND_RUNTIME, 99999, 56, kT0 + 1100, kT0 + 1200, 7001);  // unknown cbid
  api(b, CUPTI_ACTIVITY_KIND_DRIVER, 99998, 57, kT0 + 1300, kT0 + 1400, 7001);
  auto& ovh = b.add<CUpti_ActivityOverhead3>(CUPTI_ACTIVITY_KIND_OVERHEAD);
  ovh.overheadKind = static_cast<CUpti_ActivityOverheadKind>(42 << 16);
  ovh.objectKind = CUPTI_ACTIVITY_OBJECT_DEVICE;
  ovh.objectId.dcs.deviceId = 1;
  ovh.start = kT0 + 1500, ovh.end = kT0 + 1600;
  b.addRaw(CUPTI_ACTIVITY_KIND_PC_SAMPLING, 64);  // a kind the walker cannot size: ends the walk
  kernel(b, "_Z11unreachablev", 58, kT0 + 2000, kT0 + 2100);
  decode(b);
  const TraceTables t = finish();

  EXPECT_GT(unreadable_, 0u);
  EXPECT_EQ(t.getStat(GpuActivityRows::kStatNoTimestamps), 1);
  EXPECT_EQ(t.getStat(GpuActivityRows::kStatNegativeDurations), 1);
  EXPECT_EQ(t.getStat(GpuActivityRows::kStatOutOfRange), 2);  // device id, far future
  EXPECT_EQ(t.getStat(GpuActivityRows::kStatUnknownCbids), 2);
  EXPECT_EQ(t.getStat(GpuActivityRows::kStatUnknownKinds), 1);
  EXPECT_EQ(
      t.getStat("collector.unknown_record_kind." + std::to_string(CUPTI_ACTIVITY_KIND_PC_SAMPLING)),
      1);

  ASSERT_EQ(t.kernels.size(), 3u);  // backwards, huge, unnamed
  std::map<std::string, size_t> by_name;
  for (size_t i = 0; i < t.kernels.size(); ++i) by_name[name(t, t.kernels.name[i])] = i;
  ASSERT_TRUE(by_name.count("backwards()"));
  EXPECT_EQ(t.kernels.dur[by_name["backwards()"]], 0);
  ASSERT_TRUE(by_name.count("huge()"));
  const size_t h = by_name["huge()"];
  EXPECT_TRUE(isNull(t.kernels.device[h]));
  EXPECT_EQ(t.kernels.stream[h], 0xFFFFFFFFll);
  EXPECT_EQ(t.kernels.correlation_id[h], 0xFFFFFFFFll);
  EXPECT_EQ(t.kernels.grid_x[h], std::numeric_limits<int32_t>::max());
  EXPECT_EQ(t.kernels.args[h], R"({"cluster":[2,1,1],"launch_type":"cooperative_single_device"})");
  EXPECT_TRUE(by_name.count("<unnamed kernel>"));
  EXPECT_FALSE(by_name.count("unreachable()"));

  ASSERT_EQ(t.memcpys.size(), 1u);
  EXPECT_EQ(t.memcpys.copy_kind[0], CopyKind::kUnknown);
  EXPECT_EQ(t.memcpys.src_kind[0], MemoryKind::kUnknown);
  EXPECT_EQ(t.memcpys.dst_kind[0], MemoryKind::kManaged);
  EXPECT_EQ(t.memcpys.correlation_id[0], 55);

  ASSERT_EQ(t.api_calls.size(), 2u);
  EXPECT_EQ(name(t, t.api_calls.name[0]), "cuda_runtime_api_99999");
  EXPECT_EQ(name(t, t.api_calls.name[1]), "cuda_driver_api_99998");
  ASSERT_EQ(t.ranges.size(), 1u);
  EXPECT_EQ(name(t, t.ranges.name[0]), "overhead_" + std::to_string(42 << 16));
  EXPECT_EQ(t.ranges.device[0], 1);
  EXPECT_TRUE(isNull(t.ranges.thread_id[0]));
}

TEST_F(CuptiToStore, ManyBuffersOfTheSameKernelsShareOneString) {
  for (int buffer = 0; buffer < 3; ++buffer) {
    PackedBuffer b;
    for (int i = 0; i < 1000; ++i) {
      const uint64_t at = kT0 + static_cast<uint64_t>(buffer * 1'000'000 + i * 100);
      kernel(b, "_Z6kernelv", static_cast<uint32_t>(buffer * 1000 + i + 1), at, at + 50);
    }
    decode(b);
    commit();
  }
  const TraceTables t = finish();
  EXPECT_EQ(t.kernels.size(), 3000u);
  size_t copies = 0;
  for (size_t i = 0; i < t.strings.size(); ++i)
    copies += t.strings.get(StringId{int32_t(i)}) == "kernel()";
  EXPECT_EQ(copies, 1u);
  for (size_t i = 1; i < t.kernels.size(); ++i) ASSERT_LE(t.kernels.ts[i - 1], t.kernels.ts[i]);
}

// --- The packed layout against CUPTI's own walker ---------------------------

TEST(CuptiPackedLayout, CuptiWalksOurBuffersAsOurWalkerDoes) {
  // libcupti is loaded at run time, as the injected library loads it; without
  // it this check cannot run here.
  auto session = CuptiSession::load("");
  if (!session.ok()) GTEST_SKIP() << session.error().message();
  void* library = dlopen((*session)->libraryPath().c_str(), RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(library, nullptr);
  using NextRecord = CUptiResult (*)(uint8_t*, size_t, CUpti_Activity**);
  auto next = reinterpret_cast<NextRecord>(dlsym(library, "cuptiActivityGetNextRecord"));
  ASSERT_NE(next, nullptr);

  PackedBuffer b;
  b.add<CUpti_ActivityDevice5>(CUPTI_ACTIVITY_KIND_DEVICE);
  b.add<CUpti_ActivityContext3>(CUPTI_ACTIVITY_KIND_CONTEXT);
  kernel(b, "k", 1, kT0, kT0 + 1);
  api(b, CUPTI_ACTIVITY_KIND_RUNTIME, 1, 1, kT0, kT0 + 1, 1);
  b.add<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
  b.add<CUpti_ActivityMemcpyPtoP4>(CUPTI_ACTIVITY_KIND_MEMCPY2);
  b.add<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
  api(b, CUPTI_ACTIVITY_KIND_DRIVER, 1, 2, kT0, kT0 + 1, 1);
  b.add<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  b.add<CUpti_ActivityExternalCorrelation>(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
  b.add<CUpti_ActivityOverhead3>(CUPTI_ACTIVITY_KIND_OVERHEAD);

  std::vector<size_t> ours, theirs;
  PackedRecordWalker walker(b.data(), b.size());
  while (const void* r = walker.next()) ours.push_back(static_cast<const uint8_t*>(r) - b.data());
  EXPECT_FALSE(walker.stoppedEarly());
  CUpti_Activity* record = nullptr;
  while (next(b.data(), b.size(), &record) == CUPTI_SUCCESS) {
    theirs.push_back(reinterpret_cast<uint8_t*>(record) - b.data());
  }
  EXPECT_EQ(ours.size(), 11u);
  EXPECT_EQ(ours, theirs);
}

TEST(CuptiPackedLayout, ProductionDecodeMatchesPackedDecode) {
  // CuptiSession::decodeBuffer (cuptiActivityGetNextRecord) and
  // decodePackedBuffer must see the same records.
  auto session = CuptiSession::load("");
  if (!session.ok()) GTEST_SKIP() << session.error().message();
  struct Counter : ActivitySink {
    std::vector<uint32_t> correlations;
    void onKernel(const KernelActivity& a) override { correlations.push_back(a.correlation_id); }
    void onMemcpy(const MemcpyActivity& a) override { correlations.push_back(a.correlation_id); }
    void onMemset(const MemsetActivity&) override {}
    void onApi(const ApiActivity& a) override { correlations.push_back(a.correlation_id); }
    void onSync(const SyncActivity&) override {}
    void onExternalCorrelation(const ExternalCorrelationActivity&) override {}
    void onOverhead(const OverheadActivity&) override {}
    void onDevice(const DeviceActivity&) override {}
    void onContext(const ContextActivity&) override {}
    void onUnknownKind(uint32_t) override {}
  };
  PackedBuffer b;
  for (uint32_t i = 1; i <= 50; ++i) {
    api(b, CUPTI_ACTIVITY_KIND_RUNTIME, 211, i, kT0 + i, kT0 + i + 1, 1);
    kernel(b, "k", i, kT0 + i, kT0 + i + 1);
  }
  Counter a, c;
  decodePackedBuffer(b.data(), b.size(), a);
  int64_t unreadable = 0;
  EXPECT_EQ((*session)->decodeBuffer(b.data(), b.size(), c, &unreadable), 100u);
  EXPECT_EQ(unreadable, 0);
  EXPECT_EQ(a.correlations, c.correlations);
}

}  // namespace
}  // namespace damscope::collector
