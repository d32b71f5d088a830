// The statistics panel: tabs Kernels / Copies / API calls / Ops, each a sortable
// table over OperationStatsModel behind its filter proxy, a filter box, and a
// duration histogram of the selected row's runs; and Modules, the tree of
// nn.Module → op → kernel (op_tree.h) behind a sorting, filtering proxy.
// Selecting a row asks the timeline to show every instance of it (a tree
// row: every operation beneath it).
//
// Scope (figure_scope.h): the tables count the analysed steps by default, as
// the diagnosis and the charts beside them do, and a box above them switches
// to the whole trace; a line says which, and the headers' tooltips name it
// with each share's denominator. With a time window selected, the tables
// count only what starts inside it and the box waits until it is cleared.
//
// The tables of a large rank (kWorkerEvents events or more, or kernel names
// of kWorkerNameBytes together) are computed on a worker (a JobTracker: the newest request wins, a
// stale result is dropped); ready() says when the tables show the newest request. Smaller ones take
// milliseconds and are computed at once.
#pragma once

#include <array>
#include <memory>
#include <optional>

#include <QWidget>

#include "gui/app/job_tracker.h"
#include "gui/models/event_ref.h"
#include "gui/models/figure_scope.h"
#include "gui/models/op_tree_model.h"
#include "gui/models/operation_stats_model.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;
class QSortFilterProxyModel;
class QTableView;
class QTreeView;

namespace damscope {

class DurationHistogram;

class StatisticsPanel : public QWidget {
  Q_OBJECT

 public:
  // Ranks with at least this many kernels, copies, memsets and API calls
  // get their tables computed on a worker: about 150 ms of grouping and
  // sorting on the 2-core build machine, a frame's worth ten times over.
  static constexpr size_t kWorkerEvents = 200'000;
  // So do ranks whose kernel names hold this many bytes together: each name
  // is classified by substring rules (kernel_categories.h), about 0.5 s per
  // million characters; twenty 1 M-character names took 15 s.
  static constexpr size_t kWorkerNameBytes = 1'000'000;

  explicit StatisticsPanel(QWidget* parent = nullptr);

  // A null run clears the tables.
  void setRun(std::shared_ptr<const AnalysedRun> run, int rank);
  // The operations that start inside `window` only; none: the chosen scope.
  void setWindow(std::optional<TimeWindow> window);
  // What the tables count when no window is selected (the box's choice).
  void setScope(FigureScope scope);
  FigureScope scope() const { return scope_; }
  // The tables show the newest run, window and scope asked for.
  bool isReady() const { return ready_; }

  QComboBox* scopeBox() const { return scope_box_; }
  // The line that names what the tables count.
  QLabel* scopeLabel() const { return scope_label_; }

  OperationStatsModel* model(OperationKind kind) const { return tab(kind).model; }
  OperationFilterProxy* proxy(OperationKind kind) const { return tab(kind).proxy; }
  QTableView* view(OperationKind kind) const { return tab(kind).view; }
  QLineEdit* filter(OperationKind kind) const { return tab(kind).filter; }
  DurationHistogram* histogram(OperationKind kind) const { return tab(kind).histogram; }
  QTabWidget* tabs() const { return tabs_; }
  OpTreeModel* moduleTree() const { return tree_model_; }
  QSortFilterProxyModel* moduleTreeProxy() const { return tree_proxy_; }
  QTreeView* moduleTreeView() const { return tree_view_; }

 signals:
  // Every instance of the selected row, in time order.
  void eventsRequested(const damscope::EventRefs& events);
  // The tables now show what was last asked for.
  void ready();

 private:
  struct Tab {
    OperationStatsModel* model = nullptr;
    OperationFilterProxy* proxy = nullptr;
    QTableView* view = nullptr;
    QLineEdit* filter = nullptr;
    DurationHistogram* histogram = nullptr;
  };
  const Tab& tab(OperationKind kind) const { return tabs_of_[static_cast<size_t>(kind)]; }
  QWidget* makeTab(OperationKind kind);
  QWidget* makeModuleTab();
  void rowSelected(OperationKind kind, const QModelIndex& proxy_index);
  // Computes the tables for the run, rank, window and scope now set.
  void refresh();

  std::shared_ptr<const AnalysedRun> run_;
  int rank_ = 0;
  std::optional<TimeWindow> window_;
  FigureScope scope_ = FigureScope::kAnalysedSteps;
  bool ready_ = true;
  QComboBox* scope_box_ = nullptr;
  QLabel* scope_label_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  std::array<Tab, 4> tabs_of_;
  OpTreeModel* tree_model_ = nullptr;
  QSortFilterProxyModel* tree_proxy_ = nullptr;
  QTreeView* tree_view_ = nullptr;
  QLabel* tree_hint_ = nullptr;  // the trace records no module
  JobTracker jobs_{this};
};

}  // namespace damscope
