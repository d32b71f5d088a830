// Checkpoints (--save / --load): everything a resumed run needs for its next
// loss to equal the uninterrupted run's (same thread count: kernels.h).
//   the config (shape, vocabulary, padding), the steps taken, the seed, the
//   batch shape, the next batch index (the loader's position: batches are a
//   pure function of seed and index, data/token_source.h), the data source,
//   the parameters and both AdamW moments.
// Gradients are not saved: a step writes all of them before reading any.
// The training code draws no other random numbers (no dropout), so there is
// no further generator state.
//
// Format (version 1, little-endian as the host, which the reader checks by
// the magic): "GPT2CKPT", u32 version, i32 layers, d_model, heads, max_seq,
// vocab, padded_vocab, u32 length + config name, i64 steps, u64 seed, i32
// batch, seq, i64 next_batch, u32 length + data description, u64 n, then n
// floats each of parameters, AdamW m, AdamW v.
// Written to FILE.tmp and renamed, so a failed save leaves no partial FILE.
#pragma once

#include <cstdint>
#include <string>

#include "reference_workloads/gpt2/model/config.h"
#include "reference_workloads/gpt2/model/gpt2_model.h"
#include "base/result.h"

namespace damscope::gpt2 {

struct CheckpointHeader {
  ModelConfig config;
  int64_t steps = 0;  // steps taken; the resumed run's first step index
  uint64_t seed = 0;
  int batch = 0;
  int seq = 0;
  int64_t next_batch = 0;
  std::string data;  // TokenSource::description() of the run that wrote it
};

Status saveCheckpoint(const std::string& path, const CheckpointHeader& header,
                      const Gpt2Model& model);
// Reads and checks the header only (the run is configured from it first):
// a regular file (base/input_fd.h), a preset's config, printable strings,
// and a tensor count that matches the config and the bytes that follow.
Result<CheckpointHeader> readCheckpointHeader(const std::string& path);
// Reads the parameters and moments into a model built for the header's config.
Status loadCheckpointState(const std::string& path, Gpt2Model& model);

}  // namespace damscope::gpt2
