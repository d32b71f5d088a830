// Scenarios: named sets of flag defaults that reproduce one bottleneck on
// purpose, the ground truth for damscope's D·A·M classifier (DESIGN.md,
// "Reference workload"). Flags given explicitly still override them. The
// figures behind each choice (step times on the development machine) are in
// docs/gpt2-trainer.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace damscope::gpt2 {

using Settings = std::vector<std::pair<std::string, std::string>>;  // flag (without --), value

struct Scenario {
  std::string name;
  std::string reproduces;  // one line for --help
  // The flag defaults on each backend; empty optional: not a scenario of that backend.
  std::optional<Settings> cpu;
  std::optional<Settings> cuda;
  int min_ranks = 1;  // data-parallel ranks it needs

  // The settings for --device `device`, or null when it has none.
  const Settings* settingsFor(std::string_view device) const {
    const std::optional<Settings>& s = device == "cuda" ? cuda : cpu;
    return s ? &*s : nullptr;
  }
};

const std::vector<Scenario>& scenarios();
const Scenario* findScenario(std::string_view name);

}  // namespace damscope::gpt2
