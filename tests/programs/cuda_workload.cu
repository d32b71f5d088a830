// A small CUDA program that does, in a few "training steps", each kind of GPU
// work the collector must record: kernel launches, a CUDA graph (one launch
// call, several kernels), pageable and pinned copies both ways, a memset,
// stream/event/device synchronization, and NCCL on every visible GPU: a ring
// of send/recv (on one GPU, each rank sends to itself, which NCCL runs as a
// SendRecv kernel; a one-rank all-reduce would launch no kernel at all) and,
// with several GPUs, an all-reduce. It annotates itself with NVTX like a
// trainer. The GPU
// self-test (scripts/gpu_selftest.sh) records it with `damscope record` and
// checks that all of it arrived (scripts/check_gpu_trace.sh).
//
// NCCL is loaded at run time (libnccl.so.2, or $DAMSCOPE_NCCL_LIBRARY) so that
// the program builds without NCCL's headers; when it cannot be loaded the
// program says so on stdout ("nccl=unavailable") and the check fails unless
// told NCCL is not expected.
//
// Usage: cuda_workload [--steps N]; prints one line of what it launched.
// `record --counters` measures it too (gpu_selftest.sh): vector_add is one
// FADD per element, scale one FMUL, so each is `elements` FLOPs.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t e = (call);                                                          \
    if (e != cudaSuccess) {                                                          \
      std::fprintf(stderr, "cuda_workload: %s: %s\n", #call, cudaGetErrorString(e)); \
      std::exit(2);                                                                  \
    }                                                                                \
  } while (0)

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void scale(float* x, float s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

__global__ void graph_node(float* x, int n, int node) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += static_cast<float>(node);
}

// The few NCCL entry points used, declared by hand (nccl.h is not needed):
// ncclFloat32 = 7 and ncclSum = 0 in every NCCL 2.x.
struct Nccl {
  using Comm = void*;
  int (*commInitAll)(Comm*, int, const int*) = nullptr;
  int (*allReduce)(const void*, void*, size_t, int, int, Comm, cudaStream_t) = nullptr;
  int (*send)(const void*, size_t, int, int, Comm, cudaStream_t) = nullptr;
  int (*recv)(void*, size_t, int, int, Comm, cudaStream_t) = nullptr;
  int (*groupStart)() = nullptr;
  int (*groupEnd)() = nullptr;
  int (*commDestroy)(Comm) = nullptr;
  std::string error;

  bool load() {
    const char* path = std::getenv("DAMSCOPE_NCCL_LIBRARY");
    void* lib = dlopen(path ? path : "libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      error = dlerror();
      return false;
    }
    commInitAll = reinterpret_cast<decltype(commInitAll)>(dlsym(lib, "ncclCommInitAll"));
    allReduce = reinterpret_cast<decltype(allReduce)>(dlsym(lib, "ncclAllReduce"));
    send = reinterpret_cast<decltype(send)>(dlsym(lib, "ncclSend"));
    recv = reinterpret_cast<decltype(recv)>(dlsym(lib, "ncclRecv"));
    groupStart = reinterpret_cast<decltype(groupStart)>(dlsym(lib, "ncclGroupStart"));
    groupEnd = reinterpret_cast<decltype(groupEnd)>(dlsym(lib, "ncclGroupEnd"));
    commDestroy = reinterpret_cast<decltype(commDestroy)>(dlsym(lib, "ncclCommDestroy"));
    if (!commInitAll || !allReduce || !send || !recv || !groupStart || !groupEnd || !commDestroy) {
      error = "libnccl lacks an expected symbol";
      return false;
    }
    return true;
  }
};

int main(int argc, char** argv) {
  int steps = 3;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--steps") == 0 && i + 1 < argc) steps = std::atoi(argv[++i]);
  }
  int devices = 0;
  CHECK(cudaGetDeviceCount(&devices));
  constexpr int n = 1 << 20;
  constexpr size_t bytes = n * sizeof(float);
  const dim3 block(256), grid((n + 255) / 256);

  CHECK(cudaSetDevice(0));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  float *a, *b, *c, *pinned;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMalloc(&c, bytes));
  CHECK(cudaMallocHost(&pinned, bytes));
  std::vector<float> pageable(n, 1.0f);
  cudaEvent_t done;
  CHECK(cudaEventCreate(&done));

  // A graph of three kernels, captured once, launched every step.
  cudaGraph_t graph;
  cudaGraphExec_t graph_exec;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  for (int node = 0; node < 3; ++node) graph_node<<<grid, block, 0, stream>>>(c, n, node);
  CHECK(cudaStreamEndCapture(stream, &graph));
  CHECK(cudaGraphInstantiate(&graph_exec, graph, 0));

  // NCCL over every visible GPU (one is enough for its kernels to run).
  Nccl nccl;
  const bool have_nccl = nccl.load();
  std::vector<Nccl::Comm> comms(devices);
  std::vector<cudaStream_t> nccl_streams(devices);
  std::vector<float*> nccl_buffers(devices), nccl_received(devices);
  if (have_nccl) {
    std::vector<int> list(devices);
    for (int d = 0; d < devices; ++d) {
      list[d] = d;
      CHECK(cudaSetDevice(d));
      CHECK(cudaStreamCreate(&nccl_streams[d]));
      CHECK(cudaMalloc(&nccl_buffers[d], bytes));
      CHECK(cudaMalloc(&nccl_received[d], bytes));
    }
    if (nccl.commInitAll(comms.data(), devices, list.data()) != 0) {
      std::fprintf(stderr, "cuda_workload: ncclCommInitAll failed\n");
      return 3;
    }
    CHECK(cudaSetDevice(0));
  }

  int kernels = 0, copies = 0, memsets = 0, graph_launches = 0, nccl_rounds = 0;
  for (int step = 0; step < steps; ++step) {
    nvtxRangePushA("step");
    nvtxRangePushA("data");
    CHECK(cudaMemcpy(a, pageable.data(), bytes, cudaMemcpyHostToDevice));  // pageable
    CHECK(cudaMemcpyAsync(b, pinned, bytes, cudaMemcpyHostToDevice, stream));  // pinned
    copies += 2;
    nvtxRangePop();
    nvtxRangePushA("forward");
    vector_add<<<grid, block, 0, stream>>>(a, b, c, n);
    scale<<<grid, block, 0, stream>>>(c, 0.5f, n);
    kernels += 2;
    CHECK(cudaGetLastError());
    CHECK(cudaMemsetAsync(a, 0, bytes, stream));
    ++memsets;
    CHECK(cudaGraphLaunch(graph_exec, stream));
    ++graph_launches;
    nvtxRangePop();
    if (have_nccl) {
      nvtxRangePushA("communication");
      // Rank d sends to d+1 and receives from d-1 (itself, on one GPU).
      nccl.groupStart();
      for (int d = 0; d < devices; ++d) {
        CHECK(cudaSetDevice(d));
        nccl.send(nccl_buffers[d], n, /*ncclFloat32=*/7, (d + 1) % devices, comms[d],
                  nccl_streams[d]);
        nccl.recv(nccl_received[d], n, 7, (d + devices - 1) % devices, comms[d], nccl_streams[d]);
      }
      nccl.groupEnd();
      if (devices > 1) {
        nccl.groupStart();
        for (int d = 0; d < devices; ++d) {
          CHECK(cudaSetDevice(d));
          nccl.allReduce(nccl_buffers[d], nccl_buffers[d], n, /*ncclFloat32=*/7, /*ncclSum=*/0,
                         comms[d], nccl_streams[d]);
        }
        nccl.groupEnd();
      }
      for (int d = 0; d < devices; ++d) {
        CHECK(cudaSetDevice(d));
        CHECK(cudaStreamSynchronize(nccl_streams[d]));
      }
      CHECK(cudaSetDevice(0));
      ++nccl_rounds;
      nvtxRangePop();
    }
    CHECK(cudaMemcpyAsync(pinned, c, bytes, cudaMemcpyDeviceToHost, stream));
    ++copies;
    CHECK(cudaEventRecord(done, stream));
    CHECK(cudaEventSynchronize(done));
    CHECK(cudaStreamSynchronize(stream));
    nvtxRangePop();  // step
  }
  CHECK(cudaDeviceSynchronize());
  if (have_nccl) {
    for (int d = 0; d < devices; ++d) nccl.commDestroy(comms[d]);
  }
  // At least one NCCL kernel per device per round (the send/recv).
  // elements: what each vector_add and scale kernel works on (one FADD or
  // FMUL per element: the FLOPs `record --counters` must measure).
  std::printf(
      "devices=%d steps=%d elements=%d kernels=%d graph_launches=%d graph_kernels=%d "
      "copies=%d memsets=%d nccl_kernels_min=%d nccl=%s\n",
      devices, steps, n, kernels, graph_launches, graph_launches * 3, copies, memsets,
      nccl_rounds * devices, have_nccl ? "yes" : ("unavailable: " + nccl.error).c_str());
  return 0;
}
