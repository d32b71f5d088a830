// What the GUI says about records lost on the way in (style rule 9: loss is
// data, shown to the user; anchor checklist M16). The count comes from the
// rank's DataLossReport (analyzer/analyses/data_loss.h), which sums the trace's
// `stats` rows that count lost events: CUPTI's dropped records, NVTX ring
// overflow, rows an importer skipped for a missing time or thread.
//
// The store keeps counts, not times: neither the collector nor the importers
// record when a record was dropped or which time a skipped row would have
// covered, so the timeline cannot mark where the loss lies. It says how much
// was lost, from which stats, and that the times are not known.
#pragma once

#include <QString>

#include "analyzer/analyses/data_loss.h"

namespace damscope {

// "1,234 events lost on the way in (0.3 %): cupti_dropped_records 1,200,
// nvtx_ring_overflow 34; when is not recorded"; empty when nothing was lost.
QString lostRecordsText(const DataLossReport& loss);

}  // namespace damscope
