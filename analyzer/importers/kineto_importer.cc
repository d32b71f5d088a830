// Importer for PyTorch profiler (Kineto) Chrome-trace JSON: see
// kineto_importer.h. The work is split into reading, routing and finishing
// (kineto_internal.h); this file runs them in order.
#include "analyzer/importers/kineto_importer.h"

#include <simdjson.h>

#include "analyzer/importers/kineto_internal.h"

namespace damscope {

const size_t kJsonPadding = simdjson::SIMDJSON_PADDING;

Result<TraceTables> importKinetoJson(std::string& json, const std::string& source_name) {
  kineto::ImportState state(source_name);
  state.tables.addStat("kineto.events", 0, "trace events read from traceEvents");  // listed first
  kineto::EventRouter router(state);
  DAMSCOPE_RETURN_IF_ERROR(kineto::readDocument(json, state, router));
  kineto::finishImport(state);
  return std::move(state.tables);
}

}  // namespace damscope
