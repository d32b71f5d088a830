// The module tree (op_tree.h) as an item model for a QTreeView: columns
// Name, GPU total, GPU self, Operations and "% of GPU time" (of the tree's
// operations, the window's or scope's, as the Ops table counts). Cells show
// durations in ns/µs/ms/s; SortRole gives the numbers, so a sort proxy
// orders "9 µs" before "10 µs". Names are clamped as every table clamps
// them (qt_text.h), whole in the tooltip.
#pragma once

#include <QAbstractItemModel>

#include "gui/models/op_tree.h"

namespace damscope {

class OpTreeModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column { kName, kGpuTotal, kGpuSelf, kOperations, kShare, kColumnCount };
  static constexpr int SortRole = Qt::UserRole;
  // The operations beneath the row, in time order (EventRefs).
  static constexpr int EventsRole = Qt::UserRole + 1;

  explicit OpTreeModel(QObject* parent = nullptr) : QAbstractItemModel(parent) {}

  void setTree(OpTree tree);
  const OpTree& tree() const { return tree_; }
  // The node a (source) index shows; -1 for the root.
  int nodeOf(const QModelIndex& index) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& index) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  const std::vector<int>& childrenOf(int node) const;

  OpTree tree_;
};

}  // namespace damscope
