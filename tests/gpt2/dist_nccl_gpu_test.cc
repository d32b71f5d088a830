// The NCCL communicator on real GPUs (label "gpu"; skips without a device or
// without NCCL): one rank per visible GPU, up to four, as threads that meet
// through the TCP rendezvous on 127.0.0.1. Each rank's buffer is filled by an
// asynchronous copy on the compute stream and read back by another after
// wait(), with only the compute stream synchronized: the values are the
// average over the ranks only if the communication stream is ordered after
// the compute stream and back. With one GPU the average is the rank's own
// values, and the test checks the collective runs and is traced.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "reference_workloads/gpt2/dist/nccl_communicator.h"
#include "tests/gpt2/free_port.h"

namespace damscope::gpt2 {
namespace {

// 16 Mi floats (64 MiB): a copy long enough (milliseconds) that a missing
// stream dependency would let NCCL read the buffer before it is written.
constexpr size_t kFloats = size_t(1) << 24;

using test_support::freePort;

// Rank r's value at i; exact in float, so the expected average is exact up
// to NCCL's rounding of the division.
float valueOf(int rank, size_t i) {
  return static_cast<float>(2 * rank + static_cast<int>(i % 7));
}

struct Traced {
  std::string collective;
  size_t bytes = 0;
  int bucket = -1;
};

class RecordingTracer final : public CollectiveTracer {
 public:
  void beginCollective(const char* collective, size_t bytes, int bucket) override {
    open_ = true;
    traced.push_back({collective, bytes, bucket});
  }
  void endCollective() override {
    EXPECT_TRUE(open_);
    open_ = false;
  }
  void nameThread(const char*) override {}
  std::vector<Traced> traced;

 private:
  bool open_ = false;
};

#define CUDA_OK(call) ASSERT_EQ((call), cudaSuccess) << #call

// One rank: fill, all-reduce in two buckets, read back; the result's
// failures are recorded as test failures of this thread.
void runRank(int rank, int world_size, int port, std::vector<float>& out,
             std::vector<Traced>& traced) {
  CUDA_OK(cudaSetDevice(rank));
  cudaStream_t compute = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking));
  void* device_bytes = nullptr;
  void* host_bytes = nullptr;  // pinned, so that the copies are asynchronous
  CUDA_OK(cudaMalloc(&device_bytes, kFloats * sizeof(float)));
  CUDA_OK(cudaMallocHost(&host_bytes, kFloats * sizeof(float)));
  float* device = static_cast<float*>(device_bytes);
  float* host = static_cast<float*>(host_bytes);
  for (size_t i = 0; i < kFloats; ++i) host[i] = valueOf(rank, i);

  RankEnvironment env;
  env.launcher = Launcher::kTorchrun;
  env.rank = rank;
  env.world_size = world_size;
  env.local_rank = rank;
  env.local_world_size = world_size;
  env.master_port = port;
  auto comm = createNcclCommunicator(env, rank, compute);
  ASSERT_TRUE(comm.ok()) << comm.error().message();
  RecordingTracer tracer;
  (*comm)->setTracer(&tracer);
  EXPECT_EQ((*comm)->rank(), rank);
  EXPECT_EQ((*comm)->size(), world_size);

  CUDA_OK(cudaMemcpyAsync(device, host, kFloats * sizeof(float), cudaMemcpyHostToDevice, compute));
  const size_t half = kFloats / 2;
  (*comm)->startAllReduce(device, half, 0);
  (*comm)->startAllReduce(device + half, kFloats - half, 1);
  (*comm)->wait();
  CUDA_OK(cudaMemcpyAsync(host, device, kFloats * sizeof(float), cudaMemcpyDeviceToHost, compute));
  CUDA_OK(cudaStreamSynchronize(compute));
  const Status status = (*comm)->status();
  EXPECT_TRUE(status.ok()) << status.error().message();
  out.assign(host, host + kFloats);
  traced = tracer.traced;
  comm->reset();
  CUDA_OK(cudaFreeHost(host));
  CUDA_OK(cudaFree(device));
  CUDA_OK(cudaStreamDestroy(compute));
}

TEST(NcclCommunicatorGpu, AllReduceAveragesOverOneRankPerGpu) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no CUDA device";
  {
    const auto probe = createNcclCommunicator(RankEnvironment(), 1 << 20, nullptr);
    if (!probe.ok() && probe.error().message().rfind("NCCL could not be loaded", 0) == 0)
      GTEST_SKIP() << probe.error().message();
  }
  const int world_size = std::min(devices, 4);
  const int port = freePort();
  std::vector<std::vector<float>> results(world_size);
  std::vector<std::vector<Traced>> traced(world_size);
  std::vector<std::thread> ranks;
  ranks.reserve(static_cast<size_t>(world_size));
  for (int r = 0; r < world_size; ++r)
    ranks.emplace_back(runRank, r, world_size, port, std::ref(results[r]), std::ref(traced[r]));
  for (std::thread& t : ranks) t.join();

  for (int r = 0; r < world_size; ++r) {
    ASSERT_EQ(results[r].size(), kFloats) << "rank " << r;
    size_t wrong = 0;
    for (size_t i = 0; i < kFloats; ++i) {
      float sum = 0;
      for (int q = 0; q < world_size; ++q) sum += valueOf(q, i);
      const float expected = sum / static_cast<float>(world_size);
      if (std::abs(results[r][i] - expected) > 1e-5f * std::max(1.0f, expected)) {
        if (wrong == 0)
          ADD_FAILURE() << "rank " << r << " element " << i << ": " << results[r][i]
                        << ", expected " << expected;
        ++wrong;
      }
    }
    EXPECT_EQ(wrong, 0u) << "rank " << r << " of " << world_size;
    ASSERT_EQ(traced[r].size(), 2u);
    EXPECT_EQ(traced[r][0].collective, "all_reduce");
    EXPECT_EQ(traced[r][0].bytes, kFloats / 2 * sizeof(float));
    EXPECT_EQ(traced[r][0].bucket, 0);
    EXPECT_EQ(traced[r][1].bucket, 1);
  }
}

}  // namespace
}  // namespace damscope::gpt2
