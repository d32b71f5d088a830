// One training batch and how it is made: B sequences of T + 1 tokens, split
// into inputs (tokens 0..T-1) and targets (tokens 1..T), plus the optional
// per-batch CPU cost (--batch-cost-ms) that stands in for decoding,
// tokenising or augmenting.
#pragma once

#include <cstdint>
#include <vector>

#include "reference_workloads/gpt2/data/token_source.h"

namespace damscope::gpt2 {

struct BatchSpec {
  int batch = 0;  // B
  int seq = 0;    // T
  uint64_t seed = 0;
  double cost_ms = 0;  // CPU work per batch, burned by computation
};

struct Batch {
  int64_t index = -1;
  std::vector<int32_t> inputs;   // B * T
  std::vector<int32_t> targets;  // B * T
  // The result of the per-batch work (a digest of the tokens), kept so that
  // the work cannot be optimised away; it does not change the tokens.
  uint64_t work_digest = 0;
};

// Batch `index`: a pure function of the source, spec.seed and index. Then
// spends spec.cost_ms of CPU time (wall clock, on the calling thread)
// hashing the batch's tokens over and over.
void makeBatch(const TokenSource& source, const BatchSpec& spec, int64_t index, Batch& out);

// Hashes the tokens repeatedly until `ms` milliseconds have passed; returns
// the digest. Real work (no sleep), so the thread is busy, as a data loader
// that decodes or tokenises is.
uint64_t burnCpu(double ms, const std::vector<int32_t>& tokens);

}  // namespace damscope::gpt2
