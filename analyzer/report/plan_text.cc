// The plan for people: see plan_report.h.
#include <fmt/format.h>

#include <cmath>

#include "analyzer/report/plan_report.h"
#include "analyzer/report/result_words.h"
#include "analyzer/report/text_format.h"

namespace damscope {
namespace {

// Network volumes and rates in decimal GB, as links are sold and NCCL's
// bus bandwidth is printed.
std::string gigabytes(double bytes) {
  return fmt::format("{:.1f} GB", bytes / 1e9);
}

std::string wallTime(double seconds) {
  if (seconds < 120) return fmt::format("{:.1f} s", seconds);
  if (seconds < 2 * 3600) return fmt::format("{:.0f} min", seconds / 60);
  if (seconds < 48 * 3600) return fmt::format("{:.1f} h", seconds / 3600);
  return fmt::format("{:.1f} days", seconds / 86400);
}

std::string count(double v) {
  if (v >= 1e12) return fmt::format("{:.2f} T", v / 1e12);
  if (v >= 1e9) return fmt::format("{:.2f} B", v / 1e9);
  if (v >= 1e6) return fmt::format("{:.1f} M", v / 1e6);
  if (v >= 100) return withThousands(std::llround(v));
  return fmt::format("{:.1f}", v);
}

std::string dollars(double v) {
  return "$" + count(v);
}

std::string plural(int64_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// "a to b", or one figure when the band is one value.
template <typename Format>
std::string band(const Band& b, Format format) {
  const std::string fast = format(b.fast), slow = format(b.slow);
  return fast == slow ? fast : fast + " to " + slow;
}

std::string line(std::string_view label, const std::string& value) {
  return fmt::format("  {:<20}{}\n", label, value);
}

std::string header(const TrainingPlan& plan) {
  const PlanRequest& r = plan.request;
  const ModelShape& m = r.model;
  std::string out = fmt::format(
      "PLAN  {}: {} x {}, {}, micro-batch {} x {} tokens, gradient accumulation {}\n",
      terminalSafe(m.name.empty() ? "model" : m.name), r.gpus, r.device->name,
      toText(r.precision), r.micro_batch, withThousands(*m.seq_len), r.grad_accum);
  std::string shape = count(m.params) + " parameters";
  if (m.layers) shape += fmt::format(", {} layers", *m.layers);
  if (m.d_model) shape += fmt::format(", width {}", *m.d_model);
  if (m.heads) shape += fmt::format(", {} heads", *m.heads);
  if (m.vocab) shape += ", vocabulary " + withThousands(*m.vocab);
  shape += fmt::format("; checkpointing {}, ZeRO {}{}", toText(r.checkpointing), r.zero_stage,
                       r.flash_attention ? ", FlashAttention" : "");
  return out + "      " + shape + "\n";
}

std::string work(const TrainingPlan& plan) {
  std::string out = "\nWORK\n";
  if (const auto& f = plan.layer_forward) {
    out += line("forward, 1 layer", fmt::format("{} per micro-batch: QKV {}, scores {}, "
                                                "attention x V {}, output {}, MLP {}",
                                                flopCount(f->total()), flopCount(f->qkv),
                                                flopCount(f->scores),
                                                flopCount(f->attention_values),
                                                flopCount(f->out_projection), flopCount(f->ffn)));
  }
  const bool attention = hasAttentionTerm(plan.request.model);
  std::string per_token = fmt::format("{} ({})", flopCount(plan.model_flops_per_token),
                                      attention ? "6 N + 6 L d T, as MFU counts them"
                                                : "6 N; give --layers, --d-model for attention");
  if (plan.hardware_flops_per_token > plan.model_flops_per_token) {
    per_token += fmt::format(", {} with recomputation", flopCount(plan.hardware_flops_per_token));
  }
  out += line("per token trained", per_token);
  out += line("per step", fmt::format("{} tokens, {}", withThousands(std::llround(plan.tokens_per_step)),
                                      flopCount(plan.model_flops_per_token * plan.tokens_per_step)));
  return out;
}

std::string memory(const TrainingPlan& plan) {
  const PlanRequest& r = plan.request;
  const PlanMemory& m = plan.memory;
  std::string out = fmt::format("\nMEMORY PER GPU  ({}: {}, {} usable)\n", r.device->name,
                                formatBytes(m.device), formatBytes(m.usable));
  const bool mixed = isSixteenBitOrLess(r.precision);
  const std::string_view kept = mixed ? "bf16/fp16" : toText(r.precision);
  std::string sharded = r.zero_stage > 0 && r.gpus > 1
                            ? fmt::format(", ZeRO {} over {} GPUs", r.zero_stage, r.gpus)
                            : "";
  out += line("weights", formatBytes(m.state.weights) + " " + std::string(kept) +
                             (r.zero_stage >= 3 ? sharded : ""));
  out += line("gradients",
              formatBytes(m.state.gradients) + (r.zero_stage >= 2 ? sharded : ""));
  if (mixed) {
    out += line("master weights", r.master_weights
                                      ? formatBytes(m.state.master_weights) + " fp32" +
                                            (r.zero_stage >= 1 ? sharded : "")
                                      : "none (--no-master-weights)");
  }
  out += line("optimizer state", formatBytes(m.state.optimizer) + " Adam's two moments" +
                                     (r.zero_stage >= 1 ? sharded : ""));
  if (m.activations) {
    std::string a = formatBytes(*m.activations);
    if (m.attention_scores && *m.attention_scores > 0) {
      a += fmt::format(", of which {} attention scores (FlashAttention stores none)",
                       formatBytes(*m.attention_scores));
    }
    out += line("activations", a);
  } else {
    out += line("activations", "unknown: give --layers, --d-model and --heads");
  }
  if (m.logits) out += line("logits", formatBytes(*m.logits) + " fp32, for the loss");
  out += line("total", fmt::format("{} ({} of usable)", formatBytes(m.total),
                                   percent(100 * m.total / m.usable)));
  return out;
}

std::string time(const TrainingPlan& plan) {
  const PlanRequest& r = plan.request;
  const PlanTime& t = plan.time;
  const bool one_value = r.utilization_high == r.utilization_low;
  std::string out =
      one_value ? fmt::format("\nTIME  at {:.0f} % of the {} {} peak\n", r.utilization_high * 100,
                              flopRate(t.peak_flops_per_s), toText(r.precision))
                : fmt::format("\nTIME  at {:.0f} % (fast) to {:.0f} % (slow) of the {} {} peak\n",
                              r.utilization_high * 100, r.utilization_low * 100,
                              flopRate(t.peak_flops_per_s), toText(r.precision));
  out += line("step", band(t.step_s, [](double s) { return formatDuration(s * 1e9); }) +
                          " of compute");
  out += line("training", fmt::format("{} tokens{}, {} steps", count(t.tokens),
                                      t.tokens_defaulted
                                          ? " (20 per parameter, Chinchilla; --tokens)"
                                          : "",
                                      count(t.steps)));
  out += line("wall time", band(t.total_s, wallTime) +
                               (plan.network && plan.network->network_bound
                                    ? ", the all-reduce's time per step" : ""));
  out += line("GPU-hours", band(t.gpu_hours, count));
  out += line("energy", fmt::format("{} kWh: {} x {:.0f} W + {} x {:.0f} W "
                                    "(--gpu-watts, --host-watts)",
                                    band(t.energy_kwh, count), plural(r.gpus, "GPU"), t.gpu_watts,
                                    plural(t.nodes, "host"), r.host_watts));
  out += line("cost", fmt::format("{} at ${:.2f} per GPU-hour (--usd-per-gpu-hour)",
                                  band(t.cost_usd, dollars), r.usd_per_gpu_hour));
  out += line("CO2", fmt::format("{} kg at {:.2f} kg per kWh (--co2-kg-per-kwh)",
                                 band(t.co2_kg, count), r.kg_co2_per_kwh));
  return out;
}

std::string network(const TrainingPlan& plan) {
  if (!plan.network) return "";
  const PlanNetwork& n = *plan.network;
  const PlanRequest& r = plan.request;
  std::string out = fmt::format("\nNETWORK  data parallel over {} GPUs, ring all-reduce\n", r.gpus);
  out += line("gradients", gigabytes(n.gradient_bytes) + " per step");
  out += line("on the wire", gigabytes(n.wire_bytes) + " sent by each GPU (2 (N-1)/N" +
                                 (r.zero_stage == 3 ? " x 1.5 for ZeRO 3)" : ")"));
  out += line("link", fmt::format("{:.1f} GB/s, {}", n.link_bytes_per_s / 1e9, n.link));
  out += line("all-reduce",
              fmt::format("{} per step against {} of compute: {}",
                          formatDuration(n.allreduce_s * 1e9),
                          band(plan.time.step_s, [](double s) { return formatDuration(s * 1e9); }),
                          n.network_bound
                              ? "NETWORK-BOUND, no step is shorter than the all-reduce"
                              : "hidden if overlapped with the backward pass"));
  return out;
}

}  // namespace

std::string scaleOutWords(const TrainingPlan& plan) {
  const PlanRequest& r = plan.request;
  const PlanMemory& m = plan.memory;
  const std::string need = formatBytes(m.total) + " per GPU of " + formatBytes(m.usable) +
                           " usable";
  switch (plan.verdict) {
    case ScaleOut::kFitsOneGpu:
      return "fits on one GPU: " + need;
    case ScaleOut::kFitsDataParallel:
      return fmt::format("fits data parallel over {} GPUs: {}", r.gpus, need);
    case ScaleOut::kNeedsZero:
      return fmt::format("needs ZeRO stage {} (--zero {}): {} at stage {}", plan.zero_stage_needed,
                         plan.zero_stage_needed, need, r.zero_stage);
    case ScaleOut::kNeedsLessActivation:
      return fmt::format(
          "needs less activation memory: {}, {} of it activations and logits; with ZeRO 3, full "
          "checkpointing and FlashAttention they take {} and it fits (or lower --batch and raise "
          "--grad-accum)",
          need, formatBytes(m.activations.value_or(0) + m.logits.value_or(0)),
          formatBytes(plan.least_activation_bytes));
    case ScaleOut::kNeedsModelParallel:
      return fmt::format(
          "needs tensor or pipeline parallelism: even with ZeRO 3, full checkpointing and "
          "FlashAttention one micro-batch's activations ({}) do not fit beside the state",
          formatBytes(plan.least_activation_bytes));
    case ScaleOut::kDoesNotFit:
      return fmt::format(
          "does not fit: the training state alone is {} and {} GPUs hold {} usable; it needs at "
          "least {} GPUs fully sharded (ZeRO 3), before activations",
          formatBytes(trainingState(r.model.params, r.precision, r.master_weights).total()),
          r.gpus, formatBytes(m.usable * static_cast<double>(r.gpus)), withThousands(plan.min_gpus));
  }
  return "";
}

std::string planText(const TrainingPlan& plan) {
  std::string out = header(plan) + work(plan) + memory(plan) + time(plan) + network(plan);
  std::string verdict(toText(plan.verdict));
  out += "\nVERDICT  " + upperCase(verdict) + "\n" + wrapText(scaleOutWords(plan), 9);
  return out;
}

}  // namespace damscope
