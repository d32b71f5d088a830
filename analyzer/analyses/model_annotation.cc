// The model annotation: see model_annotation.h.
#include "analyzer/analyses/model_annotation.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace damscope {
namespace {

using nlohmann::json;

std::optional<double> positiveNumber(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  if (!std::isfinite(v) || v <= 0) return std::nullopt;
  return v;
}

// A positive whole number that fits int64 (JSON numbers may be written 12.0).
std::optional<int64_t> positiveCount(const json& object, const char* key) {
  const std::optional<double> v = positiveNumber(object, key);
  if (!v || *v != std::floor(*v) || *v >= 9.2e18) return std::nullopt;
  return static_cast<int64_t>(*v);
}

std::optional<std::string> text(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

// Fills `a` from the object; false when the object names none of the fields.
bool parseInto(const json& j, ModelAnnotation& a) {
  a.model = text(j, "model");
  a.params = positiveNumber(j, "params");
  a.layers = positiveCount(j, "layers");
  a.d_model = positiveCount(j, "d_model");
  a.heads = positiveCount(j, "heads");
  a.seq_len = positiveCount(j, "seq_len");
  a.vocab = positiveCount(j, "vocab");
  a.tokens_per_step = positiveNumber(j, "tokens_per_step");
  a.samples_per_step = positiveNumber(j, "samples_per_step");
  a.batch = positiveCount(j, "batch");
  a.precision = text(j, "precision");
  auto device = j.find("device");
  if (device != j.end() && device->is_object()) {
    a.device.kind = text(*device, "kind");
    a.device.name = text(*device, "name");
    // TFLOP/s and GB/s as people quote them (decimal prefixes).
    if (auto tflops = positiveNumber(*device, "peak_tflops"))
      a.device.peak_flops_per_s = *tflops * 1e12;
    if (auto gbs = positiveNumber(*device, "bandwidth_gbs"))
      a.device.bandwidth_bytes_per_s = *gbs * 1e9;
  }
  ModelAnnotation empty;
  empty.range_id = a.range_id;
  return !(a == empty);
}

}  // namespace

std::optional<OpAnnotation> parseOpAnnotation(std::string_view message) {
  if (message.empty() || message.front() != '{') return std::nullopt;
  const json j = json::parse(message, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("op")) return std::nullopt;
  OpAnnotation a;
  a.op = text(j, "op").value_or("");
  a.name = text(j, "name").value_or("");
  a.flops = positiveNumber(j, "flops");
  a.bytes = positiveNumber(j, "bytes");
  return a;
}

std::optional<CollectiveAnnotation> parseCollectiveAnnotation(std::string_view message) {
  if (message.empty() || message.front() != '{') return std::nullopt;
  const json j = json::parse(message, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("collective")) return std::nullopt;
  CollectiveAnnotation a;
  a.collective = text(j, "collective").value_or("");
  if (a.collective.empty()) return std::nullopt;
  a.bytes = positiveNumber(j, "bytes");
  return a;
}

std::string annotationName(std::string_view message) {
  if (const std::optional<OpAnnotation> a = parseOpAnnotation(message)) {
    if (a->op.empty()) return {};
    return a->name.empty() ? a->op : a->op + "(" + a->name + ")";
  }
  if (const std::optional<CollectiveAnnotation> c = parseCollectiveAnnotation(message)) {
    return c->collective;
  }
  return {};
}

ModelAnnotation readModelAnnotation(const TraceTables& t) {
  ModelAnnotation a;
  const StringId domain = t.strings.find("damscope");
  if (!domain.valid()) return a;
  int64_t later = 0;
  for (size_t i = 0; i < t.ranges.size(); ++i) {
    if (!(t.ranges.domain[i] == domain)) continue;
    const std::string_view message = t.strings.get(t.ranges.name[i]);
    if (message.empty() || message.front() != '{') continue;
    const json j = json::parse(message, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object() || j.contains("op") || j.contains("collective")) {
      continue;
    }
    ModelAnnotation parsed;
    if (!parseInto(j, parsed)) continue;  // some other JSON, not a description of the model
    if (a.present()) {
      parsed.range_id = a.range_id;
      if (!(parsed == a)) ++later;
      continue;
    }
    a = std::move(parsed);
    a.range_id = static_cast<int64_t>(i);
  }
  if (later > 0) {
    a.notes.push_back(std::to_string(later) +
                      " later model annotation(s) disagree with the first; the first is used");
  }
  return a;
}

}  // namespace damscope
