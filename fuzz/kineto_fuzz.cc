// libFuzzer target: the Kineto importer (analyzer/importers/kineto_*.cc), and
// gzip decompression for inputs that start with the gzip magic number, as
// importTrace reads a .json.gz. An accepted trace must satisfy the store's
// contract (fuzz_checks.h). Inputs are far smaller than the importer's
// windows, so each is also read in windows of a few bytes, from the whole
// text and from one that arrives a byte at a time past every point the
// reader waits at (as a .gz inflating on another thread does): the outcome
// must be the whole read's, table for table or error for error.
#include <cstddef>
#include <cstdint>
#include <string>

#include "analyzer/importers/io/input_file.h"
#include "analyzer/importers/kineto/kineto_importer.h"
#include "fuzz/fuzz_checks.h"
#include "tests/trickle_text.h"

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
  std::string windowed_bytes = bytes, trickled_bytes = bytes;
  auto tables = importKinetoJson(bytes, "fuzz.json", {}, 0);
  auto windowed = importKinetoJson(windowed_bytes, "fuzz.json", {}, 16);
  testing::TrickleText trickle(trickled_bytes, kJsonPadding);
  auto trickled = importKinetoText(trickle, "fuzz.json", {}, 16);
  for (const auto& [name, other] : {std::pair{"windowed", &windowed}, {"trickled", &trickled}}) {
    const std::string how = std::string("a ") + name + " read";
    if (tables.ok() != other->ok()) fuzz::fail(how + " and a whole read disagree");
    if (!tables.ok()) {
      if (tables.error().message() != other->error().message()) {
        fuzz::fail(how + ": " + other->error().message() +
                   "\nwhole read: " + tables.error().message());
      }
    } else if (fuzz::tablesText(tables.value()) != fuzz::tablesText(other->value())) {
      fuzz::fail(how + " gives other tables than a whole read");
    }
  }
  if (!tables.ok()) return 0;
  fuzz::checkAcceptedTrace(tables.value());
  return 0;
}
