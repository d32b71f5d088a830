// The importer front door: see trace_import.h.
#include "analyzer/importers/trace_import.h"

#include <chrono>
#include <cstring>
#include <new>

#include "analyzer/importers/io/input_file.h"
#include "analyzer/importers/io/streaming_file.h"
#include "analyzer/importers/kineto/kineto_importer.h"
#include "analyzer/importers/nsys/nsys_importer.h"
#include "trace/sqlite_db.h"
#include "trace/trace_reader.h"

namespace damscope {
namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool startsLikeJson(std::string_view bytes) {
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") bytes.remove_prefix(3);  // UTF-8 byte order mark
  for (char c : bytes) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    return c == '{' || c == '[';
  }
  return false;
}

}  // namespace

std::string_view formatDescription(TraceFormat format) {
  switch (format) {
    case TraceFormat::kKinetoJson:
      return "PyTorch profiler (Kineto) JSON";
    case TraceFormat::kNsysSqlite:
      return "Nsight Systems SQLite export";
    case TraceFormat::kTraceStore:
      return "damscope trace";
  }
  return "unknown";
}

Result<TraceInput> openTraceInput(const std::string& path) {
  DAMSCOPE_RETURN_IF_ERROR(checkInputFile(path));
  DAMSCOPE_ASSIGN_OR_RETURN(std::string head, readFilePrefix(path, 64));
  TraceInput input;
  input.path = path;
  if (isGzip(head)) return input;  // content checked when parsed
  if (isSqlite(head)) {
    DAMSCOPE_ASSIGN_OR_RETURN(Database db, Database::open(path, Database::Mode::kReadOnly));
    if (auto probe = db.exec("SELECT count(*) FROM sqlite_master"); !probe.ok()) {
      return Error(path + ": damaged SQLite database");
    }
    if (isTraceStore(db)) {
      input.format = TraceFormat::kTraceStore;
    } else if (isNsysExport(db)) {
      input.format = TraceFormat::kNsysSqlite;
    } else {
      return Error(path +
                   ": SQLite database is neither an Nsight Systems export nor a damscope trace");
    }
    input.db = std::move(db);
    return input;
  }
  if (startsLikeJson(head)) return input;
  return Error(path +
               ": unrecognised format (expected PyTorch profiler JSON, plain or .gz, or an "
               "Nsight Systems SQLite export)");
}

Result<TraceFormat> detectFormat(const std::string& path) {
  DAMSCOPE_ASSIGN_OR_RETURN(TraceInput input, openTraceInput(path));
  return input.format;
}

namespace {

// Where address space is too short to parse a JSON file while it is read
// (StreamingFile), it is read or decompressed whole first: the share of the
// import that step takes, reported as a stage of its own. Measured on
// v100_rank1 (3.0 MB gzip, 54 MB JSON; medians of 7 runs on one core, page
// cache warm): reading the plain file takes 26 ms, decompressing the .gz 54
// ms, parsing either 106 ms.
constexpr double kPlainReadShare = 0.2;
constexpr double kGzipDecompressShare = 0.35;

Error notJson(const std::string& path) {
  return Error(path + ": gzip content is not JSON (expected a PyTorch profiler trace)");
}

// A file parsed as a second thread reads or decompresses it, reported as
// one stage. A .gz's content is only known to be JSON once it inflates.
Result<TraceTables> importStreaming(StreamingFile& text, const std::string& path, bool gzip,
                                    ImportTimings& t, const Progress& progress,
                                    std::chrono::steady_clock::time_point start) {
  if (gzip) {
    DAMSCOPE_ASSIGN_OR_RETURN(std::string_view first, text.through(64));
    if (!startsLikeJson(first.substr(0, 64))) {
      // A stream that is also damaged or a bomb is reported as such.
      if (auto whole = text.whole(); !whole.ok()) return whole.error();
      return notJson(path);
    }
  }
  const Progress parsing =
      progress.part(0, 1, gzip ? "decompressing and parsing" : "reading and parsing");
  parsing.report(0);
  DAMSCOPE_RETURN_IF_ERROR(parsing.checkCancelled());
  auto tables = importKinetoText(text, path, parsing);
  t.parse_s = secondsSince(start);
  (gzip ? t.decompress_s : t.read_s) = text.threadSeconds();
  if (tables.ok()) t.json_bytes = text.expectedSize();
  return tables;
}

// A text read or decompressed whole before its parse.
Result<TraceTables> importWholeText(std::string& bytes, const std::string& path, ImportTimings& t,
                                    const Progress& parsing) {
  DAMSCOPE_RETURN_IF_ERROR(parsing.checkCancelled());
  t.json_bytes = bytes.size();
  const auto start = std::chrono::steady_clock::now();
  auto tables = importKinetoJson(bytes, path, parsing);
  t.parse_s = secondsSince(start);
  return tables;
}

Result<TraceTables> importTraceUnguarded(TraceInput input, ImportTimings* timings,
                                         const Progress& progress) {
  ImportTimings local;
  ImportTimings& t = timings ? *timings : local;
  const std::string& path = input.path;
  DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
  switch (input.format) {
    case TraceFormat::kTraceStore:
      return Error(path + ": already a damscope trace; nothing to import");
    case TraceFormat::kNsysSqlite: {
      auto start = std::chrono::steady_clock::now();
      auto tables = importNsysSqlite(std::move(*input.db), progress.part(0, 1, "reading"));
      t.parse_s = secondsSince(start);
      return tables;
    }
    case TraceFormat::kKinetoJson: {
      // Gzip or plain, told by the first bytes.
      DAMSCOPE_ASSIGN_OR_RETURN(std::string head, readFilePrefix(path, 2));
      DAMSCOPE_ASSIGN_OR_RETURN(t.file_bytes, checkInputFile(path));
      auto start = std::chrono::steady_clock::now();
      if (isGzip(head)) {
        // Parsed as it inflates: the compressed file is never held whole, and
        // the output is capped by the file's size (InflateLimits).
        auto inflating = StreamingFile::gunzip(path, kJsonPadding, progress);
        if (inflating.ok()) return importStreaming(**inflating, path, true, t, progress, start);
        // No address space for the cap: decompressed first, into a buffer
        // that grows with the text.
        DAMSCOPE_ASSIGN_OR_RETURN(
            std::string bytes, gunzipFile(path, kJsonPadding,
                                          progress.part(0, kGzipDecompressShare, "decompressing")));
        t.decompress_s = secondsSince(start);
        if (!startsLikeJson(std::string_view(bytes).substr(0, 64))) return notJson(path);
        return importWholeText(bytes, path, t, progress.part(kGzipDecompressShare, 1, "parsing"));
      }
      auto reading = StreamingFile::read(path, kJsonPadding, progress);
      if (reading.ok()) return importStreaming(**reading, path, false, t, progress, start);
      DAMSCOPE_ASSIGN_OR_RETURN(
          std::string bytes,
          readWholeFile(path, kJsonPadding, progress.part(0, kPlainReadShare, "reading")));
      t.read_s = secondsSince(start);
      return importWholeText(bytes, path, t, progress.part(kPlainReadShare, 1, "parsing"));
    }
  }
  return Error(path + ": unsupported format");
}

}  // namespace

Result<TraceTables> importTrace(TraceInput input, ImportTimings* timings,
                                const Progress& progress) {
  // Importers return errors as values. What the standard library can still
  // throw on hostile input is an allocation failure (reading, decompressing
  // and tables all grow with the input), which becomes an error here like any
  // other instead of ending the GUI or CLI.
  const std::string path = input.path;
  try {
    return importTraceUnguarded(std::move(input), timings, progress);
  } catch (const std::bad_alloc&) {
    return Error(path + ": out of memory while importing", ErrorCode::kFailure);
  }
}

Result<TraceTables> importTrace(const std::string& path, ImportTimings* timings,
                                const Progress& progress) {
  DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
  DAMSCOPE_ASSIGN_OR_RETURN(TraceInput input, openTraceInput(path));
  return importTrace(std::move(input), timings, progress);
}

}  // namespace damscope
