// Static work splitting for the kernels' OpenMP regions: the same slice of a
// range for the same thread index and count, every call, which is what makes
// runs bit-identical for a thread count (kernels.h). And the function
// multiversioning of the compute-heavy loops.
#pragma once

#include <omp.h>

#include <cstddef>

// The binary targets baseline x86-64 (SSE2) so that it runs on any x86-64
// machine; a kernel marked GPT2_SIMD_CLONES is also compiled for x86-64-v3
// (AVX2, FMA) and the dynamic loader picks the version for the CPU (GCC's
// target_clones). Used where the measured gain pays for the second copy
// (docs/gpt2-trainer.md): the loops with exp/tanh and the attention passes.
// OpenMP outlines the body of a parallel region into a function of its own,
// which would not inherit the clones, so the marked functions are the
// per-thread spans that parallel regions call.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define GPT2_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define GPT2_SIMD_CLONES
#endif

namespace damscope::gpt2::cpu {

struct Slice {
  size_t begin = 0;
  size_t end = 0;
};

// The calling thread's contiguous slice [begin, end) of [0, n) inside a
// parallel region; slices differ in size by at most one. (A struct rather
// than a pair: clang 14 cannot capture structured bindings in the nested
// `omp simd` regions that use them.)
inline Slice threadSlice(size_t n) {
  const size_t threads = static_cast<size_t>(omp_get_num_threads());
  const size_t id = static_cast<size_t>(omp_get_thread_num());
  return {n * id / threads, n * (id + 1) / threads};
}

}  // namespace damscope::gpt2::cpu
