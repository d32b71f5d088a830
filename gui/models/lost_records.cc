// What the GUI says about records lost on the way in: see lost_records.h.
#include "gui/models/lost_records.h"

#include <QObject>
#include <QStringList>

#include "analyzer/report/result_words.h"
#include "analyzer/report/text_format.h"
#include "gui/models/figure_text.h"
#include "gui/models/qt_text.h"

namespace damscope {

QString lostRecordsText(const DataLossReport& loss, const LostSpanTable& spans) {
  if (loss.lost <= 0) return {};
  QStringList sources;
  for (const LossCount& count : loss.counts) {
    if (count.kind != LossKind::kLost || count.events <= 0) continue;
    sources << qtString(count.stat) + " " + qtString(withThousands(count.events));
  }
  // Spans of lost events only, so that their events are a part of loss.lost.
  int64_t placed = 0;
  int ranges = 0;
  for (size_t i = 0; i < spans.size(); ++i) {
    if (!countsLostEvents(spans.stat[i]) || spans.events[i] <= 0) continue;
    placed = spans.events[i] > INT64_MAX - placed ? INT64_MAX : placed + spans.events[i];
    ++ranges;
  }
  QString when;
  if (ranges == 0) {
    when = QObject::tr("when is not recorded");
  } else {
    const QString where =
        ranges == 1 ? QObject::tr("in 1 time range crosshatched on the timeline")
                    : QObject::tr("in %1 time ranges crosshatched on the timeline").arg(ranges);
    when = placed >= loss.lost
               ? QObject::tr("all %1").arg(where)
               : QObject::tr("%1 of them %2; when the rest were lost is not recorded")
                     .arg(qtString(withThousands(placed)), where);
  }
  return QObject::tr("%1 events lost on the way in (%2): %3; %4")
      .arg(qtString(withThousands(loss.lost)), qtString(percent(loss.lostPct())),
           sources.join(", "), when);
}

QString lostBandTooltip(const LostBand& band, int64_t origin, bool stacked) {
  QString text = QObject::tr("⚠ %1 events lost between %2 and %3")
                     .arg(qtString(withThousands(band.events)),
                          durationText(static_cast<double>(band.start - origin)),
                          durationText(static_cast<double>(band.end - origin)));
  if (stacked) text += QObject::tr(" on rank %1").arg(band.rank);
  text += "\n" + qtString(band.stat);
  if (!band.description.empty()) text += ": " + qtString(band.description);
  text += "\n" + QObject::tr("Where within this range is not known: a gap here is not idle time.");
  return text;
}

}  // namespace damscope
