// Who already holds CUPTI in this process.
//
// CUPTI allows one subscriber per process (cuptiSubscribe fails with
// CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED), and Nsight Systems, Nsight
// Compute, PyTorch's profiler (Kineto), DCGM and others subscribe. CUPTI does
// not say who; the libraries loaded into the process and the environment
// usually do. The guess is phrased as one, for the message the user sees.
#pragma once

#include <string>
#include <string_view>

#include "collector/collector_config.h"

namespace damscope::collector {

// A description such as "Nsight Systems (libToolsInjection64.so is loaded)",
// from the text of /proc/self/maps and the environment; a generic list of
// the usual suspects when nothing matches.
std::string describeCuptiHolder(std::string_view proc_maps, const GetEnv& getenv);

}  // namespace damscope::collector
