// Names that mean something to the analyses: see name_patterns.h.
#include "analyzer/analyses/name_patterns.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <string>

namespace damscope {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::optional<int64_t> parseNumber(std::string_view digits) {
  if (digits.empty() || digits.size() > 18) return std::nullopt;
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

bool containsAny(std::string_view text, std::initializer_list<std::string_view> words) {
  for (std::string_view w : words) {
    if (text.find(w) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

std::optional<int64_t> profilerStepNumber(std::string_view name) {
  constexpr std::string_view kPrefix = "ProfilerStep#";
  if (name.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  return parseNumber(name.substr(kPrefix.size()));
}

bool isStepAnnotationName(std::string_view name, std::optional<int64_t>* number) {
  const std::string l = lower(trim(name));
  std::string_view rest = l;
  for (std::string_view prefix : {"training_", "training ", "train_", "train "}) {
    if (rest.substr(0, prefix.size()) == prefix) {
      rest.remove_prefix(prefix.size());
      break;
    }
  }
  bool matched = false;
  for (std::string_view word : {"iteration", "iter", "step"}) {
    if (rest.substr(0, word.size()) == word) {
      rest.remove_prefix(word.size());
      matched = true;
      break;
    }
  }
  if (!matched) return false;
  if (rest.empty()) {
    if (number) number->reset();
    return true;
  }
  // "step 12", "step_12", "step#12", "step:12", "step12".
  if (rest.front() == ' ' || rest.front() == '_' || rest.front() == '#' || rest.front() == ':' ||
      rest.front() == '-') {
    rest.remove_prefix(1);
  }
  const auto parsed = parseNumber(trim(rest));
  if (!parsed) return false;
  if (number) *number = parsed;
  return true;
}

bool isDataLoadingRange(std::string_view name, std::string_view category) {
  if (category == "dataloader") return true;
  const std::string l = lower(trim(name));
  if (l.rfind("enumerate(dataloader)", 0) == 0 || l.rfind("enumerate(datapipe)", 0) == 0) {
    return true;
  }
  if (containsAny(l, {"dataloader", "data_loader", "data loader", "data_loading", "data loading",
                      "datapipe"})) {
    return true;
  }
  static constexpr std::array<std::string_view, 11> kExact = {
      "data",       "dataload",    "loader",     "load_data",      "load_batch", "get_batch",
      "next_batch", "fetch_batch", "data_fetch", "input_pipeline", "prefetch"};
  return std::find(kExact.begin(), kExact.end(), l) != kExact.end();
}

bool isCommunicationRange(std::string_view name) {
  const std::string l = lower(name);
  return containsAny(l, {"nccl", "rccl", "gloo", "c10d::", "record_param_comms", "all_reduce",
                         "allreduce", "all_gather", "allgather", "reduce_scatter", "reducescatter",
                         "alltoall", "all_to_all", "broadcast", "barrier", "mpi_"});
}

bool isFrameworkOpCategory(std::string_view category) {
  return category == "cpu_op";
}

bool isSynchronizingApi(std::string_view name) {
  // Strip the versioned suffixes the driver API uses (cuMemcpyDtoH_v2).
  std::string_view base = name;
  if (const size_t at = base.find("_v"); at != std::string_view::npos) base = base.substr(0, at);
  // cudaMemset is not here: it is asynchronous for device memory (same
  // reference, "Memset").
  static constexpr std::array<std::string_view, 26> kBlocking = {"cudaDeviceSynchronize",
                                                                 "cudaStreamSynchronize",
                                                                 "cudaEventSynchronize",
                                                                 "cudaThreadSynchronize",
                                                                 "cuCtxSynchronize",
                                                                 "cuStreamSynchronize",
                                                                 "cuEventSynchronize",
                                                                 "hipDeviceSynchronize",
                                                                 "hipStreamSynchronize",
                                                                 "hipEventSynchronize",
                                                                 "cudaMemcpy",
                                                                 "cudaMemcpy2D",
                                                                 "cudaMemcpy3D",
                                                                 "cudaMemcpyToSymbol",
                                                                 "cudaMemcpyFromSymbol",
                                                                 "cudaMemcpyPeer",
                                                                 "cuMemcpyDtoH",
                                                                 "cuMemcpyHtoD",
                                                                 "cuMemcpyDtoD",
                                                                 "cuMemcpy",
                                                                 "hipMemcpy",
                                                                 "hipMemcpyDtoH",
                                                                 "hipMemcpyHtoD",
                                                                 "cudaFree",
                                                                 "cuMemFree",
                                                                 "hipFree"};
  return std::find(kBlocking.begin(), kBlocking.end(), base) != kBlocking.end();
}

}  // namespace damscope
