// What-if as JSON (docs/plan.md "What-if"): see what_if_report.h.
#include "analyzer/report/what_if_report.h"

namespace damscope {
namespace {

template <typename T>
nlohmann::json orNull(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json estimateJson(const WhatIfEstimate& e) {
  return {{"request", e.request},
          {"label", e.label},
          {"estimated", e.estimated},
          {"basis", e.basis},
          {"step_before_ns", e.step_before_ns},
          {"step_after_ns", e.step_after_ns},
          {"step_change_pct", e.changePct()},
          {"mfu_before_pct", orNull(e.mfu_before_pct)},
          {"mfu_after_pct", orNull(e.mfu_after_pct)},
          {"memory_before_bytes", orNull(e.memory_before_bytes)},
          {"memory_after_bytes", orNull(e.memory_after_bytes)}};
}

}  // namespace

nlohmann::json whatIfJson(const WhatIfReport& report) {
  nlohmann::json each = nlohmann::json::array();
  for (const WhatIfEstimate& e : report.each) each.push_back(estimateJson(e));
  return {{"source", report.source},
          {"device", report.device},
          {"step_ns", report.step_ns},
          {"steps", report.steps},
          {"what_ifs", std::move(each)},
          {"combined", report.combined ? estimateJson(*report.combined) : nlohmann::json(nullptr)}};
}

}  // namespace damscope
