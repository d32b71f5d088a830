// Op FLOPs and bytes from recorded shapes: see op_shapes.h.
#include "analyzer/analyses/op_shapes.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <vector>

namespace damscope {
namespace {

using nlohmann::json;
using Dims = std::vector<double>;

// Element size in bytes of a PyTorch scalar type as the profiler writes it
// (c10/core/ScalarType.h names; "float" and "double" as C++ spells them).
std::optional<double> elementBytes(std::string_view type) {
  if (type == "float" || type == "int") return 4;
  if (type == "double" || type == "long int" || type == "long") return 8;
  if (type == "c10::Half" || type == "c10::BFloat16" || type == "short int") return 2;
  if (type == "c10::Float8_e4m3fn" || type == "c10::Float8_e5m2" || type == "signed char" ||
      type == "unsigned char" || type == "bool") {
    return 1;
  }
  return std::nullopt;
}

// Input `i`'s dimensions, when it is a tensor whose dims are positive numbers.
std::optional<Dims> dimsOf(const json& inputs, size_t i) {
  if (!inputs.is_array() || i >= inputs.size() || !inputs[i].is_array()) return std::nullopt;
  Dims out;
  for (const json& d : inputs[i]) {
    if (!d.is_number()) return std::nullopt;
    const double v = d.get<double>();
    if (!std::isfinite(v) || v < 0 || v > 1e12) return std::nullopt;
    out.push_back(v);
  }
  if (out.empty()) return std::nullopt;
  return out;
}

double elements(const Dims& d) {
  double n = 1;
  for (double v : d) n *= v;
  return n;
}

bool isMatmul(std::string_view name) {
  return name == "aten::mm" || name == "aten::addmm" || name == "aten::bmm" ||
         name == "aten::baddbmm" || name == "aten::linear";
}

bool isAttention(std::string_view name) {
  return name.starts_with("aten::scaled_dot_product_attention") ||
         name == "aten::_scaled_dot_product_flash_attention" ||
         name == "aten::_scaled_dot_product_efficient_attention" ||
         name == "aten::_scaled_dot_product_cudnn_attention";
}

// The text of the array that follows `"key":` in a flat JSON object, or ""
// when there is none. Kineto's args objects are flat, and their other values
// (ids, call stacks) are long and unique: reading just these two fields is
// what lets a counter cache by shape.
std::string_view arrayField(std::string_view object, std::string_view key) {
  const std::string quoted = "\"" + std::string(key) + "\"";
  const size_t at = object.find(quoted);
  if (at == std::string_view::npos) return {};
  size_t i = at + quoted.size();
  while (i < object.size() && (object[i] == ' ' || object[i] == ':')) ++i;
  if (i >= object.size() || object[i] != '[') return {};
  const size_t start = i;
  int depth = 0;
  bool in_string = false;
  for (; i < object.size(); ++i) {
    const char c = object[i];
    if (in_string) {
      if (c == '\\') ++i;  // skip the escaped character
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[') {
      ++depth;
    } else if (c == ']' && --depth == 0) {
      return object.substr(start, i - start + 1);
    }
  }
  return {};
}

std::optional<OpWork> countFromFields(std::string_view name, std::string_view dims_text,
                                      std::string_view types_text) {
  const bool matmul = isMatmul(name);
  const json dims_json = json::parse(dims_text, nullptr, /*allow_exceptions=*/false);
  const json types = json::parse(types_text, nullptr, /*allow_exceptions=*/false);
  if (!dims_json.is_array() || !types.is_array() || types.empty()) return std::nullopt;
  const json* dims = &dims_json;
  // The first typed input's element size for all of them: matrix operands of
  // one op share a type.
  std::optional<double> size;
  for (const json& t : types) {
    if (t.is_string() && (size = elementBytes(t.get<std::string>()))) break;
  }
  if (!size) return std::nullopt;

  OpWork w;
  if (matmul) {
    // The two matrix operands, after the bias where there is one first.
    const bool bias_first = name == "aten::addmm" || name == "aten::baddbmm";
    const size_t a_at = bias_first ? 1 : 0;
    const auto a = dimsOf(*dims, a_at);
    const auto b = dimsOf(*dims, a_at + 1);
    if (!a || !b) return std::nullopt;
    double batch = 1, m = 0, k = 0, n = 0;
    if (name == "aten::linear") {
      // input [.., K], weight [N, K]
      if (b->size() != 2 || a->back() != (*b)[1]) return std::nullopt;
      k = a->back(), n = (*b)[0], m = elements(*a) / k;
    } else if (name == "aten::bmm" || name == "aten::baddbmm") {
      if (a->size() != 3 || b->size() != 3 || (*a)[0] != (*b)[0] || (*a)[2] != (*b)[1]) {
        return std::nullopt;
      }
      batch = (*a)[0], m = (*a)[1], k = (*a)[2], n = (*b)[2];
    } else {
      if (a->size() != 2 || b->size() != 2 || (*a)[1] != (*b)[0]) return std::nullopt;
      m = (*a)[0], k = (*a)[1], n = (*b)[1];
    }
    w.flops = 2 * batch * m * k * n;
    double elems = batch * (m * k + k * n + m * n);
    if (bias_first || (name == "aten::linear" && dimsOf(*dims, 2))) {
      w.flops += batch * m * n;  // adding the bias
      elems += batch * m * n;    // reading it (broadcast: at most this much)
    }
    w.bytes = elems * *size;
  } else {
    const auto q = dimsOf(*dims, 0), key = dimsOf(*dims, 1), v = dimsOf(*dims, 2);
    if (!q || !key || !v || q->size() != 4 || key->size() != 4 || v->size() != 4) {
      return std::nullopt;
    }
    const double b = (*q)[0], h = (*q)[1], t = (*q)[2], d = (*q)[3], s = (*key)[2];
    w.flops = 4 * b * h * t * s * d;
    w.bytes = (elements(*q) * 2 + elements(*key) + elements(*v)) * *size;  // Q, K, V, output
  }
  if (!(w.flops > 0) || !std::isfinite(w.flops) || !std::isfinite(w.bytes)) return std::nullopt;
  return w;
}

}  // namespace

bool countsOpWork(std::string_view name) {
  return isMatmul(name) || isAttention(name);
}

std::optional<OpWork> estimateOpWork(std::string_view name, std::string_view args_json) {
  if (!countsOpWork(name)) return std::nullopt;
  const std::string_view dims = arrayField(args_json, "Input Dims");
  const std::string_view types = arrayField(args_json, "Input type");
  if (dims.empty() || types.empty()) return std::nullopt;
  return countFromFields(name, dims, types);
}

std::optional<OpWork> OpWorkCounter::count(std::string_view name, std::string_view args_json) {
  if (!countsOpWork(name)) return std::nullopt;
  const std::string_view dims = arrayField(args_json, "Input Dims");
  const std::string_view types = arrayField(args_json, "Input type");
  if (dims.empty() || types.empty()) return std::nullopt;
  std::string key;
  key.reserve(name.size() + dims.size() + types.size() + 2);
  key.append(name).append(1, '\n').append(dims).append(1, '\n').append(types);
  auto [it, inserted] = cache_.try_emplace(std::move(key));
  if (inserted) it->second = countFromFields(name, dims, types);
  return it->second;
}

}  // namespace damscope
