// The JSON summary: see summary_json.h.
#include "analyzer/report/summary_json.h"

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

json evidenceJson(const Evidence& e) {
  json out = json::object();
  auto list = [&](const char* name, const std::vector<int64_t>& ids) {
    if (!ids.empty()) out[name] = ids;
  };
  list("gaps", e.gaps), list("kernels", e.kernels), list("ranges", e.ranges);
  list("memcpys", e.memcpys), list("api_calls", e.api_calls), list("counters", e.counters);
  return out;
}

}  // namespace

json rankJson(const RankAnalysis& a, const AnalysisOptions& options) {
  json r;
  r["rank"] = a.rank >= 0 ? json(a.rank) : json(nullptr);
  r["source"] = a.source;
  const TraceTables& t = *a.tables;
  const DeviceUtilization* u = a.utilization.primaryDevice();
  r["device"] = u ? json(u->device) : json(nullptr);
  std::string device_name;
  if (u) {
    for (size_t i = 0; i < t.devices.size(); ++i) {
      if (t.devices.device[i] == u->device)
        device_name = std::string(t.strings.get(t.devices.name[i]));
    }
  }
  r["device_name"] = device_name.empty() ? json(nullptr) : json(device_name);

  // HTA temporal breakdown over the window.
  if (a.breakdown.valid) {
    const BreakdownFigures& w = a.breakdown.window;
    r["window_us"] = static_cast<double>(w.span()) / 1e3;
    r["idle_pct"] = pct(w.idlePct());
    r["compute_pct"] = pct(w.computePct());
    r["non_compute_pct"] = pct(w.nonComputePct());
    r["overlap_pct"] = w.hasCommunication() ? pct(w.overlapPct()) : json(nullptr);
    r["exposed_communication_us"] = static_cast<double>(w.exposed_communication_ns) / 1e3;
  } else {
    for (const char* k : {"window_us", "idle_pct", "compute_pct", "non_compute_pct", "overlap_pct",
                          "exposed_communication_us"}) {
      r[k] = nullptr;
    }
  }
  r["window"] = std::string(toText(a.window.mode));
  // TensorBoard plugin figures.
  r["gpu_util_pct"] = u ? pct(u->gpu_util_pct) : json(nullptr);
  r["sm_efficiency_pct"] = u ? pct(u->sm_efficiency_pct) : json(nullptr);
  r["occupancy_pct"] = u ? pct(u->occupancy_pct) : json(nullptr);
  if (!a.overview.steps.empty()) {
    r["avg_step_us"] = a.overview.avg_step_ns / 1e3;
    r["dataloader_pct"] = pct(a.overview.avgPct(OverviewRole::kDataLoader));
  } else {
    r["avg_step_us"] = nullptr;
    r["dataloader_pct"] = nullptr;
  }

  const Verdict verdict = a.scorecard.valid ? a.scorecard.run.verdict : Verdict::kNone;
  r["verdict"] = std::string(toText(verdict));
  r["verdict_label"] = std::string(verdictLabel(verdict));
  r["dam"] = std::string(damTerm(verdict));
  json scorecard = json::object();
  if (a.scorecard.valid) {
    for (size_t x = 0; x < kAxisCount; ++x) {
      scorecard[std::string(toText(static_cast<Axis>(x)))] =
          pct(a.scorecard.run.pct(static_cast<Axis>(x)));
    }
  }
  r["scorecard"] = scorecard;

  json findings = json::array();
  for (const Finding& f : a.findings.findings) {
    findings.push_back({{"rule", f.rule},
                        {"severity", std::string(toText(f.severity))},
                        {"title", f.title},
                        {"metric", f.metric},
                        {"value", pct(f.value)},
                        {"threshold", number(f.threshold)},
                        {"recommendation", f.recommendation},
                        {"max_gain_pct", pct(f.max_gain_pct)},
                        {"evidence", evidenceJson(f.evidence)}});
  }
  r["findings"] = findings;

  r["step_source"] = std::string(toText(a.steps.source));
  json steps = json::array();
  for (size_t i = 0; i < a.steps.steps.size(); ++i) {
    const Step& s = a.steps.steps[i];
    json step = {{"id", i},
                 {"number", s.number},
                 {"name", std::string(t.strings.get(s.name))},
                 {"start_ns", s.start},
                 {"dur_ns", s.duration()},
                 {"host_start_ns", s.host_start},
                 {"host_dur_ns", s.host_end - s.host_start},
                 {"in_window", a.window.stepInWindow(i)},
                 {"complete", s.complete}};
    step["verdict"] = a.scorecard.valid && i < a.scorecard.steps.size()
                          ? json(std::string(toText(a.scorecard.steps[i].verdict)))
                          : json(nullptr);
    const double seconds = static_cast<double>(s.duration()) * 1e-9;
    step["tokens_per_s"] = seconds > 0 ? number(a.steps.tokens_per_step / seconds) : json(nullptr);
    step["samples_per_s"] =
        seconds > 0 ? number(a.steps.samples_per_step / seconds) : json(nullptr);
    steps.push_back(step);
  }
  r["steps"] = steps;

  json categories = json::object();
  for (const CategoryTime& c : a.kernels.categories)
    categories[std::string(toText(c.category))] = pct(c.pct);
  r["kernel_categories_pct"] = categories;
  json metrics = json::object();
  for (const auto& [name, value] : a.findings.metrics) metrics[name] = pct(value);
  r["metrics"] = metrics;
  if (a.comparison) {
    const RankComparison& c = *a.comparison;
    r["cross_rank"] = {{"matched_steps", c.steps},
                       {"median_step_us", static_cast<double>(c.median_step_ns) / 1e3},
                       {"slower_than_median_pct", pct(c.slower_than_median_pct)},
                       {"straggler", c.straggler},
                       {"collectives", c.collectives},
                       {"median_start_skew_us", static_cast<double>(c.median_start_skew_ns) / 1e3},
                       {"max_start_skew_us", static_cast<double>(c.max_start_skew_ns) / 1e3},
                       {"last_to_start_pct", pct(c.last_to_start_pct)}};
  }
  json notes = json::array();
  for (const AnalysisNote& n : a.notes)
    notes.push_back({{"analysis", n.analysis}, {"message", n.message}});
  r["notes"] = notes;
  (void)options;
  return r;
}

json analysisJson(const RunAnalysis& run, const AnalysisOptions& options) {
  json out;
  out["format"] = "damscope-analysis";
  out["version"] = kAnalysisJsonVersion;
  out["window"] = std::string(toText(options.window.mode));
  out["starved_threshold_pct"] = options.scorecard.starved_pct;
  json ranks = json::array();
  for (const RankAnalysis& a : run.ranks) ranks.push_back(rankJson(a, options));
  out["ranks"] = ranks;
  return out;
}

}  // namespace damscope
