// Kineto trace-level metadata: see kineto_metadata.h.
#include "analyzer/importers/kineto/kineto_metadata.h"

#include <simdjson.h>

#include <cmath>
#include <cstdint>

namespace damscope {
namespace {

// Parses `json`; if it is a JSON string, parses the Python literal inside it.
Result<simdjson::dom::element> parseMaybeLiteral(simdjson::dom::parser& parser,
                                                 std::string_view json, std::string& storage) {
  simdjson::dom::element element;
  if (auto error = parser.parse(json.data(), json.size()).get(element)) {
    return Error(std::string("invalid JSON: ") + simdjson::error_message(error));
  }
  std::string_view literal;
  if (element.get_string().get(literal) == simdjson::SUCCESS) {
    storage = pythonLiteralToJson(literal);
    if (auto error = parser.parse(storage).get(element)) {
      return Error(std::string("invalid Python literal: ") + simdjson::error_message(error));
    }
  }
  return element;
}

int64_t intField(simdjson::dom::object object, std::string_view key) {
  simdjson::dom::element value;
  if (object[key].get(value) != simdjson::SUCCESS) return -1;
  int64_t i = 0;
  if (value.get_int64().get(i) == simdjson::SUCCESS) return i;
  // A double outside int64's range has no integer value (converting it is
  // undefined behaviour): it reads as absent, like any other unusable field.
  double d = 0;
  if (value.get_double().get(d) == simdjson::SUCCESS && std::fabs(d) < 9.2e18) {
    return static_cast<int64_t>(d);
  }
  return -1;
}

// A field of a 32-bit column: a value outside int32 reads as absent too.
int32_t int32Field(simdjson::dom::object object, std::string_view key) {
  const int64_t v = intField(object, key);
  return v >= 0 && v <= INT32_MAX ? static_cast<int32_t>(v) : -1;
}

std::string stringField(simdjson::dom::object object, std::string_view key) {
  std::string_view s;
  if (object[key].get_string().get(s) != simdjson::SUCCESS) return {};
  return std::string(s);
}

}  // namespace

std::string pythonLiteralToJson(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\'' || c == '"') {
      // A Python string in either quote style becomes a JSON string.
      const char quote = c;
      out += '"';
      ++i;
      while (i < text.size() && text[i] != quote) {
        if (text[i] == '\\' && i + 1 < text.size()) {
          if (text[i + 1] == '\'') {
            out += '\'';
          } else {
            out += text[i];
            out += text[i + 1];
          }
          i += 2;
          continue;
        }
        if (text[i] == '"') out += '\\';
        out += text[i++];
      }
      out += '"';
      ++i;
      continue;
    }
    auto word_at = [&](std::string_view word) { return text.substr(i, word.size()) == word; };
    if (word_at("True")) {
      out += "true", i += 4;
    } else if (word_at("False")) {
      out += "false", i += 5;
    } else if (word_at("None")) {
      out += "null", i += 4;
    } else {
      out += c, ++i;
    }
  }
  return out;
}

Result<std::vector<KinetoDevice>> parseKinetoDevices(std::string_view json) {
  simdjson::dom::parser parser;
  std::string storage;
  DAMSCOPE_ASSIGN_OR_RETURN(simdjson::dom::element root, parseMaybeLiteral(parser, json, storage));
  simdjson::dom::array array;
  if (root.get_array().get(array) != simdjson::SUCCESS) {
    return Error("deviceProperties is not a list");
  }
  std::vector<KinetoDevice> devices;
  for (simdjson::dom::element item : array) {
    simdjson::dom::object o;
    if (item.get_object().get(o) != simdjson::SUCCESS) continue;
    KinetoDevice d;
    d.id = int32Field(o, "id");
    d.name = stringField(o, "name");
    d.total_memory_bytes = intField(o, "totalGlobalMem");
    d.compute_major = int32Field(o, "computeMajor");
    d.compute_minor = int32Field(o, "computeMinor");
    d.sm_count = int32Field(o, "numSms");
    d.warp_size = int32Field(o, "warpSize");
    d.max_threads_per_block = int32Field(o, "maxThreadsPerBlock");
    d.max_threads_per_sm = int32Field(o, "maxThreadsPerMultiprocessor");
    d.registers_per_block = int32Field(o, "regsPerBlock");
    d.registers_per_sm = int32Field(o, "regsPerMultiprocessor");
    d.shared_memory_per_block_bytes = intField(o, "sharedMemPerBlock");
    d.shared_memory_per_sm_bytes = intField(o, "sharedMemPerMultiprocessor");
    // ROCm builds of Kineto spell it differently.
    if (d.shared_memory_per_sm_bytes < 0) {
      d.shared_memory_per_sm_bytes = intField(o, "maxSharedMemoryPerMultiProcessor");
    }
    if (d.id >= 0) devices.push_back(std::move(d));
  }
  return devices;
}

Result<KinetoDistributedInfo> parseKinetoDistributedInfo(std::string_view json) {
  simdjson::dom::parser parser;
  std::string storage;
  DAMSCOPE_ASSIGN_OR_RETURN(simdjson::dom::element root, parseMaybeLiteral(parser, json, storage));
  simdjson::dom::object o;
  if (root.get_object().get(o) != simdjson::SUCCESS) {
    return Error("distributedInfo is not an object");
  }
  KinetoDistributedInfo info;
  info.rank = int32Field(o, "rank");
  info.world_size = int32Field(o, "world_size");
  info.backend = stringField(o, "backend");
  return info;
}

}  // namespace damscope
