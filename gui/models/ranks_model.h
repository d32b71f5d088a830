// Every rank of a run as an item model, one row per rank (input order): its
// file, device and verdict (never elided: the panel sizes the column to it and
// the tooltip holds it whole), the cross-rank comparison (analyzer/analyses/cross_rank.h: median
// step time, how much slower than the median rank, the straggler flag, collective start skew, how
// often it started a collective last), and then one column per step number found on any rank with
// that rank's step duration (StepResult::dur, aligned to the GPU work the step launched). A rank
// without that step shows "–". With one rank there is no comparison and its columns show "–" too.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <QAbstractTableModel>
#include <QColor>

#include "gui/models/event_ref.h"

namespace damscope {

class RanksModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Role {
    // The cell as a number: times in ns, shares in percent, the straggler flag
    // as 0/1, the rank as its index; -1 where the cell is "–".
    SortRole = Qt::UserRole + 1,
    StragglerRole,  // bool: the row's rank is a straggler
  };
  enum Column {
    kRank,
    kFile,
    kDevice,
    kVerdict,
    kMedianStep,
    kSlowerThanMedian,
    kStraggler,
    kCollectiveSkew,
    kLastToStart,
    kFixedColumnCount  // then one column per step number
  };

  explicit RanksModel(QObject* parent = nullptr);

  // All ranks of `run`; `rank` is ignored (every rank is shown). Null clears.
  void setRun(std::shared_ptr<const AnalysedRun> run, int rank = 0);

  // The step numbers of the step columns, left to right.
  const std::vector<int64_t>& stepNumbers() const { return steps_; }

  // The straggler rows' background: a translucent red, so the palette's text
  // colour stays readable on it in light and dark palettes alike.
  static QColor stragglerBackground();

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  const RankComparison* comparisonOf(int row) const;
  std::optional<int64_t> stepDur(int row, int64_t number) const;
  QVariant display(int row, int column) const;
  // Why the cell at (row, column) shows a dash: its tooltip.
  QString missingWhy(int row, int column) const;
  QVariant sortKey(int row, int column) const;

  std::shared_ptr<const AnalysedRun> run_;
  std::vector<int64_t> steps_;
};

// The cross-rank analysis's notes (warnings) on `run`, one item each, every
// rank they name followed by its file ("rank 1 (rank1.json) started last
// ..."), unless the note names the file already; the panel lists them.
std::vector<std::string> rankNotes(const AnalysedRun& run);

}  // namespace damscope
