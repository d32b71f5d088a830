// Event references: see event_ref.h.
#include "gui/models/event_ref.h"

#include <algorithm>

#include "analyzer/analyses/model_annotation.h"
#include "analyzer/report/vocabulary.h"

namespace damscope {

EventKind eventKindOf(GpuOpKind kind) {
  switch (kind) {
    case GpuOpKind::kKernel:
      return EventKind::kKernel;
    case GpuOpKind::kMemcpy:
      return EventKind::kMemcpy;
    case GpuOpKind::kMemset:
      return EventKind::kMemset;
    case GpuOpKind::kSync:
      break;
  }
  return EventKind::kSync;
}

namespace {

template <typename Table>
std::optional<EventSpan> rowSpan(const Table& table, int64_t id) {
  if (id < 0 || static_cast<size_t>(id) >= table.ts.size()) return std::nullopt;
  const auto i = static_cast<size_t>(id);
  return EventSpan{table.ts[i], std::max<int64_t>(0, table.dur[i])};
}

bool validRank(const EventRef& ref, const AnalysedRun& run) {
  return ref.rank >= 0 && static_cast<size_t>(ref.rank) < run.tables.size() &&
         static_cast<size_t>(ref.rank) < run.run.ranks.size();
}

}  // namespace

std::optional<EventRef> eventOfEvidence(const EvidenceItem& item, int32_t rank) {
  switch (item.source) {
    case EvidenceSource::kGaps:
      return EventRef{rank, EventKind::kGap, item.id};
    case EvidenceSource::kKernels:
      return EventRef{rank, EventKind::kKernel, item.id};
    case EvidenceSource::kRanges:
      return EventRef{rank, EventKind::kRange, item.id};
    case EvidenceSource::kMemcpys:
      return EventRef{rank, EventKind::kMemcpy, item.id};
    case EvidenceSource::kApiCalls:
      return EventRef{rank, EventKind::kApiCall, item.id};
    case EvidenceSource::kCounters:
    case EvidenceSource::kStats:
      return std::nullopt;
  }
  return std::nullopt;
}

EventRefs eventsOfFinding(const Finding& finding, int32_t rank) {
  EventRefs out;
  for (const EvidenceItem& item : finding.evidence) {
    if (auto ref = eventOfEvidence(item, rank)) out.push_back(*ref);
  }
  return out;
}

EventRefs kernelsNamed(const AnalysedRun& run, int32_t rank, std::string_view name) {
  EventRefs out;
  if (rank < 0 || static_cast<size_t>(rank) >= run.tables.size()) return out;
  const TraceTables& t = run.tables[static_cast<size_t>(rank)];
  const StringId id = t.strings.find(name);
  if (!id.valid()) return out;
  for (size_t i = 0; i < t.kernels.size(); ++i) {
    if (t.kernels.name[i] == id) out.push_back({rank, EventKind::kKernel, static_cast<int64_t>(i)});
  }
  std::stable_sort(out.begin(), out.end(), [&](const EventRef& a, const EventRef& b) {
    return t.kernels.ts[static_cast<size_t>(a.id)] < t.kernels.ts[static_cast<size_t>(b.id)];
  });
  return out;
}

std::optional<EventSpan> spanOf(const EventRef& ref, const AnalysedRun& run) {
  if (!validRank(ref, run)) return std::nullopt;
  const TraceTables& t = run.tables[static_cast<size_t>(ref.rank)];
  switch (ref.kind) {
    case EventKind::kKernel:
      return rowSpan(t.kernels, ref.id);
    case EventKind::kMemcpy:
      return rowSpan(t.memcpys, ref.id);
    case EventKind::kMemset:
      return rowSpan(t.memsets, ref.id);
    case EventKind::kApiCall:
      return rowSpan(t.api_calls, ref.id);
    case EventKind::kRange:
      return rowSpan(t.ranges, ref.id);
    case EventKind::kSync:
      return rowSpan(t.syncs, ref.id);
    case EventKind::kGap: {
      const auto& gaps = run.run.ranks[static_cast<size_t>(ref.rank)].gaps;
      if (ref.id < 0 || static_cast<size_t>(ref.id) >= gaps.size()) return std::nullopt;
      const GapResult& g = gaps[static_cast<size_t>(ref.id)];
      return EventSpan{g.ts, g.dur};
    }
  }
  return std::nullopt;
}

std::optional<EventSpan> spanOf(const EventRefs& refs, const AnalysedRun& run) {
  std::optional<EventSpan> out;
  for (const EventRef& ref : refs) {
    const auto span = spanOf(ref, run);
    if (!span) continue;
    if (!out) {
      out = span;
      continue;
    }
    const int64_t end = std::max(out->end(), span->end());
    out->ts = std::min(out->ts, span->ts);
    out->dur = end - out->ts;
  }
  return out;
}

std::optional<EventRef> launchOf(const EventRef& ref, const AnalysedRun& run) {
  if (!spanOf(ref, run)) return std::nullopt;
  const TraceTables& t = run.tables[static_cast<size_t>(ref.rank)];
  const auto i = static_cast<size_t>(ref.id);
  int64_t correlation = kNullInt;
  if (ref.kind == EventKind::kKernel) correlation = t.kernels.correlation_id[i];
  if (ref.kind == EventKind::kMemcpy) correlation = t.memcpys.correlation_id[i];
  if (ref.kind == EventKind::kMemset) correlation = t.memsets.correlation_id[i];
  if (isNull(correlation)) return std::nullopt;
  const auto& ids = t.api_calls.correlation_id;
  const auto it = std::find(ids.begin(), ids.end(), correlation);
  if (it == ids.end()) return std::nullopt;
  return EventRef{ref.rank, EventKind::kApiCall, static_cast<int64_t>(it - ids.begin())};
}

std::string nameOf(const EventRef& ref, const AnalysedRun& run) {
  if (!spanOf(ref, run)) return {};
  const TraceTables& t = run.tables[static_cast<size_t>(ref.rank)];
  const auto i = static_cast<size_t>(ref.id);
  switch (ref.kind) {
    case EventKind::kKernel:
      return std::string(t.strings.get(t.kernels.name[i]));
    case EventKind::kMemcpy:
      return "memcpy " + std::string(toText(t.memcpys.copy_kind[i]));
    case EventKind::kMemset:
      return "memset";
    case EventKind::kApiCall:
      return std::string(t.strings.get(t.api_calls.name[i]));
    case EventKind::kRange: {
      // The trainer's op and collective ranges carry JSON; they are called
      // what the cpu device's kernels are called.
      const std::string_view message = t.strings.get(t.ranges.name[i]);
      std::string name = annotationName(message);
      return name.empty() ? std::string(message) : name;
    }
    case EventKind::kSync:
      return "sync (" + std::string(toText(t.syncs.kind[i])) + ")";
    case EventKind::kGap:
      return "gap: " +
             std::string(causeLabel(run.run.ranks[static_cast<size_t>(ref.rank)].gaps[i].cause));
  }
  return {};
}

}  // namespace damscope
