// Roofline labels: see roofline_labels.h.
#include "analyzer/report/roofline_labels.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "analyzer/devices/device_specs.h"
#include "analyzer/report/result_words.h"

namespace damscope {

std::vector<PeakGroup> peakGroups(const std::vector<RooflineCeiling>& ceilings) {
  std::vector<PeakGroup> groups;
  for (size_t i = 0; i < ceilings.size(); ++i) {
    const RooflineCeiling& c = ceilings[i];
    if (!(c.peak_flops_per_s > 0) || !std::isfinite(c.peak_flops_per_s)) continue;
    const auto same = std::find_if(groups.begin(), groups.end(), [&](const PeakGroup& g) {
      return std::fabs(g.peak_flops_per_s - c.peak_flops_per_s) <= 1e-9 * c.peak_flops_per_s;
    });
    if (same != groups.end()) {
      same->ceilings.push_back(i);
    } else {
      groups.push_back({{i}, c.peak_flops_per_s, c.ridge_flops_per_byte});
    }
  }
  return groups;
}

std::string peakNames(const std::vector<RooflineCeiling>& ceilings,
                      const std::vector<size_t>& group) {
  std::string names;
  for (const size_t i : group) {
    if (!names.empty()) names += '/';
    names += toText(ceilings[i].precision);
  }
  return names;
}

std::string peakLabel(const std::vector<RooflineCeiling>& ceilings, const PeakGroup& group) {
  return peakNames(ceilings, group.ceilings) + " peak " + flopRate(group.peak_flops_per_s);
}

std::string ridgeLabel(double ridge_flops_per_byte) {
  return fmt::format("ridge {:.3g} FLOP/B", ridge_flops_per_byte);
}

std::vector<std::optional<LabelRect>> separateLabels(const std::vector<LabelBox>& labels,
                                                     const LabelRect& area, double gap) {
  std::vector<std::optional<LabelRect>> placed;
  placed.reserve(labels.size());
  auto free = [&](const LabelRect& box) {
    return std::none_of(placed.begin(), placed.end(), [&](const std::optional<LabelRect>& other) {
      return other && other->overlaps(box);
    });
  };
  for (const LabelBox& label : labels) {
    LabelRect box = label.box;
    const double step = (box.height + gap) * (label.away < 0 ? -1 : 1);
    // Every line from where it wants to be to the area's edge, then none.
    while (!free(box) && box.y + step >= area.y &&
           box.y + box.height + step <= area.y + area.height) {
      box.y += step;
    }
    placed.push_back(free(box) ? std::optional<LabelRect>(box) : std::nullopt);
  }
  return placed;
}

}  // namespace damscope
