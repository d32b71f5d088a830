// Matching a device to a row of the spec table (device_specs.h states the
// order). Three ways in, because the sources spell names three ways:
// - the driver's product name, which CUDA (cudaDeviceProp::name), Kineto's
//   deviceProperties and nsys's TARGET_INFO_GPU all copy, with or without the
//   "NVIDIA"/"Tesla" prefix ("NVIDIA A100-SXM4-40GB", "A100-SXM4-40GB",
//   "Tesla V100-SXM2-32GB"), or a board name ("NVIDIA A100-PG509-200");
// - a name that fits a family but no exact spelling ("A100", "H100 SXM",
//   "AMD Instinct MI250X / MI250"), told apart by memory size and CU count;
// - the generic name some ROCm versions report for every CDNA 2 die ("AMD
//   Radeon Graphics"): then only the facts can say which part it is. Kineto's
//   ROCm deviceProperties carry no gfx architecture name, but HIP's
//   major.minor is the gfx version (9.0 for gfx90a, 9.4 for gfx942: ROCm's
//   "AMD GPU specifications" table), and the CU count and memory per die
//   separate MI250 (104 CUs) from MI250X (110 CUs).
#include "analyzer/devices/device_specs.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <tuple>

namespace damscope {
namespace {

// Words that name the vendor or the product line, not the part.
constexpr std::string_view kVendorWords[] = {"nvidia", "tesla", "geforce", "amd", "instinct"};
// Words that say nothing about which part it is, so a name may carry them.
constexpr std::string_view kNoiseWords[] = {"rtx",   "hbm2",  "hbm2e", "hbm3",
                                            "hbm3e", "gddr6", "gddr6x"};
// Form factor words; a row's `form` is one of these ("sxm" alone fits any SXM).
constexpr std::string_view kFormWords[] = {"pcie", "sxm", "sxm2", "sxm4",
                                           "sxm5", "nvl", "dgxs", "oam"};
// A name made only of these words says nothing of the part ("AMD Radeon
// Graphics"; an empty name).
constexpr std::string_view kGenericWords[] = {"radeon", "graphics", "device", "gpu"};

// A reported memory size fits a row when it is at most 2% above the
// datasheet size (rounding) and at most 15% below it: CUDA reports the
// memory left after the driver's reservation (39.4 GiB on a 40 GB A100, 21.5
// of 24 GB on an L4), never more than the part has.
constexpr double kMemoryFitLow = 0.85;
constexpr double kMemoryFitHigh = 1.02;

template <size_t N>
bool isOneOf(std::string_view word, const std::string_view (&set)[N]) {
  return std::find(std::begin(set), std::end(set), word) != std::end(set);
}

// Lower-case words split at anything but letters and digits, vendor words dropped.
std::vector<std::string> wordsOf(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  auto flush = [&] {
    if (!word.empty() && !isOneOf(word, kVendorWords)) words.push_back(word);
    word.clear();
  };
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      flush();
    }
  }
  flush();
  return words;
}

// The form names are compared in: words joined, so "A100-SXM4-40GB",
// "a100 sxm4 40gb" and "NVIDIA A100_SXM4_40GB" are one key.
std::string normalized(std::string_view text) {
  std::string out;
  for (const std::string& w : wordsOf(text)) out += w;
  return out;
}

// "80gb", "144g" -> 80, 144; nullopt for any other word.
std::optional<int32_t> memoryWord(std::string_view word) {
  size_t digits = 0;
  while (digits < word.size() && std::isdigit(static_cast<unsigned char>(word[digits]))) ++digits;
  std::string_view unit = word.substr(digits);
  if (digits == 0 || digits > 4 || (unit != "gb" && unit != "g")) return std::nullopt;
  return std::stoi(std::string(word.substr(0, digits)));
}

bool formFits(std::string_view word, std::string_view form) {
  return word == form || (word == "sxm" && form.starts_with("sxm"));
}

bool memoryFits(int64_t reported_bytes, const DeviceSpec& spec) {
  const double ratio = static_cast<double>(reported_bytes) / static_cast<double>(spec.memory_bytes);
  return ratio >= kMemoryFitLow && ratio <= kMemoryFitHigh;
}

std::string gibText(int64_t bytes) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f GiB", static_cast<double>(bytes) / (1 << 30));
  return buffer;
}

// Lower is more conservative: the lowest 16-bit tensor peak (FP32 where the
// part has none), then the lowest bandwidth. Table order breaks ties.
std::tuple<double, double> conservativeKey(const DeviceSpec& spec) {
  std::optional<double> peak = spec.peakFlopsPerS(Precision::kBf16);
  if (!peak) peak = spec.peakFlopsPerS(Precision::kFp16);
  if (!peak) peak = spec.peakFlopsPerS(Precision::kFp32);
  return {peak.value_or(0), spec.memory_bandwidth_bytes_per_s};
}

// Picks among `candidates` (non-empty): the only one, or the conservative one
// marked ambiguous.
DeviceSpecMatch choose(std::vector<const DeviceSpec*> candidates, MatchBasis basis,
                       std::string evidence) {
  DeviceSpecMatch match;
  match.basis = basis;
  match.evidence = std::move(evidence);
  match.spec = *std::min_element(candidates.begin(), candidates.end(),
                                 [](const DeviceSpec* a, const DeviceSpec* b) {
                                   return conservativeKey(*a) < conservativeKey(*b);
                                 });
  match.ambiguous = candidates.size() > 1;
  match.candidates = std::move(candidates);
  return match;
}

// Exact spellings: product names, board names, the short and the canonical name.
std::optional<DeviceSpecMatch> matchExact(std::string_view name) {
  const std::string key = normalized(name);
  if (key.empty()) return std::nullopt;
  for (const DeviceSpec& spec : deviceSpecs()) {
    bool hit = normalized(spec.key) == key || normalized(spec.name) == key;
    for (std::string_view n : spec.names) hit = hit || (!n.empty() && normalized(n) == key);
    if (hit) return choose({&spec}, MatchBasis::kExactName, "name \"" + std::string(name) + "\"");
    for (std::string_view board : spec.boards) {
      if (!board.empty() && normalized(board) == key) {
        return choose({&spec}, MatchBasis::kBoardName, "board name " + std::string(spec.boards[0]));
      }
    }
  }
  return std::nullopt;
}

// Narrows `candidates` to those the facts' memory size and SM/CU count fit,
// when that leaves any; says what it used in `evidence`.
std::vector<const DeviceSpec*> narrowByFacts(std::vector<const DeviceSpec*> candidates,
                                             const DeviceFacts& facts, MatchBasis& basis,
                                             std::string& evidence) {
  if (candidates.size() > 1 && facts.memory_bytes && *facts.memory_bytes > 0) {
    std::vector<const DeviceSpec*> fit;
    for (const DeviceSpec* s : candidates) {
      if (memoryFits(*facts.memory_bytes, *s)) fit.push_back(s);
    }
    if (!fit.empty() && fit.size() < candidates.size()) {
      candidates = std::move(fit);
      basis = MatchBasis::kMemorySize;
      evidence += "; memory size " + gibText(*facts.memory_bytes);
    }
  }
  if (candidates.size() > 1 && facts.sm_count && *facts.sm_count > 0) {
    std::vector<const DeviceSpec*> fit;
    for (const DeviceSpec* s : candidates) {
      if (s->sm_count == *facts.sm_count) fit.push_back(s);
    }
    if (!fit.empty() && fit.size() < candidates.size()) {
      candidates = std::move(fit);
      basis = MatchBasis::kDeviceFacts;
      evidence += "; " + std::to_string(*facts.sm_count) + " SMs/CUs";
    }
  }
  return candidates;
}

// The family, form and memory words of a name. Every word must be understood:
// "RTX 3090 Ti", "A100-SXM4-64GB" or "H100 CNX" are other parts, and a wrong
// row is worse than none.
std::optional<DeviceSpecMatch> matchPattern(std::string_view name, const DeviceFacts& facts) {
  std::vector<std::string_view> families;
  std::vector<std::string> forms;
  std::vector<int32_t> memories;
  const std::vector<std::string> words = wordsOf(name);
  for (const std::string& w : words) {
    std::string_view family;
    for (const DeviceSpec& spec : deviceSpecs()) {
      if (spec.family == w) family = spec.family;
    }
    if (!family.empty()) {
      families.push_back(family);
    } else if (isOneOf(w, kFormWords)) {
      forms.push_back(w);
    } else if (std::optional<int32_t> gb = memoryWord(w)) {
      memories.push_back(*gb);
    } else if (!isOneOf(w, kNoiseWords)) {
      return std::nullopt;
    }
  }
  if (families.empty()) return std::nullopt;

  std::vector<const DeviceSpec*> candidates;
  for (const DeviceSpec& spec : deviceSpecs()) {
    bool fits = std::find(families.begin(), families.end(), spec.family) != families.end();
    for (const std::string& f : forms) fits = fits && formFits(f, spec.form);
    for (int32_t gb : memories) fits = fits && spec.memory_gb == gb;
    if (fits) candidates.push_back(&spec);
  }
  if (candidates.empty()) return std::nullopt;
  MatchBasis basis = MatchBasis::kNamePattern;
  std::string evidence = "name pattern \"" + std::string(name) + "\"";
  candidates = narrowByFacts(std::move(candidates), facts, basis, evidence);
  return choose(std::move(candidates), basis, std::move(evidence));
}

// A generic name: the row whose compute capability, SM/CU count and memory
// size all agree with the facts. Each fact must be known.
std::optional<DeviceSpecMatch> matchFacts(const DeviceFacts& facts) {
  if (!facts.compute_major || !facts.compute_minor || !facts.sm_count || !facts.memory_bytes) {
    return std::nullopt;
  }
  // A trace without a vendor still tells AMD by its 64-wide wavefronts.
  std::string_view vendor = facts.vendor;
  if (vendor.empty() && facts.warp_size == 64) vendor = "amd";
  std::vector<const DeviceSpec*> candidates;
  for (const DeviceSpec& spec : deviceSpecs()) {
    if (!vendor.empty() && spec.vendor != vendor) continue;
    if (spec.compute_major == *facts.compute_major && spec.compute_minor == *facts.compute_minor &&
        spec.sm_count == *facts.sm_count && memoryFits(*facts.memory_bytes, spec)) {
      candidates.push_back(&spec);
    }
  }
  if (candidates.empty()) return std::nullopt;
  const bool amd = candidates.front()->vendor == "amd";
  std::string evidence =
      std::string(amd ? "gfx " : "compute capability ") + std::to_string(*facts.compute_major) +
      "." + std::to_string(*facts.compute_minor) + ", " + std::to_string(*facts.sm_count) +
      (amd ? " CUs, " : " SMs, ") + gibText(*facts.memory_bytes);
  return choose(std::move(candidates), MatchBasis::kDeviceFacts, std::move(evidence));
}

bool isGenericName(std::string_view name) {
  for (const std::string& w : wordsOf(name)) {
    if (!isOneOf(w, kGenericWords)) return false;
  }
  return true;
}

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The short names nearest to `name`, nearest first: the rows whose family the
// name mentions, then the closest spellings.
std::vector<std::string_view> closeNames(std::string_view name) {
  const std::string key = normalized(name);
  std::vector<std::pair<size_t, std::string_view>> scored;
  for (const DeviceSpec& spec : deviceSpecs()) {
    size_t d = editDistance(key, normalized(spec.key));
    for (std::string_view n : spec.names) {
      if (!n.empty()) d = std::min(d, editDistance(key, normalized(n)));
    }
    if (!spec.family.empty() && key.find(spec.family) != std::string::npos) d = 0;
    scored.emplace_back(d, spec.key);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string_view> out;
  for (size_t i = 0; i < scored.size() && out.size() < 5; ++i) out.push_back(scored[i].second);
  return out;
}

}  // namespace

std::string_view toText(MatchBasis basis) {
  switch (basis) {
    case MatchBasis::kExactName:
      return "exact name";
    case MatchBasis::kBoardName:
      return "board name";
    case MatchBasis::kNamePattern:
      return "name pattern";
    case MatchBasis::kMemorySize:
      return "memory size";
    case MatchBasis::kDeviceFacts:
      return "device facts";
  }
  return "?";
}

std::string DeviceSpecMatch::describe() const {
  std::string text = std::string(spec->name) + " (matched by " + evidence;
  if (ambiguous) {
    text += "; ambiguous among ";
    for (size_t i = 0; i < candidates.size(); ++i) {
      text += (i == 0 ? "" : ", ") + std::string(candidates[i]->key);
    }
    text += ": took the lowest peak";
  }
  return text + ")";
}

DeviceFacts deviceFactsOf(const TraceTables& tables, size_t row) {
  const DeviceTable& d = tables.devices;
  DeviceFacts facts;
  facts.name = std::string(tables.strings.get(d.name[row]));
  facts.vendor = std::string(tables.strings.get(d.vendor[row]));
  auto known = [](auto v) -> std::optional<decltype(v)> {
    if (isNull(v) || v <= 0) return std::nullopt;
    return v;
  };
  facts.memory_bytes = known(d.memory_bytes[row]);
  facts.sm_count = known(d.sm_count[row]);
  facts.warp_size = known(d.warp_size[row]);
  // Compute capability minor 0 is a value, not unknown.
  if (!isNull(d.compute_major[row]) && d.compute_major[row] > 0) {
    facts.compute_major = d.compute_major[row];
    if (!isNull(d.compute_minor[row]) && d.compute_minor[row] >= 0) {
      facts.compute_minor = d.compute_minor[row];
    }
  }
  return facts;
}

std::optional<DeviceSpecMatch> findDeviceSpec(const DeviceFacts& facts) {
  if (std::optional<DeviceSpecMatch> m = matchExact(facts.name)) return m;
  if (std::optional<DeviceSpecMatch> m = matchPattern(facts.name, facts)) return m;
  if (isGenericName(facts.name)) return matchFacts(facts);
  return std::nullopt;
}

Result<DeviceSpecMatch> findDeviceSpecByName(std::string_view name) {
  DeviceFacts facts;
  facts.name = std::string(name);
  if (std::optional<DeviceSpecMatch> m = matchExact(name)) return *m;
  if (std::optional<DeviceSpecMatch> m = matchPattern(name, facts)) return *m;
  std::string message = "no device spec for \"" + std::string(name) + "\"; close names:";
  std::vector<std::string_view> close = closeNames(name);
  for (size_t i = 0; i < close.size(); ++i) {
    message += (i == 0 ? " " : ", ") + std::string(close[i]);
  }
  return Error(message + "; for a part the table lacks, give its peak FLOP/s and bandwidth");
}

}  // namespace damscope
