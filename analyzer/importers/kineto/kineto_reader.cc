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
#include <bit>
#include <charconv>
#include <cstring>
#include <vector>

#include "analyzer/importers/kineto/decimal.h"
#include "analyzer/importers/io/input_file.h"
#include "analyzer/importers/kineto/kineto_importer.h"
#include "analyzer/importers/kineto/kineto_internal.h"
#include "base/json_text.h"

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

// `key` equals the literal: a length test and a comparison of a length known
// when compiled, which the compiler does inline, where string_view's == called
// memcmp for every key of every event.
template <size_t N>
bool isKey(std::string_view key, const char (&literal)[N]) {
  return key.size() == N - 1 && std::memcmp(key.data(), literal, N - 1) == 0;
}

ArgKey classifyArg(std::string_view key) {
  // Scanned, most frequent keys first, among the keys of the same length:
  // cheaper than hashing for keys this short.
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
  // The keys of each length, so that a key meets only those it could equal;
  // their first bytes are compared before a call of memcmp.
  constexpr size_t kLongest = 32;
  static_assert(std::all_of(std::begin(kKeys), std::end(kKeys),
                            [](const auto& entry) { return entry.first.size() < kLongest; }));
  static const auto kByLength = [] {
    std::array<std::vector<std::pair<std::string_view, ArgKey>>, kLongest> by_length;
    for (const auto& entry : kKeys) by_length[entry.first.size()].push_back(entry);
    return by_length;
  }();
  if (key.empty() || key.size() >= kLongest) return ArgKey::kOther;
  for (const auto& [name, kind] : kByLength[key.size()]) {
    if (name[0] == key[0] && name == key) return kind;
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
//
// Eight bytes at a time: a word's bytes equal to '"' or '\\' are found with
// the zero-byte test of "Bit Twiddling Hacks" (S. E. Anderson, "Determine if
// a word has a zero byte"), whose lowest flagged byte is exact. The text
// always has the parser's padding after it (SIMDJSON_PADDING, 64 bytes), so
// a word that starts inside it can be read whole. Byte by byte, this loop was
// a tenth of the import (perf, import_bench).
bool unescapedInPlace(const char* quoted, std::string_view& out) {
  constexpr uint64_t kOnes = 0x0101010101010101, kHighs = 0x8080808080808080;
  auto zero_bytes = [](uint64_t w) { return (w - kOnes) & ~w & kHighs; };
  const char* p = quoted + 1;
  while (true) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    if constexpr (std::endian::native != std::endian::little) word = __builtin_bswap64(word);
    const uint64_t backslash = zero_bytes(word ^ (kOnes * '\\'));
    const uint64_t special = zero_bytes(word ^ (kOnes * '"')) | backslash;
    if (special == 0) {
      p += 8;
      continue;
    }
    // The first special byte, told from the masks rather than loaded again.
    if (backslash & special & -special) return false;
    p += std::countr_zero(special) / 8;
    out = std::string_view(quoted + 1, static_cast<size_t>(p - quoted - 1));
    return true;
  }
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
  Status parseDocument(DocumentText& text, ReadMode& mode);

 private:
  // How far the events of the current window got (windowed reading only).
  enum class EventsEnd : uint8_t {
    kNone,      // not reached yet, or read whole
    kCut,       // the window ended inside the array: go on at resume_
    kComplete,  // the array's own ']' was read; the document goes on at rest_
  };

  Status parseWhole();
  // The checks on the event array as a whole, after the last event.
  Status checkEventCounts();
  Status parseWindowed(ReadMode& mode);
  // Makes view_ hold more than `n` bytes of the text, or all of it (then
  // complete_ is set), waiting for text still arriving.
  Status need(size_t n);
  // The first offset from `at` that is not whitespace, or the text's end.
  Result<size_t> skipSpaceFrom(size_t at);
  // Where a window that starts at `begin` ends: after the first line break
  // `bytes` or more past its start, or at the end of the text. A raw line
  // break never lies inside a JSON string or number, so a window never cuts
  // a token.
  Result<size_t> windowEnd(size_t begin, size_t bytes);
  // True when `at` is the end of the whole text.
  bool atEnd(size_t at) const { return complete_ && at == view_.size(); }
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
  DocumentText* text_ = nullptr;
  std::string_view json_;   // the whole document (whole reads)
  size_t next_report_ = 0;  // document offset of the next report
  double reported_ = 0;     // the last fraction reported
  uint32_t until_check_ = kCheckEvents;
  // Windowed reading: the text so far is view_ (all of it when complete_);
  // the window's text is view_[window_begin_, window_end_), copied into
  // window_ after window_prefix_ bytes; closers follow it.
  bool windowed_ = false;
  std::string_view view_;
  bool complete_ = false;
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
  // While the text arrives its size is an estimate, which may grow: the
  // fraction never goes back.
  reported_ = std::max(reported_, static_cast<double>(offset) /
                                      static_cast<double>(std::max<size_t>(text_->expectedSize(), 1)));
  progress_.report(reported_);
  return progress_.checkCancelled();
}

simdjson::error_code DocumentReader::readArgs(od::object args) {
  for (auto result : args) {
    if (auto error = result.error()) return error;
    od::field& field = result.value_unsafe();  // see readEvent
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
          } else if (key == "dram__bytes_read.sum" || key == "dram__bytes_write.sum") {
            double bytes = 0;
            if (take_double(bytes)) e_.dram_bytes += bytes, e_.has_dram = true;
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
    if (auto error = result.error()) return error;
    // The field in place: moved out of the result (get()), its parts were
    // stored narrow and loaded back wide, which stalls store-to-load
    // forwarding; that move was 29% of readEvents (perf annotate).
    od::field& field = result.value_unsafe();
    std::string_view key;
    if (auto error = readKey(field, key)) return error;
    od::value& value = field.value();
    simdjson::error_code error = simdjson::SUCCESS;
    if (isKey(key, "ph")) {
      error = readString(value, e_.ph);
    } else if (isKey(key, "cat")) {
      error = readString(value, e_.cat);
    } else if (isKey(key, "name")) {
      error = readString(value, e_.name);
    } else if (isKey(key, "pid")) {
      e_.pid = readEventId(value);
    } else if (isKey(key, "tid")) {
      e_.tid = readEventId(value);
    } else if (isKey(key, "ts")) {
      if (!readMicros(value, e_.ts)) e_.ts = kNullInt;
    } else if (isKey(key, "dur")) {
      if (!readMicros(value, e_.dur)) e_.dur = kNullInt;
    } else if (isKey(key, "args")) {
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

Status DocumentReader::parseWhole() {
  DAMSCOPE_ASSIGN_OR_RETURN(const std::string_view json, text_->whole());
  json_ = json;
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
  if (auto error = parser_.iterate(json.data(), json.size(), json.size() + kJsonPadding).get(doc_)) {
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

Status DocumentReader::need(size_t n) {
  if (view_.size() > n || complete_) return okStatus();
  DAMSCOPE_ASSIGN_OR_RETURN(view_, text_->through(n));
  complete_ = view_.size() <= n;
  return okStatus();
}

Result<size_t> DocumentReader::skipSpaceFrom(size_t at) {
  while (true) {
    DAMSCOPE_RETURN_IF_ERROR(need(at));
    at = skipSpace(view_, at);
    if (at < view_.size() || complete_) return at;
  }
}

Result<size_t> DocumentReader::windowEnd(size_t begin, size_t bytes) {
  DAMSCOPE_RETURN_IF_ERROR(need(begin + bytes));
  if (view_.size() - begin <= bytes) return view_.size();  // the end of the text
  for (size_t from = begin + bytes;;) {
    const size_t line_break = view_.find('\n', from);
    if (line_break != std::string_view::npos) return line_break + 1;
    if (complete_) return view_.size();
    from = view_.size();
    DAMSCOPE_RETURN_IF_ERROR(need(from));
  }
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
Status DocumentReader::parseWindowed(ReadMode& mode) {
  windowed_ = true;
  // Another read, in windows of `window_bytes` (0: whole).
  auto read_again = [&](const Status& status, size_t window_bytes) {
    if (!status.ok() && status.error().code() == ErrorCode::kCancelled) return status;
    mode.retry = true;
    mode.window_bytes = window_bytes;
    return okStatus();
  };
  // What follows the event array at `rest`, once the text is all there.
  auto finish = [&](size_t rest, bool root_is_object) -> Status {
    DAMSCOPE_RETURN_IF_ERROR(need(SIZE_MAX));
    return readRest(view_, rest, root_is_object) ? okStatus() : read_again(okStatus(), 0);
  };
  // Waiting for text fails only when it cannot come (the decompression
  // failed or was cancelled): that error is the read's.
  DAMSCOPE_ASSIGN_OR_RETURN(const size_t first, skipSpaceFrom(0));
  if (atEnd(first) || (view_[first] != '{' && view_[first] != '[')) {
    return read_again(okStatus(), 0);
  }
  const bool root_is_object = view_[first] == '{';
  DAMSCOPE_ASSIGN_OR_RETURN(const size_t head_end, windowEnd(0, mode.window_bytes));
  // A head that ends before its first event was read (large metadata before
  // "traceEvents") is read again in windows twice as large, up to whole.
  auto retry_head = [&](const Status& status) {
    return read_again(status, atEnd(head_end) ? 0 : 2 * mode.window_bytes);
  };
  if (atEnd(head_end)) return retry_head(okStatus());
  Status head = okStatus();
  if (loadWindow(view_, 0, head_end, "", root_is_object ? "]}" : "]")) return retry_head(head);
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
  // A window is read from its own copy (loadWindow): the text before the
  // next window's start is never read again in this pass, and its memory
  // may go to the text still to come. A retry rewinds the text.
  text_->release(resume_);
  auto retry = [&](const Status& status = okStatus()) { return read_again(status, 0); };
  size_t window_bytes = mode.window_bytes;
  while (events_end_ == EventsEnd::kCut) {
    DAMSCOPE_ASSIGN_OR_RETURN(size_t at, skipSpaceFrom(resume_));
    if (expect_comma_) {
      if (!atEnd(at) && view_[at] == ']') return finish(at + 1, root_is_object);
      if (atEnd(at) || view_[at] != ',') return retry();
      DAMSCOPE_ASSIGN_OR_RETURN(at, skipSpaceFrom(at + 1));
    }
    if (atEnd(at) || view_[at] != '{') return retry();
    DAMSCOPE_ASSIGN_OR_RETURN(const size_t end, windowEnd(at, window_bytes));
    od::array events;
    if (loadWindow(view_, at, end, "[", "]") || doc_.get_array().get(events)) return retry();
    if (Status status = readEvents(events); !status.ok()) return retry(status);
    text_->release(events_end_ == EventsEnd::kCut ? resume_ : rest_);
    if (events_end_ == EventsEnd::kCut && !expect_comma_ && resume_ == at) {
      // Not one whole event in the window: a larger one, up to the end.
      if (atEnd(end)) return retry();
      window_bytes *= 2;
    } else {
      window_bytes = mode.window_bytes;
    }
  }
  if (events_end_ != EventsEnd::kComplete) return retry();
  return finish(rest_, root_is_object);
}

Status DocumentReader::parseDocument(DocumentText& text, ReadMode& mode) {
  text_ = &text;
  next_report_ = mode.reported_bytes;
  reported_ = mode.reported_fraction;
  Status status = okStatus();
  if (mode.window_bytes == 0) {
    status = parseWhole();
  } else if (status = need(mode.window_bytes); status.ok()) {
    // A text no larger than a window is read whole.
    status = complete_ ? parseWhole() : parseWindowed(mode);
  }
  mode.reported_bytes = next_report_;
  mode.reported_fraction = reported_;
  if (!status.ok() || mode.retry || !windowed_) return status;
  return checkEventCounts();
}

}  // namespace

Status readDocument(DocumentText& text, ImportState& state, EventRouter& router,
                    const Progress& progress, ReadMode& mode) {
  DocumentReader reader(state, router, progress);
  return reader.parseDocument(text, mode);
}

}  // namespace damscope::kineto
