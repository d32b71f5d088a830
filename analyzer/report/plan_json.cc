// The plan as JSON (docs/plan.md): see plan_report.h.
#include "analyzer/report/plan_report.h"

namespace damscope {
namespace {

nlohmann::json bandJson(const Band& b) {
  return {{"fast", b.fast}, {"slow", b.slow}};
}

template <typename T>
nlohmann::json orNull(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json requestJson(const PlanRequest& r) {
  const ModelShape& m = r.model;
  return {{"model",
           {{"name", m.name},
            {"params", m.params},
            {"layers", orNull(m.layers)},
            {"d_model", orNull(m.d_model)},
            {"heads", orNull(m.heads)},
            {"seq_len", orNull(m.seq_len)},
            {"vocab", orNull(m.vocab)}}},
          {"micro_batch", r.micro_batch},
          {"grad_accum", r.grad_accum},
          {"precision", toText(r.precision)},
          {"master_weights", r.master_weights},
          {"checkpointing", toText(r.checkpointing)},
          {"zero_stage", r.zero_stage},
          {"flash_attention", r.flash_attention},
          {"device", r.device->key},
          {"gpus", r.gpus},
          {"utilization", {{"low", r.utilization_low}, {"high", r.utilization_high}}},
          {"host_watts", r.host_watts},
          {"usd_per_gpu_hour", r.usd_per_gpu_hour},
          {"kg_co2_per_kwh", r.kg_co2_per_kwh}};
}

nlohmann::json memoryJson(const PlanMemory& m) {
  return {{"weights_bytes", m.state.weights},
          {"gradients_bytes", m.state.gradients},
          {"master_weights_bytes", m.state.master_weights},
          {"optimizer_bytes", m.state.optimizer},
          {"activations_bytes", orNull(m.activations)},
          {"attention_scores_bytes", orNull(m.attention_scores)},
          {"logits_bytes", orNull(m.logits)},
          {"total_bytes", m.total},
          {"device_bytes", m.device},
          {"usable_bytes", m.usable},
          {"fits", m.fits}};
}

nlohmann::json timeJson(const PlanTime& t) {
  return {{"peak_flops_per_s", t.peak_flops_per_s},
          {"step_s", bandJson(t.step_s)},
          {"tokens", t.tokens},
          {"tokens_defaulted", t.tokens_defaulted},
          {"steps", t.steps},
          {"total_s", bandJson(t.total_s)},
          {"gpu_hours", bandJson(t.gpu_hours)},
          {"gpu_watts", t.gpu_watts},
          {"nodes", t.nodes},
          {"energy_kwh", bandJson(t.energy_kwh)},
          {"cost_usd", bandJson(t.cost_usd)},
          {"co2_kg", bandJson(t.co2_kg)}};
}

}  // namespace

nlohmann::json planJson(const TrainingPlan& plan) {
  nlohmann::json out = {{"request", requestJson(plan.request)}};
  if (const auto& f = plan.layer_forward) {
    out["layer_forward_flops"] = {{"qkv", f->qkv},
                                  {"scores", f->scores},
                                  {"attention_values", f->attention_values},
                                  {"out_projection", f->out_projection},
                                  {"ffn", f->ffn},
                                  {"total", f->total()}};
  } else {
    out["layer_forward_flops"] = nullptr;
  }
  out["model_flops_per_token"] = plan.model_flops_per_token;
  out["hardware_flops_per_token"] = plan.hardware_flops_per_token;
  out["tokens_per_step"] = plan.tokens_per_step;
  out["memory"] = memoryJson(plan.memory);
  out["time"] = timeJson(plan.time);
  if (const auto& n = plan.network) {
    out["network"] = {{"gradient_bytes", n->gradient_bytes},
                      {"wire_bytes", n->wire_bytes},
                      {"link_bytes_per_s", n->link_bytes_per_s},
                      {"link", n->link},
                      {"allreduce_s", n->allreduce_s},
                      {"network_bound", n->network_bound}};
  } else {
    out["network"] = nullptr;
  }
  out["verdict"] = toText(plan.verdict);
  out["verdict_words"] = scaleOutWords(plan);
  out["zero_stage_needed"] = plan.zero_stage_needed;
  out["least_activation_bytes"] = plan.least_activation_bytes;
  out["min_gpus"] = plan.min_gpus;
  return out;
}

}  // namespace damscope
