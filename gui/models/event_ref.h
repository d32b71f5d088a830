// A reference to one event of one rank's trace: what the GUI's parts hand to
// each other when a person clicks a finding, a table row or a chart point and
// the timeline should show it. It names a row of an event table (kernels.id,
// ranges.id, ...) or of the gaps analysis (RankResult::gaps, whose index is
// gaps.id), so it is 16 bytes, valid while the run is open, and never a
// pointer into tables that may move.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <QMetaType>

#include "analyzer/pipeline/pipeline.h"

namespace damscope {

enum class EventKind : uint8_t { kKernel, kMemcpy, kMemset, kApiCall, kRange, kSync, kGap };

struct EventRef {
  int32_t rank = 0;  // index into AnalysedRun::tables and run.ranks
  EventKind kind = EventKind::kKernel;
  int64_t id = 0;  // row of the table `kind` names
  // clang-tidy 14 reads the defaulted <=>'s comparison with 0 as a null pointer.
  auto operator<=>(const EventRef&) const = default;  // NOLINT(modernize-use-nullptr)
};
using EventRefs = std::vector<EventRef>;

// The event table that holds a GPU operation of this kind (the analyzer's
// GpuOp rows point into kernels, memcpys, memsets or syncs).
EventKind eventKindOf(GpuOpKind kind);

// The event a finding's evidence item names; empty for counters and stats
// rows, which are not events on the timeline.
std::optional<EventRef> eventOfEvidence(const EvidenceItem& item, int32_t rank);

// Every event of a finding's evidence, in the finding's order.
EventRefs eventsOfFinding(const Finding& finding, int32_t rank);

// Every run of the kernel called `name` on `rank`, in time order: what a
// kernel-table row, a roofline point or a top-kernel bar selects.
EventRefs kernelsNamed(const AnalysedRun& run, int32_t rank, std::string_view name);

// Where an event lies, in ns on its trace's clock; empty when the reference
// does not name a row (a stale or foreign id).
struct EventSpan {
  int64_t ts = 0;
  int64_t dur = 0;
  int64_t end() const { return ts + dur; }
};
std::optional<EventSpan> spanOf(const EventRef& ref, const AnalysedRun& run);

// The smallest span holding every event of `refs` that names a row.
std::optional<EventSpan> spanOf(const EventRefs& refs, const AnalysedRun& run);

// The runtime call that launched `ref` (a kernel, memcpy or memset): the API
// call of the same rank with the same correlation_id. Empty for other kinds,
// for work without a correlation id, and when no call has it. One scan of the
// rank's calls: asked once per click, cheaper than an index kept for the run.
std::optional<EventRef> launchOf(const EventRef& ref, const AnalysedRun& run);

// What a person calls the event: a kernel's or range's name (an annotated
// op's or collective's as the analyzer names it: "matmul_fwd(qkv)"), "cudaLaunchKernel",
// "memcpy HtoD", "memset", "sync (device)", "gap: data loading".
std::string nameOf(const EventRef& ref, const AnalysedRun& run);

}  // namespace damscope

Q_DECLARE_METATYPE(damscope::EventRef)
Q_DECLARE_METATYPE(damscope::EventRefs)
