// The statistics panel: see statistics_panel.h.
#include "gui/panels/statistics_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

#include "gui/panels/duration_histogram.h"

namespace damscope {

StatisticsPanel::StatisticsPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  auto* scope_row = new QHBoxLayout;
  scope_row->addWidget(new QLabel(tr("Count:"), this));
  scope_box_ = new QComboBox(this);
  scope_box_->addItem(tr("the analysed steps, as the diagnosis and charts"),
                      static_cast<int>(FigureScope::kAnalysedSteps));
  scope_box_->addItem(tr("the whole trace, as nsys stats"),
                      static_cast<int>(FigureScope::kWholeTrace));
  scope_box_->setToolTip(
      tr("Which operations the tables count: those of the analysed steps (what the diagnosis, "
         "scorecard and charts describe) or every one in the trace"));
  scope_row->addWidget(scope_box_);
  scope_label_ = new QLabel(this);
  scope_label_->setForegroundRole(QPalette::PlaceholderText);
  scope_row->addWidget(scope_label_, 1);
  layout->addLayout(scope_row);
  connect(scope_box_, &QComboBox::activated, this, [this](int index) {
    setScope(static_cast<FigureScope>(scope_box_->itemData(index).toInt()));
  });
  tabs_ = new QTabWidget(this);
  tabs_->addTab(makeTab(OperationKind::kKernels), tr("Kernels"));
  tabs_->addTab(makeTab(OperationKind::kCopies), tr("Copies"));
  tabs_->addTab(makeTab(OperationKind::kApiCalls), tr("API calls"));
  tabs_->addTab(makeTab(OperationKind::kOps), tr("Ops"));
  tabs_->addTab(makeModuleTab(), tr("Modules"));
  layout->addWidget(tabs_);
}

QWidget* StatisticsPanel::makeModuleTab() {
  auto* page = new QWidget;
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(6, 8, 6, 6);
  layout->setSpacing(6);
  auto* filter = new QLineEdit(page);
  filter->setClearButtonEnabled(true);
  filter->setPlaceholderText(tr("Filter by module, op or kernel (keeps the rows above a match)"));
  tree_model_ = new OpTreeModel(this);
  tree_proxy_ = new QSortFilterProxyModel(this);
  tree_proxy_->setSourceModel(tree_model_);
  tree_proxy_->setSortRole(OpTreeModel::SortRole);
  tree_proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  tree_proxy_->setRecursiveFilteringEnabled(true);
  tree_view_ = new QTreeView(page);
  tree_view_->setModel(tree_proxy_);
  tree_view_->setSortingEnabled(true);
  tree_view_->sortByColumn(OpTreeModel::kGpuTotal, Qt::DescendingOrder);
  tree_view_->setUniformRowHeights(true);
  tree_view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  tree_view_->header()->setSectionResizeMode(OpTreeModel::kName, QHeaderView::Stretch);
  tree_view_->header()->setStretchLastSection(false);
  connect(filter, &QLineEdit::textChanged, tree_proxy_,
          &QSortFilterProxyModel::setFilterFixedString);
  connect(tree_view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (!current.isValid() || !run_) return;
            emit eventsRequested(
                current.siblingAtColumn(0).data(OpTreeModel::EventsRole).value<EventRefs>());
          });
  tree_hint_ = new QLabel(tr("This trace records no nn.Module: the ops are at the top. Record with "
                             "torch.profiler's with_modules=True, or name blocks with "
                             "record_function(\"## name ##\")."),
                          page);
  tree_hint_->setWordWrap(true);
  tree_hint_->setForegroundRole(QPalette::PlaceholderText);
  tree_hint_->hide();
  layout->addWidget(filter);
  layout->addWidget(tree_hint_);
  layout->addWidget(tree_view_, 1);
  return page;
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
  // The figure columns are sized to their contents once per table (deliver),
  // not on every sort: ResizeToContents measured 1,000 rows again after each
  // sort, 21 of the 25 ms a sort of 5,000 rows took (bench/gui_statistics_bench).
  t.view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
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
  window_.reset();
  refresh();
}

void StatisticsPanel::setWindow(std::optional<TimeWindow> window) {
  window_ = window;
  refresh();
}

void StatisticsPanel::setScope(FigureScope scope) {
  scope_ = scope;
  scope_box_->setCurrentIndex(scope_box_->findData(static_cast<int>(scope)));
  refresh();
}

namespace {

// Whether summing `t` takes long enough to freeze the window.
bool heavy(const TraceTables& t) {
  const size_t operations =
      t.kernels.size() + t.memcpys.size() + t.memsets.size() + t.api_calls.size();
  if (operations >= StatisticsPanel::kWorkerEvents) return true;
  std::vector<bool> seen(t.strings.size());
  size_t name_bytes = 0;
  for (const StringId name : t.kernels.name) {
    if (!name.valid() || seen[static_cast<size_t>(name.value)]) continue;
    seen[static_cast<size_t>(name.value)] = true;
    name_bytes += t.strings.get(name).size();
  }
  return name_bytes >= StatisticsPanel::kWorkerNameBytes;
}

}  // namespace

void StatisticsPanel::refresh() {
  for (Tab& t : tabs_of_) t.histogram->setDurations({}, {});
  scope_box_->setEnabled(!window_);
  const RankResult* result =
      run_ && rank_ >= 0 && static_cast<size_t>(rank_) < run_->run.ranks.size()
          ? &run_->run.ranks[static_cast<size_t>(rank_)]
          : nullptr;
  if (!result || static_cast<size_t>(rank_) >= run_->tables.size()) {
    jobs_.abandon();
    for (Tab& t : tabs_of_) t.model->setTable({}, {});
    tree_model_->setTree({});
    scope_label_->clear();
    ready_ = true;
    emit ready();
    return;
  }
  const std::optional<TimeWindow> window = window_ ? window_ : scopeWindow(*result, scope_);
  const QString words = window_ ? tr("the selected window") : scopeWords(*result, scope_);
  scope_label_->setText(window_ ? tr("Counting the selected window (clear it in the tool bar)")
                                : tr("Counting %1").arg(words));
  struct Tables {
    std::array<OperationTable, 4> tables;
    OpTree modules;
  };
  auto compute = [run = run_, rank = rank_, window](const CancelToken* cancel) {
    Tables out;
    for (size_t k = 0; k < out.tables.size(); ++k) {
      if (cancel && cancel->cancelled()) return out;
      out.tables[k] = operationTable(*run, rank, static_cast<OperationKind>(k), window);
    }
    if (!cancel || !cancel->cancelled()) out.modules = buildOpTree(*run, rank, window);
    return out;
  };
  auto deliver = [this, words](const Tables& computed) {
    for (size_t k = 0; k < computed.tables.size(); ++k) {
      Tab& t = tabs_of_[k];
      t.model->setTable(computed.tables[k], words);
      for (int column = 1; column < t.model->columnCount(); ++column) {
        t.view->resizeColumnToContents(column);
      }
    }
    tree_model_->setTree(computed.modules);
    tree_hint_->setVisible(!computed.modules.has_modules && !computed.modules.nodes.empty());
    tree_view_->expandToDepth(0);
    for (int column = 1; column < OpTreeModel::kColumnCount; ++column) {
      tree_view_->resizeColumnToContents(column);
    }
    ready_ = true;
    emit ready();
  };
  ready_ = false;
  if (!heavy(run_->tables[static_cast<size_t>(rank_)])) {
    jobs_.abandon();
    deliver(compute(nullptr));
    return;
  }
  jobs_.run([compute](const JobTracker::Job& job) { return compute(&job.cancel); }, deliver);
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
