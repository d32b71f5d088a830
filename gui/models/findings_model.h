// The findings of one rank (RankResult::findings.findings) as an item model,
// in the analyzer's order (high severity first, then by max gain, then in rule
// order: findings.h), one row per finding. The diagnosis panel shows it as
// cards; a table view shows its columns.
#pragma once

#include <memory>

#include <QAbstractTableModel>

#include "gui/models/event_ref.h"

namespace damscope {

class FindingsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Role {
    // QVariant of EventRefs: eventsOfFinding(finding, rank), in the finding's order.
    EventsRole = Qt::UserRole + 1,
    // The cell as a number where it is one: severity as its enum value (0 =
    // high), max gain in percent (-1 when no bound is stated), evidence count.
    SortRole,
    SeverityRole,        // the Severity as int
    TitleRole,           // QString
    RecommendationRole,  // QString
    GainRole,            // QString: gainWords(finding), "saves at most 12.3 % of step time"
    BehindRole,          // QString: originWords(finding), "aten::mm in Linear_0 ×6", or ""
  };
  enum Column { kSeverity, kTitle, kRecommendation, kMaxGain, kEvidence, kColumnCount };

  explicit FindingsModel(QObject* parent = nullptr);

  // A null run, or a rank the run lacks, empties the model.
  void setRun(std::shared_ptr<const AnalysedRun> run, int rank);
  // The findings of `result`, rank `rank`'s (a window's re-analysis,
  // window_analysis.h); null empties the model.
  void setResult(std::shared_ptr<const RankResult> result, int rank);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const RankResult> result_;
  int rank_ = 0;
  const std::vector<Finding>* findings_ = nullptr;  // inside *result_
};

}  // namespace damscope
