// Small in-memory traces for analysis tests: see trace_builder.h.
#include "tests/trace_builder.h"

#include "trace/range_nesting.h"
#include "trace/table_order.h"

namespace damscope::testing {

TraceBuilder::TraceBuilder() {
  ProcessTable::Row p;
  p.pid = 100;
  p.rank = 0;
  t_.processes.append(p);
  t_.threads.append({0, 100, t_.strings.intern("main")});
  t_.threads.append({0, 101, t_.strings.intern("worker")});
}

TraceBuilder& TraceBuilder::device(int32_t device, int32_t sm_count, int64_t memory_bytes) {
  DeviceTable::Row d;
  d.device = device;
  d.kind = DeviceKind::kGpu;
  d.name = t_.strings.intern("Test GPU");
  d.sm_count = sm_count;
  if (memory_bytes > 0) d.memory_bytes = memory_bytes;
  t_.devices.append(d);
  return *this;
}

int64_t TraceBuilder::range(double start_us, double dur_us, const std::string& name,
                            const std::string& category, int64_t thread,
                            const std::string& domain) {
  RangeTable::Row r;
  r.ts = us(start_us);
  r.dur = us(dur_us);
  r.thread_id = thread;
  r.category = t_.strings.intern(category);
  r.name = t_.strings.intern(name);
  if (!domain.empty()) r.domain = t_.strings.intern(domain);
  return t_.ranges.append(r);
}

int64_t TraceBuilder::call(double start_us, double dur_us, const std::string& name,
                           int64_t thread) {
  ApiCallTable::Row a;
  a.ts = us(start_us);
  a.dur = us(dur_us);
  a.thread_id = thread;
  a.api = ApiKind::kRuntime;
  a.name = t_.strings.intern(name);
  a.correlation_id = next_correlation_++;
  t_.api_calls.append(a);
  return a.correlation_id;
}

int64_t TraceBuilder::kernel(double start_us, double dur_us, const std::string& name,
                             int64_t correlation, int64_t stream, int32_t device, int32_t grid,
                             double occupancy_pct) {
  KernelTable::Row k;
  k.ts = us(start_us);
  k.dur = us(dur_us);
  k.device = device;
  k.stream = stream;
  k.correlation_id = correlation;
  k.name = t_.strings.intern(name);
  k.grid_x = grid, k.grid_y = 1, k.grid_z = 1;
  k.block_x = 256, k.block_y = 1, k.block_z = 1;
  k.occupancy_pct = occupancy_pct;
  return t_.kernels.append(k);
}

int64_t TraceBuilder::memcpy(double start_us, double dur_us, int64_t correlation, CopyKind kind,
                             MemoryKind host, int64_t stream, int32_t device) {
  MemcpyTable::Row m;
  m.ts = us(start_us);
  m.dur = us(dur_us);
  m.device = device;
  m.stream = stream;
  m.correlation_id = correlation;
  m.copy_kind = kind;
  m.src_kind = kind == CopyKind::kHtoD ? host : MemoryKind::kDevice;
  m.dst_kind = kind == CopyKind::kHtoD ? MemoryKind::kDevice : host;
  m.bytes = 1 << 20;
  return t_.memcpys.append(m);
}

int64_t TraceBuilder::launchKernel(double launch_us, double start_us, double dur_us,
                                   const std::string& name, int64_t stream) {
  const int64_t c = call(launch_us, 5);
  return kernel(start_us, dur_us, name, c, stream);
}

TraceTables TraceBuilder::build(bool sort) {
  if (sort) {
    sortByTime(t_.kernels), sortByTime(t_.memcpys), sortByTime(t_.memsets);
    sortByTime(t_.api_calls), sortByTime(t_.syncs), sortByTime(t_.ranges);
    computeRangeNesting(t_.ranges);
  }
  TraceTables out = std::move(t_);
  t_ = TraceTables();
  return out;
}

}  // namespace damscope::testing

namespace damscope::testing {

TraceBuilder gemmInModuleTrace() {
  TraceBuilder b;
  b.device(0, 108, int64_t{40} << 30);
  b.tables().devices.name[0] = b.tables().strings.intern("NVIDIA A100-SXM4-40GB");
  b.step(0, 1000, 1);
  b.range(1, 400, "nn.Module: Linear_0", "python_function");
  b.range(2, 390, "aten::mm");
  b.range(3, 380, R"({"op":"gemm","flops":1e9,"bytes":1e5})", "nvtx", 0, "damscope");
  b.kernel(10, 300, "ampere_bf16_s16816gemm_bf16_64x64_slow", b.call(5, 2));
  return b;
}

TraceTables goldenStepTrace() {
  TraceBuilder b;
  b.device(0, 80);
  b.step(0, 1000, 1);
  // The host loads a batch, then launches a GEMM.
  b.range(0, 300, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
  b.kernel(320, 80, "volta_sgemm_128x64_nn", b.call(310, 5));
  // It blocks in a device synchronize, and launches the next GEMM after it.
  b.call(395, 105, "cudaDeviceSynchronize");
  b.kernel(510, 90, "volta_sgemm_128x64_nn", b.call(500, 5));
  // CPU-side op work before the next launch; then kernels queued ahead.
  b.range(600, 50, "aten::add");
  b.kernel(
      660, 40,
      "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>()",
      b.call(650, 3));
  b.kernel(
      710, 40,
      "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>()",
      b.call(655, 3));
  // A collective on its own stream; the compute stream waits for it.
  b.kernel(760, 130, "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", b.call(656, 2), 8);
  b.kernel(
      900, 50,
      "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>()",
      b.call(657, 2));
  return b.build();
}

}  // namespace damscope::testing
