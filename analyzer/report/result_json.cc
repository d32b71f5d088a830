// The JSON document: see result_json.h.
#include "analyzer/report/result_json.h"

#include <cmath>

namespace damscope {
namespace {

using nlohmann::json;

json number(double v) {
  return std::isfinite(v) ? json(v) : json(nullptr);
}

// Rounded for reading; the stored tables keep full precision.
json pct(double v) {
  return std::isfinite(v) ? json(std::round(v * 100.0) / 100.0) : json(nullptr);
}
json pct(const std::optional<double>& v) {
  return v ? pct(*v) : json(nullptr);
}

json microseconds(double ns) {
  return ns / 1e3;
}

json evidenceJson(const std::vector<EvidenceItem>& items) {
  json out = json::object();
  for (const EvidenceItem& e : items) out[std::string(toText(e.source))].push_back(e.id);
  return out;
}

json dataLossJson(const DataLossReport& loss) {
  json counts = json::array();
  for (const LossCount& c : loss.counts) {
    counts.push_back(
        {{"stat", c.stat}, {"kind", std::string(toText(c.kind))}, {"events", c.events}});
  }
  return {{"events", loss.events},
          {"lost", loss.lost},
          {"repaired", loss.repaired},
          {"clipped", loss.clipped},
          {"lost_pct", pct(loss.lostPct())},
          {"repaired_pct", pct(loss.repairedPct())},
          {"counts", counts}};
}

json optional(const std::optional<double>& v) {
  return v ? number(*v) : json(nullptr);
}

json mfuJson(const MfuReport& m) {
  json model = nullptr;
  if (m.model) {
    model = {{"name", m.model->name},
             {"params", m.model->params},
             {"layers", m.model->layers ? json(*m.model->layers) : json(nullptr)},
             {"d_model", m.model->d_model ? json(*m.model->d_model) : json(nullptr)},
             {"heads", m.model->heads ? json(*m.model->heads) : json(nullptr)},
             {"seq_len", m.model->seq_len ? json(*m.model->seq_len) : json(nullptr)},
             {"vocab", m.model->vocab ? json(*m.model->vocab) : json(nullptr)}};
  }
  return {{"mfu_pct", pct(m.mfu_pct)},
          {"hfu_pct", pct(m.hfu_pct)},
          {"impossible_pct", pct(m.impossible_pct)},
          {"likely_wrong", m.likely_wrong.empty() ? json(nullptr) : json(m.likely_wrong)},
          {"flops_source", std::string(toText(m.flops_source))},
          {"model", model},
          {"flops_per_token", optional(m.flops_per_token)},
          {"model_flops_per_step", optional(m.model_flops_per_step)},
          {"hardware_flops_per_step", optional(m.hardware_flops_per_step)},
          {"achieved_flops_per_s", optional(m.achieved_flops_per_s)},
          {"precision", std::string(toText(m.precision.precision))},
          {"precision_source", std::string(toText(m.precision.source))},
          {"peak_flops_per_s", optional(m.peak_flops_per_s)},
          {"peak_source", std::string(toText(m.peak_source))},
          {"peak_device", m.peak_device.empty() ? json(nullptr) : json(m.peak_device)}};
}

json pointJson(const RooflinePoint& p) {
  return {{"name", p.name},
          {"category", std::string(toText(p.category))},
          {"precision", std::string(toText(p.precision))},
          {"source", std::string(toText(p.source))},
          {"kernels", p.kernels},
          {"time_ns", p.time_ns},
          {"flops", number(p.flops)},
          {"bytes", optional(p.bytes)},
          {"intensity", optional(p.intensity)},
          {"achieved_flops_per_s", number(p.achieved_flops_per_s)},
          {"ceiling_flops_per_s", optional(p.ceiling_flops_per_s)},
          {"pct_of_ceiling", pct(p.pct_of_ceiling)},
          {"memory_bound", p.memory_bound ? json(*p.memory_bound) : json(nullptr)}};
}

json rooflineJson(const RooflineReport& r) {
  json ceilings = json::array(), kernels = json::array(), classes = json::array();
  json collectives = json::array();
  for (const RooflineCeiling& c : r.ceilings) {
    ceilings.push_back({{"precision", std::string(toText(c.precision))},
                        {"peak_flops_per_s", number(c.peak_flops_per_s)},
                        {"ridge_flops_per_byte", optional(c.ridge_flops_per_byte)}});
  }
  for (const RooflinePoint& p : r.kernels) kernels.push_back(pointJson(p));
  for (const RooflinePoint& p : r.classes) classes.push_back(pointJson(p));
  for (const CollectivePoint& c : r.collectives) {
    collectives.push_back({{"name", c.name},
                           {"kernels", c.kernels},
                           {"time_ns", c.time_ns},
                           {"bus_bytes", number(c.bus_bytes)},
                           {"achieved_bytes_per_s", number(c.achieved_bytes_per_s)},
                           {"link_bytes_per_s", optional(c.link_bytes_per_s)},
                           {"pct_of_link", pct(c.pct_of_link)}});
  }
  return {{"bandwidth_bytes_per_s", optional(r.bandwidth_bytes_per_s)},
          {"kernels_with_work", r.kernels_with_work},
          {"time_with_work_pct", pct(r.time_with_work_pct)},
          {"ceilings", ceilings},
          {"classes", classes},
          {"kernels", kernels},
          {"collectives", collectives}};
}

json memoryJson(const std::optional<MemoryEstimate>& m) {
  if (!m) return nullptr;
  return {{"state_bytes", number(m->state_bytes)},
          {"activation_bytes", optional(m->activation_bytes)},
          {"total_bytes", number(m->total_bytes)},
          {"device_bytes", optional(m->device_bytes)},
          {"pct_of_device", pct(m->pct_of_device)},
          {"micro_batch", m->micro_batch > 0 ? json(m->micro_batch) : json(nullptr)},
          {"micro_batch_from_tokens", m->micro_batch_from_tokens},
          {"ranks", m->ranks},
          {"zero_state_bytes",
           {number(m->zero_state_bytes[0]), number(m->zero_state_bytes[1]),
            number(m->zero_state_bytes[2])}}};
}

}  // namespace

json rankJson(const RankResult& a) {
  json r;
  r["rank"] = a.rank ? json(*a.rank) : json(nullptr);
  r["source"] = a.source;
  r["stored_in"] = a.store.empty() ? json(nullptr) : json(a.store);
  r["device"] = a.device ? json(*a.device) : json(nullptr);
  r["device_name"] = a.device_name.empty() ? json(nullptr) : json(a.device_name);
  r["device_kind"] = toText(a.device_kind);

  // HTA temporal breakdown over the window.
  if (a.breakdown) {
    const BreakdownFigures& w = a.breakdown->window;
    r["window_us"] = microseconds(static_cast<double>(w.span()));
    r["idle_pct"] = pct(w.idlePct());
    r["compute_pct"] = pct(w.computePct());
    r["non_compute_pct"] = pct(w.nonComputePct());
    r["overlap_pct"] = w.hasCommunication() ? pct(w.overlapPct()) : json(nullptr);
    r["exposed_communication_us"] = microseconds(static_cast<double>(w.exposed_communication_ns));
  } else {
    for (const char* k : {"window_us", "idle_pct", "compute_pct", "non_compute_pct", "overlap_pct",
                          "exposed_communication_us"}) {
      r[k] = nullptr;
    }
  }
  r["window"] = std::string(toText(a.window.mode));
  // TensorBoard plugin figures.
  const DeviceUtilization* u = a.utilization.primaryDevice();
  r["gpu_util_pct"] = u ? pct(u->gpu_util_pct) : json(nullptr);
  r["sm_efficiency_pct"] = u ? pct(u->sm_efficiency_pct) : json(nullptr);
  r["occupancy_pct"] = u ? pct(u->occupancy_pct) : json(nullptr);
  if (a.overview.avg_step_ns) {
    r["avg_step_us"] = microseconds(*a.overview.avg_step_ns);
    r["dataloader_pct"] = pct(a.overview.avgPct(OverviewRole::kDataLoader));
  } else {
    r["avg_step_us"] = nullptr;
    r["dataloader_pct"] = nullptr;
  }

  const Verdict verdict = a.verdict();
  r["verdict"] = std::string(toText(verdict));
  r["verdict_label"] = std::string(verdictLabel(verdict, a.device_kind));
  r["dam"] = std::string(damTerm(verdict));
  r["verdict_may_be_off"] = a.verdict_may_be_off;
  json scorecard = json::object();
  if (a.scorecard) {
    for (size_t x = 0; x < kAxisCount; ++x) {
      scorecard[std::string(toText(static_cast<Axis>(x)))] =
          pct(a.scorecard->run.pct(static_cast<Axis>(x)));
    }
  }
  r["scorecard"] = scorecard;

  json findings = json::array();
  for (const Finding& f : a.findings.findings) {
    findings.push_back({{"rule", f.rule},
                        {"kind", std::string(toText(f.kind))},
                        {"severity", std::string(toText(f.severity))},
                        {"title", f.title},
                        {"metric", std::string(toText(f.metric))},
                        {"value", pct(f.value)},
                        {"threshold", number(f.threshold)},
                        {"recommendation", f.recommendation},
                        {"max_gain_pct", pct(f.max_gain_pct)},
                        {"evidence", evidenceJson(f.evidence)}});
  }
  r["findings"] = findings;
  r["data_loss"] = dataLossJson(a.data_loss);
  r["mfu"] = mfuJson(a.mfu);
  r["roofline"] = rooflineJson(a.roofline);
  r["memory"] = memoryJson(a.memory);

  r["step_source"] = std::string(toText(a.step_source));
  json steps = json::array();
  for (size_t i = 0; i < a.steps.size(); ++i) {
    const StepResult& s = a.steps[i];
    json step = {{"id", i},
                 {"number", s.number},
                 {"name", s.name},
                 {"start_ns", s.ts},
                 {"dur_ns", s.dur},
                 {"host_start_ns", s.host_ts},
                 {"host_dur_ns", s.host_dur},
                 {"in_window", s.in_window},
                 {"complete", s.complete}};
    step["verdict"] = a.scorecard && i < a.scorecard->steps.size()
                          ? json(std::string(toText(a.scorecard->steps[i].verdict)))
                          : json(nullptr);
    step["tokens_per_s"] = s.tokens_per_s ? json(*s.tokens_per_s) : json(nullptr);
    step["samples_per_s"] = s.samples_per_s ? json(*s.samples_per_s) : json(nullptr);
    step["mfu_pct"] = i < a.mfu.steps.size() ? pct(a.mfu.steps[i].mfu_pct) : json(nullptr);
    steps.push_back(step);
  }
  r["steps"] = steps;

  json categories = json::object();
  for (const CategoryTime& c : a.kernels.categories) {
    categories[std::string(toText(c.category))] = pct(c.pct);
  }
  r["kernel_categories_pct"] = categories;
  json metrics = json::object();
  for (size_t m = 0; m < kMetricCount; ++m) {
    if (a.findings.metrics.values[m]) {
      metrics[std::string(toText(static_cast<Metric>(m)))] = pct(a.findings.metrics.values[m]);
    }
  }
  r["metrics"] = metrics;
  if (a.comparison) {
    const RankComparison& c = *a.comparison;
    r["cross_rank"] = {
        {"matched_steps", c.steps},
        {"median_step_us", microseconds(static_cast<double>(c.median_step_ns))},
        {"slower_than_median_pct", pct(c.slower_than_median_pct)},
        {"straggler", c.straggler},
        {"collectives", c.collectives},
        {"median_start_skew_us", microseconds(static_cast<double>(c.median_start_skew_ns))},
        {"max_start_skew_us", microseconds(static_cast<double>(c.max_start_skew_ns))},
        {"last_to_start_pct", pct(c.last_to_start_pct)}};
  }
  json notes = json::array();
  for (const AnalysisNote& n : a.notes) {
    json note = {{"analysis", n.analysis}, {"message", n.message}};
    if (n.remedy != Remedy::kNone) note["remedy"] = std::string(toText(n.remedy));
    notes.push_back(note);
  }
  r["notes"] = notes;
  return r;
}

json runJson(const RunResult& run) {
  json out;
  out["format"] = "damscope-analysis";
  out["version"] = kAnalysisJsonVersion;
  // The ranks of a run are analysed with the same settings.
  const RankResult defaults;
  const RankResult& first = run.ranks.empty() ? defaults : run.ranks.front();
  out["window"] = std::string(toText(first.window.mode));
  out["starved_threshold_pct"] = first.starved_threshold_pct;
  json ranks = json::array();
  for (const RankResult& a : run.ranks) ranks.push_back(rankJson(a));
  out["ranks"] = ranks;
  return out;
}

std::string runJsonText(const RunResult& run) {
  return runJson(run).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace damscope
