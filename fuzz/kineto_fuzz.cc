// libFuzzer target: the Kineto importer (analyzer/importers/kineto_*.cc), and
// gzip decompression for inputs that start with the gzip magic number, as
// importTrace reads a .json.gz. An accepted trace must satisfy the store's
// contract (fuzz_checks.h). Inputs are far smaller than the importer's
// windows, so each is also read in windows of a few bytes: the outcome must
// be the whole read's, table for table or error for error.
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
  std::string windowed_bytes = bytes;
  auto tables = importKinetoJson(bytes, "fuzz.json", {}, 0);
  auto windowed = importKinetoJson(windowed_bytes, "fuzz.json", {}, 16);
  if (tables.ok() != windowed.ok()) fuzz::fail("a windowed read and a whole read disagree");
  if (!tables.ok()) {
    if (tables.error().message() != windowed.error().message()) {
      fuzz::fail("windowed read: " + windowed.error().message() +
                 "\nwhole read: " + tables.error().message());
    }
    return 0;
  }
  if (fuzz::tablesText(tables.value()) != fuzz::tablesText(windowed.value())) {
    fuzz::fail("a windowed read gives other tables than a whole read");
  }
  fuzz::checkAcceptedTrace(tables.value());
  return 0;
}
