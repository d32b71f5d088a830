// The module tree as an item model: see op_tree_model.h.
#include "gui/models/op_tree_model.h"

#include <utility>

#include "analyzer/report/text_format.h"
#include "gui/models/figure_text.h"
#include "gui/models/qt_text.h"

namespace damscope {

void OpTreeModel::setTree(OpTree tree) {
  beginResetModel();
  tree_ = std::move(tree);
  endResetModel();
}

int OpTreeModel::nodeOf(const QModelIndex& index) const {
  return index.isValid() ? static_cast<int>(index.internalId()) : -1;
}

const std::vector<int>& OpTreeModel::childrenOf(int node) const {
  return node < 0 ? tree_.roots : tree_.nodes[static_cast<size_t>(node)].children;
}

QModelIndex OpTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (row < 0 || column < 0 || column >= kColumnCount) return {};
  const std::vector<int>& children = childrenOf(nodeOf(parent));
  if (static_cast<size_t>(row) >= children.size()) return {};
  return createIndex(row, column, static_cast<quintptr>(children[static_cast<size_t>(row)]));
}

QModelIndex OpTreeModel::parent(const QModelIndex& index) const {
  const int node = nodeOf(index);
  if (node < 0) return {};
  const int parent = tree_.nodes[static_cast<size_t>(node)].parent;
  if (parent < 0) return {};
  const std::vector<int>& siblings = childrenOf(tree_.nodes[static_cast<size_t>(parent)].parent);
  for (size_t row = 0; row < siblings.size(); ++row) {
    if (siblings[row] == parent) {
      return createIndex(static_cast<int>(row), 0, static_cast<quintptr>(parent));
    }
  }
  return {};
}

int OpTreeModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() && parent.column() != 0) return 0;
  return static_cast<int>(childrenOf(nodeOf(parent)).size());
}

int OpTreeModel::columnCount(const QModelIndex&) const {
  return kColumnCount;
}

QVariant OpTreeModel::data(const QModelIndex& index, int role) const {
  const int node = nodeOf(index);
  if (node < 0) return {};
  const OpTreeNode& n = tree_.nodes[static_cast<size_t>(node)];
  const double share =
      tree_.gpu_ns > 0 ? 100.0 * static_cast<double>(n.gpu_ns) / static_cast<double>(tree_.gpu_ns)
                       : 0.0;
  if (role == EventsRole) return QVariant::fromValue(tree_.eventsOf(node));
  if (role == SortRole) {
    switch (index.column()) {
      case kName:
        return qtString(n.name);
      case kGpuTotal:
        return static_cast<qlonglong>(n.gpu_ns);
      case kGpuSelf:
        return static_cast<qlonglong>(n.self_ns);
      case kOperations:
        return static_cast<qlonglong>(n.operations);
      case kShare:
        return share;
    }
    return {};
  }
  if (role == Qt::ToolTipRole && index.column() == kName) {
    const QString level = n.level == OpTreeLevel::kModule ? tr("module")
                          : n.level == OpTreeLevel::kOp   ? tr("op")
                                                          : tr("GPU operation");
    return tr("%1 (%2)").arg(qtNameTooltip(n.name), level);
  }
  if (role == Qt::TextAlignmentRole && index.column() != kName) {
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  }
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case kName:
      return qtName(n.name);
    case kGpuTotal:
      return durationText(static_cast<double>(n.gpu_ns));
    case kGpuSelf:
      return durationText(static_cast<double>(n.self_ns));
    case kOperations:
      return qtString(withThousands(n.operations));
    case kShare:
      return percentText(share);
  }
  return {};
}

QVariant OpTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case kName:
        return tr("nn.Module, then the op that launched the work, then the kernel, copy or memset");
      case kGpuTotal:
        return tr(
            "Summed durations of the GPU operations beneath (overlapping streams both count)");
      case kGpuSelf:
        return tr("A module's: the operations whose innermost module it is");
      case kOperations:
        return tr("GPU operations beneath");
      case kShare:
        return tr("Of the GPU time of every operation counted here");
    }
    return {};
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case kName:
      return tr("Module / op / kernel");
    case kGpuTotal:
      return tr("GPU total");
    case kGpuSelf:
      return tr("GPU self");
    case kOperations:
      return tr("Operations");
    case kShare:
      return tr("% of GPU time");
  }
  return {};
}

}  // namespace damscope
