// The statistics panel: tabs Kernels / Copies / API calls / Ops, each a sortable
// table over OperationStatsModel behind its filter proxy, a filter box, and a
// duration histogram of the selected row's runs. Selecting a row asks the
// timeline to show every instance of it. With a time window selected, the
// tables count only what starts inside it.
#pragma once

#include <array>
#include <memory>
#include <optional>

#include <QWidget>

#include "gui/models/event_ref.h"
#include "gui/models/operation_stats_model.h"

class QLineEdit;
class QTabWidget;
class QTableView;

namespace damscope {

class DurationHistogram;

class StatisticsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit StatisticsPanel(QWidget* parent = nullptr);

  // A null run clears the tables.
  void setRun(std::shared_ptr<const AnalysedRun> run, int rank);
  // The operations that start inside `window` only; none: the whole rank.
  void setWindow(std::optional<TimeWindow> window);

  OperationStatsModel* model(OperationKind kind) const { return tab(kind).model; }
  OperationFilterProxy* proxy(OperationKind kind) const { return tab(kind).proxy; }
  QTableView* view(OperationKind kind) const { return tab(kind).view; }
  QLineEdit* filter(OperationKind kind) const { return tab(kind).filter; }
  DurationHistogram* histogram(OperationKind kind) const { return tab(kind).histogram; }
  QTabWidget* tabs() const { return tabs_; }

 signals:
  // Every instance of the selected row, in time order.
  void eventsRequested(const damscope::EventRefs& events);

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
  void rowSelected(OperationKind kind, const QModelIndex& proxy_index);

  std::shared_ptr<const AnalysedRun> run_;
  int rank_ = 0;
  QTabWidget* tabs_ = nullptr;
  std::array<Tab, 4> tabs_of_;
};

}  // namespace damscope
