// Importer for PyTorch profiler (Kineto) Chrome-trace JSON: see
// kineto_importer.h. The work is split into reading, routing and finishing
// (kineto_internal.h); this file runs them in order.
#include "analyzer/importers/kineto/kineto_importer.h"

#include <simdjson.h>

#include <new>

#include "analyzer/importers/io/input_file.h"
#include "analyzer/importers/kineto/kineto_internal.h"

namespace damscope {

const size_t kJsonPadding = simdjson::SIMDJSON_PADDING;
static_assert(kMaxInputBytes <= simdjson::SIMDJSON_MAXSIZE_BYTES,
              "input_file.h reads no more than the JSON parser can parse");

namespace {

// The document walk's share of the import; finishing takes the rest. Callgrind
// on v100_rank1.json.gz: finishImport runs 62 M of importKinetoJson's 1,139 M
// instructions.
constexpr double kReadShare = 0.95;

Result<TraceTables> importOnce(DocumentText& text, const std::string& source_name,
                               const Progress& progress, kineto::ReadMode& mode) {
  kineto::ImportState state(source_name);
  state.tables.addStat("kineto.events", 0, "trace events read from traceEvents");  // listed first
  kineto::EventRouter router(state);
  DAMSCOPE_RETURN_IF_ERROR(
      kineto::readDocument(text, state, router, progress.part(0, kReadShare), mode));
  if (mode.retry) return TraceTables();
  DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
  // Its own stage: the bar must not sit at the read's end while it runs.
  const Progress finishing = progress.part(kReadShare, 1, "finishing the import");
  finishing.report(0);
  DAMSCOPE_RETURN_IF_ERROR(kineto::finishImport(state));
  finishing.report(1);
  return std::move(state.tables);
}

Result<TraceTables> importUnguarded(DocumentText& text, const std::string& source_name,
                                    const Progress& progress, size_t window_bytes) {
  kineto::ReadMode mode{window_bytes};
  auto tables = importOnce(text, source_name, progress, mode);
  // What the windows left undecided, another read decides, from a fresh
  // start: in larger windows, then whole (which never asks again).
  while (tables.ok() && mode.retry) {
    mode.retry = false;
    if (Status status = text.rewind(); !status.ok()) return status.error();
    tables = importOnce(text, source_name, progress, mode);
  }
  return tables;
}

}  // namespace

Result<TraceTables> importKinetoText(DocumentText& text, const std::string& source_name,
                                     const Progress& progress, size_t window_bytes) {
  // Tables grow with the input; running out of memory is an error, not an
  // exception for the caller (see importTrace).
  try {
    return importUnguarded(text, source_name, progress, window_bytes);
  } catch (const std::bad_alloc&) {
    return Error(source_name + ": out of memory while importing", ErrorCode::kFailure);
  }
}

Result<TraceTables> importKinetoJson(std::string& json, const std::string& source_name,
                                     const Progress& progress, size_t window_bytes) {
  WholeText text(json, kJsonPadding);
  return importKinetoText(text, source_name, progress, window_bytes);
}

}  // namespace damscope
