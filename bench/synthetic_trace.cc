// A synthetic training trace: see synthetic_trace.h.
#include "bench/synthetic_trace.h"

#include <algorithm>
#include <array>
#include <string>

namespace damscope {

TraceTables syntheticTrainingTrace(int64_t kernels) {
  TraceTables t;
  constexpr int64_t kKernelsPerStep = 1000;
  constexpr int64_t kRangesPerStep = kKernelsPerStep / 10;
  const int64_t steps = std::max<int64_t>(1, kernels / kKernelsPerStep);
  t.kernels.reserve(static_cast<size_t>(kernels));
  t.api_calls.reserve(static_cast<size_t>(kernels + 2 * steps));
  t.ranges.reserve(static_cast<size_t>(steps * kRangesPerStep));

  ProcessTable::Row p;
  p.pid = 1;
  p.rank = 0;
  t.processes.append(p);
  t.threads.append({0, 1, t.strings.intern("python")});
  DeviceTable::Row d;
  d.device = 0;
  d.kind = DeviceKind::kGpu;
  d.name = t.strings.intern("NVIDIA A100-SXM4-80GB");
  d.sm_count = 108;
  d.memory_bytes = 85899345920;
  t.devices.append(d);

  const std::array<StringId, 10> names = {
      t.strings.intern("ampere_sgemm_128x64_nn"),
      t.strings.intern(
          "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>(Params)"),
      t.strings.intern(
          "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16"),
      t.strings.intern(
          "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 128, true, 1, true>()"),
      t.strings.intern("void at::native::vectorized_elementwise_kernel<4, "
                       "at::native::CUDAFunctor_add<float>>()"),
      t.strings.intern("void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous "
                       "namespace)::launch_clamp_scalar()>()"),
      t.strings.intern("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
                       "at::native::MeanOps<float, float>>>()"),
      t.strings.intern("void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, "
                       "unsigned int, 2, 128, 1>()"),
      t.strings.intern(
          "void at::native::(anonymous "
          "namespace)::multi_tensor_apply_kernel<TensorListMetadata<4>, AdamFunctor<float>>()"),
      t.strings.intern("flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, "
                       "cutlass::half_t>>"),
  };
  const StringId nccl = t.strings.intern(
      "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)");
  const StringId launch = t.strings.intern("cudaLaunchKernel");
  const StringId memcpy_call = t.strings.intern("cudaMemcpyAsync");
  const StringId sync_call = t.strings.intern("cudaStreamSynchronize");
  const StringId cpu_op = t.strings.intern("cpu_op");
  const StringId annotation = t.strings.intern("user_annotation");
  const StringId loader =
      t.strings.intern("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__");
  const std::array<StringId, 4> ops = {
      t.strings.intern("aten::conv2d"), t.strings.intern("aten::mm"),
      t.strings.intern("aten::batch_norm"), t.strings.intern("aten::relu_")};

  int64_t now = 1'700'000'000'000'000'000;  // ns, CLOCK_REALTIME-like
  int64_t correlation = 1;
  int64_t gpu_free = now;  // when the compute stream becomes free
  int64_t kernel_count = 0;
  auto call = [&](int64_t ts, int64_t dur, StringId name) {
    ApiCallTable::Row a;
    a.ts = ts, a.dur = dur, a.thread_id = 0, a.api = ApiKind::kRuntime, a.name = name;
    a.correlation_id = correlation++;
    t.api_calls.append(a);
    return a.correlation_id;
  };
  // aten::mm records its shapes (record_shapes=True), so its kernels get
  // roofline points and the benchmark pays for them.
  const std::string mm_shapes =
      R"({"Input Dims":[[1024,1024],[1024,1024]],"Input type":["float","float"]})";
  auto range = [&](int64_t ts, int64_t dur, StringId name, StringId category) {
    RangeTable::Row r;
    r.ts = ts, r.dur = dur, r.thread_id = 0, r.category = category, r.name = name;
    if (name == ops[1]) r.args = mm_shapes;
    t.ranges.append(r);
  };
  for (int64_t s = 0; s < steps && kernel_count < kernels; ++s) {
    const int64_t step_start = now;
    const int64_t n = std::min(kKernelsPerStep, kernels - kernel_count);
    // Data loading: 2 ms on every fourth step, 50 µs otherwise.
    const int64_t load = s % 4 == 0 ? 2'000'000 : 50'000;
    range(now, load, loader, annotation);
    now += load;
    // The input copy, from pageable memory: the call blocks until it is done.
    {
      const int64_t c = call(now, 120'000, memcpy_call);
      MemcpyTable::Row m;
      m.ts = std::max(now + 10'000, gpu_free);
      m.dur = 100'000;
      m.device = 0, m.stream = 7, m.correlation_id = c;
      m.copy_kind = CopyKind::kHtoD, m.src_kind = MemoryKind::kPageable,
      m.dst_kind = MemoryKind::kDevice;
      m.bytes = 64 << 20;
      t.memcpys.append(m);
      gpu_free = m.ts + m.dur;
      now = std::max(now + 120'000, gpu_free);
    }
    // Ops of ten kernels each; the host launches a kernel every 6 µs.
    int64_t op_start = now;
    for (int64_t k = 0; k < n; ++k) {
      if (k % 10 == 0) op_start = now;
      const bool collective = k % 50 == 49;
      const int64_t c = call(now, 4'000, launch);
      KernelTable::Row kr;
      const int64_t dur = collective ? 40'000 : 2'000 + (k * 7919 % 23) * 1'000;
      kr.ts = std::max(now + 5'000, collective ? now + 5'000 : gpu_free);
      kr.dur = dur;
      kr.device = 0;
      kr.stream = collective ? 8 : 7;
      kr.correlation_id = c;
      kr.name = collective ? nccl : names[static_cast<size_t>(k % 10)];
      kr.grid_x = static_cast<int32_t>(32 + (k * 31) % 400), kr.grid_y = 1, kr.grid_z = 1;
      kr.block_x = 256, kr.block_y = 1, kr.block_z = 1;
      kr.occupancy_pct = 25.0 + static_cast<double>(k % 4) * 12.5;
      t.kernels.append(kr);
      if (!collective) gpu_free = kr.ts + kr.dur;
      ++kernel_count;
      now += 6'000;
      if (k % 10 == 9)
        range(op_start, now - op_start, ops[static_cast<size_t>((k / 10) % 4)], cpu_op);
    }
    // The loss is read back every step: a stream synchronize.
    const int64_t sync_end = std::max(now + 5'000, gpu_free);
    call(now, sync_end - now, sync_call);
    now = sync_end + 20'000;
    // The step range goes first among ranges starting at its start: append
    // and let the sort below place it (tables are kept sorted by (ts, -dur)).
    range(step_start, now - step_start, t.strings.intern("ProfilerStep#" + std::to_string(s)),
          annotation);
  }
  // Sort as the store keeps tables: by (ts, -dur). Kernels of two streams and
  // the step ranges appended last are out of order.
  auto sort = [](auto& table) {
    std::vector<int64_t> order(table.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int64_t>(i);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return table.ts[a] != table.ts[b] ? table.ts[a] < table.ts[b] : table.dur[a] > table.dur[b];
    });
    table.forEachColumn([&](const char*, auto& column) {
      auto copy = column;
      for (size_t i = 0; i < order.size(); ++i)
        column[i] = std::move(copy[static_cast<size_t>(order[i])]);
    });
  };
  sort(t.kernels), sort(t.ranges), sort(t.memcpys), sort(t.api_calls);
  return t;
}

}  // namespace damscope
