// The napkin-math planner: see training_plan.h.
#include "analyzer/planner/training_plan.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace damscope {
namespace {

// GPUs on one node when --nodes is not given: an HGX/DGX board holds 8.
constexpr int64_t kGpusPerNode = 8;
// Training tokens per parameter when --tokens is not given: the
// compute-optimal ratio of Hoffmann et al., "Training Compute-Optimal Large
// Language Models" (Chinchilla), 2022, table 3 (about 20).
constexpr double kTokensPerParameter = 20;
// The share of a device's memory a plan lets training take: the rest goes
// to the CUDA context, NCCL's buffers and the caching allocator's
// fragmentation, which together take a few GB in practice (an assumption the
// plan prints, not a measured figure).
constexpr double kUsableMemoryFraction = 0.9;
// Across nodes, one 200 Gb/s InfiniBand HDR port per GPU, as a DGX A100 has
// (NVIDIA DGX A100 datasheet: 8x single-port ConnectX-6 for compute).
constexpr double kDefaultNetworkBytesPerS = 25e9;
// The bytes a logit takes: autocast runs log_softmax and the loss in fp32
// (PyTorch, "Automatic Mixed Precision package", CUDA ops that autocast to
// float32).
constexpr double kLogitBytes = 4;

bool finitePositive(double v) {
  return std::isfinite(v) && v > 0;
}
bool finiteNonNegative(double v) {
  return std::isfinite(v) && v >= 0;
}

Status checkRequest(const PlanRequest& r) {
  if (!r.device) return Error("--gpu: a device is needed");
  if (!finitePositive(r.model.params) || r.model.params > 1e15) {
    return Error("--params: expected a parameter count above 0 and at most 1e15");
  }
  for (const auto& [value, flag] :
       {std::pair{r.model.layers, "--layers"}, std::pair{r.model.d_model, "--d-model"},
        std::pair{r.model.heads, "--heads"}, std::pair{r.model.seq_len, "--seq"},
        std::pair{r.model.vocab, "--vocab"}}) {
    if (value && (*value < 1 || *value > 100'000'000)) {
      return Error(std::string(flag) + ": expected 1 to 100,000,000");
    }
  }
  if (!r.model.seq_len) return Error("--seq: the sequence length is needed for tokens per step");
  if (r.micro_batch < 1 || r.micro_batch > 1'000'000) {
    return Error("--batch: expected 1 to 1,000,000 sequences");
  }
  if (r.grad_accum < 1 || r.grad_accum > 1'000'000) {
    return Error("--grad-accum: expected 1 to 1,000,000");
  }
  if (r.zero_stage < 0 || r.zero_stage > 3) return Error("--zero: expected 0, 1, 2 or 3");
  if (r.gpus < 1 || r.gpus > 10'000'000) return Error("--gpus: expected 1 to 10,000,000");
  if (r.nodes < 0 || r.nodes > r.gpus) {
    return Error("--nodes: expected 1 to the number of GPUs (" + std::to_string(r.gpus) + ")");
  }
  if (r.link_bytes_per_s && !finitePositive(*r.link_bytes_per_s)) {
    return Error("--link-gbs: expected a bandwidth above 0 GB/s");
  }
  if (!(r.utilization_low > 0 && r.utilization_low <= r.utilization_high &&
        r.utilization_high <= 1)) {
    return Error("--mfu: expected LOW[-HIGH] percentages above 0, at most 100, LOW <= HIGH");
  }
  if (r.tokens && (!finitePositive(*r.tokens) || *r.tokens > 1e18)) {
    return Error("--tokens: expected a token count above 0 and at most 1e18");
  }
  if (r.gpu_watts && !finitePositive(*r.gpu_watts)) {
    return Error("--gpu-watts: expected a power above 0 W");
  }
  if (!finiteNonNegative(r.host_watts)) return Error("--host-watts: expected 0 W or more");
  if (!finiteNonNegative(r.usd_per_gpu_hour)) return Error("--usd-per-gpu-hour: expected 0 or more");
  if (!finiteNonNegative(r.kg_co2_per_kwh)) return Error("--co2-kg-per-kwh: expected 0 or more");
  if (!r.device->peakFlopsPerS(r.precision)) {
    return Error("--precision " + std::string(toText(r.precision)) + ": the " +
                 std::string(r.device->name) + " has no peak for it in the device table");
  }
  if (!r.gpu_watts && !(r.device->max_power_w > 0)) {
    return Error("--gpu-watts: the device table has no power figure for the " +
                 std::string(r.device->name));
  }
  return {};
}

// Forward FLOPs of one GPT layer for B sequences of S tokens of width d, each
// multiply-add 2 FLOPs: Q, K, V 3 x 2BSd^2; the scores QK^T and their
// product with V 2BS^2d each (every score computed: the figure a dense
// kernel does); the output projection 2BSd^2; the MLP's two 4d-wide matrices
// 16BSd^2 — 24BSd^2 + 4BS^2d in all (Narayanan et al., "Efficient
// Large-Scale Language Model Training on GPU Clusters Using Megatron-LM",
// SC 2021, section 5.1). A SwiGLU MLP of width 8d/3 (Llama) does the same
// 16BSd^2; grouped-query attention's smaller K and V are not modelled.
LayerFlops layerForward(double b, double s, double d) {
  LayerFlops f;
  f.qkv = 6 * b * s * d * d;
  f.scores = 2 * b * s * s * d;
  f.attention_values = 2 * b * s * s * d;
  f.out_projection = 2 * b * s * d * d;
  f.ffn = 16 * b * s * d * d;
  return f;
}

// FLOPs per token that recomputation adds: full recomputation runs the
// forward pass again (2 N + 2 L d T, a third of trainingFlopsPerToken);
// selective recomputation only attention's products (2 L d T).
double recomputeFlopsPerToken(const ModelShape& m, Checkpointing checkpointing) {
  const double attention = hasAttentionTerm(m) ? 2.0 * static_cast<double>(*m.layers) *
                                                     static_cast<double>(*m.d_model) *
                                                     static_cast<double>(*m.seq_len)
                                               : 0;
  switch (checkpointing) {
    case Checkpointing::kNone:
      return 0;
    case Checkpointing::kSelective:
      return attention;
    case Checkpointing::kFull:
      return 2 * m.params + attention;
  }
  return 0;
}

std::optional<ActivationShape> activationShape(const PlanRequest& r) {
  const ModelShape& m = r.model;
  if (!m.layers || !m.d_model || !m.heads || !m.seq_len) return std::nullopt;
  return ActivationShape{.seq_len = static_cast<double>(*m.seq_len),
                         .micro_batch = static_cast<double>(r.micro_batch),
                         .width = static_cast<double>(*m.d_model),
                         .heads = static_cast<double>(*m.heads),
                         .layers = static_cast<double>(*m.layers)};
}

PlanMemory planMemory(const PlanRequest& r, int zero_stage, Checkpointing checkpointing,
                      bool flash_attention) {
  PlanMemory mem;
  const TrainingState whole = trainingState(r.model.params, r.precision, r.master_weights);
  mem.state = shardedState(whole, zero_stage, static_cast<double>(r.gpus));
  if (const auto shape = activationShape(r)) {
    const bool scores = !flash_attention;
    mem.activations = activationBytes(*shape, r.precision, checkpointing, scores);
    mem.attention_scores =
        scores ? *mem.activations - activationBytes(*shape, r.precision, checkpointing, false) : 0;
  }
  if (r.model.vocab) {
    mem.logits = static_cast<double>(*r.model.seq_len) * static_cast<double>(r.micro_batch) *
                 static_cast<double>(*r.model.vocab) * kLogitBytes;
  }
  mem.total = mem.state.total() + mem.activations.value_or(0) + mem.logits.value_or(0);
  mem.device = static_cast<double>(r.device->memory_bytes);
  mem.usable = mem.device * kUsableMemoryFraction;
  mem.fits = mem.total <= mem.usable;
  return mem;
}

PlanNetwork planNetwork(const PlanRequest& r, int64_t nodes) {
  PlanNetwork net;
  net.gradient_bytes = trainingState(r.model.params, r.precision, r.master_weights).gradients;
  // A ring all-reduce sends 2 (D - 1) / D of the payload from each of D ranks,
  // the bandwidth-optimal amount (Patarasuk and Yuan, "Bandwidth optimal
  // all-reduce algorithms for clusters of workstations", JPDC 2009). ZeRO
  // stages 1 and 2 move the same volume (a reduce-scatter and an
  // all-gather); stage 3 gathers the weights once more, 1.5 times
  // (Rajbhandari et al. 2020, section 7).
  const double d = static_cast<double>(r.gpus);
  net.wire_bytes = 2 * (d - 1) / d * net.gradient_bytes * (r.zero_stage == 3 ? 1.5 : 1.0);
  if (r.link_bytes_per_s) {
    net.link_bytes_per_s = *r.link_bytes_per_s;
    net.link = "--link-gbs";
  } else if (nodes > 1) {
    net.link_bytes_per_s = kDefaultNetworkBytesPerS;
    net.link = "200 Gb/s InfiniBand per GPU between nodes (assumed; --link-gbs)";
  } else if (r.device->peer_link) {
    net.link_bytes_per_s = r.device->peer_link->bytes_per_s;
    net.link = std::string(toText(r.device->peer_link->kind)) +
               (r.device->peer_link->needs_bridge ? " (with a bridge fitted)" : "");
  } else {
    net.link_bytes_per_s = r.device->host_link.bytes_per_s;
    net.link = std::string(toText(r.device->host_link.kind));
  }
  net.allreduce_s = net.wire_bytes / net.link_bytes_per_s;
  return net;
}

Band times(const Band& per_step, double steps) {
  return {per_step.fast * steps, per_step.slow * steps};
}

void chooseVerdict(const PlanRequest& r, TrainingPlan& plan) {
  if (plan.memory.fits) {
    plan.verdict = r.gpus == 1 ? ScaleOut::kFitsOneGpu : ScaleOut::kFitsDataParallel;
    return;
  }
  // A higher ZeRO stage over the same GPUs.
  for (int stage = r.zero_stage + 1; r.gpus > 1 && stage <= 3; ++stage) {
    if (planMemory(r, stage, r.checkpointing, r.flash_attention).fits) {
      plan.verdict = ScaleOut::kNeedsZero;
      plan.zero_stage_needed = stage;
      return;
    }
  }
  // Everything sharded and the least activation memory training can have.
  const PlanMemory least = planMemory(r, 3, Checkpointing::kFull, true);
  plan.least_activation_bytes = least.activations.value_or(0) + least.logits.value_or(0);
  if (least.fits) {
    plan.verdict = ScaleOut::kNeedsLessActivation;
    return;
  }
  const double whole_state =
      trainingState(r.model.params, r.precision, r.master_weights).total();
  if (whole_state / static_cast<double>(r.gpus) <= least.usable) {
    plan.verdict = ScaleOut::kNeedsModelParallel;
    return;
  }
  plan.verdict = ScaleOut::kDoesNotFit;
  plan.min_gpus = static_cast<int64_t>(std::ceil(whole_state / least.usable));
}

}  // namespace

std::string_view toText(ScaleOut verdict) {
  switch (verdict) {
    case ScaleOut::kFitsOneGpu:
      return "fits-one-gpu";
    case ScaleOut::kFitsDataParallel:
      return "fits-data-parallel";
    case ScaleOut::kNeedsZero:
      return "needs-zero";
    case ScaleOut::kNeedsLessActivation:
      return "needs-less-activation";
    case ScaleOut::kNeedsModelParallel:
      return "needs-model-parallel";
    case ScaleOut::kDoesNotFit:
      return "does-not-fit";
  }
  return "does-not-fit";
}

Result<TrainingPlan> planTraining(const PlanRequest& request) {
  if (Status ok = checkRequest(request); !ok.ok()) return ok.error();
  TrainingPlan plan;
  plan.request = request;
  const PlanRequest& r = plan.request;
  const ModelShape& m = r.model;
  const double seq = static_cast<double>(*m.seq_len);

  if (m.d_model) {
    plan.layer_forward =
        layerForward(static_cast<double>(r.micro_batch), seq, static_cast<double>(*m.d_model));
  }
  plan.model_flops_per_token = trainingFlopsPerToken(m);
  plan.hardware_flops_per_token =
      plan.model_flops_per_token + recomputeFlopsPerToken(m, r.checkpointing);
  plan.tokens_per_step = static_cast<double>(r.micro_batch) * seq *
                         static_cast<double>(r.grad_accum) * static_cast<double>(r.gpus);

  plan.memory = planMemory(r, r.zero_stage, r.checkpointing, r.flash_attention);

  PlanTime& t = plan.time;
  t.nodes = r.nodes > 0 ? r.nodes : (r.gpus + kGpusPerNode - 1) / kGpusPerNode;
  t.peak_flops_per_s = *r.device->peakFlopsPerS(r.precision);
  const double step_flops_per_gpu =
      plan.hardware_flops_per_token * plan.tokens_per_step / static_cast<double>(r.gpus);
  t.step_s = {step_flops_per_gpu / (t.peak_flops_per_s * r.utilization_high),
              step_flops_per_gpu / (t.peak_flops_per_s * r.utilization_low)};
  if (r.gpus > 1) {
    plan.network = planNetwork(r, t.nodes);
    plan.network->network_bound = plan.network->allreduce_s > t.step_s.fast;
  }
  // A step takes the longer of its compute and its all-reduce: the best
  // case, with the all-reduce overlapped with the backward pass.
  const double allreduce_s = plan.network ? plan.network->allreduce_s : 0;
  const Band step_with_network{std::max(t.step_s.fast, allreduce_s),
                               std::max(t.step_s.slow, allreduce_s)};
  t.tokens_defaulted = !r.tokens;
  t.tokens = r.tokens.value_or(kTokensPerParameter * m.params);
  t.steps = std::ceil(t.tokens / plan.tokens_per_step);
  t.total_s = times(step_with_network, t.steps);
  const double gpus = static_cast<double>(r.gpus);
  t.gpu_hours = {t.total_s.fast * gpus / 3600, t.total_s.slow * gpus / 3600};
  t.gpu_watts = r.gpu_watts.value_or(r.device->max_power_w);
  const double watts = gpus * t.gpu_watts + static_cast<double>(t.nodes) * r.host_watts;
  t.energy_kwh = {watts * t.total_s.fast / 3.6e6, watts * t.total_s.slow / 3.6e6};
  t.cost_usd = {t.gpu_hours.fast * r.usd_per_gpu_hour, t.gpu_hours.slow * r.usd_per_gpu_hour};
  t.co2_kg = {t.energy_kwh.fast * r.kg_co2_per_kwh, t.energy_kwh.slow * r.kg_co2_per_kwh};

  chooseVerdict(r, plan);
  return plan;
}

}  // namespace damscope
