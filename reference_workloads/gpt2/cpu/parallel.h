// Static work splitting for the kernels' OpenMP regions: the same slice of a
// range for the same thread index and count, every call, which is what makes
// runs bit-identical for a thread count (kernels.h).
#pragma once

#include <omp.h>

#include <cstddef>
#include <utility>

namespace damscope::gpt2::cpu {

// The calling thread's contiguous slice [begin, end) of [0, n) inside a
// parallel region; slices differ in size by at most one.
inline std::pair<size_t, size_t> threadSlice(size_t n) {
  const size_t threads = static_cast<size_t>(omp_get_num_threads());
  const size_t id = static_cast<size_t>(omp_get_thread_num());
  return {n * id / threads, n * (id + 1) / threads};
}

}  // namespace damscope::gpt2::cpu
