// gpt2-train's command line: the flag table (names, defaults, help), parsing
// with the scenario's defaults under the explicit flags, and --help.
// Every flag takes `--name VALUE` or `--name=VALUE`; switches take no value.
#pragma once

#include <string>
#include <vector>

#include "reference_workloads/gpt2/train/options.h"
#include "base/result.h"

namespace damscope::gpt2 {

// Parses argv[1..]. Errors name the flag and quote the value, e.g.
// "--steps: 'ten' is not a whole number".
Result<Options> parseFlags(const std::vector<std::string>& args);

// The --help text: usage, every flag with its default, the scenarios with
// what each reproduces and the flags it sets, the configs.
std::string helpText();

}  // namespace damscope::gpt2
