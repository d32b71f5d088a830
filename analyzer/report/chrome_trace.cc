// The Chrome trace export: see chrome_trace.h.
#include "analyzer/report/chrome_trace.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/report/chrome_trace_tracks.h"
#include "base/json_text.h"
#include "base/utf8.h"

namespace damscope {
namespace {

// Text goes to the sink in chunks of about this size: large enough that the
// sink's per-call cost vanishes, small enough to stay in cache-friendly memory.
constexpr size_t kChunkBytes = size_t{1} << 20;
// Progress is reported, and cancellation checked, every this many rows.
constexpr int64_t kRowsPerReport = int64_t{1} << 16;

// JSON text, appended to one buffer that is handed to the sink when full.
class JsonText {
 public:
  explicit JsonText(OutputSink& sink) : sink_(sink) { buf_.reserve(kChunkBytes + (64 << 10)); }

  void raw(std::string_view text) { buf_.append(text); }
  void str(std::string_view text) { appendJsonString(buf_, text); }
  void integer(int64_t v) {
    char tmp[24];
    buf_.append(tmp, std::to_chars(tmp, tmp + sizeof(tmp), v).ptr);
  }
  // Nanoseconds as microseconds with exactly three decimals, from the
  // integer's digits: 1234567 -> "1234.567", -5 -> "-0.005".
  void micros(int64_t ns) {
    uint64_t magnitude = static_cast<uint64_t>(ns);
    if (ns < 0) {
      buf_ += '-';
      magnitude = 0 - magnitude;
    }
    char tmp[24];
    char* end = std::to_chars(tmp, tmp + sizeof(tmp), magnitude / 1000).ptr;
    const auto frac = static_cast<unsigned>(magnitude % 1000);
    *end++ = '.';
    *end++ = static_cast<char>('0' + frac / 100);
    *end++ = static_cast<char>('0' + frac / 10 % 10);
    *end++ = static_cast<char>('0' + frac % 10);
    buf_.append(tmp, end);
  }
  // The shortest text that reads back as `v` (std::to_chars); null when not finite.
  void number(double v) {
    if (!std::isfinite(v)) {
      buf_ += "null";
      return;
    }
    char tmp[32];
    buf_.append(tmp, std::to_chars(tmp, tmp + sizeof(tmp), v).ptr);
  }
  // A percentage rounded to two decimals, as the analysis JSON writes them.
  void percent(double v) { number(std::round(v * 100.0) / 100.0); }

  Status flushIfFull() { return buf_.size() >= kChunkBytes ? flush() : okStatus(); }
  Status flush() {
    Status status = sink_.write(buf_);
    buf_.clear();
    return status;
  }

 private:
  OutputSink& sink_;
  std::string buf_;
};

std::string_view kinetoMemoryWord(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::kPageable:
      return "Pageable";
    case MemoryKind::kPinned:
      return "Pinned";
    case MemoryKind::kDevice:
    case MemoryKind::kDeviceStatic:
      return "Device";
    case MemoryKind::kArray:
      return "Array";
    case MemoryKind::kManaged:
    case MemoryKind::kManagedStatic:
      return "Managed";
    case MemoryKind::kUnknown:
      break;
  }
  return "Unknown";
}

// Kineto's names for synchronization events (libkineto CuptiActivity.cpp).
std::string_view kinetoSyncName(SyncKind kind) {
  switch (kind) {
    case SyncKind::kStreamSynchronize:
      return "Stream Sync";
    case SyncKind::kEventSynchronize:
      return "Event Sync";
    case SyncKind::kContextSynchronize:
      return "Context Sync";
    case SyncKind::kStreamWaitEvent:
      return "Stream Wait Event";
    case SyncKind::kUnknown:
      break;
  }
  return "Sync";
}

// The members of a stored `args` JSON object, without its braces, when it is
// a well-formed non-empty object; else empty. A run.db is a file anyone can
// edit: text that is not JSON must not break the document it is copied into.
class ArgsCheck {
 public:
  std::string_view members(std::string_view args) {
    size_t open = args.find_first_not_of(" \t\r\n");
    size_t close = args.find_last_not_of(" \t\r\n");
    if (open == std::string_view::npos || args[open] != '{' || args[close] != '}') return {};
    const std::string_view inner = args.substr(open + 1, close - open - 1);
    if (inner.find_first_not_of(" \t\r\n") == std::string_view::npos) return {};
    simdjson::dom::element element;
    if (parser_.parse(args.data(), args.size(), /*realloc_if_needed=*/true).get(element) ||
        !element.is_object()) {
      return {};
    }
    return inner;
  }

 private:
  simdjson::dom::parser parser_;
};

class Writer {
 public:
  Writer(const TraceTables& tables, const RankResult& result, OutputSink& sink,
         const Progress& progress)
      : t_(tables),
        r_(result),
        progress_(progress),
        out_(sink),
        input_(AnalysisInput::build(tables)),
        layout_(ChromeTrackLayout::build(input_, result)),
        escaped_(tables.strings.size()) {}

  Result<ChromeTraceStats> run() {
    stats_.base_time_ns = baseTime();
    total_rows_ = t_.eventCount() + static_cast<int64_t>(r_.steps.size() + r_.gaps.size());
    out_.raw("{\"traceEvents\":[");
    DAMSCOPE_RETURN_IF_ERROR(metadata());
    DAMSCOPE_RETURN_IF_ERROR(events());
    DAMSCOPE_RETURN_IF_ERROR(counters());
    DAMSCOPE_RETURN_IF_ERROR(steps());
    DAMSCOPE_RETURN_IF_ERROR(gaps());
    DAMSCOPE_RETURN_IF_ERROR(progress_.checkCancelled());
    out_.raw("\n],\n\"baseTimeNanoseconds\":");
    out_.integer(stats_.base_time_ns);
    tail();
    out_.raw("}\n");
    DAMSCOPE_RETURN_IF_ERROR(out_.flush());
    progress_.report(1);
    return stats_;
  }

 private:
  // The earliest time the export writes: all times are written relative to it.
  int64_t baseTime() const {
    int64_t base = std::numeric_limits<int64_t>::max();
    auto consider = [&](int64_t ts) {
      if (isTraceTime(ts)) base = std::min(base, ts);
    };
    for (int64_t ts : t_.api_calls.ts) consider(ts);
    for (int64_t ts : t_.ranges.ts) consider(ts);
    for (int64_t ts : t_.syncs.ts) consider(ts);
    for (int64_t ts : t_.counters.ts) consider(ts);
    for (const GpuOp& op : input_.gpu()) consider(op.ts);
    for (const StepResult& s : r_.steps) consider(s.ts), consider(s.host_ts);
    for (const GapResult& g : r_.gaps) consider(g.ts);
    return base == std::numeric_limits<int64_t>::max() ? 0 : base;
  }

  // "\n{" before each event, with the separating comma.
  void begin() { out_.raw(stats_.json_events++ == 0 ? "\n{" : ",\n{"); }
  // The end of a row's event(s): progress, cancellation, a full buffer.
  Status endRow() {
    if (++stats_.rows % kRowsPerReport == 0) {
      progress_.report(static_cast<double>(stats_.rows) / static_cast<double>(total_rows_));
      DAMSCOPE_RETURN_IF_ERROR(progress_.checkCancelled());
    }
    return out_.flushIfFull();
  }

  void track(ChromeTrack track) {
    out_.raw(",\"pid\":");
    out_.integer(track.pid);
    out_.raw(",\"tid\":");
    out_.integer(track.tid);
  }
  void times(int64_t ts, int64_t dur) {
    out_.raw(",\"ts\":");
    out_.micros(ts - stats_.base_time_ns);
    out_.raw(",\"dur\":");
    out_.micros(isNull(dur) || dur < 0 ? 0 : dur);
  }
  // A string's JSON text, escaped once per string id.
  const std::string& jsonText(StringId id) {
    static const std::string kEmpty = "\"\"";
    if (!id.valid()) return kEmpty;
    std::string& text = escaped_[static_cast<size_t>(id.value)];
    if (text.empty()) appendJsonString(text, t_.strings.get(id));
    return text;
  }
  void name(StringId id) {
    out_.raw(",\"name\":");
    out_.raw(jsonText(id));
  }
  // `,"key":value` for known integers; `first` drops the comma.
  void intArg(std::string_view key, int64_t v, bool& first) {
    if (isNull(v)) return;
    out_.raw(first ? "\"" : ",\"");
    first = false;
    out_.raw(key);
    out_.raw("\":");
    out_.integer(v);
  }
  void intArg(std::string_view key, int32_t v, bool& first) {
    if (!isNull(v)) intArg(key, static_cast<int64_t>(v), first);
  }
  void textArg(std::string_view key, std::string_view v, bool& first) {
    out_.raw(first ? "\"" : ",\"");
    first = false;
    out_.raw(key);
    out_.raw("\":");
    out_.str(v);
  }
  void boolArg(std::string_view key, bool v, bool& first) {
    out_.raw(first ? "\"" : ",\"");
    first = false;
    out_.raw(key);
    out_.raw(v ? "\":true" : "\":false");
  }
  void microsArg(std::string_view key, int64_t ns, bool& first) {
    out_.raw(first ? "\"" : ",\"");
    first = false;
    out_.raw(key);
    out_.raw("\":");
    out_.micros(ns);
  }
  void dims(std::string_view key, int32_t x, int32_t y, int32_t z, bool& first) {
    if (isNull(x) || isNull(y) || isNull(z)) return;
    out_.raw(first ? "\"" : ",\"");
    first = false;
    out_.raw(key);
    out_.raw("\":[");
    out_.integer(x), out_.raw(","), out_.integer(y), out_.raw(","), out_.integer(z);
    out_.raw("]");
  }
  void storedArgs(const std::string& args, bool& first) {
    if (args.empty()) return;
    const std::string_view members = args_check_.members(args);
    if (members.empty()) return;
    if (!first) out_.raw(",");
    first = false;
    out_.raw(members);
  }

  Status metadata() {
    for (const ChromeProcess& p : layout_.processes()) {
      begin();
      out_.raw("\"ph\":\"M\",\"name\":\"process_name\",\"pid\":");
      out_.integer(p.pid);
      out_.raw(",\"args\":{\"name\":");
      out_.str(p.name);
      out_.raw("}}");
      begin();
      out_.raw("\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":");
      out_.integer(p.pid);
      out_.raw(",\"args\":{\"sort_index\":");
      out_.integer(p.sort_index);
      out_.raw("}}");
    }
    for (const ChromeThread& th : layout_.threads()) {
      begin();
      out_.raw("\"ph\":\"M\",\"name\":\"thread_name\"");
      track(th.track);
      out_.raw(",\"args\":{\"name\":");
      out_.str(th.name);
      out_.raw("}}");
      begin();
      out_.raw("\"ph\":\"M\",\"name\":\"thread_sort_index\"");
      track(th.track);
      out_.raw(",\"args\":{\"sort_index\":");
      out_.integer(th.sort_index);
      out_.raw("}}");
    }
    return out_.flushIfFull();
  }

  // Host and GPU events, merged into one time order ((ts, -dur), as the
  // store keeps each table): on every track a slice comes after the slices
  // that contain it, so viewers nest them, and a flow event comes after the
  // slice it binds to. On a tie a range goes first (it is the parent of the
  // call or kernel it starts with), then the call, then GPU work.
  Status events() {
    enum Source : size_t { kRanges, kCalls, kGpu, kHostSyncs, kSources };
    const std::vector<GpuOp>& gpu = input_.gpu();
    std::array<size_t, kSources> at{};
    std::array<size_t, kSources> size{t_.ranges.size(), t_.api_calls.size(), gpu.size(),
                                      t_.syncs.size()};
    struct Head {
      int64_t ts = 0;
      int64_t dur = 0;
    };
    std::array<Head, kSources> head{};
    auto duration = [](int64_t dur) { return isNull(dur) || dur < 0 ? 0 : dur; };
    auto refresh = [&](size_t s) {
      if (s == kHostSyncs) {
        while (at[s] < size[s] && !isHostSync(t_.syncs, at[s])) ++at[s];
      }
      if (at[s] >= size[s]) return;
      const size_t i = at[s];
      switch (s) {
        case kRanges:
          head[s] = {t_.ranges.ts[i], duration(t_.ranges.dur[i])};
          break;
        case kCalls:
          head[s] = {t_.api_calls.ts[i], duration(t_.api_calls.dur[i])};
          break;
        case kGpu:
          head[s] = {gpu[i].ts, gpu[i].end - gpu[i].ts};
          break;
        default:
          head[s] = {t_.syncs.ts[i], duration(t_.syncs.dur[i])};
      }
    };
    for (size_t s = 0; s < kSources; ++s) refresh(s);
    for (;;) {
      size_t best = kSources;
      for (size_t s = 0; s < kSources; ++s) {
        if (at[s] >= size[s]) continue;
        if (best == kSources || head[s].ts < head[best].ts ||
            (head[s].ts == head[best].ts && head[s].dur > head[best].dur)) {
          best = s;
        }
      }
      if (best == kSources) break;
      const size_t i = at[best]++;
      if (!isTraceTime(head[best].ts)) {
        ++stats_.skipped;
      } else {
        switch (best) {
          case kRanges:
            range(i);
            break;
          case kCalls:
            call(i);
            break;
          case kGpu:
            gpuOp(gpu[i]);
            break;
          default:
            hostSync(i);
        }
      }
      DAMSCOPE_RETURN_IF_ERROR(endRow());
      refresh(best);
    }
    return okStatus();
  }

  void range(size_t i) {
    const RangeTable& r = t_.ranges;
    const ChromeTrack where = isGpuRange(r, i) ? layout_.stream(r.device[i], r.stream[i])
                                               : layout_.hostThread(r.thread_id[i]);
    begin();
    out_.raw("\"ph\":\"X\",\"cat\":");
    out_.raw(r.category[i].valid() ? jsonText(r.category[i]) : std::string_view("\"range\""));
    name(r.name[i]);
    track(where);
    times(r.ts[i], r.dur[i]);
    out_.raw(",\"args\":{");
    bool first = true;
    intArg("depth", r.depth[i], first);
    if (r.domain[i].valid()) textArg("domain", t_.strings.get(r.domain[i]), first);
    if (isGpuRange(r, i)) {
      intArg("device", r.device[i], first);
      intArg("stream", r.stream[i], first);
    }
    intArg("External id", r.external_id[i], first);
    intArg("correlation", r.correlation_id[i], first);
    storedArgs(r.args[i], first);
    out_.raw("}}");
  }

  void call(size_t i) {
    const ApiCallTable& a = t_.api_calls;
    const ChromeTrack where = layout_.hostThread(a.thread_id[i]);
    begin();
    out_.raw(a.api[i] == ApiKind::kDriver ? "\"ph\":\"X\",\"cat\":\"cuda_driver\""
                                          : "\"ph\":\"X\",\"cat\":\"cuda_runtime\"");
    name(a.name[i]);
    track(where);
    times(a.ts[i], a.dur[i]);
    out_.raw(",\"args\":{");
    bool first = true;
    intArg("correlation", a.correlation_id[i], first);
    intArg("External id", a.external_id[i], first);
    intArg("cbid", a.cbid[i], first);
    intArg("return_code", a.return_code[i], first);
    out_.raw("}}");
    // The arrow to the GPU work this call launched starts here.
    const int64_t correlation = a.correlation_id[i];
    if ((input_.apiFlags()[i] & kApiLaunchesGpuWork) && correlation >= 0) {
      begin();
      out_.raw("\"ph\":\"s\",\"cat\":\"launch\",\"name\":\"launch\",\"id\":");
      out_.integer(correlation);
      track(where);
      out_.raw(",\"ts\":");
      out_.micros(a.ts[i] - stats_.base_time_ns);
      out_.raw("}");
    }
  }

  void gpuOp(const GpuOp& op) {
    const ChromeTrack where = layout_.stream(op.device, op.stream);
    const size_t i = static_cast<size_t>(op.row);
    int64_t correlation = kNullInt;
    begin();
    bool first = true;
    switch (op.kind) {
      case GpuOpKind::kKernel: {
        const KernelTable& k = t_.kernels;
        correlation = k.correlation_id[i];
        out_.raw("\"ph\":\"X\",\"cat\":\"kernel\"");
        name(k.name[i]);
        track(where);
        times(op.ts, op.end - op.ts);
        out_.raw(",\"args\":{");
        intArg("device", k.device[i], first);
        intArg("stream", k.stream[i], first);
        intArg("correlation", correlation, first);
        intArg("External id", k.external_id[i], first);
        dims("grid", k.grid_x[i], k.grid_y[i], k.grid_z[i], first);
        dims("block", k.block_x[i], k.block_y[i], k.block_z[i], first);
        intArg("registers per thread", k.registers_per_thread[i], first);
        intArg("shared memory", k.shared_memory_bytes[i], first);
        if (!std::isnan(k.occupancy_pct[i])) {
          out_.raw(first ? "\"" : ",\"");
          first = false;
          out_.raw("est. achieved occupancy %\":");
          out_.number(k.occupancy_pct[i]);
        }
        intArg("graph id", k.graph_id[i], first);
        intArg("graph node id", k.graph_node_id[i], first);
        storedArgs(k.args[i], first);
        break;
      }
      case GpuOpKind::kMemcpy: {
        const MemcpyTable& m = t_.memcpys;
        correlation = m.correlation_id[i];
        out_.raw("\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":");
        out_.str(memcpyName(m.copy_kind[i], m.src_kind[i], m.dst_kind[i]));
        track(where);
        times(op.ts, op.end - op.ts);
        out_.raw(",\"args\":{");
        intArg("device", m.device[i], first);
        intArg("stream", m.stream[i], first);
        intArg("correlation", correlation, first);
        intArg("External id", m.external_id[i], first);
        intArg("bytes", m.bytes[i], first);
        intArg("src_device", m.src_device[i], first);
        intArg("dst_device", m.dst_device[i], first);
        intArg("graph node id", m.graph_node_id[i], first);
        break;
      }
      case GpuOpKind::kMemset: {
        const MemsetTable& m = t_.memsets;
        correlation = m.correlation_id[i];
        out_.raw("\"ph\":\"X\",\"cat\":\"gpu_memset\",\"name\":");
        out_.str(memsetName(m.memory_kind[i]));
        track(where);
        times(op.ts, op.end - op.ts);
        out_.raw(",\"args\":{");
        intArg("device", m.device[i], first);
        intArg("stream", m.stream[i], first);
        intArg("correlation", correlation, first);
        intArg("External id", m.external_id[i], first);
        intArg("bytes", m.bytes[i], first);
        intArg("value", m.value[i], first);
        intArg("graph node id", m.graph_node_id[i], first);
        break;
      }
      case GpuOpKind::kSync: {
        const SyncTable& s = t_.syncs;
        out_.raw("\"ph\":\"X\",\"cat\":\"cuda_sync\",\"name\":");
        out_.str(kinetoSyncName(s.kind[i]));
        track(where);
        times(op.ts, op.end - op.ts);
        out_.raw(",\"args\":{");
        intArg("device", s.device[i], first);
        intArg("stream", s.stream[i], first);
        intArg("correlation", s.correlation_id[i], first);
        intArg("External id", s.external_id[i], first);
        intArg("event", s.event_id[i], first);
        break;
      }
    }
    out_.raw("}}");
    // The arrow from the call that launched it ends here. Syncs are not
    // launched work: their call started no arrow.
    if (op.kind != GpuOpKind::kSync && op.launch >= 0 && correlation >= 0 &&
        isTraceTime(t_.api_calls.ts[static_cast<size_t>(op.launch)])) {
      begin();
      out_.raw("\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"launch\",\"name\":\"launch\",\"id\":");
      out_.integer(correlation);
      track(where);
      out_.raw(",\"ts\":");
      out_.micros(op.ts - stats_.base_time_ns);
      out_.raw("}");
      ++stats_.flows;
    }
  }

  void hostSync(size_t i) {
    const SyncTable& s = t_.syncs;
    begin();
    out_.raw("\"ph\":\"X\",\"cat\":\"cuda_sync\",\"name\":");
    out_.str(kinetoSyncName(s.kind[i]));
    track(layout_.hostThread(s.thread_id[i]));
    times(s.ts[i], s.dur[i]);
    out_.raw(",\"args\":{");
    bool first = true;
    intArg("device", s.device[i], first);
    intArg("correlation", s.correlation_id[i], first);
    intArg("External id", s.external_id[i], first);
    intArg("event", s.event_id[i], first);
    out_.raw("}}");
  }

  // Kineto's copy names: "Memcpy HtoD (Pageable -> Device)".
  const std::string& memcpyName(CopyKind kind, MemoryKind src, MemoryKind dst) {
    std::string& text = copy_names_[{kind, src, dst}];
    if (text.empty()) {
      text = "Memcpy " + std::string(toText(kind)) + " (" + std::string(kinetoMemoryWord(src)) +
             " -> " + std::string(kinetoMemoryWord(dst)) + ")";
    }
    return text;
  }
  static std::string memsetName(MemoryKind kind) {
    return "Memset (" + std::string(kinetoMemoryWord(kind)) + ")";
  }

  // Counters: one track per counter name (and thread, for per-thread
  // values) in its process; viewers name it "<name> value".
  Status counters() {
    const CounterTable& c = t_.counters;
    std::map<std::pair<int32_t, int64_t>, std::string> names;  // (name, thread) -> JSON text
    for (size_t i = 0; i < c.size(); ++i) {
      if (!isTraceTime(c.ts[i]) || !std::isfinite(c.value[i])) {
        ++stats_.skipped;
      } else {
        std::string& label = names[{c.name[i].value, c.thread_id[i]}];
        if (label.empty()) {
          std::string text(t_.strings.get(c.name[i]));
          const int64_t thread = c.thread_id[i];
          if (thread >= 0 && thread < static_cast<int64_t>(t_.threads.size())) {
            const auto& th = t_.threads;
            const std::string_view thread_name =
                t_.strings.get(th.name[static_cast<size_t>(thread)]);
            text += " (" +
                    (thread_name.empty() ? std::string("thread") : std::string(thread_name)) + " " +
                    std::to_string(th.tid[static_cast<size_t>(thread)]) + ")";
          }
          appendJsonString(label, text);
        }
        begin();
        out_.raw("\"ph\":\"C\",\"name\":");
        out_.raw(label);
        out_.raw(",\"pid\":");
        out_.integer(isNull(c.device[i]) ? layout_.hostPid(c.thread_id[i])
                                         : layout_.devicePid(c.device[i]));
        out_.raw(",\"ts\":");
        out_.micros(c.ts[i] - stats_.base_time_ns);
        out_.raw(",\"args\":{\"value\":");
        out_.number(c.value[i]);
        out_.raw("}}");
      }
      DAMSCOPE_RETURN_IF_ERROR(endRow());
    }
    return okStatus();
  }

  // The analysed steps, aligned to their GPU work, with each one's verdict
  // and D·A·M split.
  Status steps() {
    for (size_t i = 0; i < r_.steps.size(); ++i) {
      const StepResult& s = r_.steps[i];
      if (!isTraceTime(s.ts) || s.dur < 0 || s.dur >= kTimeLimitNs) {
        ++stats_.skipped;
        DAMSCOPE_RETURN_IF_ERROR(endRow());
        continue;
      }
      begin();
      out_.raw("\"ph\":\"X\",\"cat\":\"damscope_step\",\"name\":");
      out_.str(s.name);
      track(layout_.steps());
      times(s.ts, s.dur);
      out_.raw(",\"args\":{");
      bool first = true;
      intArg("step", static_cast<int64_t>(i), first);
      intArg("number", s.number, first);
      boolArg("in_window", s.in_window, first);
      boolArg("complete", s.complete, first);
      if (isTraceTime(s.host_ts)) {
        microsArg("host_ts", s.host_ts - stats_.base_time_ns, first);
        microsArg("host_dur", std::max<int64_t>(s.host_dur, 0), first);
      }
      intArg("gpu_launches", s.gpu_launches, first);
      if (r_.scorecard && i < r_.scorecard->steps.size()) {
        const Scorecard& card = r_.scorecard->steps[i];
        textArg("verdict", toText(card.verdict), first);
        for (size_t x = 0; x < kAxisCount; ++x) {
          const Axis axis = static_cast<Axis>(x);
          out_.raw(",\"");
          out_.raw(toText(axis));
          out_.raw("_pct\":");
          out_.percent(card.pct(axis));
        }
      }
      out_.raw("}}");
      DAMSCOPE_RETURN_IF_ERROR(endRow());
    }
    return okStatus();
  }

  // Device gaps, named by cause; the time of each cause in args. Stream gaps
  // (HTA's per-stream view) stay in the run.db's gaps table.
  Status gaps() {
    for (size_t i = 0; i < r_.gaps.size(); ++i) {
      const GapResult& g = r_.gaps[i];
      if (g.stream) {
        DAMSCOPE_RETURN_IF_ERROR(endRow());
        continue;
      }
      if (!isTraceTime(g.ts) || g.dur < 0 || g.dur >= kTimeLimitNs) {
        ++stats_.skipped;
        DAMSCOPE_RETURN_IF_ERROR(endRow());
        continue;
      }
      begin();
      out_.raw("\"ph\":\"X\",\"cat\":\"damscope_gap\",\"name\":");
      out_.str(toText(g.cause));
      track(layout_.gaps(g.device));
      times(g.ts, g.dur);
      out_.raw(",\"args\":{");
      bool first = true;
      intArg("gap_id", static_cast<int64_t>(i), first);
      for (size_t c = 0; c < kGapCauseCount; ++c) {
        out_.raw(",\"");
        out_.raw(toText(static_cast<GapCause>(c)));
        out_.raw("_us\":");
        out_.micros(g.by_cause[c]);
      }
      boolArg("in_window", g.in_window, first);
      if (g.step_id && *g.step_id >= 0 && *g.step_id < static_cast<int64_t>(r_.steps.size())) {
        textArg("step", r_.steps[static_cast<size_t>(*g.step_id)].name, first);
      }
      if (g.evidence_table != EvidenceTable::kNone && g.evidence_id) {
        textArg("evidence",
                std::string(toText(g.evidence_table)) + " #" + std::to_string(*g.evidence_id),
                first);
      }
      if (g.next_kind && g.next_id) {
        static constexpr std::array<std::string_view, 4> kTables = {"kernels", "memcpys", "memsets",
                                                                    "syncs"};
        textArg("ended_by",
                std::string(kTables[static_cast<size_t>(*g.next_kind)]) + " #" +
                    std::to_string(*g.next_id),
                first);
      }
      out_.raw("}}");
      DAMSCOPE_RETURN_IF_ERROR(endRow());
    }
    return okStatus();
  }

  // After traceEvents: what Kineto's own traces carry there (so an export
  // reads back into damscope, and HTA-style tools find their fields), and
  // where the events came from.
  void tail() {
    const DeviceTable& d = t_.devices;
    bool any = false;
    for (size_t i = 0; i < d.size(); ++i) {
      if (d.kind[i] != DeviceKind::kGpu || isNull(d.device[i])) continue;
      out_.raw(any ? ",\n{" : ",\n\"deviceProperties\":[\n{");
      any = true;
      bool first = true;
      intArg("id", d.device[i], first);
      if (d.name[i].valid()) textArg("name", t_.strings.get(d.name[i]), first);
      intArg("totalGlobalMem", d.memory_bytes[i], first);
      intArg("computeMajor", d.compute_major[i], first);
      intArg("computeMinor", d.compute_minor[i], first);
      intArg("maxThreadsPerBlock", d.max_threads_per_block[i], first);
      intArg("maxThreadsPerMultiprocessor", d.max_threads_per_sm[i], first);
      intArg("regsPerBlock", d.registers_per_block[i], first);
      intArg("regsPerMultiprocessor", d.registers_per_sm[i], first);
      intArg("warpSize", d.warp_size[i], first);
      intArg("sharedMemPerBlock", d.shared_memory_per_block_bytes[i], first);
      intArg("sharedMemPerMultiprocessor", d.shared_memory_per_sm_bytes[i], first);
      intArg("numSms", d.sm_count[i], first);
      out_.raw("}");
    }
    if (any) out_.raw("]");
    if (r_.rank) {
      out_.raw(",\n\"distributedInfo\":{");
      bool first = true;
      intArg("rank", *r_.rank, first);
      if (r_.world_size) intArg("world_size", *r_.world_size, first);
      for (size_t i = 0; i < t_.processes.size(); ++i) {
        if (t_.processes.comm_backend[i].valid()) {
          textArg("backend", t_.strings.get(t_.processes.comm_backend[i]), first);
          break;
        }
      }
      out_.raw("}");
    }
    out_.raw(",\n\"otherData\":{");
    bool first = true;
    textArg("exporter", "damscope", first);
    intArg("export_version", kChromeTraceExportVersion, first);
    textArg("source", toValidUtf8(r_.source), first);
    const std::string clock = t_.getMeta("clock");
    if (!clock.empty()) textArg("clock", clock, first);
    if (r_.device) intArg("primary_device", *r_.device, first);
    textArg("verdict", toText(r_.verdict()), first);
    out_.raw("}\n");
  }

  const TraceTables& t_;
  const RankResult& r_;
  const Progress& progress_;
  JsonText out_;
  AnalysisInput input_;
  ChromeTrackLayout layout_;
  std::vector<std::string> escaped_;  // per string id: its JSON text, once needed
  std::map<std::tuple<CopyKind, MemoryKind, MemoryKind>, std::string> copy_names_;
  ArgsCheck args_check_;
  ChromeTraceStats stats_;
  int64_t total_rows_ = 0;
};

}  // namespace

Result<ChromeTraceStats> writeChromeTrace(const TraceTables& tables, const RankResult& result,
                                          OutputSink& sink, const Progress& progress) {
  Writer writer(tables, result, sink, progress);
  return writer.run();
}

}  // namespace damscope
