// The diff's JSON document: see diff_json.h.
#include "analyzer/report/diff_json.h"

#include <cmath>

namespace damscope {
namespace {

using nlohmann::json;

json value(const std::optional<double>& v, double scale, double digits) {
  if (!v || !std::isfinite(*v)) return nullptr;
  return std::round(*v * scale * digits) / digits;
}

// {before, after, delta}; shares rounded to two decimals.
json pct(const Change& c) {
  return {{"before", value(c.before, 1, 100)},
          {"after", value(c.after, 1, 100)},
          {"delta", value(c.delta(), 1, 100)}};
}

// Nanoseconds as microseconds (to the ns), with the relative change.
json micros(const Change& c) {
  return {{"before", value(c.before, 1e-3, 1000)},
          {"after", value(c.after, 1e-3, 1000)},
          {"delta", value(c.delta(), 1e-3, 1000)},
          {"change_pct", value(c.relativePct(), 1, 100)}};
}

json counts(const Change& c) {
  return {{"before", value(c.before, 1, 1000)},
          {"after", value(c.after, 1, 1000)},
          {"delta", value(c.delta(), 1, 1000)}};
}

json side(const std::string& source, const std::optional<int32_t>& rank,
          const std::string& device_name, int64_t steps, Verdict verdict,
          const std::optional<Axis>& lead) {
  return {{"source", source},
          {"rank", rank ? json(*rank) : json(nullptr)},
          {"device_name", device_name.empty() ? json(nullptr) : json(device_name)},
          {"steps", steps},
          {"verdict", std::string(toText(verdict))},
          {"lead", lead ? json(std::string(toText(*lead))) : json(nullptr)}};
}

}  // namespace

json rankDiffJson(const RankDiff& d) {
  json r;
  r["before"] = side(d.before_source, d.before_rank, d.before_device_name, d.before_steps,
                     d.before_verdict, d.before_lead);
  r["after"] = side(d.after_source, d.after_rank, d.after_device_name, d.after_steps,
                    d.after_verdict, d.after_lead);
  r["verdict_changed"] = d.verdictChanged();
  r["per_step"] = d.per_step;
  r["step_time_us"] = micros(d.step_ns);
  r["critical_path_us"] = micros(d.critical_path_ns);

  json scorecard = json::object();
  for (const AxisChange& a : d.axes) {
    scorecard[std::string(toText(a.axis))] = {{"pct", pct(a.pct)}, {"us", micros(a.ns_per_step)}};
  }
  r["scorecard"] = scorecard;
  r["breakdown"] = {{"idle_pct", pct(d.idle_pct)},
                    {"compute_pct", pct(d.compute_pct)},
                    {"non_compute_pct", pct(d.non_compute_pct)},
                    {"overlap_pct", pct(d.overlap_pct)}};
  r["utilization"] = {{"gpu_util_pct", pct(d.gpu_util_pct)},
                      {"sm_efficiency_pct", pct(d.sm_efficiency_pct)},
                      {"occupancy_pct", pct(d.occupancy_pct)}};
  r["mfu"] = {{"mfu_pct", pct(d.mfu_pct)}, {"hfu_pct", pct(d.hfu_pct)}};
  r["kernel_us"] = micros(d.kernel_ns_per_step);

  json categories = json::array();
  for (const CategoryChange& c : d.categories) {
    categories.push_back({{"category", std::string(toText(c.category))},
                          {"pct", pct(c.pct)},
                          {"us", micros(c.ns_per_step)}});
  }
  r["kernel_categories"] = categories;
  json kernels = json::array();
  for (const KernelChange& k : d.kernels) {
    kernels.push_back({{"name", k.name},
                       {"category", std::string(toText(k.category))},
                       {"us", micros(k.ns_per_step)},
                       {"before_below_us", value(k.before_below_ns, 1e-3, 1000)},
                       {"after_below_us", value(k.after_below_ns, 1e-3, 1000)},
                       {"moved_us", value(k.moved_ns, 1e-3, 1000)},
                       {"launches", counts(k.kernels_per_step)}});
  }
  r["kernels"] = kernels;
  json ops = json::array();
  for (const OpChange& o : d.ops) {
    ops.push_back({{"name", o.name},
                   {"us", micros(o.ns_per_step)},
                   {"before_below_us", value(o.before_below_ns, 1e-3, 1000)},
                   {"after_below_us", value(o.after_below_ns, 1e-3, 1000)},
                   {"moved_us", value(o.moved_ns, 1e-3, 1000)},
                   {"calls", counts(o.calls_per_step)}});
  }
  r["ops"] = ops;

  json findings = json::array();
  for (const FindingChange& f : d.findings) {
    findings.push_back({{"state", std::string(toText(f.state))},
                        {"rule", f.rule},
                        {"kind", std::string(toText(f.kind))},
                        {"severity", std::string(toText(f.severity))},
                        {"title", f.title},
                        {"metric", std::string(toText(f.metric))},
                        {"value", pct(f.value)},
                        {"max_gain_pct", pct(f.max_gain_pct)},
                        {"projected_step_us", micros(f.projected_step_ns)}});
  }
  r["findings"] = findings;
  r["notes"] = d.notes;
  return r;
}

json runDiffJson(const RunDiff& diff) {
  json out;
  out["format"] = "damscope-diff";
  out["version"] = kDiffJsonVersion;
  json ranks = json::array();
  for (const RankDiff& d : diff.ranks) ranks.push_back(rankDiffJson(d));
  out["ranks"] = ranks;
  out["notes"] = diff.notes;
  return out;
}

std::string runDiffJsonText(const RunDiff& diff) {
  return runDiffJson(diff).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace damscope
