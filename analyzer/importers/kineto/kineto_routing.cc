// Routing of Kineto trace events into the neutral tables (see
// kineto_internal.h): the phase picks the kind of row (complete events,
// instant [memory] samples, process and thread names), the category picks the
// table, and the names of copies, memsets and syncs give their kinds. Both
// trace formats are handled here: 2021 categories ("Kernel", "Memcpy",
// "Runtime", "Operator") and current ones ("kernel", "gpu_memcpy",
// "cuda_runtime", "cpu_op"), matched case-insensitively.
#include <cctype>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "analyzer/importers/kineto/kineto_internal.h"

namespace damscope::kineto {
namespace {

CategoryRoute routeForCategory(std::string_view lower_cat) {
  static const std::unordered_map<std::string_view, CategoryRoute> kRoutes = {
      {"kernel", {Route::kKernel, ""}},
      {"gpu_memcpy", {Route::kMemcpy, ""}},
      {"memcpy", {Route::kMemcpy, ""}},
      {"gpu_memset", {Route::kMemset, ""}},
      {"memset", {Route::kMemset, ""}},
      {"cuda_runtime", {Route::kRuntime, ""}},
      {"runtime", {Route::kRuntime, ""}},
      {"cuda_driver", {Route::kDriver, ""}},
      {"driver", {Route::kDriver, ""}},
      {"cuda_sync", {Route::kSync, ""}},
      {"cpu_op", {Route::kHostRange, "cpu_op"}},
      {"operator", {Route::kHostRange, "cpu_op"}},
      {"user_annotation", {Route::kHostRange, "user_annotation"}},
      {"python_function", {Route::kHostRange, "python_function"}},
      {"python", {Route::kHostRange, "python_function"}},
      {"dataloader", {Route::kHostRange, "dataloader"}},
      {"gpu_user_annotation", {Route::kGpuRange, "gpu_user_annotation"}},
      {"cuda_profiler_range", {Route::kProfilerRange, "cuda_profiler_range"}},
      {"trace", {Route::kProfilerSpan, ""}},
  };
  auto it = kRoutes.find(lower_cat);
  if (it != kRoutes.end()) return it->second;
  return {Route::kHostRange, {}};  // unknown categories keep their own name
}

// "Memcpy HtoD (Pageable -> Device)" -> HtoD, pageable, device.
void parseMemcpyName(std::string_view name, CopyKind& kind, MemoryKind& src, MemoryKind& dst) {
  auto memoryKind = [](std::string_view word) {
    if (word == "Pageable") return MemoryKind::kPageable;
    if (word == "Pinned") return MemoryKind::kPinned;
    if (word == "Device") return MemoryKind::kDevice;
    if (word == "Managed") return MemoryKind::kManaged;
    if (word == "Array") return MemoryKind::kArray;
    return MemoryKind::kUnknown;  // ROCm writes "Host"
  };
  constexpr std::string_view kPrefix = "Memcpy ";
  if (name.substr(0, kPrefix.size()) == kPrefix) {
    const std::string_view rest = name.substr(kPrefix.size());
    kind = enumFromText<CopyKind>(rest.substr(0, rest.find(' '))).value_or(CopyKind::kUnknown);
  }
  const size_t open = name.find('('), arrow = name.find(" -> "), close = name.rfind(')');
  if (open != std::string_view::npos && arrow != std::string_view::npos &&
      close != std::string_view::npos && open < arrow && arrow < close) {
    src = memoryKind(name.substr(open + 1, arrow - open - 1));
    dst = memoryKind(name.substr(arrow + 4, close - arrow - 4));
  }
}

// "Memset (Device)" -> device.
MemoryKind parseMemsetName(std::string_view name) {
  const size_t open = name.find('('), close = name.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    return MemoryKind::kUnknown;
  }
  const std::string_view word = name.substr(open + 1, close - open - 1);
  if (word == "Device") return MemoryKind::kDevice;
  if (word == "Pinned") return MemoryKind::kPinned;
  if (word == "Pageable") return MemoryKind::kPageable;
  if (word == "Managed") return MemoryKind::kManaged;
  return MemoryKind::kUnknown;
}

constexpr const char* kOutsideTimeRange =
    "events whose \"ts\" or end lies outside ±2^62 ns (146 years around the epoch); skipped";

// An id or count that must fit a 32-bit column; NULL when it does not.
int32_t toInt32(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() + 1 && v <= std::numeric_limits<int32_t>::max()
             ? static_cast<int32_t>(v)
             : kNullInt32;
}

SyncKind syncKindFromName(std::string_view name) {
  if (name == "Stream Sync") return SyncKind::kStreamSynchronize;
  if (name == "Event Sync") return SyncKind::kEventSynchronize;
  if (name == "Context Sync") return SyncKind::kContextSynchronize;
  if (name == "Stream Wait Event") return SyncKind::kStreamWaitEvent;
  return SyncKind::kUnknown;
}

}  // namespace

bool checkCompleteTimes(ImportState& state, Event& e) {
  if (isNull(e.ts)) {
    state.stat("kineto.events_without_ts", "complete events without a usable \"ts\"; skipped");
    return false;
  }
  if (isNull(e.dur) || e.dur < 0) {
    state.stat("kineto.bad_durations",
               "complete events with a missing or negative \"dur\"; stored as 0");
    e.dur = 0;
  }
  // Times are untrusted: a start or end outside the trace's range (±2^62 ns,
  // trace/tables.h) would overflow the analyses' arithmetic.
  if (!isTraceTime(e.ts) || !addTraceTimes(e.ts, e.dur)) {
    state.stat("kineto.events_outside_time_range", kOutsideTimeRange);
    return false;
  }
  return true;
}

void EventRouter::addComplete(Event& e) {
  if (!checkCompleteTimes(s_, e)) return;
  if (e.cat != last_cat_ || !last_route_) {
    last_cat_.assign(e.cat);
    lower_cat_.assign(e.cat);
    for (char& c : lower_cat_) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    last_route_ = routeForCategory(lower_cat_);
  }
  const CategoryRoute route = *last_route_;

  const int32_t device = toInt32(!isNull(e.device) ? e.device : e.pid.number);
  const int64_t stream = !isNull(e.stream) ? e.stream : e.tid.number;
  auto host_thread = [&]() -> int64_t {
    if (!e.pid.numeric() || !e.tid.numeric()) return kNullInt;
    return s_.registry.thread(e.pid.number, e.tid.number);
  };

  switch (route.route) {
    case Route::kKernel: {
      KernelTable::Row k;
      k.ts = e.ts, k.dur = e.dur, k.device = device, k.stream = stream;
      k.correlation_id = e.correlation, k.external_id = e.external_id;
      k.name = t_.strings.intern(e.name);
      k.grid_x = e.grid[0], k.grid_y = e.grid[1], k.grid_z = e.grid[2];
      k.block_x = e.block[0], k.block_y = e.block[1], k.block_z = e.block[2];
      k.registers_per_thread = toInt32(e.registers);
      k.shared_memory_bytes = e.shared_memory;
      k.occupancy_pct = e.occupancy;
      k.args = e.extras;
      t_.kernels.append(k);
      if (isNull(e.correlation)) {
        s_.stat("kineto.kernels_without_correlation",
                "kernels with no \"correlation\" argument: their launch call cannot be found");
      }
      return;
    }
    case Route::kMemcpy: {
      MemcpyTable::Row m;
      m.ts = e.ts, m.dur = e.dur, m.device = device, m.stream = stream;
      m.correlation_id = e.correlation, m.external_id = e.external_id, m.bytes = e.bytes;
      parseMemcpyName(e.name, m.copy_kind, m.src_kind, m.dst_kind);
      if (m.copy_kind == CopyKind::kUnknown && !e.copy_kind.empty()) {
        m.copy_kind = enumFromText<CopyKind>(e.copy_kind).value_or(CopyKind::kUnknown);
      }
      t_.memcpys.append(m);
      return;
    }
    case Route::kMemset: {
      MemsetTable::Row m;
      m.ts = e.ts, m.dur = e.dur, m.device = device, m.stream = stream;
      m.correlation_id = e.correlation, m.external_id = e.external_id, m.bytes = e.bytes;
      m.memory_kind = parseMemsetName(e.name);
      t_.memsets.append(m);
      return;
    }
    case Route::kRuntime:
    case Route::kDriver: {
      ApiCallTable::Row a;
      a.ts = e.ts, a.dur = e.dur, a.thread_id = host_thread();
      a.api = route.route == Route::kDriver ? ApiKind::kDriver : ApiKind::kRuntime;
      a.name = t_.strings.intern(e.name);
      a.correlation_id = e.correlation, a.external_id = e.external_id;
      a.cbid = toInt32(e.cbid);
      t_.api_calls.append(a);
      return;
    }
    case Route::kSync: {
      SyncTable::Row s;
      s.ts = e.ts, s.dur = e.dur, s.device = device, s.stream = stream;
      s.kind = syncKindFromName(e.sync_kind.empty() ? e.name : e.sync_kind);
      s.correlation_id = e.correlation, s.external_id = e.external_id;
      t_.syncs.append(s);
      return;
    }
    case Route::kProfilerSpan:
      // The profiler's own window ("PyTorch Profiler (0)").
      s_.profiler_span_start =
          isNull(s_.profiler_span_start) ? e.ts : std::min(s_.profiler_span_start, e.ts);
      s_.profiler_span_end = isNull(s_.profiler_span_end)
                                 ? e.ts + e.dur
                                 : std::max(s_.profiler_span_end, e.ts + e.dur);
      return;
    case Route::kHostRange:
    case Route::kGpuRange:
    case Route::kProfilerRange: {
      RangeTable::Row r;
      r.ts = e.ts, r.dur = e.dur;
      if (route.route == Route::kHostRange) {
        r.thread_id = host_thread();
        if (isNull(r.thread_id)) {
          s_.stat("kineto.ranges_without_thread",
                  "host ranges whose pid/tid are not numbers; skipped");
          s_.threadless_ranges.emplace_back(e.ts, e.ts + e.dur);
          return;
        }
      } else {
        r.device = device, r.stream = stream;
      }
      r.category =
          t_.strings.intern(route.category.empty() ? std::string_view(lower_cat_) : route.category);
      if (route.category.empty()) {
        s_.stat("kineto.unknown_category_ranges",
                "complete events of a category this importer does not know; stored as ranges");
      }
      r.name = t_.strings.intern(e.name);
      r.external_id = e.external_id, r.correlation_id = e.correlation;
      r.args = e.extras;
      const int64_t row = t_.ranges.append(r);
      if (e.has_sass || e.has_dram) {
        s_.pending_metrics.push_back({row, e.has_sass ? e.sass_flops : nullValue<double>(),
                                      MetricSource::kMeasured,
                                      e.has_dram ? e.dram_bytes : nullValue<double>()});
      } else if (!std::isnan(e.flops)) {
        // PyTorch computes op FLOPs from input shapes (with_flops=True).
        s_.pending_metrics.push_back({row, e.flops, MetricSource::kEstimated});
      }
      return;
    }
  }
}

void EventRouter::addInstant(const Event& e) {
  if (e.name != "[memory]") {
    s_.stat("kineto.instant_events",
            "instant events other than [memory] (iteration marks); not stored");
    return;
  }
  if (!isTraceTime(e.ts)) {
    if (!isNull(e.ts)) {
      s_.stat("kineto.events_outside_time_range", kOutsideTimeRange);
    }
    return;
  }
  if (std::isnan(e.total_allocated) && std::isnan(e.total_reserved)) {
    s_.stat("kineto.memory_events_without_totals",
            "[memory] events without Total Allocated/Reserved (older PyTorch); not stored");
    return;
  }
  CounterTable::Row c;
  c.ts = e.ts;
  // c10::DeviceType: 0 is CPU; GPU allocations (CUDA, and HIP under ROCm) carry the device index.
  c.device = e.device_type > 0 ? toInt32(e.device_id) : kNullInt32;
  if (e.pid.numeric() && e.tid.numeric())
    c.thread_id = s_.registry.thread(e.pid.number, e.tid.number);
  if (!std::isnan(e.total_allocated)) {
    c.name = t_.strings.intern("memory_allocated_bytes");
    c.value = e.total_allocated;
    t_.counters.append(c);
  }
  if (!std::isnan(e.total_reserved)) {
    c.name = t_.strings.intern("memory_reserved_bytes");
    c.value = e.total_reserved;
    t_.counters.append(c);
  }
}

void EventRouter::addMetadata(const Event& e) {
  if (!e.pid.numeric()) return;
  if (e.name == "process_name" && !e.meta_name.empty()) {
    s_.process_names[e.pid.number] = std::string(e.meta_name);
  } else if (e.name == "thread_name" && !e.meta_name.empty() && e.tid.numeric()) {
    s_.thread_names[{e.pid.number, e.tid.number}] = std::string(e.meta_name);
  }
}

void EventRouter::route(Event& e) {
  ++s_.events;
  const char phase = e.ph.empty() ? '\0' : e.ph[0];
  switch (phase) {
    case 'X':
      addComplete(e);
      break;
    case 'i':
    case 'I':
      addInstant(e);
      break;
    case 'M':
      addMetadata(e);
      break;
    case 's':
    case 'f':
    case 't':
      ++s_.flow_events;
      break;
    default:
      s_.stat("kineto.unsupported_phase_events",
              "events of a phase Kineto does not write (B/E/C/...); not stored");
  }
}

}  // namespace damscope::kineto
