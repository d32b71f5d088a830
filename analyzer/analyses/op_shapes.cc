// Op FLOPs and bytes from recorded shapes: see op_shapes.h.
#include "analyzer/analyses/op_shapes.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace damscope {
namespace {

using nlohmann::json;

// Element size in bytes of a PyTorch scalar type as the profiler writes it
// (c10/core/ScalarType.h names; "float" and "long int" as C++ spells them).
std::optional<double> elementBytes(std::string_view type) {
  if (type == "float" || type == "int" || type == "unsigned int") return 4;
  if (type == "double" || type == "long int" || type == "long" || type == "c10::complex<float>") {
    return 8;
  }
  if (type == "c10::Half" || type == "c10::BFloat16" || type == "short int" || type == "short") {
    return 2;
  }
  if (type == "c10::Float8_e4m3fn" || type == "c10::Float8_e5m2" || type == "signed char" ||
      type == "unsigned char" || type == "bool") {
    return 1;
  }
  if (type == "c10::complex<double>") return 16;
  return std::nullopt;
}

// A recorded dims array of numbers, when every one is a plausible size.
std::optional<Dims> dimsOf(const json& d) {
  if (!d.is_array()) return std::nullopt;
  Dims out;
  out.reserve(d.size());
  for (const json& v : d) {
    if (!v.is_number()) return std::nullopt;
    const double x = v.get<double>();
    if (!std::isfinite(x) || x < 0 || x > 1e12) return std::nullopt;
    out.push_back(x);
  }
  return out;
}

// The text of the array that follows `quoted` (a key with its quotes) and a
// colon in a flat JSON object, or ""
// when there is none. Kineto's args objects are flat, and their other values
// (ids, call stacks) are long and unique: reading just these fields is what
// lets a counter cache by shape.
std::string_view arrayField(std::string_view object, std::string_view quoted) {
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

// The recorded fields of one op's args.
struct Fields {
  std::string_view dims, types, concrete;
};

Fields fieldsOf(std::string_view args) {
  // Most ops of a trace without shapes have none: one search says so.
  const std::string_view dims = arrayField(args, "\"Input Dims\"");
  if (dims.empty()) return {};
  return {dims, arrayField(args, "\"Input type\""), arrayField(args, "\"Concrete Inputs\"")};
}

std::optional<std::vector<OpInput>> inputsOf(const Fields& f) {
  if (f.dims.empty() || f.types.empty()) return std::nullopt;
  const json dims = json::parse(f.dims, nullptr, /*allow_exceptions=*/false);
  const json types = json::parse(f.types, nullptr, /*allow_exceptions=*/false);
  if (!dims.is_array() || !types.is_array()) return std::nullopt;
  json concrete;
  if (!f.concrete.empty()) concrete = json::parse(f.concrete, nullptr, /*allow_exceptions=*/false);
  std::vector<OpInput> in(
      std::max({dims.size(), types.size(), concrete.is_array() ? concrete.size() : size_t{0}}));
  double first_tensor_bytes = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    OpInput& x = in[i];
    if (concrete.is_array() && i < concrete.size() && concrete[i].is_string()) {
      x.concrete = concrete[i].get<std::string>();
    }
    if (i >= types.size() || i >= dims.size() || !types[i].is_string()) continue;
    const std::string type = types[i].get<std::string>();
    if (const std::optional<double> size = elementBytes(type)) {
      std::optional<Dims> d = dimsOf(dims[i]);
      if (!d) return std::nullopt;
      x.kind = OpInput::Kind::kTensor, x.dims = std::move(*d), x.element_bytes = *size;
      if (first_tensor_bytes == 0) first_tensor_bytes = *size;
    } else if (type.starts_with("TensorList") && dims[i].is_array()) {
      x.kind = OpInput::Kind::kTensorList;
      for (const json& t : dims[i]) {
        std::optional<Dims> d = dimsOf(t);
        if (!d) return std::nullopt;
        x.list.push_back(std::move(*d));
      }
    }
  }
  for (OpInput& x : in) {
    if (x.kind == OpInput::Kind::kTensorList) x.element_bytes = first_tensor_bytes > 0 ? first_tensor_bytes : 4;
  }
  return in;
}

// "aten::_foreach_add_" -> base "add", in place, foreach. Only ATen ops have
// formulas.
std::optional<RecordedOp> nameOf(std::string_view name) {
  constexpr std::string_view kAten = "aten::", kForeach = "_foreach_";
  if (!name.starts_with(kAten)) return std::nullopt;
  std::string_view base = name.substr(kAten.size());
  RecordedOp op;
  if (base.starts_with(kForeach)) op.foreach = true, base.remove_prefix(kForeach.size());
  if (base.size() > 1 && base.back() == '_' && base[base.size() - 2] != '_') {
    op.in_place = true, base.remove_suffix(1);
  }
  op.base = std::string(base);
  return op;
}

std::optional<OpWork> countFromFields(std::string_view name, const Fields& fields,
                                      std::string_view output_dims, const Fields& forward) {
  std::optional<RecordedOp> op = nameOf(name);
  if (!op) return std::nullopt;
  const OpFormula formula = formulaOf(op->base);
  if (!formula) return std::nullopt;
  std::optional<std::vector<OpInput>> in = inputsOf(fields);
  if (!in) return std::nullopt;
  op->inputs = std::move(*in);
  if (!output_dims.empty()) {
    op->output = dimsOf(json::parse(output_dims, nullptr, /*allow_exceptions=*/false));
    if (op->output && op->output->empty()) op->output.reset();
  }
  if (!forward.dims.empty()) {
    if (std::optional<std::vector<OpInput>> f = inputsOf(forward)) op->forward_inputs = std::move(*f);
  }
  std::optional<OpWork> w = formula(*op);
  if (w && (!std::isfinite(w->flops) || !std::isfinite(w->bytes))) return std::nullopt;
  return w;
}

}  // namespace

bool countsOpWork(std::string_view name) {
  const std::optional<RecordedOp> op = nameOf(name);
  return op && formulaOf(op->base) != nullptr;
}

std::optional<RecordedOp> recordedOp(std::string_view name, std::string_view args) {
  std::optional<RecordedOp> op = nameOf(name);
  if (!op) return std::nullopt;
  std::optional<std::vector<OpInput>> in = inputsOf(fieldsOf(args));
  if (!in) return std::nullopt;
  op->inputs = std::move(*in);
  return op;
}

std::optional<OpWork> estimateOpWork(const OpCall& call) {
  return countFromFields(call.name, fieldsOf(call.args), call.output_dims,
                         fieldsOf(call.forward_args));
}

std::optional<OpWork> OpWorkCounter::count(const OpCall& call) {
  const Fields fields = fieldsOf(call.args);
  if (fields.dims.empty() || fields.types.empty()) return std::nullopt;
  const Fields forward = fieldsOf(call.forward_args);
  std::string key;
  key.reserve(call.name.size() + fields.dims.size() + fields.types.size() +
              fields.concrete.size() + call.output_dims.size() + forward.dims.size() +
              forward.types.size() + 8);
  for (std::string_view part : {call.name, fields.dims, fields.types, fields.concrete,
                                call.output_dims, forward.dims, forward.types}) {
    key.append(part).append(1, '\n');
  }
  auto [it, inserted] = cache_.try_emplace(std::move(key));
  if (inserted) it->second = countFromFields(call.name, fields, call.output_dims, forward);
  return it->second;
}

}  // namespace damscope
