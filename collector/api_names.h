// Names of CUDA runtime and driver API functions by CUPTI callback id, as
// CUPTI activity records identify them (CUpti_ActivityAPI::cbid). The table is
// generated at build time from the CUPTI headers (generate_api_names.cmake),
// so it needs no libcupti at run time and tests can check it.
#pragma once

#include <cstdint>
#include <string_view>

namespace damscope::collector {

// "cudaLaunchKernel", "cuLaunchKernel", ...; empty for an id this build does not know.
std::string_view cudaApiName(bool driver, uint32_t cbid);

}  // namespace damscope::collector
