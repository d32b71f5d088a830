// libFuzzer target: the Nsight Systems SQLite importer
// (analyzer/importers/nsys_*.cc). The input is written to a file, as SQLite
// reads one; an accepted export must satisfy the store's contract
// (fuzz_checks.h).
#include <cstddef>
#include <cstdint>

#include "analyzer/importers/nsys/nsys_importer.h"
#include "fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace damscope;
  const std::string path = fuzz::writeInputFile("nsys.sqlite", data, size);
  auto tables = importNsysSqlite(path);
  if (tables.ok()) fuzz::checkAcceptedTrace(tables.value());
  return 0;
}
