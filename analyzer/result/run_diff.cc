// The diff of two runs: see run_diff.h.
#include "analyzer/result/run_diff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "base/median.h"

namespace damscope {
namespace {

// The median critical path of a run's analysed steps; empty without paths.
std::optional<double> medianCriticalPath(const RankResult& r) {
  std::vector<int64_t> lengths;
  for (const StepResult& s : r.steps) {
    if (s.critical_path) lengths.push_back(s.critical_path->length_ns);
  }
  if (lengths.empty()) return std::nullopt;
  return median(std::move(lengths));
}

std::optional<double> known(double v) {
  return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

// What one run gives the diff: its figures, and what time is divided by.
struct Side {
  const RankResult& r;
  double divisor = 1;  // analysed steps, or 1 when times are totals

  const Scorecard* card() const { return r.scorecard ? &r.scorecard->run : nullptr; }
  const BreakdownFigures* breakdown() const { return r.breakdown ? &r.breakdown->window : nullptr; }
  std::optional<double> perStep(int64_t ns) const { return static_cast<double>(ns) / divisor; }

  // A run lists its top kernels only; the list is all of them when it
  // accounts for all kernel time.
  bool topIsComplete() const {
    int64_t listed = 0;
    for (const TopKernelResult& k : r.kernels.top) listed += k.total_ns;
    return listed == r.kernels.total_ns;
  }
  const TopKernelResult* top(const std::string& name) const {
    for (const TopKernelResult& k : r.kernels.top) {
      if (k.name == name) return &k;
    }
    return nullptr;
  }
  const Finding* finding(const std::string& rule) const {
    for (const Finding& f : r.findings.findings) {
      if (f.rule == rule) return &f;
    }
    return nullptr;
  }
};

template <typename Get>
Change change(const Side& before, const Side& after, Get get) {
  return {get(before), get(after)};
}

std::vector<AxisChange> axisChanges(const Side& b, const Side& a) {
  std::vector<AxisChange> out;
  if (!b.card() && !a.card()) return out;
  for (size_t x = 0; x < kAxisCount; ++x) {
    const Axis axis = static_cast<Axis>(x);
    AxisChange c;
    c.axis = axis;
    c.pct = change(b, a, [&](const Side& s) -> std::optional<double> {
      return s.card() ? known(s.card()->pct(axis)) : std::nullopt;
    });
    c.ns_per_step = change(b, a, [&](const Side& s) -> std::optional<double> {
      return s.card() ? s.perStep(s.card()->ns[x]) : std::nullopt;
    });
    out.push_back(c);
  }
  return out;
}

std::vector<CategoryChange> categoryChanges(const Side& b, const Side& a) {
  // The category list holds every category with time: one missing had none.
  auto of = [](const Side& s, KernelCategory category) -> const CategoryTime* {
    for (const CategoryTime& c : s.r.kernels.categories) {
      if (c.category == category) return &c;
    }
    return nullptr;
  };
  std::vector<CategoryChange> out;
  for (size_t i = 0; i < kKernelCategoryCount; ++i) {
    const auto category = static_cast<KernelCategory>(i);
    const CategoryTime* cb = of(b, category);
    const CategoryTime* ca = of(a, category);
    if (!cb && !ca) continue;
    CategoryChange c;
    c.category = category;
    c.pct = {cb ? cb->pct : 0.0, ca ? ca->pct : 0.0};
    c.ns_per_step = {b.perStep(cb ? cb->total_ns : 0), a.perStep(ca ? ca->total_ns : 0)};
    out.push_back(c);
  }
  std::stable_sort(out.begin(), out.end(), [](const CategoryChange& x, const CategoryChange& y) {
    return std::max(*x.pct.before, *x.pct.after) > std::max(*y.pct.before, *y.pct.after);
  });
  return out;
}

// How far a time per step moved: |change| where both runs have a figure, else
// the least it can have moved given the other run's bound.
double movedNs(const Change& ns, const std::optional<double>& before_below,
               const std::optional<double>& after_below) {
  if (const std::optional<double> delta = ns.delta()) return std::abs(*delta);
  if (ns.after && before_below) return std::max(0.0, *ns.after - *before_below);
  if (ns.before && after_below) return std::max(0.0, *ns.before - *after_below);
  return 0;
}

std::vector<KernelChange> kernelChanges(const Side& b, const Side& a, size_t limit) {
  std::map<std::string, KernelCategory> names;
  for (const Side* s : {&b, &a}) {
    for (const TopKernelResult& k : s->r.kernels.top) names.emplace(k.name, k.category);
  }
  // What a kernel outside a run's list took: 0 when the list is complete,
  // else less than its last (smallest) kernel.
  struct Unlisted {
    bool complete = true;
    std::optional<double> below;
  };
  auto unlisted = [](const Side& s) {
    Unlisted u;
    u.complete = s.topIsComplete();
    if (!u.complete && !s.r.kernels.top.empty())
      u.below = s.perStep(s.r.kernels.top.back().total_ns);
    return u;
  };
  const Unlisted ub = unlisted(b), ua = unlisted(a);
  auto figure = [](const Side& s, const TopKernelResult* k, const Unlisted& u,
                   int64_t TopKernelResult::*field) -> std::optional<double> {
    if (k) return s.perStep(k->*field);
    return u.complete ? std::optional<double>(0.0) : std::nullopt;
  };
  std::vector<KernelChange> out;
  for (const auto& [name, category] : names) {
    const TopKernelResult* kb = b.top(name);
    const TopKernelResult* ka = a.top(name);
    KernelChange c;
    c.name = name;
    c.category = category;
    c.ns_per_step = {figure(b, kb, ub, &TopKernelResult::total_ns),
                     figure(a, ka, ua, &TopKernelResult::total_ns)};
    c.kernels_per_step = {figure(b, kb, ub, &TopKernelResult::kernels),
                          figure(a, ka, ua, &TopKernelResult::kernels)};
    if (!c.ns_per_step.before) c.before_below_ns = ub.below;
    if (!c.ns_per_step.after) c.after_below_ns = ua.below;
    c.moved_ns = movedNs(c.ns_per_step, c.before_below_ns, c.after_below_ns);
    out.push_back(std::move(c));
  }
  std::stable_sort(out.begin(), out.end(), [](const KernelChange& x, const KernelChange& y) {
    return x.moved_ns > y.moved_ns;
  });
  if (out.size() > limit) out.resize(limit);
  return out;
}

std::vector<OpChange> opChanges(const Side& b, const Side& a, size_t limit) {
  std::set<std::string> names;
  for (const Side* s : {&b, &a}) {
    for (const OpRow& o : s->r.top_ops) names.insert(o.name);
  }
  auto of = [](const Side& s, const std::string& name) -> const OpRow* {
    for (const OpRow& o : s.r.top_ops) {
      if (o.name == name) return &o;
    }
    return nullptr;
  };
  // An op outside a run's list took less than its last (smallest) op.
  auto below = [](const Side& s) -> std::optional<double> {
    if (s.r.top_ops.empty()) return std::nullopt;
    return s.perStep(s.r.top_ops.back().gpu_total_ns);
  };
  std::vector<OpChange> out;
  for (const std::string& name : names) {
    const OpRow* ob = of(b, name);
    const OpRow* oa = of(a, name);
    OpChange c;
    c.name = name;
    if (ob)
      c.ns_per_step.before = b.perStep(ob->gpu_total_ns),
      c.calls_per_step.before = b.perStep(ob->calls);
    if (oa)
      c.ns_per_step.after = a.perStep(oa->gpu_total_ns),
      c.calls_per_step.after = a.perStep(oa->calls);
    if (!ob) c.before_below_ns = below(b);
    if (!oa) c.after_below_ns = below(a);
    c.moved_ns = movedNs(c.ns_per_step, c.before_below_ns, c.after_below_ns);
    out.push_back(std::move(c));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const OpChange& x, const OpChange& y) { return x.moved_ns > y.moved_ns; });
  if (out.size() > limit) out.resize(limit);
  return out;
}

std::vector<FindingChange> findingChanges(const Side& b, const Side& a) {
  auto metric = [](const Side& s, Metric m) { return s.r.findings.metrics.get(m); };
  auto make = [&](FindingState state, const Finding& f) {
    FindingChange c;
    c.state = state;
    c.rule = f.rule;
    c.kind = f.kind;
    c.severity = f.severity;
    c.title = f.title;
    c.metric = f.metric;
    c.value = {metric(b, f.metric), metric(a, f.metric)};
    const Finding* fb = b.finding(f.rule);
    const Finding* fa = a.finding(f.rule);
    c.max_gain_pct = {fb ? fb->max_gain_pct : std::nullopt, fa ? fa->max_gain_pct : std::nullopt};
    auto projected = [](const Finding* f) -> std::optional<double> {
      if (!f || !f->projection) return std::nullopt;
      return static_cast<double>(f->projection->projected_step_ns);
    };
    c.projected_step_ns = {projected(fb), projected(fa)};
    return c;
  };
  std::vector<FindingChange> out;
  for (const Finding& f : a.r.findings.findings) {
    if (!b.finding(f.rule)) out.push_back(make(FindingState::kAppeared, f));
  }
  for (const Finding& f : b.r.findings.findings) {
    if (!a.finding(f.rule)) out.push_back(make(FindingState::kDisappeared, f));
  }
  for (const Finding& f : a.r.findings.findings) {
    if (b.finding(f.rule)) out.push_back(make(FindingState::kRemained, f));
  }
  return out;
}

std::string rankLabel(const RankResult& r, size_t index) {
  return r.rank ? "rank " + std::to_string(*r.rank) : "input " + std::to_string(index + 1);
}

}  // namespace

std::optional<double> Change::delta() const {
  if (!before || !after) return std::nullopt;
  return *after - *before;
}

std::optional<double> Change::relativePct() const {
  if (!before || !after || *before == 0) return std::nullopt;
  return (*after - *before) / *before * 100.0;
}

std::string_view toText(FindingState state) {
  switch (state) {
    case FindingState::kAppeared:
      return "appeared";
    case FindingState::kDisappeared:
      return "disappeared";
    case FindingState::kRemained:
      break;
  }
  return "remained";
}

RankDiff diffRanks(const RankResult& before, const RankResult& after, const DiffOptions& options) {
  RankDiff d;
  d.before_source = before.source, d.after_source = after.source;
  d.before_rank = before.rank, d.after_rank = after.rank;
  d.before_device_name = before.device_name, d.after_device_name = after.device_name;
  d.before_steps = before.window.step_count, d.after_steps = after.window.step_count;
  d.per_step = d.before_steps > 0 && d.after_steps > 0;
  const Side b{before, d.per_step ? static_cast<double>(d.before_steps) : 1.0};
  const Side a{after, d.per_step ? static_cast<double>(d.after_steps) : 1.0};

  d.step_ns = {before.window.avg_step_ns, after.window.avg_step_ns};
  d.critical_path_ns = {medianCriticalPath(before), medianCriticalPath(after)};
  d.before_verdict = before.verdict(), d.after_verdict = after.verdict();
  if (b.card()) d.before_lead = b.card()->deciding_axis;
  if (a.card()) d.after_lead = a.card()->deciding_axis;
  d.axes = axisChanges(b, a);

  auto window = [](auto figure) {
    return [figure](const Side& s) -> std::optional<double> {
      return s.breakdown() ? figure(*s.breakdown()) : std::nullopt;
    };
  };
  d.idle_pct = change(b, a, window([](const BreakdownFigures& w) { return known(w.idlePct()); }));
  d.compute_pct =
      change(b, a, window([](const BreakdownFigures& w) { return known(w.computePct()); }));
  d.non_compute_pct =
      change(b, a, window([](const BreakdownFigures& w) { return known(w.nonComputePct()); }));
  d.overlap_pct = change(b, a, window([](const BreakdownFigures& w) {
                           return w.hasCommunication() ? known(w.overlapPct()) : std::nullopt;
                         }));

  auto device = [](auto figure) {
    return [figure](const Side& s) -> std::optional<double> {
      const DeviceUtilization* u = s.r.utilization.primaryDevice();
      return u ? figure(*u) : std::nullopt;
    };
  };
  d.gpu_util_pct =
      change(b, a, device([](const DeviceUtilization& u) { return known(u.gpu_util_pct); }));
  d.sm_efficiency_pct =
      change(b, a, device([](const DeviceUtilization& u) { return u.sm_efficiency_pct; }));
  d.occupancy_pct =
      change(b, a, device([](const DeviceUtilization& u) { return u.occupancy_pct; }));

  d.mfu_pct = {before.mfu.mfu_pct, after.mfu.mfu_pct};
  d.hfu_pct = {before.mfu.hfu_pct, after.mfu.hfu_pct};
  d.kernel_ns_per_step = {b.perStep(before.kernels.total_ns), a.perStep(after.kernels.total_ns)};
  d.categories = categoryChanges(b, a);
  d.kernels = kernelChanges(b, a, options.top_kernels);
  d.ops = opChanges(b, a, options.top_ops);
  d.findings = findingChanges(b, a);

  if (!d.per_step) {
    d.notes.push_back(
        "a run has no analysed steps: times are totals over each run's analysed span, not per "
        "step");
  }
  if (!before.device_name.empty() && !after.device_name.empty() &&
      before.device_name != after.device_name) {
    d.notes.push_back("before ran on " + before.device_name + ", after on " + after.device_name +
                      ": kernel times compare only as far as the GPUs do");
  }
  if (before.window.mode != after.window.mode) {
    d.notes.push_back("the runs were analysed over different windows (" +
                      std::string(toText(before.window.mode)) + " before, " +
                      std::string(toText(after.window.mode)) + " after)");
  }
  for (const auto& [side, r] : {std::pair{"before", &before}, std::pair{"after", &after}}) {
    if (r->verdict_may_be_off) {
      d.notes.push_back(std::string("the ") + side +
                        " trace lost so many events that its verdict may be off");
    }
  }
  return d;
}

RunDiff diffRuns(const RunResult& before, const RunResult& after, const DiffOptions& options) {
  RunDiff out;
  const size_t pairs = std::min(before.ranks.size(), after.ranks.size());
  for (size_t i = 0; i < pairs; ++i) {
    RankDiff d = diffRanks(before.ranks[i], after.ranks[i], options);
    if (before.ranks[i].rank != after.ranks[i].rank) {
      d.notes.insert(d.notes.begin(), "compares " + rankLabel(before.ranks[i], i) +
                                          " before with " + rankLabel(after.ranks[i], i) +
                                          " after (paired in input order)");
    }
    out.ranks.push_back(std::move(d));
  }
  if (before.ranks.size() != after.ranks.size()) {
    out.notes.push_back("before has " + std::to_string(before.ranks.size()) + " rank(s), after " +
                        std::to_string(after.ranks.size()) + ": only the first " +
                        std::to_string(pairs) + " of each, paired in input order, are compared");
  }
  return out;
}

}  // namespace damscope
