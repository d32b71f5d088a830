// Scenarios: named sets of flag defaults that reproduce one bottleneck on
// purpose, the ground truth for damscope's D·A·M classifier (DESIGN.md,
// "Reference workload"). Flags given explicitly still override them. The
// figures behind each choice (step times on the development machine) are in
// docs/gpt2-trainer.md.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace damscope::gpt2 {

struct Scenario {
  std::string name;
  std::string reproduces;                                     // one line for --help
  std::vector<std::pair<std::string, std::string>> settings;  // flag (without --), value
};

const std::vector<Scenario>& scenarios();
const Scenario* findScenario(std::string_view name);

}  // namespace damscope::gpt2
