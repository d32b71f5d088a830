// Making a batch: see batch.h.
#include "reference_workloads/gpt2/data/batch.h"

#include <chrono>

namespace damscope::gpt2 {

void makeBatch(const TokenSource& source, const BatchSpec& spec, int64_t index, Batch& out) {
  const size_t T = spec.seq;
  out.index = index;
  out.inputs.resize(size_t(spec.batch) * T);
  out.targets.resize(size_t(spec.batch) * T);
  std::vector<int32_t> sequence(T + 1);
  for (int b = 0; b < spec.batch; ++b) {
    source.fillSequence(spec.seed, index, b, static_cast<int>(T + 1), sequence.data());
    std::copy(sequence.begin(), sequence.end() - 1, out.inputs.begin() + b * T);
    std::copy(sequence.begin() + 1, sequence.end(), out.targets.begin() + b * T);
  }
  out.work_digest = spec.cost_ms > 0 ? burnCpu(spec.cost_ms, out.inputs) : 0;
}

uint64_t burnCpu(double ms, const std::vector<int32_t>& tokens) {
  using Clock = std::chrono::steady_clock;
  const auto end = Clock::now() + std::chrono::duration<double, std::milli>(ms);
  // FNV-1a (Fowler, Noll, Vo) over the tokens, one pass between clock reads.
  uint64_t h = 0xcbf29ce484222325ull;
  do {
    for (int32_t t : tokens) {
      h ^= static_cast<uint32_t>(t);
      h *= 0x100000001b3ull;
    }
  } while (Clock::now() < end);
  return h;
}

}  // namespace damscope::gpt2
