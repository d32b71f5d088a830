// `damscope plan`: the napkin math before a run (DESIGN.md's workflow starts
// here: estimate FLOPs, memory, time, cost and the communication wall, then
// profile, fix, re-profile). Pure arithmetic from a model's shape, a device
// row (analyzer/devices/device_specs.h) and a cluster; every figure cites its
// formula in training_plan.cc, and every default is an assumption the plan
// prints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/analyses/model_flops.h"
#include "analyzer/analyses/training_memory.h"
#include "analyzer/analyses/wave_quantization.h"  // waveUtilization, for the plan's callers
#include "analyzer/devices/device_specs.h"
#include "base/result.h"

namespace damscope {

// What to plan: the model, the batch, how it is trained, on what.
struct PlanRequest {
  ModelShape model;  // params, and layers/d_model/heads/seq_len/vocab where known
  int64_t micro_batch = 8;  // sequences per GPU per forward pass
  int64_t grad_accum = 1;   // micro-batches per optimizer step
  Precision precision = Precision::kBf16;
  bool master_weights = true;  // fp32 master weights in mixed precision
  Checkpointing checkpointing = Checkpointing::kNone;
  int zero_stage = 0;  // 0..3
  bool flash_attention = false;

  const DeviceSpec* device = nullptr;
  int64_t gpus = 1;   // data-parallel ranks
  int64_t nodes = 0;  // 0: one per 8 GPUs (an HGX/DGX board)
  std::optional<double> link_bytes_per_s;  // per GPU, per direction; default: see plan

  // The fraction of the peak the hardware sustains, a band; without
  // recomputation it is the MFU. 30-50 %: large runs report 21-46 % MFU
  // (Chowdhery et al., "PaLM", 2022, table 3: GPT-3 21.3 %, Gopher 32.5 %,
  // MT-NLG 30.2 %, PaLM 46.2 %).
  double utilization_low = 0.30;
  double utilization_high = 0.50;
  std::optional<double> tokens;     // to train on; default 20 per parameter
  std::optional<double> gpu_watts;  // default: the device's max power
  double host_watts = 200;          // per node
  double usd_per_gpu_hour = 2.0;
  double kg_co2_per_kwh = 0.48;
};

// Forward FLOPs of one transformer layer for one micro-batch, by product.
struct LayerFlops {
  double qkv = 0;
  double scores = 0;            // Q K^T
  double attention_values = 0;  // softmax(Q K^T) V
  double out_projection = 0;
  double ffn = 0;
  double total() const { return qkv + scores + attention_values + out_projection + ffn; }
};

// Per GPU, bytes.
struct PlanMemory {
  TrainingState state;                    // after ZeRO sharding
  std::optional<double> activations;      // empty without the shape
  std::optional<double> attention_scores; // the S x S part of `activations`
  std::optional<double> logits;           // fp32 logits; empty without the vocabulary
  double total = 0;
  double device = 0;  // the device's memory
  double usable = 0;  // what the plan lets training take
  bool fits = false;
};

// A band of figures, at the high and the low utilization.
struct Band {
  double fast = 0;  // at utilization_high
  double slow = 0;  // at utilization_low
};

struct PlanTime {
  double peak_flops_per_s = 0;  // one GPU at the precision
  Band step_s;                  // compute only
  double tokens = 0;
  bool tokens_defaulted = false;
  double steps = 0;
  Band total_s;
  Band gpu_hours;
  double gpu_watts = 0;
  int64_t nodes = 0;
  Band energy_kwh;  // GPUs and hosts
  Band cost_usd;
  Band co2_kg;
};

struct PlanNetwork {
  double gradient_bytes = 0;  // one all-reduce's payload
  double wire_bytes = 0;      // what each GPU sends per step
  double link_bytes_per_s = 0;
  std::string link;  // where the bandwidth comes from
  double allreduce_s = 0;
  bool network_bound = false;  // slower than even the fast compute step
};

enum class ScaleOut : uint8_t {
  kFitsOneGpu,
  kFitsDataParallel,
  kNeedsZero,          // a higher ZeRO stage than requested fits
  kNeedsLessActivation,  // the state fits, activations do not
  kNeedsModelParallel,   // activations do not fit even fully recomputed
  kDoesNotFit,           // the training state exceeds the cluster's memory
};
std::string_view toText(ScaleOut verdict);

struct TrainingPlan {
  PlanRequest request;
  std::optional<LayerFlops> layer_forward;  // per micro-batch
  double model_flops_per_token = 0;         // 6 N (+ 6 L d T), as MFU counts
  double hardware_flops_per_token = 0;      // plus recomputation
  double tokens_per_step = 0;               // all GPUs, all micro-batches
  PlanMemory memory;
  PlanTime time;
  std::optional<PlanNetwork> network;  // empty on one GPU
  ScaleOut verdict = ScaleOut::kFitsOneGpu;
  int zero_stage_needed = 0;          // kNeedsZero: the lowest stage that fits
  double least_activation_bytes = 0;  // per GPU, fully recomputed with fused attention
  int64_t min_gpus = 0;               // kDoesNotFit: GPUs the state alone needs
};

// The plan; an error (bad input) names the flag that is wrong.
Result<TrainingPlan> planTraining(const PlanRequest& request);

}  // namespace damscope
