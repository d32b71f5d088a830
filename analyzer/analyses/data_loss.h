// Data loss: what the trace's `stats` table says was lost, repaired or
// clipped between the program and this file, as a share of the events, so
// that a diagnosis built on an incomplete trace says so.
//
// The importers and the collector count every such event in `stats`
// (docs/trace-format.md, docs/collector.md: "loss is data"). Not every stat is
// a loss: some count what a format carries and damscope does not store by
// design (Kineto flow arrows, instant events), or are parts of a total
// counted elsewhere. A registry (data_loss.cc) names the stats that are:
//   lost      events that are not in the file (CUPTI's dropped records, NVTX
//             ring overflow, events skipped for a missing timestamp or thread)
//   repaired  events stored with a value damscope had to make up (a negative
//             or missing duration stored as 0, a truncated message)
//   clipped   ranges cut by the edges of the capture (open at its end, opened
//             before its start)
// Shares are of the events the trace would hold without the loss: lost /
// (stored + lost), and (repaired + clipped) / (stored + lost).
//
// A stat the registry does not name is not counted: new stats must be added
// to it deliberately (docs/analysis.md lists them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/tables.h"

namespace damscope {

enum class LossKind : uint8_t { kLost, kRepaired, kClipped };
constexpr size_t kLossKindCount = 3;
std::string_view toText(LossKind kind);

struct LossCount {
  int64_t stats_row = 0;  // row of the stats table
  std::string stat;       // its name
  LossKind kind = LossKind::kLost;
  int64_t events = 0;
  bool operator==(const LossCount&) const = default;
};

struct DataLossReport {
  int64_t events = 0;  // events stored (TraceTables::eventCount)
  int64_t lost = 0;
  int64_t repaired = 0;
  int64_t clipped = 0;
  std::vector<LossCount> counts;  // the loss stats with a count, in stats order

  // Percent of the events the trace would hold without the loss; 0 without events.
  double lostPct() const;
  double repairedPct() const;  // repaired and clipped together
  bool any() const { return lost + repaired + clipped > 0; }
  bool operator==(const DataLossReport&) const = default;
};

DataLossReport computeDataLoss(const TraceTables& tables);

// The registry: the kind of loss a stat counts, or nothing when it counts no
// loss (or one already counted in a total).
std::optional<LossKind> lossKindOf(std::string_view stat);
// Whether `stat` counts lost events: a kLost stat of the registry, or a part
// of one (the collector's CUPTI dropped records and NVTX ring overflow, which
// collector.dropped_records totals). lost_spans rows name such stats.
bool countsLostEvents(std::string_view stat);

}  // namespace damscope
