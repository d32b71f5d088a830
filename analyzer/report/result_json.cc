// The JSON document: see result_json.h. Every stored figure the document
// shows is placed by its declaration (analyzer/result/analysis_tables.h: the
// entry's JSON place and form); what the document derives from several
// figures or rows (the verdict's label, the primary device's utilization, the
// window's breakdown, the per-axis scorecard, ...) is code below.
#include "analyzer/report/result_json.h"

#include <cmath>

#include "analyzer/report/result_words.h"
#include "analyzer/result/analysis_tables.h"

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

// --- Declared figures ------------------------------------------------------------

// A model value in the form its declaration names.
template <typename V>
json render(const V& v, JsonForm form) {
  if constexpr (figure::kIsOptional<V>) {
    return v ? render(*v, form) : json(nullptr);
  } else if constexpr (std::is_same_v<V, std::string>) {
    return form == JsonForm::kTextOrNull && v.empty() ? json(nullptr) : json(v);
  } else if constexpr (std::is_enum_v<V>) {
    return std::string(toText(v));
  } else if constexpr (std::is_same_v<V, bool>) {
    return v;
  } else if constexpr (std::is_floating_point_v<V>) {
    if (form == JsonForm::kPct) return pct(v);
    if (form == JsonForm::kMicroseconds) return microseconds(v);
    return number(v);
  } else {
    static_assert(std::is_integral_v<V>, "render: a figure of a type the JSON cannot show");
    if (form == JsonForm::kMicroseconds) return microseconds(static_cast<double>(v));
    if (form == JsonForm::kPositive && v <= 0) return nullptr;
    return v;
  }
}

// The value at the place's first `depth` keys, created as objects on the way.
json& at(json& out, const JsonPlace& place, size_t depth) {
  json* j = &out;
  for (size_t k = 0; k < depth; ++k) j = &(*j)[std::string(place.keys[k])];
  return *j;
}

void put(json& out, const JsonPlace& place, json value) {
  json& slot = at(out, place, place.depth);
  if (place.index >= 0) {
    slot[static_cast<size_t>(place.index)] = std::move(value);
  } else {
    slot = std::move(value);
  }
}

template <typename F>
void putFigure(json&, NoJson, const F&) {}

// A member of an absent part makes the part's object null (the document's
// "memory": null, "model": null).
template <typename F>
void putFigure(json& out, const JsonPlace& place, const F& figure) {
  if constexpr (figure::kIsDerived<F>) {
    put(out, place, render(figure.compute(), place.form));
  } else if constexpr (figure::kIsFigureIn<F>) {
    if (figure.part) {
      put(out, place, render(figure.member(*figure.part), place.form));
    } else {
      at(out, place, place.depth - 1) = nullptr;
    }
  } else {
    static_assert(!figure::kIsPresence<F> && !std::is_same_v<F, ByCode>,
                  "a presence flag or a column mapped by code has no JSON place");
    put(out, place, render(figure, place.form));
  }
}

// figuresJson(out, x): every declared figure of x that has a JSON place.
#define DAMSCOPE_FIGURE_JSON(type, column, null, doc, figure, place) putFigure(out, place, figure);
#define DAMSCOPE_FIGURES_JSON(Element, COLUMNS)                    \
  [[maybe_unused]] void figuresJson(json& out, const Element& x) { \
    COLUMNS(DAMSCOPE_FIGURE_JSON)                                  \
  }
DAMSCOPE_FIGURES_JSON(RankResult, DAMSCOPE_SUMMARY_COLUMNS)
DAMSCOPE_FIGURES_JSON(StepResult, DAMSCOPE_STEP_COLUMNS)
DAMSCOPE_FIGURES_JSON(Finding, DAMSCOPE_FINDING_COLUMNS)
DAMSCOPE_FIGURES_JSON(LossCount, DAMSCOPE_DATA_LOSS_COLUMNS)
DAMSCOPE_FIGURES_JSON(AnalysisNote, DAMSCOPE_NOTE_COLUMNS)
DAMSCOPE_FIGURES_JSON(RankComparison, DAMSCOPE_RANK_COMPARISON_COLUMNS)
DAMSCOPE_FIGURES_JSON(RooflinePoint, DAMSCOPE_ROOFLINE_COLUMNS)
DAMSCOPE_FIGURES_JSON(RooflineCeiling, DAMSCOPE_ROOFLINE_CEILING_COLUMNS)
DAMSCOPE_FIGURES_JSON(CollectivePoint, DAMSCOPE_COLLECTIVE_COLUMNS)
DAMSCOPE_FIGURES_JSON(OpRow, DAMSCOPE_TOP_OP_COLUMNS)

template <typename Element>
json objectOf(const Element& x) {
  json out = json::object();
  figuresJson(out, x);
  return out;
}

template <typename Element>
json arrayOf(const std::vector<Element>& rows) {
  json out = json::array();
  for (const Element& x : rows) out.push_back(objectOf(x));
  return out;
}

// --- Derived ----------------------------------------------------------------------

json evidenceJson(const std::vector<EvidenceItem>& items) {
  json out = json::object();
  for (const EvidenceItem& e : items) out[std::string(toText(e.source))].push_back(e.id);
  return out;
}

// HTA's temporal breakdown over the window, as top-level figures.
void windowBreakdownJson(json& r, const std::optional<BreakdownResult>& breakdown) {
  if (!breakdown) {
    for (const char* k : {"window_us", "idle_pct", "compute_pct", "non_compute_pct", "overlap_pct",
                          "exposed_communication_us"}) {
      r[k] = nullptr;
    }
    return;
  }
  const BreakdownFigures& w = breakdown->window;
  r["window_us"] = microseconds(static_cast<double>(w.span()));
  r["idle_pct"] = pct(w.idlePct());
  r["compute_pct"] = pct(w.computePct());
  r["non_compute_pct"] = pct(w.nonComputePct());
  r["overlap_pct"] = w.hasCommunication() ? pct(w.overlapPct()) : json(nullptr);
  r["exposed_communication_us"] = microseconds(static_cast<double>(w.exposed_communication_ns));
}

}  // namespace

json rankJson(const RankResult& a) {
  json r = objectOf(a);
  r["stored_in"] = a.store.empty() ? json(nullptr) : json(a.store);
  windowBreakdownJson(r, a.breakdown);
  // TensorBoard plugin figures, of the primary device.
  const DeviceUtilization* u = a.utilization.primaryDevice();
  r["gpu_util_pct"] = u ? pct(u->gpu_util_pct) : json(nullptr);
  r["sm_efficiency_pct"] = u ? pct(u->sm_efficiency_pct) : json(nullptr);
  r["occupancy_pct"] = u ? pct(u->occupancy_pct) : json(nullptr);
  r["dataloader_pct"] =
      a.overview.avg_step_ns ? pct(a.overview.avgPct(OverviewRole::kDataLoader)) : json(nullptr);

  const Verdict verdict = a.verdict();
  r["verdict_label"] = std::string(verdictLabel(verdict, a.device_kind));
  r["dam"] = std::string(damTerm(verdict));
  json scorecard = json::object();
  if (a.scorecard) {
    for (size_t x = 0; x < kAxisCount; ++x) {
      scorecard[std::string(toText(static_cast<Axis>(x)))] =
          pct(a.scorecard->run.pct(static_cast<Axis>(x)));
    }
  }
  r["scorecard"] = scorecard;
  // A starved verdict's next word: the largest stall the trace explains.
  const std::optional<Axis> known =
      a.scorecard ? a.scorecard->run.largestKnownStall() : std::nullopt;
  r["largest_known_stall"] = known ? json(std::string(toText(*known))) : json(nullptr);

  json findings = json::array();
  for (const Finding& f : a.findings.findings) {
    json finding = objectOf(f);
    finding["evidence"] = evidenceJson(f.evidence);
    json origins = json::array();
    for (const EvidenceOrigin& o : evidenceOrigins(f)) {
      origins.push_back({{"op", o.op.empty() ? json(nullptr) : json(o.op)},
                         {"module", o.module.empty() ? json(nullptr) : json(o.module)},
                         {"items", o.items}});
    }
    finding["evidence_origins"] = std::move(origins);
    findings.push_back(std::move(finding));
  }
  r["findings"] = findings;
  r["data_loss"]["lost_pct"] = pct(a.data_loss.lostPct());
  r["data_loss"]["repaired_pct"] = pct(a.data_loss.repairedPct());
  r["data_loss"]["counts"] = arrayOf(a.data_loss.counts);
  r["roofline"]["ceilings"] = arrayOf(a.roofline.ceilings);
  r["roofline"]["kernels"] = arrayOf(a.roofline.kernels);
  r["roofline"]["classes"] = arrayOf(a.roofline.classes);
  r["roofline"]["collectives"] = arrayOf(a.roofline.collectives);
  r["top_ops"] = arrayOf(a.top_ops);

  json steps = json::array();
  for (size_t i = 0; i < a.steps.size(); ++i) {
    json step = objectOf(a.steps[i]);
    step["id"] = i;
    step["verdict"] = a.scorecard && i < a.scorecard->steps.size()
                          ? json(std::string(toText(a.scorecard->steps[i].verdict)))
                          : json(nullptr);
    step["mfu_pct"] = i < a.mfu.steps.size() ? pct(a.mfu.steps[i].mfu_pct) : json(nullptr);
    steps.push_back(std::move(step));
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
  if (a.comparison) r["cross_rank"] = objectOf(*a.comparison);
  json notes = json::array();
  for (const AnalysisNote& n : a.notes) {
    json note = objectOf(n);
    if (n.remedy != Remedy::kNone) note["remedy"] = std::string(toText(n.remedy));
    notes.push_back(std::move(note));
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
