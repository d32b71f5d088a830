// One input of a run, classified once: see rank_source.h.
#include "analyzer/pipeline/rank_source.h"

#include <filesystem>

#include "analyzer/result/analysis_store.h"
#include "base/input_fd.h"
#include "trace/trace_reader.h"

namespace damscope {
namespace {

bool samePath(const std::string& a, const std::string& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) || a == b;
}

// True when `db` is a trace store an earlier import made of `input`.
bool importedFrom(Database& db, const std::string& input) {
  if (!isTraceStore(db)) return false;
  auto stmt = db.prepare("SELECT value FROM meta WHERE key='source_file'");
  if (!stmt.ok()) return false;
  auto row = stmt->step();
  return row.ok() && row.value() && samePath(std::string(stmt->columnText(0)), input);
}

// The run.db an import of `input` goes to; with its earlier import opened
// when there is one. An error when the file is not an import of `input`.
Status findImport(const std::string& input, const PipelineOptions& options, RankSource& source) {
  source.store = options.output.empty() ? defaultStoreName(input) : options.output;
  std::error_code ec;
  if (!std::filesystem::exists(source.store, ec)) return okStatus();
  if (samePath(source.store, input)) {
    return Error(source.store + ": output would overwrite the input");
  }
  if (options.replace) return okStatus();  // imported again over it
  // A FIFO or a device in run.db's place is named as such, not as a file
  // some other import made (base/input_fd.h).
  DAMSCOPE_RETURN_IF_ERROR(checkRegularFile(source.store));
  auto db = Database::open(source.store, Database::Mode::kReadOnly);
  if (!db.ok() || !importedFrom(db.value(), input)) {
    return Error(source.store + ": exists and was not imported from " + input,
                 ErrorCode::kOutputExists);
  }
  source.import = std::move(db.value());
  return okStatus();
}

}  // namespace

Database* RankSource::events() {
  if (file.format == TraceFormat::kTraceStore) return &*file.db;
  return import ? &*import : nullptr;
}

const Database* RankSource::events() const {
  return const_cast<RankSource*>(this)->events();
}

Result<RankSource> classifyRank(const std::string& input, const PipelineOptions& options) {
  RankSource source;
  DAMSCOPE_ASSIGN_OR_RETURN(source.file, openTraceInput(input));
  if (source.file.format == TraceFormat::kTraceStore) {
    if (options.store) source.store = input;
  } else if (options.store && options.store_imports) {
    DAMSCOPE_RETURN_IF_ERROR(findImport(input, options, source));
  }
  if (Database* db = source.events(); db && hasAnalysis(*db)) {
    source.holds_results = true;
    source.results_options = storedAnalysisOptions(*db);
  }
  return source;
}

bool useStoredResults(const RankSource& source, const PipelineOptions& options) {
  switch (options.stored_results) {
    case StoredResults::kShow:
      return source.holds_results;
    case StoredResults::kReuseSameOptions:
      return source.holds_results && source.results_options == options.options_key;
    case StoredResults::kIgnore:
      return false;
  }
  return false;
}

std::string defaultStoreName(const std::string& input) {
  std::string name = std::filesystem::path(input).filename().string();
  for (const char* suffix : {".gz", ".json", ".pt.trace", ".sqlite", ".sqlite3"}) {
    const std::string s(suffix);
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      name.resize(name.size() - s.size());
    }
  }
  return name + ".db";
}

}  // namespace damscope
