// Short names: see short_names.h.
#include "gui/models/short_names.h"

#include <set>

#include <fmt/format.h>

namespace damscope {

std::string kernelLabel(std::string_view name, size_t max) {
  std::string s(name);
  if (s.rfind("void ", 0) == 0) s.erase(0, 5);
  for (size_t at; (at = s.find("(anonymous namespace)::")) != std::string::npos;) s.erase(at, 23);
  // Fold template arguments and drop the argument list (from the first '('
  // outside template brackets).
  std::string folded;
  int depth = 0;
  for (char c : s) {
    if (c == '<') {
      if (depth++ == 0) folded += "<…>";
    } else if (c == '>' && depth > 0) {
      --depth;
    } else if (depth == 0) {
      if (c == '(' && !folded.empty()) break;
      folded += c;
    }
  }
  while (!folded.empty() && folded.back() == ' ') folded.pop_back();
  if (folded.empty()) folded = s;
  // Too long: drop leading namespaces first, the part a reader needs least.
  auto visible = [](const std::string& t) {
    size_t n = 0;
    for (unsigned char c : t) n += (c & 0xC0) != 0x80;  // code points, so "…" counts once
    return n;
  };
  while (visible(folded) > max) {
    const std::string_view kElided = "…::";
    const size_t from = folded.rfind(kElided, 0) == 0 ? kElided.size() : 0;
    const size_t sep = folded.find("::", from);
    if (sep == std::string::npos) break;
    folded = "…" + folded.substr(sep);  // "…::vectorized_elementwise_kernel<…>"
  }
  if (visible(folded) > max && max > 4) {
    // Still too long: keep the head and tail, which tell kernels apart; cut
    // between UTF-8 sequences, never inside one.
    auto continuation = [&](size_t i) {
      return i < folded.size() && (static_cast<unsigned char>(folded[i]) & 0xC0) == 0x80;
    };
    size_t head = (max - 1) / 2;
    while (head > 0 && continuation(head)) --head;
    size_t tail_from = folded.size() - (max - 1 - (max - 1) / 2);
    while (continuation(tail_from)) ++tail_from;
    folded = folded.substr(0, head) + "…" + folded.substr(tail_from);
  }
  return folded;
}

std::vector<std::string> uniqueLabels(std::vector<std::string> labels) {
  std::set<std::string> used;
  for (std::string& label : labels) {
    std::string unique = label;
    for (int n = 2; used.count(unique) > 0; ++n) unique = fmt::format("{} ({})", label, n);
    used.insert(unique);
    label = std::move(unique);
  }
  return labels;
}

std::vector<std::string> kernelLabels(const std::vector<std::string_view>& names, size_t max) {
  std::vector<std::string> labels;
  labels.reserve(names.size());
  for (const std::string_view name : names) labels.push_back(kernelLabel(name, max));
  return uniqueLabels(std::move(labels));
}

}  // namespace damscope
