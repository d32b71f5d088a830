// CUDA API names by CUPTI callback id: see api_names.h.
#include "collector/api_names.h"

#include <vector>

#include "collector/cupti_api_names.inc"

namespace damscope::collector {
namespace {

// Callback ids are small and dense (below 1000 in CUDA 13), so a direct index.
template <size_t N>
std::vector<std::string_view> indexByCbid(const generated::ApiName (&names)[N]) {
  std::vector<std::string_view> index;
  for (const auto& entry : names) {
    if (entry.cbid >= index.size()) index.resize(entry.cbid + 1);
    index[entry.cbid] = entry.name;
  }
  return index;
}

}  // namespace

std::string_view cudaApiName(bool driver, uint32_t cbid) {
  static const std::vector<std::string_view> runtime = indexByCbid(generated::kRuntimeApiNames);
  static const std::vector<std::string_view> driver_names = indexByCbid(generated::kDriverApiNames);
  const auto& index = driver ? driver_names : runtime;
  return cbid < index.size() ? index[cbid] : std::string_view();
}

}  // namespace damscope::collector
