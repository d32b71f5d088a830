// A gpt2-train run from parsed options: checks the request (before
// allocating anything), probes the CPU, builds the model, trains, reports.
#pragma once

#include <iosfwd>

#include "reference_workloads/gpt2/train/options.h"

namespace damscope::gpt2 {

// Exit statuses: 0 done, 2 bad input or a run that could not be carried out
// (one line "gpt2-train: ..." on err).
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 2;

// The header and step lines go to out, errors to err.
int runTrainer(const Options& options, std::ostream& out, std::ostream& err);

}  // namespace damscope::gpt2
