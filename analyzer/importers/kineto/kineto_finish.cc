// The final pass of a Kineto import (see kineto_internal.h), run once every
// event is read: trace-level keys may come after "traceEvents" (Kineto writes
// baseTimeNanoseconds last), so only now can times be shifted onto the Unix
// epoch, tables sorted, ranges nested and FLOP metrics pointed at their
// sorted rows; devices, process and thread names, rank metadata and the
// importer's stats are filled in last.
#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyzer/importers/kineto/kineto_internal.h"
#include "analyzer/importers/kineto/legacy_autograd.h"
#include "trace/range_nesting.h"
#include "trace/table_order.h"

namespace damscope::kineto {
namespace {

bool isKernelLaunch(std::string_view api) {
  return api.starts_with("cudaLaunchKernel") || api.starts_with("cuLaunchKernel");
}

// Kineto's CUPTI profiler mode (the range profiler, per-kernel ranges) writes
// one cuda_profiler_range event per kernel, named for it, with its counters;
// it records the launch calls but no kernel activity, and the events' ts and
// dur are not the kernel's: the profiler replays each kernel for its
// counters and records no times, and Kineto spreads the ranges evenly over
// the profiled span. As HTA's get_cupti_counter_data_with_operators does,
// the i-th range (by time) is the kernel of the i-th kernel launch call; a
// trace whose counts differ is not matched (said in a stat). Where the trace
// has the kernels' activity too, a range's kernel is the one with that
// launch's correlation id. Where it has none, each range becomes its kernel
// row, placed over its launch call: the replay runs inside the call (which
// is why those calls take milliseconds), so the kernel ran within it, but
// for less long; meta "kernel_times" says the times are placeholders.
std::vector<int64_t> kernelsOfCounterRanges(TraceTables& t) {
  const StringId category = t.strings.find("cuda_profiler_range");
  if (!category.valid()) return {};
  std::vector<int64_t> ranges, launches;
  for (size_t i = 0; i < t.ranges.size(); ++i) {
    if (t.ranges.category[i] == category) ranges.push_back(static_cast<int64_t>(i));
  }
  for (size_t i = 0; i < t.api_calls.size(); ++i) {
    if (isKernelLaunch(t.strings.get(t.api_calls.name[i])))
      launches.push_back(static_cast<int64_t>(i));
  }
  if (ranges.empty()) return {};
  if (ranges.size() != launches.size()) {
    t.addStat("kineto.counter_ranges_unmatched", static_cast<int64_t>(ranges.size()),
              "CUPTI counter ranges (cuda_profiler_range) not matched to kernels: their count "
              "differs from the kernel launch calls' (" +
                  std::to_string(launches.size()) + "), so the i-th is not the i-th's");
    return {};
  }
  std::vector<int64_t> kernel_of(t.ranges.size(), kNullInt);
  std::unordered_map<int64_t, int64_t> kernel_of_correlation;
  for (size_t k = 0; k < t.kernels.size(); ++k) {
    if (!isNull(t.kernels.correlation_id[k])) {
      kernel_of_correlation.try_emplace(t.kernels.correlation_id[k], static_cast<int64_t>(k));
    }
  }
  const bool create = t.kernels.empty();
  int64_t matched = 0;
  for (size_t i = 0; i < ranges.size(); ++i) {
    const size_t r = static_cast<size_t>(ranges[i]);
    const size_t call = static_cast<size_t>(launches[i]);
    const int64_t correlation = t.api_calls.correlation_id[call];
    if (create) {
      KernelTable::Row k;
      k.ts = t.api_calls.ts[call], k.dur = t.api_calls.dur[call];
      k.device = isNull(t.ranges.device[r]) ? 0 : t.ranges.device[r];
      k.stream = t.ranges.stream[r];
      k.name = t.ranges.name[r];
      k.correlation_id = correlation;
      k.external_id = t.api_calls.external_id[call];
      kernel_of[r] = t.kernels.append(k);
      ++matched;
    } else if (auto it = kernel_of_correlation.find(correlation);
               it != kernel_of_correlation.end()) {
      kernel_of[r] = it->second;
      ++matched;
    }
  }
  t.addStat("kineto.counter_ranges_matched", matched,
            "CUPTI counter ranges (cuda_profiler_range) matched to their kernel, the i-th to the "
            "i-th kernel launch call (as HTA does)");
  if (create) {
    t.setMeta("kernel_times", "placeholders");
    t.addStat("kineto.kernels_from_counter_ranges", matched,
              "kernels known only from their counter ranges, placed over their launch call: the "
              "profiler replays each kernel inside it for its counters and records no times");
  }
  return kernel_of;
}

// The skipped ranges' times as lost_spans (docs/trace-format.md): ranges
// that overlap or touch are merged into one span, so a burst of them is one
// mark on the timeline, not thousands.
void placeThreadlessRanges(std::vector<std::pair<int64_t, int64_t>>& ranges, LostSpanTable& spans) {
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 0; i < ranges.size();) {
    int64_t end = ranges[i].second;
    size_t next = i + 1;
    while (next < ranges.size() && ranges[next].first <= end) {
      end = std::max(end, ranges[next].second);
      ++next;
    }
    spans.append({ranges[i].first, end - ranges[i].first, "kineto.ranges_without_thread",
                  static_cast<int64_t>(next - i)});
    i = next;
  }
}

}  // namespace

Status finishImport(ImportState& s) {
  TraceTables& t = s.tables;
  placeThreadlessRanges(s.threadless_ranges, t.lost_spans);
  // Kineto's newer traces write ts relative to baseTimeNanoseconds. Both are
  // within the trace's time range (the reader and router checked), but their
  // sum, or its end, need not be: such a file cannot be placed on the clock.
  if (s.base_time_ns != 0) {
    Status status;
    auto shift = [&](auto& table) {
      if (!status.ok()) return;
      for (size_t i = 0; i < table.size(); ++i) {
        const std::optional<int64_t> ts = addTraceTimes(table.ts[i], s.base_time_ns);
        bool fits = ts.has_value();
        if constexpr (requires { table.dur; }) fits = fits && addTraceTimes(*ts, table.dur[i]);
        if (!fits) {
          status = Error(s.source + ": \"baseTimeNanoseconds\" " + std::to_string(s.base_time_ns) +
                         " moves an event at ts " + std::to_string(table.ts[i]) +
                         " ns outside the trace's time range (±2^62 ns)");
          return;
        }
        table.ts[i] = *ts;
      }
    };
    shift(t.kernels), shift(t.memcpys), shift(t.memsets), shift(t.api_calls);
    shift(t.ranges), shift(t.syncs), shift(t.counters), shift(t.lost_spans);
    if (!status.ok()) return status;
    // The span's ends are event times (kProfilerSpan events passed the router's check).
    if (!isNull(s.profiler_span_start)) {
      const auto start = addTraceTimes(s.profiler_span_start, s.base_time_ns);
      const auto end = addTraceTimes(s.profiler_span_end, s.base_time_ns);
      if (!start || !end) {
        return Error(s.source + ": \"baseTimeNanoseconds\" " + std::to_string(s.base_time_ns) +
                     " moves the profiler's span outside the trace's time range (±2^62 ns)");
      }
      s.profiler_span_start = *start, s.profiler_span_end = *end;
    }
  }

  sortByTime(t.kernels), sortByTime(t.memcpys), sortByTime(t.memsets);
  sortByTime(t.api_calls), sortByTime(t.syncs), sortByTime(t.counters);
  std::vector<int64_t> range_rows = sortByTime(t.ranges);
  if (s.dialect == Dialect::kLegacyAutograd) {
    if (const int64_t clipped = clipTruncatedEnds(t.ranges); clipped > 0) {
      t.addStat("kineto.legacy_clipped_ends", clipped,
                "ranges ending up to 1 µs after the range containing them (the legacy profiler "
                "truncates start and duration to µs separately); ended with it");
      // A shorter range may now sort after another of its start time.
      const std::vector<int64_t> resorted = sortByTime(t.ranges);
      for (int64_t& row : range_rows) row = resorted[row];
    }
  }
  computeRangeNesting(t.ranges);
  const std::vector<int64_t> kernel_of_range = kernelsOfCounterRanges(t);
  for (const PendingMetric& m : s.pending_metrics) {
    KernelMetricTable::Row row;
    row.range_id = range_rows[m.range_row];
    row.kernel_id =
        kernel_of_range.empty() ? kNullInt : kernel_of_range[static_cast<size_t>(row.range_id)];
    row.flops = m.flops;
    row.dram_bytes = m.dram_bytes;
    row.source = m.source;
    t.kernel_metrics.append(row);
  }

  bool amd = false;
  for (const KinetoDevice& d : s.devices) {
    amd = amd || d.name.find("AMD") != std::string::npos ||
          d.name.find("Radeon") != std::string::npos ||
          d.name.find("Instinct") != std::string::npos;
  }
  for (const KinetoDevice& d : s.devices) {
    DeviceTable::Row row;
    row.device = d.id;
    row.kind = DeviceKind::kGpu;
    row.vendor = t.strings.intern(amd ? "amd" : "nvidia");
    row.name = t.strings.intern(d.name);
    auto i32 = [](int32_t v) { return v < 0 ? kNullInt32 : v; };
    auto i64 = [](int64_t v) { return v < 0 ? kNullInt : v; };
    row.sm_count = i32(d.sm_count);
    row.memory_bytes = i64(d.total_memory_bytes);
    row.compute_major = i32(d.compute_major);
    row.compute_minor = i32(d.compute_minor);
    row.warp_size = i32(d.warp_size);
    row.max_threads_per_block = i32(d.max_threads_per_block);
    row.max_threads_per_sm = i32(d.max_threads_per_sm);
    row.registers_per_block = i32(d.registers_per_block);
    row.registers_per_sm = i32(d.registers_per_sm);
    row.shared_memory_per_block_bytes = i64(d.shared_memory_per_block_bytes);
    row.shared_memory_per_sm_bytes = i64(d.shared_memory_per_sm_bytes);
    t.devices.append(row);
  }

  for (size_t p = 0; p < t.processes.size(); ++p) {
    auto name = s.process_names.find(t.processes.pid[p]);
    if (name != s.process_names.end()) t.processes.name[p] = t.strings.intern(name->second);
    if (!s.hostname.empty()) t.processes.hostname[p] = t.strings.intern(s.hostname);
    if (s.distributed.rank >= 0) t.processes.rank[p] = s.distributed.rank;
    if (s.distributed.world_size > 0) t.processes.world_size[p] = s.distributed.world_size;
    if (!s.distributed.backend.empty()) {
      t.processes.comm_backend[p] = t.strings.intern(s.distributed.backend);
    }
  }
  for (size_t i = 0; i < t.threads.size(); ++i) {
    const int64_t pid = t.processes.pid[t.threads.process_id[i]];
    auto name = s.thread_names.find({pid, t.threads.tid[i]});
    if (name != s.thread_names.end()) t.threads.name[i] = t.strings.intern(name->second);
  }

  const bool legacy = s.dialect == Dialect::kLegacyAutograd;
  t.setMeta("source_format",
            std::string(legacy ? kLegacyAutogradSourceFormat : std::string_view("kineto")));
  t.setMeta("source_file", s.source);
  // Kineto's times are the system clock's; the legacy profiler's count from
  // the start of the capture (legacy_autograd.h).
  t.setMeta("clock", legacy ? "session" : "realtime");
  if (s.base_time_ns != 0) t.setMeta("kineto_base_time_ns", std::to_string(s.base_time_ns));
  if (!isNull(s.profiler_span_start)) {
    t.setMeta("profiler_span_start_ns", std::to_string(s.profiler_span_start));
    t.setMeta("profiler_span_end_ns", std::to_string(s.profiler_span_end));
  }
  t.addStat("kineto.events", s.events, "trace events read from traceEvents");
  if (s.flow_events > 0) {
    t.addStat("kineto.flow_events", s.flow_events,
              "flow arrows (ac2g launch links, fwdbwd); not stored: kernels link to their "
              "launch through the correlation argument");
  }
  return okStatus();
}

}  // namespace damscope::kineto
