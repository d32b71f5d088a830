// The GPU self-test's checker (scripts/check_gpu_trace.sh) must be right
// before a GPU ever runs it. Here it reads a trace built, through the
// collector's own decoding and NVTX assembly, from the CUPTI records and NVTX
// events that tests/programs/cuda_workload produces: it must pass that trace
// and fail ones that lack what a broken collector would lose (NCCL kernels,
// the link from a sync to its thread, a copy).
#include <gtest/gtest.h>

#include <cstdlib>

#include "collector/capture_writer.h"
#include "collector/cupti_activity_decoder.h"
#include "collector/gpu_activity_rows.h"
#include "collector/nvtx_assembler.h"
#include "collector/trace_finalizer.h"
#include "tests/fabricated_cupti.h"
#include "tests/test_support.h"

namespace damscope::collector {
namespace {

using damscope::testing::addApi;
using damscope::testing::addKernel;
using damscope::testing::PackedBuffer;

constexpr uint64_t kT0 = 1'700'000'000'000'000'000ull;
constexpr uint32_t kTid = 100;

struct Omit {
  bool nccl = false;
  bool sync_api = false;
  bool dtoh = false;
};

// Two steps of cuda_workload on one GPU, as CUPTI and NVTX would report them.
std::string buildTrace(const std::string& path, Omit omit) {
  CaptureFileOptions options;
  options.path = path;
  auto capture = std::move(CaptureWriter::create(options)).value();
  capture->setMeta("collector.finalized", "0");
  capture->setMeta("collector.gpu", "recorded");
  capture->setMeta("collector.window_start_ns", std::to_string(kT0 - 1000));
  capture->setMeta("collector.window_end_ns", std::to_string(kT0 + 10'000'000));
  GpuActivityRows gpu(*capture, 0);
  NvtxNames names;
  NvtxAssembler nvtx(*capture, names, static_cast<int64_t>(kT0) - 1000);
  auto event = [&](NvtxEventType type, uint64_t ts, const std::string& message) {
    NvtxEventHeader h;
    h.type = type;
    h.ts = static_cast<int64_t>(ts);
    h.message_kind = message.empty() ? NvtxMessageKind::kNone : NvtxMessageKind::kAscii;
    h.message_bytes = static_cast<uint32_t>(message.size());
    nvtx.onEvent(kTid, h, reinterpret_cast<const uint8_t*>(message.data()));
  };

  PackedBuffer b;
  auto& dev = b.add<CUpti_ActivityDevice5>(CUPTI_ACTIVITY_KIND_DEVICE);
  dev.id = 0, dev.name = "NVIDIA H100 80GB HBM3", dev.numMultiprocessors = 132;
  uint32_t correlation = 1;
  auto copy = [&](uint64_t at, CUpti_ActivityMemcpyKind kind, CUpti_ActivityMemoryKind src,
                  CUpti_ActivityMemoryKind dst) {
    addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020,
           correlation, at, at + 10, kTid);
    auto& m = b.add<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
    m.copyKind = kind, m.srcKind = src, m.dstKind = dst, m.bytes = 4 << 20;
    m.start = at + 20, m.end = at + 30, m.contextId = 1, m.streamId = 7;
    m.correlationId = correlation++;
  };
  auto launch = [&](uint64_t at, const char* name) {
    addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
           correlation, at, at + 5, kTid);
    addKernel(b, name, correlation++, at + 10, at + 40);
  };
  auto sync = [&](uint64_t at, CUpti_ActivitySynchronizationType type, uint32_t cbid) {
    if (!omit.sync_api)
      addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME, cbid, correlation, at, at + 50, kTid);
    auto& s = b.add<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
    s.type = type, s.start = at + 5, s.end = at + 45, s.correlationId = correlation++;
    s.contextId = 1, s.streamId = 7, s.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  };

  for (uint64_t step = 0; step < 2; ++step) {
    const uint64_t t = kT0 + step * 1'000'000;
    event(NvtxEventType::kPush, t, "step");
    event(NvtxEventType::kPush, t + 1, "data");
    copy(t + 10, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE,
         CUPTI_ACTIVITY_MEMORY_KIND_DEVICE);
    copy(t + 100, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, CUPTI_ACTIVITY_MEMORY_KIND_PINNED,
         CUPTI_ACTIVITY_MEMORY_KIND_DEVICE);
    event(NvtxEventType::kPop, t + 200, "");
    event(NvtxEventType::kPush, t + 201, "forward");
    launch(t + 300, "_Z10vector_addPKfS0_Pfi");
    launch(t + 400, "_Z5scalePffi");
    addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020,
           correlation, t + 500, t + 505, kTid);
    auto& ms = b.add<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
    ms.bytes = 4 << 20, ms.start = t + 510, ms.end = t + 520, ms.contextId = 1;
    ms.correlationId = correlation++;
    addApi(b, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
           correlation, t + 600, t + 610, kTid);
    for (uint64_t node = 0; node < 3; ++node) {
      auto& k =
          addKernel(b, "_Z10graph_nodePfii", correlation, t + 620 + node * 20, t + 635 + node * 20);
      k.graphId = 5, k.graphNodeId = 50 + node;
    }
    ++correlation;
    event(NvtxEventType::kPop, t + 700, "");
    event(NvtxEventType::kPush, t + 701, "communication");
    if (!omit.nccl) {
      addApi(b, CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, correlation,
             t + 710, t + 720, kTid);
      addKernel(b, "_Z22ncclDevKernel_SendRecv24ncclDevKernelArgsStorageILm4096EE", correlation++,
                t + 730, t + 800);
    }
    event(NvtxEventType::kPop, t + 900, "");
    if (!omit.dtoh) {
      copy(t + 910, CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
           CUPTI_ACTIVITY_MEMORY_KIND_PINNED);
    }
    sync(t + 950, CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE,
         CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020);
    sync(t + 1010, CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE,
         CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020);
    event(NvtxEventType::kPop, t + 2000, "");
  }
  decodePackedBuffer(b.data(), b.size(), gpu);
  gpu.resolvePending(true);
  EXPECT_TRUE(capture->finish().ok());
  EXPECT_TRUE(finalizeTraceFile(path).ok());
  return path;
}

damscope::testing::CommandResult check(const std::string& trace, int nccl_kernels = 2) {
  const std::string env =
      "EXPECT_STEPS=2 EXPECT_KERNELS=4 EXPECT_GRAPH_KERNELS=6 EXPECT_COPIES=6 EXPECT_MEMSETS=2 "
      "EXPECT_NCCL_KERNELS=" +
      std::to_string(nccl_kernels) + " EXPECT_NCCL=1 ";
  return damscope::testing::runCommand(env + "bash " + DAMSCOPE_SOURCE_DIR +
                                       "/scripts/check_gpu_trace.sh " + trace);
}

class GpuTraceCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("command -v sqlite3 >/dev/null 2>&1") != 0) {
      GTEST_SKIP() << "the sqlite3 shell is not installed (scripts/install-deps.sh installs it)";
    }
  }
  damscope::testing::TempDir dir_;
};

TEST_F(GpuTraceCheck, PassesWhatTheWorkloadProduces) {
  const auto r = check(buildTrace(dir_.file("good.db"), {}));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("all 24 checks passed"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
}

TEST_F(GpuTraceCheck, FailsWithoutNcclKernels) {
  const auto r = check(buildTrace(dir_.file("no_nccl.db"), {.nccl = true}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("FAIL  NCCL kernels in steps"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FAIL  NCCL kernels present at all"), std::string::npos) << r.out;
}

TEST_F(GpuTraceCheck, FailsWhenSyncsLoseTheirThread) {
  const auto r = check(buildTrace(dir_.file("no_sync_api.db"), {.sync_api = true}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("FAIL  synchronizations without their waiting thread"), std::string::npos)
      << r.out;
}

TEST_F(GpuTraceCheck, FailsWhenACopyIsMissing) {
  const auto r = check(buildTrace(dir_.file("no_dtoh.db"), {.dtoh = true}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("FAIL  DtoH copies in steps"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FAIL  host-device copies in steps"), std::string::npos) << r.out;
}

TEST_F(GpuTraceCheck, FailsWhenFewerNcclKernelsThanLaunched) {
  const auto r = check(buildTrace(dir_.file("good.db"), {}), 3);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("FAIL  NCCL kernels in steps"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace damscope::collector
