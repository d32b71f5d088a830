// Why the straggler is slow: see straggler_cause.h.
#include "analyzer/pipeline/straggler_cause.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "base/median.h"

namespace damscope {
namespace {

// A rank's figures per analysed step, by name.
std::map<std::string, double> perStep(const RankResult& r) {
  std::map<std::string, double> out;
  if (!r.scorecard || r.window.step_count <= 0) return out;
  const auto steps = static_cast<double>(r.window.step_count);
  for (size_t a = 0; a < kAxisCount; ++a) {
    const auto axis = static_cast<Axis>(a);
    if (axis == Axis::kExposedCommunication) continue;
    out[std::string(axisLabel(axis))] = static_cast<double>(r.scorecard->run.ns[a]) / steps;
  }
  // Computation kernels: a rank waiting inside a collective has long
  // communication kernels because of the straggler, not the other way round.
  int64_t computation_ns = 0;
  for (const CategoryTime& c : r.kernels.categories) {
    if (c.category == KernelCategory::kCommunication) continue;
    out[fmt::format("{} kernels", toText(c.category))] = static_cast<double>(c.total_ns) / steps;
    computation_ns += c.total_ns;
  }
  for (const OpRow& o : r.top_ops) {
    out["op " + o.name] = static_cast<double>(o.gpu_total_ns) / steps;
  }
  out[""] = static_cast<double>(computation_ns) / steps;
  return out;
}

std::string ms(double ns) {
  return fmt::format("{:.1f} ms", ns * 1e-6);
}

}  // namespace

StragglerCause stragglerCause(const RankResult& rank, std::span<const RankResult* const> job) {
  StragglerCause cause;
  const std::map<std::string, double> mine = perStep(rank);
  if (mine.empty()) return cause;
  std::vector<std::map<std::string, double>> all;
  std::vector<double> steps;
  for (const RankResult* r : job) {
    if (r == &rank) continue;
    all.push_back(perStep(*r));
    if (r->window.avg_step_ns) steps.push_back(*r->window.avg_step_ns);
  }
  const double median_step = median(steps);
  for (const auto& [what, ns] : mine) {
    std::vector<double> values;
    for (const auto& other : all) {
      auto it = other.find(what);
      // An op outside a rank's top list took less than its last row: not
      // comparable; categories and axes a rank lacks took no time.
      if (it != other.end()) {
        values.push_back(it->second);
      } else if (!what.starts_with("op ")) {
        values.push_back(0);
      }
    }
    if (values.empty()) continue;
    const double typical = median(values);
    if (what.empty()) {
      cause.kernel_ns = ns;
      cause.median_kernel_ns = typical;
      continue;
    }
    if (ns - typical >= kMinExcess * median_step) cause.excesses.push_back({what, ns, typical});
  }
  std::sort(cause.excesses.begin(), cause.excesses.end(),
            [](const RankExcess& a, const RankExcess& b) {
              const double da = a.rank_ns - a.median_ns, db = b.rank_ns - b.median_ns;
              return da != db ? da > db : a.what < b.what;
            });
  if (cause.excesses.size() > 3) cause.excesses.resize(3);
  return cause;
}

std::string stragglerCauseWords(const StragglerCause& c) {
  std::string out;
  for (size_t i = 0; i < c.excesses.size(); ++i) {
    const RankExcess& e = c.excesses[i];
    out += i == 0 ? "it spends " : ", ";
    out += fmt::format("+{} per step on {} ({} against {} on the median rank)",
                       ms(e.rank_ns - e.median_ns), e.what, ms(e.rank_ns), ms(e.median_ns));
  }
  if (c.median_kernel_ns > 0) {
    const double ratio = c.kernel_ns / c.median_kernel_ns;
    if (!out.empty()) out += "; ";
    out += std::abs(ratio - 1) < 0.05
               ? fmt::format("its kernels take the same time as the median rank's ({} per step)",
                             ms(c.kernel_ns))
               : fmt::format("its kernels take {:.2f}x the median rank's ({} against {} per step)",
                             ratio, ms(c.kernel_ns), ms(c.median_kernel_ns));
  }
  return out;
}

}  // namespace damscope
