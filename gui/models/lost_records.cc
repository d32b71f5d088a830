// What the GUI says about records lost on the way in: see lost_records.h.
#include "gui/models/lost_records.h"

#include <QObject>
#include <QStringList>

#include "analyzer/report/result_words.h"
#include "analyzer/report/text_format.h"
#include "gui/models/qt_text.h"

namespace damscope {

QString lostRecordsText(const DataLossReport& loss) {
  if (loss.lost <= 0) return {};
  QStringList sources;
  for (const LossCount& count : loss.counts) {
    if (count.kind != LossKind::kLost || count.events <= 0) continue;
    sources << qtString(count.stat) + " " + qtString(withThousands(count.events));
  }
  return QObject::tr("%1 events lost on the way in (%2): %3; when is not recorded")
      .arg(qtString(withThousands(loss.lost)), qtString(percent(loss.lostPct())),
           sources.join(", "));
}

}  // namespace damscope
