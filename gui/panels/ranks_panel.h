// The ranks panel: every rank of the run in one table (RanksModel: its file,
// the verdict shown whole, the cross-rank comparison and each step's time),
// stragglers on a red background, the cross-rank analysis's notes above it as
// a list, each rank they name followed by its file (rankNotes). Activating a row
// (double-click, Enter) asks for that rank's timeline.
#pragma once

#include <memory>

#include <QWidget>

#include "gui/models/event_ref.h"

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace damscope {

class RanksModel;

class RanksPanel : public QWidget {
  Q_OBJECT

 public:
  explicit RanksPanel(QWidget* parent = nullptr);

  // Shows every rank of `run`; `rank` is ignored. A null run clears.
  void setRun(std::shared_ptr<const AnalysedRun> run, int rank);

  RanksModel* model() const { return model_; }
  QTableView* view() const { return view_; }

 signals:
  // The index (into AnalysedRun::tables and run.ranks) of the activated row's rank.
  void rankRequested(int rank);

 private:
  RanksModel* model_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
  QTableView* view_ = nullptr;
  QLabel* notes_ = nullptr;
};

}  // namespace damscope
