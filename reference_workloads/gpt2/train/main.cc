// gpt2-train: trains GPT-2 on the CPU with NVTX annotations, the reference
// workload of damscope (docs/gpt2-trainer.md). Parsing and the run live in
// train/flags.cc and train/trainer.cc.
#include <iostream>
#include <string>
#include <vector>

#include "reference_workloads/gpt2/train/flags.h"
#include "reference_workloads/gpt2/train/trainer.h"

int main(int argc, char** argv) {
  using namespace damscope::gpt2;
  const std::vector<std::string> args(argv + 1, argv + argc);
  auto options = parseFlags(args);
  if (!options) {
    std::cerr << "gpt2-train: " << options.error().message() << "\n";
    return kExitBadInput;
  }
  if (options->help) {
    std::cout << helpText();
    return kExitOk;
  }
  return runTrainer(*options, std::cout, std::cerr);
}
