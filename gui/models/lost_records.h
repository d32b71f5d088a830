// What the GUI says about records lost on the way in (style rule 9: loss is
// data, shown to the user; anchor checklist M16). The count comes from the
// rank's DataLossReport (analyzer/analyses/data_loss.h), which sums the trace's
// `stats` rows that count lost events: CUPTI's dropped records, NVTX ring
// overflow, rows an importer skipped for a missing time or thread. Where the
// trace also says when (its lost_spans table, docs/trace-format.md), the
// timeline crosshatches those time ranges (TimelineRows::lost) and these
// texts say how much of the loss they hold; the rest has no known time.
#pragma once

#include <cstdint>
#include <string>

#include <QString>

#include "analyzer/analyses/data_loss.h"
#include "trace/tables.h"

namespace damscope {

// A time range in which records were lost on the way in (the trace's
// lost_spans, docs/trace-format.md), on the rows' clock: drawn crosshatched
// across the rows, so a gap in the events there is not read as idle.
struct LostBand {
  int64_t start = 0;  // ns
  int64_t end = 0;    // ns, >= start
  int64_t events = 0;
  std::string stat;         // the stats row counting them
  std::string description;  // that row's description
  int32_t rank = 0;         // EventRef::rank
};

// "1,234 events lost on the way in (0.3 %): cupti_dropped_records 1,200,
// nvtx_ring_overflow 34; all in 2 time ranges crosshatched on the timeline"
// (or "1,200 of them in 1 time range …; when the rest were lost is not
// recorded", or "; when is not recorded" without spans); empty when nothing
// was lost.
QString lostRecordsText(const DataLossReport& loss, const LostSpanTable& spans);

// A lost band's tooltip: how many events, between which times (from
// `origin`, the view's zero), the stat and its description, the rank in a
// stacked view, and that where inside the range is not known.
QString lostBandTooltip(const LostBand& band, int64_t origin, bool stacked);

}  // namespace damscope
