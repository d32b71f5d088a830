// Matrix kernel precision from names: see kernel_precision.h.
#include "analyzer/analyses/kernel_precision.h"

#include <array>
#include <cctype>
#include <string>
#include <unordered_map>

namespace damscope {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool has(const std::string& s, std::string_view word) {
  return s.find(word) != std::string::npos;
}

}  // namespace

std::optional<Precision> precisionOfKernelName(std::string_view name) {
  const std::string l = lower(name);
  // Narrowest first: an FP8 GEMM's name also carries its bf16 output type.
  if (has(l, "e4m3") || has(l, "e5m2") || has(l, "fp8")) return Precision::kFp8;
  if (has(l, "bf16") || has(l, "bfloat16")) return Precision::kBf16;
  if (has(l, "tf32") || has(l, "s1688") || has(l, "s16816") || has(l, "s16832")) {
    return Precision::kTf32;
  }
  if (has(l, "fp16") || has(l, "f16") || has(l, "half") || has(l, "hgemm") || has(l, "h884") ||
      has(l, "h1688") || has(l, "h16816") || has(l, "hmma")) {
    return Precision::kFp16;
  }
  if (has(l, "dgemm") || has(l, "<double")) return Precision::kFp64;
  if (has(l, "sgemm") || has(l, "scudnn") || has(l, "<float") || has(l, "winograd") ||
      has(l, "ffma")) {  // cuBLAS xmma FP32 GEMMs on CUDA cores (kernel_categories.cc)
    return Precision::kFp32;
  }
  return std::nullopt;
}

std::optional<DominantPrecision> dominantMatrixPrecision(const AnalysisInput& input,
                                                         const WindowReport& window) {
  const TraceTables& t = input.tables();
  std::array<double, kPrecisionCount> time{};
  std::unordered_map<int32_t, std::optional<Precision>> by_name;
  const std::vector<GpuOp>& gpu = input.gpu();
  for (size_t g = 0; g < gpu.size(); ++g) {
    const GpuOp& op = gpu[g];
    if (op.kind != GpuOpKind::kKernel || !window.in_window[g] ||
        boundOf(op.category) != KernelBound::kCompute) {
      continue;
    }
    const StringId name = t.kernels.name[static_cast<size_t>(op.row)];
    auto [it, inserted] = by_name.try_emplace(name.value);
    if (inserted) it->second = precisionOfKernelName(t.strings.get(name));
    if (it->second) time[static_cast<size_t>(*it->second)] += static_cast<double>(op.end - op.ts);
  }
  double total = 0;
  size_t best = 0;
  for (size_t p = 0; p < kPrecisionCount; ++p) {
    total += time[p];
    if (time[p] > time[best]) best = p;
  }
  if (total <= 0) return std::nullopt;
  return DominantPrecision{static_cast<Precision>(best), 100.0 * time[best] / total};
}

std::string_view toText(PrecisionSource source) {
  switch (source) {
    case PrecisionSource::kUser:
      return "user";
    case PrecisionSource::kAnnotation:
      return "model_annotation";
    case PrecisionSource::kKernelNames:
      return "kernel_names";
    case PrecisionSource::kDefault:
      return "default";
  }
  return "default";
}

RunPrecision runPrecision(const AnalysisInput& input, const WindowReport& window,
                          std::optional<Precision> user) {
  if (user) return {*user, PrecisionSource::kUser, std::nullopt};
  const std::optional<std::string>& annotated = input.model().precision;
  if (auto p = annotated ? precisionFromText(*annotated) : std::nullopt) {
    return {*p, PrecisionSource::kAnnotation, std::nullopt};
  }
  if (auto dominant = dominantMatrixPrecision(input, window)) {
    return {dominant->precision, PrecisionSource::kKernelNames, dominant->share_pct};
  }
  return {};
}

}  // namespace damscope
