// The squared global gradient norm on the CPU; math and costs in ops/grad_norm.h.
#include <vector>

#include "reference_workloads/gpt2/cpu/kernels.h"
#include "reference_workloads/gpt2/cpu/parallel.h"

namespace damscope::gpt2::cpu {

// Sum of g^2 in double (tens of millions of terms); each thread sums its
// slice, and the partials are added in thread order.
double gradNormSquared(const float* grads, size_t n) {
  std::vector<double> partials(omp_get_max_threads(), 0.0);
#pragma omp parallel
  {
    const Slice mine = threadSlice(n);
    double sum = 0.0;
#pragma omp simd reduction(+ : sum)
    for (size_t i = mine.begin; i < mine.end; ++i) sum += double(grads[i]) * grads[i];
    partials[omp_get_thread_num()] = sum;
  }
  double total = 0.0;
  for (double p : partials) total += p;
  return total;
}

}  // namespace damscope::gpt2::cpu
