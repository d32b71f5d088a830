// Event details: see event_details.h.
#include "gui/models/event_details.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "analyzer/analyses/kernel_categories.h"
#include "analyzer/report/vocabulary.h"
#include "analyzer/report/text_format.h"
#include "gui/models/operation_stats_model.h"

namespace damscope {
namespace {

std::string duration(int64_t ns) { return formatDuration(static_cast<double>(ns)); }

std::string bytes(int64_t n) {
  return fmt::format("{} ({} bytes)", formatBytes(static_cast<double>(n)), n);
}

std::string where(int32_t device, int64_t stream) {
  std::string out = isNull(device) ? "device ?" : fmt::format("device {}", device);
  if (!isNull(stream)) out += fmt::format(", stream {}", stream);
  return out;
}

std::string triple(int32_t x, int32_t y, int32_t z) {
  if (isNull(x)) return "?";
  return fmt::format("({}, {}, {})", x, isNull(y) ? 1 : y, isNull(z) ? 1 : z);
}

std::string_view kindText(EventKind kind) {
  switch (kind) {
    case EventKind::kKernel:
      return "kernel";
    case EventKind::kMemcpy:
      return "memory copy";
    case EventKind::kMemset:
      return "memset";
    case EventKind::kApiCall:
      return "API call";
    case EventKind::kRange:
      return "range";
    case EventKind::kSync:
      return "synchronization";
    case EventKind::kGap:
      return "idle gap";
  }
  return "";
}

std::optional<EventKind> kindOfEvidence(EvidenceTable table) {
  switch (table) {
    case EvidenceTable::kNone:
      return std::nullopt;
    case EvidenceTable::kRanges:
      return EventKind::kRange;
    case EvidenceTable::kApiCalls:
      return EventKind::kApiCall;
    case EvidenceTable::kKernels:
      return EventKind::kKernel;
    case EvidenceTable::kMemcpys:
      return EventKind::kMemcpy;
    case EvidenceTable::kMemsets:
      return EventKind::kMemset;
    case EvidenceTable::kSyncs:
      return EventKind::kSync;
  }
  return std::nullopt;
}

template <typename Table>
void minTs(const Table& table, int64_t& out) {
  if (!table.ts.empty()) out = std::min(out, *std::min_element(table.ts.begin(), table.ts.end()));
}

void addRanges(EventDetailLines& out, const TraceTables& t, const std::vector<int64_t>& ids) {
  for (int64_t id : ids) {
    const auto i = static_cast<size_t>(id);
    out.emplace_back("In range", fmt::format("{} ({})", t.strings.get(t.ranges.name[i]),
                                             duration(t.ranges.dur[i])));
  }
}

void addThread(EventDetailLines& out, const TraceTables& t, int64_t thread_id) {
  if (thread_id < 0 || static_cast<size_t>(thread_id) >= t.threads.size()) return;
  const auto i = static_cast<size_t>(thread_id);
  const std::string_view name = t.strings.get(t.threads.name[i]);
  out.emplace_back("Thread", name.empty() ? fmt::format("tid {}", t.threads.tid[i])
                                          : fmt::format("{} (tid {})", name, t.threads.tid[i]));
}

// The launch call, its thread and the ranges around it.
void addLaunch(EventDetailLines& out, const EventRef& ref, const AnalysedRun& run,
               int64_t origin) {
  const TraceTables& t = run.tables[static_cast<size_t>(ref.rank)];
  const auto call = launchCallOf(ref, run);
  if (!call) {
    out.emplace_back("Launched by", "no matching API call");
    return;
  }
  const auto c = static_cast<size_t>(*call);
  out.emplace_back("Launched by", fmt::format("{} at +{}, {}", t.strings.get(t.api_calls.name[c]),
                                              duration(t.api_calls.ts[c] - origin),
                                              duration(t.api_calls.dur[c])));
  addThread(out, t, t.api_calls.thread_id[c]);
  addRanges(out, t, enclosingRanges(t, t.api_calls.thread_id[c], t.api_calls.ts[c]));
}

void addGap(EventDetailLines& out, const EventRef& ref, const AnalysedRun& run) {
  const GapResult& g = run.run.ranks[static_cast<size_t>(ref.rank)].gaps[static_cast<size_t>(ref.id)];
  out.emplace_back("Where", g.stream ? where(g.device, *g.stream)
                                     : fmt::format("device {} (the whole device idle)", g.device));
  out.emplace_back("Cause", std::string(causeLabel(g.cause)));
  for (size_t c = 0; c < kGapCauseCount; ++c) {
    if (g.by_cause[c] <= 0) continue;
    out.emplace_back(fmt::format("  {}", causeLabel(static_cast<GapCause>(c))),
                     duration(g.by_cause[c]));
  }
  if (g.hta != HtaIdleCategory::kNone) out.emplace_back("HTA category", std::string(toText(g.hta)));
  if (g.step_id) out.emplace_back("Step", std::to_string(*g.step_id));
  if (const auto kind = kindOfEvidence(g.evidence_table); kind && g.evidence_id) {
    const std::string name = nameOf({ref.rank, *kind, *g.evidence_id}, run);
    if (!name.empty()) out.emplace_back("Evidence", fmt::format("{} {}", kindText(*kind), name));
  }
  if (g.next_kind && g.next_id) {
    const std::string name = nameOf({ref.rank, eventKindOf(*g.next_kind), *g.next_id}, run);
    if (!name.empty()) out.emplace_back("Ended by", name);
  }
}

}  // namespace

int64_t firstEventTs(const TraceTables& t) {
  int64_t out = std::numeric_limits<int64_t>::max();
  minTs(t.kernels, out);
  minTs(t.memcpys, out);
  minTs(t.memsets, out);
  minTs(t.api_calls, out);
  minTs(t.ranges, out);
  minTs(t.syncs, out);
  return out == std::numeric_limits<int64_t>::max() ? 0 : out;
}

std::optional<int64_t> launchCallOf(const EventRef& ref, const AnalysedRun& run) {
  if (!spanOf(ref, run)) return std::nullopt;
  const TraceTables& t = run.tables[static_cast<size_t>(ref.rank)];
  const auto i = static_cast<size_t>(ref.id);
  int64_t correlation = kNullInt;
  switch (ref.kind) {
    case EventKind::kKernel:
      correlation = t.kernels.correlation_id[i];
      break;
    case EventKind::kMemcpy:
      correlation = t.memcpys.correlation_id[i];
      break;
    case EventKind::kMemset:
      correlation = t.memsets.correlation_id[i];
      break;
    default:
      return std::nullopt;
  }
  if (isNull(correlation)) return std::nullopt;
  const auto& ids = t.api_calls.correlation_id;
  const auto it = std::find(ids.begin(), ids.end(), correlation);
  if (it == ids.end()) return std::nullopt;
  return static_cast<int64_t>(it - ids.begin());
}

std::vector<int64_t> enclosingRanges(const TraceTables& t, int64_t thread_id, int64_t ts) {
  std::vector<int64_t> out;
  if (isNull(thread_id)) return out;
  const RangeTable& r = t.ranges;
  for (size_t i = 0; i < r.size(); ++i) {
    if (r.thread_id[i] == thread_id && r.ts[i] <= ts && ts <= r.ts[i] + std::max<int64_t>(0, r.dur[i])) {
      out.push_back(static_cast<int64_t>(i));
    }
  }
  // Outermost first: the earlier start, then the longer range, then the lower depth.
  std::sort(out.begin(), out.end(), [&](int64_t a, int64_t b) {
    const auto i = static_cast<size_t>(a), j = static_cast<size_t>(b);
    if (r.ts[i] != r.ts[j]) return r.ts[i] < r.ts[j];
    if (r.dur[i] != r.dur[j]) return r.dur[i] > r.dur[j];
    return r.depth[i] < r.depth[j];
  });
  return out;
}

EventDetailLines eventDetails(const EventRef& ref, const AnalysedRun& run) {
  EventDetailLines out;
  const auto span = spanOf(ref, run);
  if (!span) return out;
  const TraceTables& t = run.tables[static_cast<size_t>(ref.rank)];
  const int64_t origin = firstEventTs(t);
  const auto i = static_cast<size_t>(ref.id);
  out.emplace_back("Name", nameOf(ref, run));
  out.emplace_back("Kind", std::string(kindText(ref.kind)));
  out.emplace_back("Start", fmt::format("+{} ({} ns)", duration(span->ts - origin), span->ts));
  out.emplace_back("Duration", duration(span->dur));
  switch (ref.kind) {
    case EventKind::kKernel: {
      const KernelTable& k = t.kernels;
      out.emplace_back("Category",
                       std::string(toText(classifyKernelName(t.strings.get(k.name[i])))));
      out.emplace_back("Where", where(k.device[i], k.stream[i]));
      out.emplace_back("Grid", triple(k.grid_x[i], k.grid_y[i], k.grid_z[i]));
      out.emplace_back("Block", triple(k.block_x[i], k.block_y[i], k.block_z[i]));
      if (!isNull(k.registers_per_thread[i])) {
        out.emplace_back("Registers per thread", std::to_string(k.registers_per_thread[i]));
      }
      if (!isNull(k.shared_memory_bytes[i])) {
        out.emplace_back("Shared memory per block", bytes(k.shared_memory_bytes[i]));
      }
      if (!isNull(k.occupancy_pct[i])) {
        out.emplace_back("Est. achieved occupancy", fmt::format("{:.1f} %", k.occupancy_pct[i]));
      }
      addLaunch(out, ref, run, origin);
      break;
    }
    case EventKind::kMemcpy: {
      const MemcpyTable& m = t.memcpys;
      out.emplace_back("Where", where(m.device[i], m.stream[i]));
      out.emplace_back("Copy kind", fmt::format("{} ({} → {})", toText(m.copy_kind[i]),
                                                toText(m.src_kind[i]), toText(m.dst_kind[i])));
      if (!isNull(m.bytes[i])) {
        out.emplace_back("Bytes", bytes(m.bytes[i]));
        if (m.dur[i] > 0) {
          out.emplace_back("Throughput", formatBytes(static_cast<double>(m.bytes[i]) * 1e9 /
                                                     static_cast<double>(m.dur[i])) +
                                             "/s");
        }
      }
      addLaunch(out, ref, run, origin);
      break;
    }
    case EventKind::kMemset: {
      const MemsetTable& m = t.memsets;
      out.emplace_back("Where", where(m.device[i], m.stream[i]));
      out.emplace_back("Memory", std::string(toText(m.memory_kind[i])));
      if (!isNull(m.bytes[i])) out.emplace_back("Bytes", bytes(m.bytes[i]));
      addLaunch(out, ref, run, origin);
      break;
    }
    case EventKind::kApiCall: {
      const ApiCallTable& a = t.api_calls;
      out.emplace_back("API", std::string(toText(a.api[i])));
      addThread(out, t, a.thread_id[i]);
      if (!isNull(a.correlation_id[i])) {
        out.emplace_back("Correlation id", std::to_string(a.correlation_id[i]));
      }
      if (!isNull(a.return_code[i])) out.emplace_back("Return code", std::to_string(a.return_code[i]));
      std::vector<int64_t> ranges = enclosingRanges(t, a.thread_id[i], a.ts[i]);
      addRanges(out, t, ranges);
      break;
    }
    case EventKind::kRange: {
      const RangeTable& r = t.ranges;
      if (r.category[i].valid()) out.emplace_back("Category", std::string(t.strings.get(r.category[i])));
      if (r.domain[i].valid()) out.emplace_back("Domain", std::string(t.strings.get(r.domain[i])));
      if (!isNull(r.thread_id[i])) {
        addThread(out, t, r.thread_id[i]);
      } else {
        out.emplace_back("Where", where(r.device[i], r.stream[i]));
      }
      if (!isNull(r.depth[i])) out.emplace_back("Depth", std::to_string(r.depth[i]));
      std::vector<int64_t> parents;
      for (int64_t p = r.parent_id[i];
           !isNull(p) && p >= 0 && static_cast<size_t>(p) < r.size() && parents.size() < r.size();
           p = r.parent_id[static_cast<size_t>(p)]) {
        parents.push_back(p);
      }
      std::reverse(parents.begin(), parents.end());
      addRanges(out, t, parents);
      break;
    }
    case EventKind::kSync: {
      const SyncTable& s = t.syncs;
      out.emplace_back("Sync kind", std::string(toText(s.kind[i])));
      if (!isNull(s.thread_id[i])) {
        addThread(out, t, s.thread_id[i]);
      } else {
        out.emplace_back("Where", where(s.device[i], s.stream[i]));
      }
      break;
    }
    case EventKind::kGap:
      addGap(out, ref, run);
      break;
  }
  return out;
}

}  // namespace damscope
