// Reading a Kineto trace (see kineto_internal.h): one pass over the JSON
// document with simdjson's On-Demand API. The top level may be the Chrome
// trace "JSON Object Format" ({"traceEvents": [...], ...}) or the bare "JSON
// Array Format"; every event's fields are read in whatever order they come
// into a flat Event, which goes to the router before the next one is read.
// A bare array whose first event is the legacy autograd profiler's
// (legacy_autograd.h) goes to the LegacyEventRouter instead, all of it.
// Arguments with a typed column are parsed into it; the rest are kept
// verbatim as the row's `args` JSON.
#include <simdjson.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "analyzer/importers/decimal.h"
#include "analyzer/importers/input_file.h"
#include "analyzer/importers/kineto_importer.h"
#include "analyzer/importers/kineto_internal.h"
#include "trace/json_text.h"

namespace damscope::kineto {
namespace {

namespace od = simdjson::ondemand;

// What an argument key means to the importer. Keys with a column are read
// into typed fields; kDropped keys are bookkeeping or derived values (Kineto's
// "blocks per SM" follows from grid and SM count); all others are kept
// verbatim in the row's `args` JSON.
enum class ArgKey : uint8_t {
  kOther,
  kDropped,
  kExternalId,
  kCorrelation,
  kDevice,
  kStream,
  kGrid,
  kBlock,
  kRegisters,
  kSharedMemory,
  kOccupancy,
  kBytes,
  kCbid,
  kSyncKind,
  kCopyKind,
  kDeviceType,
  kDeviceId,
  kTotalAllocated,
  kTotalReserved,
  kFlops,
  kMetaName,
  kMetaLabels,
};

ArgKey classifyArg(std::string_view key) {
  // A linear scan, most frequent keys first: cheaper than hashing for keys
  // this short, since most comparisons stop at the length.
  static constexpr std::pair<std::string_view, ArgKey> kKeys[] = {
      {"External id", ArgKey::kExternalId},
      {"Ev Idx", ArgKey::kDropped},
      {"correlation", ArgKey::kCorrelation},
      {"cbid", ArgKey::kCbid},
      {"device", ArgKey::kDevice},
      {"stream", ArgKey::kStream},
      {"context", ArgKey::kDropped},
      {"Record function id", ArgKey::kDropped},
      {"queued", ArgKey::kDropped},
      {"registers per thread", ArgKey::kRegisters},
      {"shared memory", ArgKey::kSharedMemory},
      {"blocks per SM", ArgKey::kDropped},
      {"warps per SM", ArgKey::kDropped},
      {"grid", ArgKey::kGrid},
      {"block", ArgKey::kBlock},
      {"est. achieved occupancy %", ArgKey::kOccupancy},
      {"bytes", ArgKey::kBytes},
      {"memory bandwidth (GB/s)", ArgKey::kDropped},
      {"Device Type", ArgKey::kDeviceType},
      {"Device Id", ArgKey::kDeviceId},
      {"Total Allocated", ArgKey::kTotalAllocated},
      {"Total Reserved", ArgKey::kTotalReserved},
      {"external id", ArgKey::kExternalId},  // 2021 format
      {"external ts", ArgKey::kDropped},
      {"Trace name", ArgKey::kDropped},
      {"Trace iteration", ArgKey::kDropped},
      {"Profiler Event Index", ArgKey::kDropped},
      {"cuda_sync_kind", ArgKey::kSyncKind},
      {"flops", ArgKey::kFlops},
      {"cid", ArgKey::kCbid},       // ROCm
      {"kind", ArgKey::kCopyKind},  // ROCm memcpy direction
      {"name", ArgKey::kMetaName},
      {"labels", ArgKey::kMetaLabels},
      {"sort_index", ArgKey::kDropped},
  };
  for (const auto& [name, kind] : kKeys) {
    if (name.size() == key.size() && name == key) return kind;
  }
  return ArgKey::kOther;
}

// FLOPs per thread instruction of the CUPTI SASS counters Kineto's
// CuptiRangeProfiler records: an FMA is two operations, as in Nsight
// Compute's roofline sections (SpeedOfLight_RooflineChart.section:
// derived__sm__sass_thread_inst_executed_op_ffma_pred_on_x2).
int sassFlopsPerInstruction(std::string_view key) {
  constexpr std::string_view kPrefix = "smsp__sass_thread_inst_executed_op_";
  if (key.substr(0, kPrefix.size()) != kPrefix) return 0;
  const std::string_view op = key.substr(kPrefix.size(), 4);
  if (op == "dfma" || op == "ffma" || op == "hfma") return 2;
  if (op == "dadd" || op == "fadd" || op == "hadd" || op == "dmul" || op == "fmul" ||
      op == "hmul") {
    return 1;
  }
  return 0;
}

// The characters std::isspace takes in the C locale, inline: the library call
// for every byte of whitespace after every value cost 1.5% of the import.
bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

std::string_view trimRight(std::string_view s) {
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

// The JSON text of any value, for copying it into `args` unchanged.
simdjson::error_code rawJson(od::value& value, std::string_view& out) {
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  if (type == od::json_type::object) {
    od::object o;
    if (auto error = value.get_object().get(o)) return error;
    return o.raw_json().get(out);
  }
  if (type == od::json_type::array) {
    od::array a;
    if (auto error = value.get_array().get(a)) return error;
    return a.raw_json().get(out);
  }
  out = trimRight(value.raw_json_token());
  return simdjson::SUCCESS;
}

// The text of a JSON string that holds no escape sequence, in place: the
// bytes between its quotes are already its value (stage 1 of the parser has
// checked them: valid UTF-8, no control characters, the string closed).
// `quoted` starts at the opening quote. False when the string has a
// backslash, which only unescaping can read.
bool unescapedInPlace(const char* quoted, std::string_view& out) {
  const char* p = quoted + 1;
  while (*p != '"') {
    if (*p == '\\') return false;
    ++p;
  }
  out = std::string_view(quoted + 1, static_cast<size_t>(p - quoted - 1));
  return true;
}

// A field's key. Reading it in place saves its copy into the parser's string
// buffer: with the values below, the buffer's pages were a fifth of the
// import's page faults (perf on v100_rank1.json.gz).
simdjson::error_code readKey(od::field& field, std::string_view& out) {
  if (unescapedInPlace(field.key().raw() - 1, out)) return simdjson::SUCCESS;
  return field.unescaped_key().get(out);
}

// A string value, as get_string() reads it (a value of another type is
// INCORRECT_TYPE), in place when it has no escape sequence.
simdjson::error_code readString(od::value& value, std::string_view& out) {
  const std::string_view token = value.raw_json_token();
  if (!token.empty() && token.front() == '"' && unescapedInPlace(token.data(), out)) {
    return simdjson::SUCCESS;
  }
  return value.get_string().get(out);
}

// Reads a JSON number (or a numeric string) as an integer.
bool readInt(od::value& value, int64_t& out) {
  od::json_type type;
  if (value.type().get(type)) return false;
  if (type == od::json_type::number) {
    auto parsed = parseScaledDecimal(value.raw_json_token(), 0);
    if (!parsed) return false;
    out = *parsed;
    return true;
  }
  if (type == od::json_type::string) {
    std::string_view text;
    if (value.get_string().get(text)) return false;
    auto parsed = parseScaledDecimal(text, 0);
    if (!parsed) return false;
    out = *parsed;
    return true;
  }
  return false;
}

// Timestamps and durations: microseconds as numbers (or, rarely, strings).
bool readMicros(od::value& value, int64_t& out) {
  std::string_view token = trimRight(value.raw_json_token());
  if (!token.empty() && token.front() == '"') token = token.substr(1, token.size() - 2);
  auto parsed = microsToNanos(token);
  if (!parsed) return false;
  out = *parsed;
  return true;
}

EventId readEventId(od::value& value) {
  EventId id;
  od::json_type type;
  if (value.type().get(type)) return id;
  if (type == od::json_type::number) {
    int64_t n = 0;
    if (readInt(value, n)) id.number = n;
    return id;
  }
  std::string_view text;
  if (type != od::json_type::string || readString(value, text)) return id;
  id.text = text;
  // "stream 7" names a GPU stream in 2021 traces; "25738" is a thread id.
  constexpr std::string_view kStreamPrefix = "stream ";
  if (text.substr(0, kStreamPrefix.size()) == kStreamPrefix)
    text.remove_prefix(kStreamPrefix.size());
  if (auto parsed = parseScaledDecimal(text, 0)) id.number = *parsed;
  return id;
}

bool readDims(od::value& value, std::array<int32_t, 3>& out) {
  od::array array;
  if (value.get_array().get(array)) return false;
  size_t i = 0;
  for (auto element : array) {
    int64_t v = 0;
    od::value item;
    if (element.get(item) || !readInt(item, v)) return false;
    // A dimension is at most 2^31 - 1 (CUDA's gridDim.x); more is no dimension.
    if (i < 3) out[i++] = v >= 0 && v <= INT32_MAX ? static_cast<int32_t>(v) : kNullInt32;
  }
  return true;
}

class DocumentReader {
 public:
  DocumentReader(ImportState& state, EventRouter& router, const Progress& progress)
      : s_(state), t_(state.tables), router_(router), legacy_router_(state), progress_(progress) {}

  // Reads the whole document at once, or in windows (ReadMode).
  Status parseDocument(std::string& json, ReadMode& mode);

 private:
  // How far the events of the current window got (windowed reading only).
  enum class EventsEnd : uint8_t {
    kNone,      // not reached yet, or read whole
    kCut,       // the window ended inside the array: go on at resume_
    kComplete,  // the array's own ']' was read; the document goes on at rest_
  };

  Status parseWhole(std::string& json);
  // The checks on the event array as a whole, after the last event.
  Status checkEventCounts();
  Status parseWindowed(std::string_view text, ReadMode& mode);
  // Copies text[begin, end) into window_ after `prefix` and before
  // `closers`, and starts the parser on it.
  simdjson::error_code loadWindow(std::string_view text, size_t begin, size_t end,
                                  std::string_view prefix, std::string_view closers);
  // What follows the event array at `rest`: the rest of the root object, or
  // nothing. False when only a whole read may judge it.
  bool readRest(std::string_view text, size_t rest, bool root_is_object);
  // The document offset of the parser's current token; npos past the end.
  size_t currentOffset();
  Status readTopLevel(od::object root);
  Status readEvents(od::array events);
  simdjson::error_code readEvent(od::object object);
  simdjson::error_code readArgs(od::object args);
  Status checkpoint();

  // Progress is the parser's position in the document. It is looked at every
  // kCheckEvents events (a counter is all the loop pays) and reported, with a
  // cancellation check, once per kProgressChunkBytes of JSON: about 5,000
  // Kineto events, or 2 ms of parsing (BM_ParseKineto: ~450 MB/s).
  static constexpr uint32_t kCheckEvents = 1024;

  ImportState& s_;
  TraceTables& t_;
  EventRouter& router_;
  LegacyEventRouter legacy_router_;
  const Progress& progress_;
  Event e_;
  int64_t entries_ = 0;     // entries of the event array, objects or not
  int64_t with_phase_ = 0;  // of them, objects with a "ph"
  od::parser parser_;
  od::document doc_;
  std::string_view json_;   // the whole document
  size_t next_report_ = 0;  // document offset of the next report
  uint32_t until_check_ = kCheckEvents;
  // Windowed reading: the window's text is json_[window_begin_, window_end_),
  // copied into window_ after window_prefix_ bytes; closers follow it.
  bool windowed_ = false;
  std::string window_;
  size_t window_begin_ = 0, window_end_ = 0, window_prefix_ = 0;
  EventsEnd events_end_ = EventsEnd::kNone;
  size_t resume_ = 0;          // kCut: where the next window starts
  bool expect_comma_ = false;  // kCut after a whole event: resume_ is the ',' or ']' after it
  size_t rest_ = 0;            // kComplete: the offset of the token after the ']'
};

size_t DocumentReader::currentOffset() {
  const char* at = nullptr;
  if (doc_.current_location().get(at) != simdjson::SUCCESS) return std::string_view::npos;
  if (!windowed_) return static_cast<size_t>(at - json_.data());
  return window_begin_ + static_cast<size_t>(at - window_.data()) - window_prefix_;
}

Status DocumentReader::checkpoint() {
  until_check_ = kCheckEvents;
  const size_t offset = currentOffset();
  if (offset == std::string_view::npos || offset < next_report_) return okStatus();
  next_report_ = offset + kProgressChunkBytes;
  progress_.report(static_cast<double>(offset) / static_cast<double>(json_.size()));
  return progress_.checkCancelled();
}

simdjson::error_code DocumentReader::readArgs(od::object args) {
  for (auto result : args) {
    od::field field;
    if (auto error = std::move(result).get(field)) return error;
    std::string_view key;
    if (auto error = readKey(field, key)) return error;
    od::value& value = field.value();
    const ArgKey kind = classifyArg(key);
    if (kind == ArgKey::kDropped) continue;
    od::json_type type;
    if (auto error = value.type().get(type)) return error;

    // On-Demand values can be consumed once, so a scalar's text is taken
    // first (a peek) and typed fields are parsed from it.
    std::string_view raw;
    bool taken = false;
    if (type == od::json_type::array || type == od::json_type::object) {
      if ((kind == ArgKey::kGrid || kind == ArgKey::kBlock) && type == od::json_type::array) {
        if (readDims(value, kind == ArgKey::kGrid ? e_.grid : e_.block)) continue;
        return simdjson::INCORRECT_TYPE;
      }
      if (auto error = rawJson(value, raw)) return error;
    } else {
      raw = trimRight(value.raw_json_token());
      const bool is_number = type == od::json_type::number;
      auto take_int = [&](int64_t& out) {
        if (!is_number) return false;
        auto parsed = parseScaledDecimal(raw, 0);
        if (parsed) out = *parsed;
        return parsed.has_value();
      };
      auto take_double = [&](double& out) {
        if (!is_number) return false;
        const auto [end, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), out);
        return ec == std::errc() && end == raw.data() + raw.size();
      };
      auto take_string = [&](std::string_view& out) {
        return type == od::json_type::string && readString(value, out) == simdjson::SUCCESS;
      };
      switch (kind) {
        case ArgKey::kExternalId:
          taken = take_int(e_.external_id);
          break;
        case ArgKey::kCorrelation:
          taken = take_int(e_.correlation);
          break;
        case ArgKey::kDevice:
          taken = take_int(e_.device);
          break;
        case ArgKey::kStream:
          taken = take_int(e_.stream);
          break;
        case ArgKey::kRegisters:
          taken = take_int(e_.registers);
          break;
        case ArgKey::kSharedMemory:
          taken = take_int(e_.shared_memory);
          break;
        case ArgKey::kOccupancy:
          taken = take_double(e_.occupancy);
          break;
        case ArgKey::kBytes:
          taken = take_int(e_.bytes);
          break;
        case ArgKey::kCbid:
          taken = take_int(e_.cbid);
          break;
        case ArgKey::kDeviceType:
          taken = take_int(e_.device_type);
          break;
        case ArgKey::kDeviceId:
          taken = take_int(e_.device_id);
          break;
        case ArgKey::kTotalAllocated:
          taken = take_double(e_.total_allocated);
          break;
        case ArgKey::kTotalReserved:
          taken = take_double(e_.total_reserved);
          break;
        case ArgKey::kSyncKind:
          taken = take_string(e_.sync_kind);
          break;
        case ArgKey::kCopyKind:
          taken = take_string(e_.copy_kind);
          break;
        case ArgKey::kMetaName:
          taken = take_string(e_.meta_name);
          break;
        case ArgKey::kMetaLabels:
          taken = take_string(e_.meta_labels);
          break;
        case ArgKey::kFlops:
          // Kept in args too: the framework's own estimate is useful evidence.
          take_double(e_.flops);
          break;
        case ArgKey::kOther:
          if (const int per_instruction = sassFlopsPerInstruction(key)) {
            double count = 0;
            if (take_double(count)) {
              e_.sass_flops += per_instruction * count;
              e_.has_sass = true;
            }
          }
          break;
        case ArgKey::kDropped:
        case ArgKey::kGrid:
        case ArgKey::kBlock:
          break;
      }
    }
    if (taken) continue;
    // Keep the argument verbatim; a value that did not fit its typed column
    // (a string where a number was expected) lands here too.
    e_.extras += e_.extras.empty() ? '{' : ',';
    appendJsonString(e_.extras, key);
    e_.extras += ':';
    e_.extras += raw;
  }
  if (!e_.extras.empty()) e_.extras += '}';
  return simdjson::SUCCESS;
}

simdjson::error_code DocumentReader::readEvent(od::object object) {
  e_.reset();
  for (auto result : object) {
    od::field field;
    if (auto error = std::move(result).get(field)) return error;
    std::string_view key;
    if (auto error = readKey(field, key)) return error;
    od::value& value = field.value();
    simdjson::error_code error = simdjson::SUCCESS;
    if (key == "ph") {
      error = readString(value, e_.ph);
    } else if (key == "cat") {
      error = readString(value, e_.cat);
    } else if (key == "name") {
      error = readString(value, e_.name);
    } else if (key == "pid") {
      e_.pid = readEventId(value);
    } else if (key == "tid") {
      e_.tid = readEventId(value);
    } else if (key == "ts") {
      if (!readMicros(value, e_.ts)) e_.ts = kNullInt;
    } else if (key == "dur") {
      if (!readMicros(value, e_.dur)) e_.dur = kNullInt;
    } else if (key == "args") {
      od::object args;
      if (value.get_object().get(args) == simdjson::SUCCESS) error = readArgs(args);
    }
    // Other fields (id, bp, s, ...) belong to flows and instant scopes; skipped.
    if (error) return error;
  }
  return simdjson::SUCCESS;
}

Status DocumentReader::readEvents(od::array events) {
  s_.saw_trace_events = true;
  // In a window, an event counts only once its own '}' is read: the token
  // after it (',' or ']') lies in the window's text, not in the closers. A
  // window that ends otherwise is taken up again just after its last whole
  // event (at the ',' that must follow it), or at its first entry: the
  // parser's account of an entry that the window cuts is not relied on.
  // (An empty array is read whole when it is started: the parser stands
  // after its ']', which, past the text, is the window's closer.)
  size_t resume = windowed_ ? std::min(currentOffset(), window_end_) : 0;
  bool after_event = false;
  auto cut = [&] {
    events_end_ = EventsEnd::kCut, resume_ = resume, expect_comma_ = after_event;
    return okStatus();
  };
  for (auto element : events) {
    od::object object;
    auto error = element.get_object().get(object);
    if (error == simdjson::INCORRECT_TYPE && !windowed_) {
      ++entries_;
      s_.stat("kineto.non_object_events", "traceEvents entries that are not objects; skipped");
      continue;
    }
    if (!error) error = readEvent(object);
    if (windowed_) {
      const size_t next = error ? std::string_view::npos : currentOffset();
      if (next == std::string_view::npos || next > window_end_) return cut();
      resume = next, after_event = true;
    } else if (error) {
      return Error(simdjson::error_message(error));
    }
    ++entries_;
    if (!e_.ph.empty()) ++with_phase_;
    if (s_.dialect == Dialect::kUndecided) {
      s_.dialect = isLegacyAutogradEvent(e_) ? Dialect::kLegacyAutograd : Dialect::kKineto;
    }
    if (s_.dialect == Dialect::kLegacyAutograd) {
      DAMSCOPE_RETURN_IF_ERROR(legacy_router_.route(e_));
    } else {
      router_.route(e_);
    }
    if (--until_check_ == 0) DAMSCOPE_RETURN_IF_ERROR(checkpoint());
  }
  if (windowed_) {
    // Closed by its own ']', with the document going on after it, or by the
    // window's closer.
    const size_t next = currentOffset();
    if (next == std::string_view::npos || next > window_end_) return cut();
    events_end_ = EventsEnd::kComplete, rest_ = next;
  }
  return okStatus();
}

Status DocumentReader::readTopLevel(od::object root) {
  for (auto field : root) {
    std::string_view key;
    if (auto error = field.unescaped_key().get(key)) return Error(simdjson::error_message(error));
    od::value value;
    if (auto error = field.value().get(value)) return Error(simdjson::error_message(error));
    if (key == "traceEvents") {
      od::array events;
      if (value.get_array().get(events)) return Error("\"traceEvents\" is not an array");
      DAMSCOPE_RETURN_IF_ERROR(readEvents(events));
      if (events_end_ != EventsEnd::kNone) return okStatus();  // the window decides what follows
    } else if (key == "baseTimeNanoseconds") {
      int64_t base = 0;
      if (!readInt(value, base)) return Error("\"baseTimeNanoseconds\" is not an integer");
      if (!isTraceTime(base)) {
        return Error("\"baseTimeNanoseconds\" " + std::to_string(base) +
                     " lies outside the trace's time range (±2^62 ns)");
      }
      s_.base_time_ns = base;
    } else if (key == "deviceProperties" || key == "distributedInfo") {
      std::string_view raw;
      if (auto error = rawJson(value, raw)) return Error(simdjson::error_message(error));
      if (key == "deviceProperties") {
        auto devices = parseKinetoDevices(raw);
        if (devices.ok()) {
          s_.devices = std::move(devices.value());
        } else {
          s_.stat("kineto.unreadable_device_properties",
                  "deviceProperties could not be parsed: " + devices.error().message());
        }
      } else {
        auto info = parseKinetoDistributedInfo(raw);
        if (info.ok()) {
          s_.distributed = info.value();
        } else {
          s_.stat("kineto.unreadable_distributed_info",
                  "distributedInfo could not be parsed: " + info.error().message());
        }
      }
    } else if (key == "schemaVersion" || key == "traceName" || key == "displayTimeUnit") {
      std::string_view raw;
      if (auto error = rawJson(value, raw)) return Error(simdjson::error_message(error));
      std::string text(raw);
      if (text.size() >= 2 && text.front() == '"') text = text.substr(1, text.size() - 2);
      t_.setMeta(key == "schemaVersion" ? "kineto_schema_version"
                 : key == "traceName"   ? "kineto_trace_name"
                                        : "kineto_display_time_unit",
                 text);
    } else if (key == "host_name" || key == "hostname") {
      std::string_view name;
      if (value.get_string().get(name) == simdjson::SUCCESS) s_.hostname = std::string(name);
    }
  }
  return okStatus();
}

Status DocumentReader::parseWhole(std::string& json) {
  if (json.capacity() < json.size() + kJsonPadding) json.reserve(json.size() + kJsonPadding);
  windowed_ = false;
  bool iterating = false;  // current_location() is only valid on a started document
  auto fail = [&](const std::string& what) -> Status {
    const char* at = nullptr;
    std::string where;
    if (iterating && doc_.current_location().get(at) == simdjson::SUCCESS && at >= json.data() &&
        at <= json.data() + json.size()) {
      where = " at byte " + std::to_string(at - json.data());
    }
    const char* format = s_.dialect == Dialect::kLegacyAutograd
                             ? "invalid legacy autograd profiler trace"
                             : "invalid Kineto JSON";
    return Error(s_.source + ": " + format + where + ": " + what);
  };
  // A cancelled read is no fault of the document.
  auto fail_with = [&](const Status& status) -> Status {
    return status.error().code() == ErrorCode::kCancelled ? status : fail(status.error().message());
  };
  if (auto error = parser_.iterate(json.data(), json.size(), json.capacity()).get(doc_)) {
    return fail(simdjson::error_message(error));
  }
  iterating = true;
  od::json_type type;
  if (auto error = doc_.type().get(type)) return fail(simdjson::error_message(error));
  if (type == od::json_type::array) {
    // The Chrome trace "JSON Array Format": a bare list of events.
    od::array events;
    if (auto error = doc_.get_array().get(events)) return fail(simdjson::error_message(error));
    if (Status s = readEvents(events); !s.ok()) return fail_with(s);
  } else if (type == od::json_type::object) {
    s_.dialect = Dialect::kKineto;  // the legacy profiler writes bare arrays only
    od::object root;
    if (auto error = doc_.get_object().get(root)) return fail(simdjson::error_message(error));
    if (Status s = readTopLevel(root); !s.ok()) return fail_with(s);
  } else {
    return Error(s_.source + ": JSON is not a trace (expected an object with \"traceEvents\")");
  }
  // A fully consumed document has no current location; anything left is trailing garbage.
  const char* rest = nullptr;
  if (doc_.current_location().get(rest) == simdjson::SUCCESS) {
    return fail("unexpected content after the end of the trace");
  }
  return checkEventCounts();
}

Status DocumentReader::checkEventCounts() {
  if (!s_.saw_trace_events)
    return Error(s_.source + ": JSON has no \"traceEvents\" array: not a Chrome/Kineto trace");
  // Entries of which none is an event: no profiler wrote that. (An empty
  // array is an empty capture, which both profilers write.)
  if (entries_ > 0 && with_phase_ == 0) {
    return Error(s_.source + ": none of the " + std::to_string(entries_) +
                 " entries of the event array is a trace event (an object with a \"ph\"): "
                 "not a PyTorch profiler trace");
  }
  return okStatus();
}


// JSON's whitespace (RFC 8259: space, tab, line feed, carriage return).
bool isJsonSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

size_t skipSpace(std::string_view text, size_t at) {
  while (at < text.size() && isJsonSpace(text[at])) ++at;
  return at;
}

// Where a window that starts at `begin` ends: after the first line break
// `bytes` or more past its start, or at the end of the text. A raw line break
// never lies inside a JSON string or number, so a window never cuts a token.
size_t windowEnd(std::string_view text, size_t begin, size_t bytes) {
  if (text.size() - begin <= bytes) return text.size();
  const size_t line_break = text.find('\n', begin + bytes);
  return line_break == std::string_view::npos ? text.size() : line_break + 1;
}

simdjson::error_code DocumentReader::loadWindow(std::string_view text, size_t begin, size_t end,
                                                std::string_view prefix,
                                                std::string_view closers) {
  window_.assign(prefix);
  window_.append(text.substr(begin, end - begin));
  window_.append(closers);
  const size_t size = window_.size();
  window_.append(kJsonPadding, '\0');
  window_begin_ = begin, window_end_ = end, window_prefix_ = prefix.size();
  events_end_ = EventsEnd::kNone;
  return parser_.iterate(window_.data(), size, window_.size()).get(doc_);
}

bool DocumentReader::readRest(std::string_view text, size_t rest, bool root_is_object) {
  rest = skipSpace(text, rest);
  if (!root_is_object) return rest == text.size();
  if (rest == text.size()) return false;
  if (text[rest] == '}') return skipSpace(text, rest + 1) == text.size();
  if (text[rest] != ',') return false;
  // The keys after "traceEvents" (Kineto writes baseTimeNanoseconds there),
  // read as an object of their own.
  od::object root;
  if (loadWindow(text, rest + 1, text.size(), "{", "") || doc_.get_object().get(root)) {
    return false;
  }
  if (!readTopLevel(root).ok() || events_end_ != EventsEnd::kNone) return false;
  return currentOffset() == std::string_view::npos;  // nothing after the root
}

// A document larger than a window is read window by window: the head (the
// keys before "traceEvents" and its first events) with closers that make it
// a whole document, then the events, each window an array of its own, then
// the keys after the array. simdjson indexes every structural character of
// the text it iterates (four bytes each) and reads the text back from memory
// long after indexing it: a window's index and text stay in cache, and the
// index of a 54 MB document (38 MB) is never built. Anything a window cannot
// judge on its own (a non-object entry, an error, a document that is not
// Kineto's shape) is left to a whole read (mode.retry).
Status DocumentReader::parseWindowed(std::string_view text, ReadMode& mode) {
  windowed_ = true;
  // Another read, in windows of `window_bytes` (0: whole).
  auto read_again = [&](const Status& status, size_t window_bytes) {
    if (!status.ok() && status.error().code() == ErrorCode::kCancelled) return status;
    mode.retry = true;
    mode.window_bytes = window_bytes;
    return okStatus();
  };
  const size_t first = skipSpace(text, 0);
  if (first == text.size() || (text[first] != '{' && text[first] != '[')) {
    return read_again(okStatus(), 0);
  }
  const bool root_is_object = text[first] == '{';
  const size_t head_end = windowEnd(text, 0, mode.window_bytes);
  // A head that ends before its first event was read (large metadata before
  // "traceEvents") is read again in windows twice as large, up to whole.
  auto retry_head = [&](const Status& status) {
    return read_again(status, head_end == text.size() ? 0 : 2 * mode.window_bytes);
  };
  if (head_end == text.size()) return retry_head(okStatus());
  Status head = okStatus();
  if (loadWindow(text, 0, head_end, "", root_is_object ? "]}" : "]")) return retry_head(head);
  if (root_is_object) {
    s_.dialect = Dialect::kKineto;
    od::object root;
    if (doc_.get_object().get(root)) return retry_head(head);
    head = readTopLevel(root);
  } else {
    od::array events;
    if (doc_.get_array().get(events)) return retry_head(head);
    head = readEvents(events);
  }
  if (!head.ok() || events_end_ != EventsEnd::kCut) return retry_head(head);
  auto retry = [&](const Status& status = okStatus()) { return read_again(status, 0); };
  size_t window_bytes = mode.window_bytes;
  while (events_end_ == EventsEnd::kCut) {
    size_t at = skipSpace(text, resume_);
    if (expect_comma_) {
      if (at < text.size() && text[at] == ']') {
        return readRest(text, at + 1, root_is_object) ? okStatus() : retry();
      }
      if (at == text.size() || text[at] != ',') return retry();
      at = skipSpace(text, at + 1);
    }
    if (at == text.size() || text[at] != '{') return retry();
    const size_t end = windowEnd(text, at, window_bytes);
    od::array events;
    if (loadWindow(text, at, end, "[", "]") || doc_.get_array().get(events)) return retry();
    if (Status status = readEvents(events); !status.ok()) return retry(status);
    if (events_end_ == EventsEnd::kCut && !expect_comma_ && resume_ == at) {
      // Not one whole event in the window: a larger one, up to the end.
      if (end == text.size()) return retry();
      window_bytes *= 2;
    } else {
      window_bytes = mode.window_bytes;
    }
  }
  if (events_end_ != EventsEnd::kComplete) return retry();
  return readRest(text, rest_, root_is_object) ? okStatus() : retry();
}

Status DocumentReader::parseDocument(std::string& json, ReadMode& mode) {
  json_ = json;
  next_report_ = mode.reported_bytes;
  if (mode.window_bytes == 0 || json.size() <= mode.window_bytes) return parseWhole(json);
  Status status = parseWindowed(json, mode);
  mode.reported_bytes = next_report_;
  if (!status.ok() || mode.retry) return status;
  return checkEventCounts();
}

}  // namespace

Status readDocument(std::string& json, ImportState& state, EventRouter& router,
                    const Progress& progress, ReadMode& mode) {
  DocumentReader reader(state, router, progress);
  return reader.parseDocument(json, mode);
}

}  // namespace damscope::kineto
