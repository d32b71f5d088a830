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
  // Never destroyed: the writer decodes the last API records inside exit(),
  // and a function-local static built on the first record registers its
  // destructor after the collector's exit handler, so it would run first
  // (it did: a crash in the final drain on an H100, docs/gpu-results.md).
  static const auto& runtime = *new std::vector<std::string_view>(
      indexByCbid(generated::kRuntimeApiNames));
  static const auto& driver_names = *new std::vector<std::string_view>(
      indexByCbid(generated::kDriverApiNames));
  const auto& index = driver ? driver_names : runtime;
  return cbid < index.size() ? index[cbid] : std::string_view();
}

}  // namespace damscope::collector
