// Importer for PyTorch profiler (Kineto) Chrome-trace JSON: see
// kineto_importer.h. The work is split into reading, routing and finishing
// (kineto_internal.h); this file runs them in order.
#include "analyzer/importers/kineto_importer.h"

#include <simdjson.h>

#include <new>

#include "analyzer/importers/input_file.h"
#include "analyzer/importers/kineto_internal.h"

namespace damscope {

const size_t kJsonPadding = simdjson::SIMDJSON_PADDING;
static_assert(kMaxInputBytes <= simdjson::SIMDJSON_MAXSIZE_BYTES,
              "input_file.h reads no more than the JSON parser can parse");

namespace {

Result<TraceTables> importUnguarded(std::string& json, const std::string& source_name) {
  kineto::ImportState state(source_name);
  state.tables.addStat("kineto.events", 0, "trace events read from traceEvents");  // listed first
  kineto::EventRouter router(state);
  DAMSCOPE_RETURN_IF_ERROR(kineto::readDocument(json, state, router));
  kineto::finishImport(state);
  return std::move(state.tables);
}

}  // namespace

Result<TraceTables> importKinetoJson(std::string& json, const std::string& source_name) {
  // Tables grow with the input; running out of memory is an error, not an
  // exception for the caller (see importTrace).
  try {
    return importUnguarded(json, source_name);
  } catch (const std::bad_alloc&) {
    return Error(source_name + ": out of memory while importing", ErrorCode::kFailure);
  }
}

}  // namespace damscope
