// The statistics panel: see statistics_panel.h.
#include "gui/panels/statistics_panel.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "gui/panels/duration_histogram.h"

namespace damscope {

StatisticsPanel::StatisticsPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  tabs_ = new QTabWidget(this);
  tabs_->addTab(makeTab(OperationKind::kKernels), tr("Kernels"));
  tabs_->addTab(makeTab(OperationKind::kCopies), tr("Copies"));
  tabs_->addTab(makeTab(OperationKind::kApiCalls), tr("API calls"));
  tabs_->addTab(makeTab(OperationKind::kOps), tr("Ops"));
  layout->addWidget(tabs_);
}

QWidget* StatisticsPanel::makeTab(OperationKind kind) {
  Tab& t = tabs_of_[static_cast<size_t>(kind)];
  auto* page = new QWidget;
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(6, 8, 6, 6);
  layout->setSpacing(6);
  t.filter = new QLineEdit(page);
  t.filter->setClearButtonEnabled(true);
  t.filter->setPlaceholderText(kind == OperationKind::kCopies ? tr("Filter by copy kind")
                               : kind == OperationKind::kOps  ? tr("Filter by op")
                                                              : tr("Filter by name"));
  t.model = new OperationStatsModel(kind, this);
  t.proxy = new OperationFilterProxy(this);
  t.proxy->setSourceModel(t.model);
  t.view = new QTableView(page);
  t.view->setModel(t.proxy);
  t.view->setSortingEnabled(true);
  t.view->sortByColumn(t.model->columnOf(OperationStatsModel::Column::kTotal), Qt::DescendingOrder);
  t.view->setSelectionBehavior(QAbstractItemView::SelectRows);
  t.view->setSelectionMode(QAbstractItemView::SingleSelection);
  t.view->setAlternatingRowColors(true);
  t.view->setWordWrap(false);
  t.view->setTextElideMode(Qt::ElideMiddle);
  t.view->verticalHeader()->hide();
  t.view->verticalHeader()->setDefaultSectionSize(t.view->fontMetrics().height() + 8);
  t.view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  t.view->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  t.histogram = new DurationHistogram(page);
  layout->addWidget(t.filter);
  layout->addWidget(t.view, 1);
  layout->addWidget(t.histogram);
  connect(t.filter, &QLineEdit::textChanged, t.proxy, &OperationFilterProxy::setNameFilter);
  connect(t.view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this, kind](const QModelIndex& current) { rowSelected(kind, current); });
  return page;
}

void StatisticsPanel::setRun(std::shared_ptr<const AnalysedRun> run, int rank) {
  run_ = std::move(run);
  rank_ = rank;
  setWindow(std::nullopt);
}

void StatisticsPanel::setWindow(std::optional<TimeWindow> window) {
  for (Tab& t : tabs_of_) {
    t.model->setRun(run_, rank_, window);
    t.histogram->setDurations({}, {});
  }
}

void StatisticsPanel::rowSelected(OperationKind kind, const QModelIndex& proxy_index) {
  const Tab& t = tab(kind);
  if (!proxy_index.isValid() || !run_) {
    t.histogram->setDurations({}, {});
    return;
  }
  const QModelIndex index = proxy_index.siblingAtColumn(0);
  const auto events = index.data(OperationStatsModel::EventsRole).value<EventRefs>();
  std::vector<int64_t> durs;
  durs.reserve(events.size());
  for (const EventRef& e : events) {
    if (const auto span = spanOf(e, *run_)) durs.push_back(span->dur);
  }
  t.histogram->setDurations(
      tr("%1, %n run(s)", "", static_cast<int>(events.size())).arg(index.data().toString()),
      std::move(durs));
  emit eventsRequested(events);
}

}  // namespace damscope
