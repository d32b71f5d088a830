// libFuzzer target: the Kineto importer (analyzer/importers/kineto_*.cc), and
// gzip decompression for inputs that start with the gzip magic number, as
// importTrace reads a .json.gz. An accepted trace must satisfy the store's
// contract (fuzz_checks.h).
#include <cstddef>
#include <cstdint>
#include <string>

#include "analyzer/importers/input_file.h"
#include "analyzer/importers/kineto_importer.h"
#include "fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace damscope;
  std::string bytes(reinterpret_cast<const char*>(data), size);
  if (isGzip(bytes)) {
    // A small allowance keeps each input fast; the ratio is the real one.
    InflateLimits limits;
    limits.allowance_bytes = 1u << 20;
    auto json = gunzip(bytes, "fuzz.json.gz", kJsonPadding, {}, limits);
    if (!json.ok()) return 0;
    bytes = std::move(json.value());
  }
  auto tables = importKinetoJson(bytes, "fuzz.json");
  if (tables.ok()) fuzz::checkAcceptedTrace(tables.value());
  return 0;
}
