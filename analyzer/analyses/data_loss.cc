// Data loss: see data_loss.h.
#include "analyzer/analyses/data_loss.h"

#include <algorithm>
#include <array>
#include <utility>

namespace damscope {
namespace {

// Stats that count loss, from docs/trace-format.md (importers) and
// docs/collector.md (collector). Not listed, on purpose:
//  - collector.cupti_dropped_records and collector.nvtx_ring_overflow: parts
//    of collector.dropped_records, their total;
//  - collector.buffer_pool_exhausted: a cause, whose drops CUPTI counts;
//  - collector.ended_abruptly, collector.unrecorded_tail_ns: the fact and the
//    time behind collector.estimated_lost_events, which counts the events;
//  - collector.cpu_samples_late, collector.unknown_api_cbids: late samples and
//    generically named calls are stored whole;
//  - kineto.events, kineto.flow_events, kineto.instant_events,
//    kineto.memory_events_without_totals, kineto.kernels_without_correlation,
//    kineto.unknown_category_ranges, nsys.runtime_rows_sharing_correlation:
//    what the source holds and damscope stores, or leaves out by design.
constexpr std::array<std::pair<std::string_view, LossKind>, 24> kLossStats{{
    {"collector.dropped_records", LossKind::kLost},
    // The process was killed: events after its last commit, estimated
    // (collector/trace_finalizer.h).
    {"collector.estimated_lost_events", LossKind::kLost},
    {"collector.dropped_after_max_size", LossKind::kLost},
    {"collector.records_without_timestamps", LossKind::kLost},
    {"collector.unknown_record_kinds", LossKind::kLost},
    // A buffer whose walk stopped loses the rest of its records: at least one each.
    {"collector.unreadable_buffers", LossKind::kLost},
    {"kineto.events_without_ts", LossKind::kLost},
    {"kineto.ranges_without_thread", LossKind::kLost},
    {"kineto.non_object_events", LossKind::kLost},
    {"kineto.unsupported_phase_events", LossKind::kLost},
    {"kineto.events_outside_time_range", LossKind::kLost},
    {"nsys.rows_without_start", LossKind::kLost},
    {"nsys.rows_outside_time_range", LossKind::kLost},
    {"collector.negative_durations", LossKind::kRepaired},
    {"collector.out_of_range_values", LossKind::kRepaired},
    {"collector.nvtx_truncated_messages", LossKind::kRepaired},
    {"collector.unresolved_correlations", LossKind::kRepaired},
    {"kineto.bad_durations", LossKind::kRepaired},
    {"nsys.rows_without_end", LossKind::kRepaired},
    {"nsys.negative_durations", LossKind::kRepaired},
    {"nsys.nvtx_unterminated_ranges", LossKind::kClipped},
    {"collector.nvtx_open_at_end", LossKind::kClipped},
    {"collector.nvtx_unmatched_pops", LossKind::kClipped},
    {"collector.nvtx_unmatched_ends", LossKind::kClipped},
}};

// In double: the counts come from the file and their sum may not fit int64.
double percentOf(double part, double whole) {
  return whole > 0 ? 100.0 * part / whole : 0.0;
}

}  // namespace

std::string_view toText(LossKind kind) {
  switch (kind) {
    case LossKind::kLost:
      return "lost";
    case LossKind::kRepaired:
      return "repaired";
    case LossKind::kClipped:
      return "clipped";
  }
  return "lost";
}

std::optional<LossKind> lossKindOf(std::string_view stat) {
  for (const auto& [name, kind] : kLossStats) {
    if (name == stat) return kind;
  }
  return std::nullopt;
}

bool countsLostEvents(std::string_view stat) {
  return lossKindOf(stat) == LossKind::kLost || stat == "collector.cupti_dropped_records" ||
         stat == "collector.nvtx_ring_overflow";
}

double DataLossReport::lostPct() const {
  return percentOf(static_cast<double>(lost),
                   static_cast<double>(events) + static_cast<double>(lost));
}

double DataLossReport::repairedPct() const {
  return percentOf(static_cast<double>(repaired) + static_cast<double>(clipped),
                   static_cast<double>(events) + static_cast<double>(lost));
}

DataLossReport computeDataLoss(const TraceTables& t) {
  DataLossReport report;
  report.events = t.eventCount();
  for (size_t i = 0; i < t.stats.size(); ++i) {
    const std::optional<LossKind> kind = lossKindOf(t.stats.name[i]);
    const int64_t n = t.stats.value[i];
    if (!kind || isNull(n) || n <= 0) continue;
    report.counts.push_back({static_cast<int64_t>(i), t.stats.name[i], *kind, n});
    int64_t& total = *kind == LossKind::kLost       ? report.lost
                     : *kind == LossKind::kRepaired ? report.repaired
                                                    : report.clipped;
    // Counts are bounded by what fits a trace; saturate rather than wrap.
    total = n > INT64_MAX - total ? INT64_MAX : total + n;
  }
  return report;
}

}  // namespace damscope
