// Operation summaries: see operation_stats_model.h.
#include "gui/models/operation_stats_model.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <QLocale>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/kernel_categories.h"
#include "analyzer/analyses/op_breakdown.h"
#include "analyzer/report/text_format.h"
#include "base/duration_sum.h"
#include "gui/models/figure_text.h"
#include "gui/models/qt_text.h"
#include "gui/models/short_names.h"

namespace damscope {
namespace {

// Accumulates the durations of one row's instances.
struct Group {
  std::string name;
  std::string category;
  std::vector<int64_t> durs;
  int64_t bytes = 0;
  EventRefs events;
};

OperationRow finish(Group& g, double total_ns) {
  OperationRow row;
  row.name = std::move(g.name);
  row.category = std::move(g.category);
  row.count = static_cast<int64_t>(g.durs.size());
  row.bytes = g.bytes;
  row.events = std::move(g.events);
  if (g.durs.empty()) return row;
  std::sort(g.durs.begin(), g.durs.end());
  for (int64_t d : g.durs) accumulateDuration(row.total_ns, d);
  row.min_ns = g.durs.front();
  row.max_ns = g.durs.back();
  row.average_ns = static_cast<double>(row.total_ns) / static_cast<double>(row.count);
  const size_t n = g.durs.size();
  row.median_ns =
      n % 2 ? static_cast<double>(g.durs[n / 2])
            : (static_cast<double>(g.durs[n / 2 - 1]) + static_cast<double>(g.durs[n / 2])) / 2;
  row.pct = total_ns > 0 ? 100.0 * static_cast<double>(row.total_ns) / total_ns : 0;
  return row;
}

// Whether an operation starting at `ts` counts: all do without a window;
// with one, those that start inside it (as the analysis counts GPU work).
bool counts(const std::optional<TimeWindow>& window, int64_t ts) {
  return !window || window->contains(ts);
}

template <typename Table>
int64_t sumDur(const Table& table, const std::optional<TimeWindow>& window) {
  int64_t total = 0;
  for (size_t i = 0; i < table.size(); ++i) {
    if (counts(window, table.ts[i])) accumulateDuration(total, std::max<int64_t>(0, table.dur[i]));
  }
  return total;
}

// Sorts a group's events by start time (the tables are not guaranteed sorted).
template <typename Table>
void sortEvents(EventRefs& events, const Table& table) {
  std::stable_sort(events.begin(), events.end(), [&](const EventRef& a, const EventRef& b) {
    return table.ts[static_cast<size_t>(a.id)] < table.ts[static_cast<size_t>(b.id)];
  });
}

// Groups rows of `table` by the key `keyOf(i)` (a StringId's value or an enum).
template <typename Table, typename KeyOf, typename NameOf>
std::vector<Group> groupBy(const Table& table, int rank, EventKind kind,
                           const std::optional<TimeWindow>& window, KeyOf keyOf, NameOf nameOf) {
  std::unordered_map<int64_t, size_t> index;
  std::vector<Group> groups;
  for (size_t i = 0; i < table.size(); ++i) {
    if (!counts(window, table.ts[i])) continue;
    const int64_t key = keyOf(i);
    auto [it, fresh] = index.try_emplace(key, groups.size());
    if (fresh) {
      groups.emplace_back();
      groups.back().name = nameOf(i);
    }
    Group& g = groups[it->second];
    g.durs.push_back(std::max<int64_t>(0, table.dur[i]));
    g.events.push_back({rank, kind, static_cast<int64_t>(i)});
  }
  for (Group& g : groups) sortEvents(g.events, table);
  return groups;
}

// The leaf-op table of op_breakdown.h over the GPU work that starts in the
// window (host ranges: all of them, as the window counts GPU work).
std::vector<OperationRow> opRows(const TraceTables& t, int rank,
                                 const std::optional<TimeWindow>& window, double device_ns) {
  const AnalysisInput in = AnalysisInput::build(t);
  WindowReport w;
  w.mode = WindowMode::kAll;
  w.in_window.resize(in.gpu().size());
  for (size_t g = 0; g < in.gpu().size(); ++g) w.in_window[g] = counts(window, in.gpu()[g].ts);
  OpBreakdownOptions options;
  options.grouping = OpGrouping::kLeafOp;
  options.keep_gpu_ops = true;
  const OpBreakdownReport report = computeOpBreakdown(in, w, {}, {}, options);
  std::vector<OperationRow> out;
  out.reserve(report.rows.size());
  for (size_t i = 0; i < report.rows.size(); ++i) {
    const OpRow& op = report.rows[i];
    OperationRow row;
    row.name = op.name;
    row.count = op.calls;
    row.total_ns = op.gpu_total_ns;
    row.average_ns =
        op.calls > 0 ? static_cast<double>(op.gpu_total_ns) / static_cast<double>(op.calls) : 0;
    row.pct = device_ns > 0 ? 100.0 * static_cast<double>(op.gpu_total_ns) / device_ns : 0;
    for (int32_t g : report.gpu_ops_of_row[i]) {
      const GpuOp& gpu = in.gpu()[static_cast<size_t>(g)];
      row.events.push_back({rank, eventKindOf(gpu.kind), gpu.row});
    }
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace

OperationTable operationTable(const AnalysedRun& run, int rank, OperationKind kind,
                              const std::optional<TimeWindow>& window) {
  OperationTable out;
  if (rank < 0 || static_cast<size_t>(rank) >= run.tables.size()) return out;
  if (static_cast<size_t>(rank) < run.run.ranks.size()) {
    out.cpu = run.run.ranks[static_cast<size_t>(rank)].device_kind == DeviceKind::kCpu;
  }
  const TraceTables& t = run.tables[static_cast<size_t>(rank)];
  const double device_ns = static_cast<double>(
      addDurations(addDurations(sumDur(t.kernels, window), sumDur(t.memcpys, window)),
                   sumDur(t.memsets, window)));
  std::vector<Group> groups;
  double total_ns = device_ns;
  switch (kind) {
    case OperationKind::kKernels: {
      groups = groupBy(
          t.kernels, rank, EventKind::kKernel, window,
          [&](size_t i) { return static_cast<int64_t>(t.kernels.name[i].value); },
          [&](size_t i) { return std::string(t.strings.get(t.kernels.name[i])); });
      const KernelClassifier classifier(t.strings, t.kernels.name);
      for (Group& g : groups) {
        const auto first = static_cast<size_t>(g.events.front().id);
        g.category = std::string(toText(classifier.category(t.kernels.name[first])));
      }
      break;
    }
    case OperationKind::kCopies: {
      groups = groupBy(
          t.memcpys, rank, EventKind::kMemcpy, window,
          [&](size_t i) { return static_cast<int64_t>(t.memcpys.copy_kind[i]); },
          [&](size_t i) { return std::string(toText(t.memcpys.copy_kind[i])); });
      for (Group& g : groups) {
        for (const EventRef& e : g.events) {
          g.bytes += std::max<int64_t>(0, t.memcpys.bytes[static_cast<size_t>(e.id)]);
        }
      }
      std::vector<Group> memsets = groupBy(
          t.memsets, rank, EventKind::kMemset, window, [](size_t) { return int64_t{0}; },
          [](size_t) { return std::string("memset"); });
      for (Group& g : memsets) {
        for (const EventRef& e : g.events) {
          g.bytes += std::max<int64_t>(0, t.memsets.bytes[static_cast<size_t>(e.id)]);
        }
        groups.push_back(std::move(g));
      }
      break;
    }
    case OperationKind::kOps:
      out.rows = opRows(t, rank, window, device_ns);
      out.share_total_ns = device_ns;
      return out;
    case OperationKind::kApiCalls:
      groups = groupBy(
          t.api_calls, rank, EventKind::kApiCall, window,
          [&](size_t i) { return static_cast<int64_t>(t.api_calls.name[i].value); },
          [&](size_t i) { return std::string(t.strings.get(t.api_calls.name[i])); });
      total_ns = static_cast<double>(sumDur(t.api_calls, window));
      break;
  }
  out.share_total_ns = total_ns;
  out.rows.reserve(groups.size());
  for (Group& g : groups) out.rows.push_back(finish(g, total_ns));
  std::stable_sort(
      out.rows.begin(), out.rows.end(),
      [](const OperationRow& a, const OperationRow& b) { return a.total_ns > b.total_ns; });
  return out;
}

std::vector<OperationRow> operationRows(const AnalysedRun& run, int rank, OperationKind kind,
                                        const std::optional<TimeWindow>& window) {
  return operationTable(run, rank, kind, window).rows;
}

OperationStatsModel::OperationStatsModel(OperationKind kind, QObject* parent)
    : QAbstractTableModel(parent), kind_(kind) {
  using C = Column;
  switch (kind) {
    case OperationKind::kKernels:
      columns_ = {C::kName,   C::kCategory, C::kCount, C::kTotal, C::kAverage,
                  C::kMedian, C::kMin,      C::kMax,   C::kPct};
      break;
    case OperationKind::kCopies:
      columns_ = {C::kName, C::kCount, C::kTotal, C::kAverage,    C::kMedian,
                  C::kMin,  C::kMax,   C::kBytes, C::kThroughput, C::kPct};
      break;
    case OperationKind::kApiCalls:
      columns_ = {C::kName,   C::kCount, C::kTotal, C::kAverage,
                  C::kMedian, C::kMin,   C::kMax,   C::kPct};
      break;
    case OperationKind::kOps:
      columns_ = {C::kName, C::kCount, C::kTotal, C::kAverage, C::kPct};
      break;
  }
}

void OperationStatsModel::setRun(const std::shared_ptr<const AnalysedRun>& run, int rank,
                                 const std::optional<TimeWindow>& window) {
  setTable(run ? operationTable(*run, rank, kind_, window) : OperationTable(),
           window ? tr("the selected window") : tr("the whole trace"));
}

void OperationStatsModel::setTable(OperationTable table, const QString& scope) {
  beginResetModel();
  table_ = std::move(table);
  shown_names_.clear();
  whole_names_.clear();
  shown_names_.reserve(table_.rows.size());
  if (kind_ == OperationKind::kKernels) {
    // As the top-kernels chart names them; folded from the tooltip's share
    // of the name, so a 1 M-character name costs what a 2,000-byte one does.
    std::vector<std::string> clipped;
    clipped.reserve(table_.rows.size());
    for (const OperationRow& row : table_.rows)
      clipped.push_back(clipText(row.name, kNameTooltipBytes));
    const std::vector<std::string> labels = kernelLabels(
        std::vector<std::string_view>(clipped.begin(), clipped.end()), kNameShownBytes);
    whole_names_.reserve(table_.rows.size());
    for (size_t i = 0; i < labels.size(); ++i) {
      shown_names_.push_back(qtString(labels[i]));
      whole_names_.push_back(qtString(clipText(clipped[i], kNameShownBytes)));
    }
  } else {
    for (const OperationRow& row : table_.rows) {
      shown_names_.push_back(qtString(clipText(row.name, kNameShownBytes)));
    }
  }
  scope_ = scope;
  endResetModel();
  emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
}

int OperationStatsModel::columnOf(Column column) const {
  const auto it = std::find(columns_.begin(), columns_.end(), column);
  return it == columns_.end() ? -1 : static_cast<int>(it - columns_.begin());
}

int OperationStatsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(table_.rows.size());
}

int OperationStatsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(columns_.size());
}

namespace {

double throughputPerS(const OperationRow& row) {
  return row.total_ns > 0 ? static_cast<double>(row.bytes) * 1e9 / static_cast<double>(row.total_ns)
                          : 0;
}

}  // namespace

QVariant OperationStatsModel::display(size_t index, Column column) const {
  const OperationRow& row = table_.rows[index];
  switch (column) {
    case Column::kName:
      return shown_names_[index];
    case Column::kCategory:
      return QString::fromStdString(row.category);
    case Column::kCount:
      return QLocale().toString(static_cast<qlonglong>(row.count));
    case Column::kTotal:
      return qtString(formatDuration(static_cast<double>(row.total_ns)));
    case Column::kAverage:
      return qtString(formatDuration(row.average_ns));
    case Column::kMedian:
      return qtString(formatDuration(row.median_ns));
    case Column::kMin:
      return qtString(formatDuration(static_cast<double>(row.min_ns)));
    case Column::kMax:
      return qtString(formatDuration(static_cast<double>(row.max_ns)));
    case Column::kBytes:
      return qtString(formatBytes(static_cast<double>(row.bytes)));
    case Column::kThroughput:
    case Column::kPct:
      return figure(row, column).text;
  }
  return {};
}

FigureText OperationStatsModel::figure(const OperationRow& row, Column column) const {
  if (column == Column::kThroughput) {
    if (row.total_ns <= 0) return missingFigure(tr("The copies took no time to divide by."));
    return {qtString(formatBytes(throughputPerS(row)) + "/s"), {}, false};
  }
  if (table_.share_total_ns <= 0) {
    return missingFigure(tr("Nothing in %1 took time: no share to take.").arg(scope_));
  }
  return {percentText(row.pct), {}, false};
}

bool OperationStatsModel::nameContains(int row, const QString& text) const {
  const auto i = static_cast<size_t>(row);
  return shown_names_[i].contains(text, Qt::CaseInsensitive) ||
         (i < whole_names_.size() && whole_names_[i].contains(text, Qt::CaseInsensitive));
}

bool OperationStatsModel::rowLess(int a, int b, int column) const {
  const OperationRow& x = table_.rows[static_cast<size_t>(a)];
  const OperationRow& y = table_.rows[static_cast<size_t>(b)];
  switch (columns_[static_cast<size_t>(column)]) {
    case Column::kName:
      return shown_names_[static_cast<size_t>(a)] < shown_names_[static_cast<size_t>(b)];
    case Column::kCategory:
      return x.category < y.category;
    case Column::kCount:
      return x.count < y.count;
    case Column::kTotal:
      return x.total_ns < y.total_ns;
    case Column::kAverage:
      return x.average_ns < y.average_ns;
    case Column::kMedian:
      return x.median_ns < y.median_ns;
    case Column::kMin:
      return x.min_ns < y.min_ns;
    case Column::kMax:
      return x.max_ns < y.max_ns;
    case Column::kBytes:
      return x.bytes < y.bytes;
    case Column::kThroughput:
      return throughputPerS(x) < throughputPerS(y);
    case Column::kPct:
      return x.pct < y.pct;
  }
  return false;
}

QVariant OperationStatsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
    return {};
  }
  const OperationRow& row = table_.rows[static_cast<size_t>(index.row())];
  const Column column = columns_[static_cast<size_t>(index.column())];
  switch (role) {
    case Qt::DisplayRole:
      return display(static_cast<size_t>(index.row()), column);
    case Qt::ToolTipRole:
      if (column == Column::kName) return qtString(clipText(row.name, kNameTooltipBytes));
      if (column == Column::kThroughput || column == Column::kPct) {
        const QString tip = figure(row, column).tooltip;
        return tip.isEmpty() ? QVariant() : QVariant(tip);
      }
      return {};
    case Qt::TextAlignmentRole:
      return column == Column::kName || column == Column::kCategory
                 ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                 : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case EventsRole:
      return QVariant::fromValue(row.events);
    default:
      return {};
  }
}

QVariant OperationStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 ||
      section >= static_cast<int>(columns_.size()) ||
      (role != Qt::DisplayRole && role != Qt::ToolTipRole)) {
    return QAbstractTableModel::headerData(section, orientation, role);
  }
  if (role == Qt::ToolTipRole) return headerTip(columns_[static_cast<size_t>(section)]);
  const QString device = table_.cpu ? QStringLiteral("CPU") : QStringLiteral("GPU");
  switch (columns_[static_cast<size_t>(section)]) {
    case Column::kName:
      return kind_ == OperationKind::kCopies ? tr("Kind")
             : kind_ == OperationKind::kOps  ? tr("Op")
                                             : tr("Name");
    case Column::kCategory:
      return tr("Category");
    case Column::kCount:
      return kind_ == OperationKind::kOps ? tr("Calls") : tr("Count");
    case Column::kTotal:
      return kind_ == OperationKind::kOps ? tr("%1 time").arg(device) : tr("Total");
    case Column::kAverage:
      return kind_ == OperationKind::kOps ? tr("%1 time per call").arg(device) : tr("Average");
    case Column::kMedian:
      return tr("Median");
    case Column::kMin:
      return tr("Min");
    case Column::kMax:
      return tr("Max");
    case Column::kBytes:
      return tr("Bytes");
    case Column::kThroughput:
      return tr("Throughput");
    case Column::kPct:
      return kind_ == OperationKind::kApiCalls ? tr("% of API time")
                                               : tr("% of %1 time").arg(device);
  }
  return {};
}

// Each figure's definition and scope, so that a share is never read as
// another view's: "% of GPU time" here is of device time (kernels, copies and
// memsets), the diagnosis's utilization is of wall time and its scorecard of
// the steps' time.
QVariant OperationStatsModel::headerTip(Column column) const {
  const QString device = table_.cpu ? QStringLiteral("CPU") : QStringLiteral("GPU");
  const QString runs = kind_ == OperationKind::kOps ? tr("calls") : tr("runs");
  switch (column) {
    case Column::kCount:
      return tr("The %1 that start in %2.").arg(runs, scope_);
    case Column::kTotal:
      return kind_ == OperationKind::kOps
                 ? tr("The %1 time of the work these calls launched, in %2.").arg(device, scope_)
                 : tr("The summed duration of the runs in %1.").arg(scope_);
    case Column::kPct:
      if (table_.share_total_ns <= 0) {
        return tr("Nothing in %1 took time: no shares.").arg(scope_);
      }
      if (kind_ == OperationKind::kApiCalls) {
        return tr("This row's total over the time of every API call in %1 (%2), as nsys "
                  "cuda_api_sum's Time (%).")
            .arg(scope_, durationText(table_.share_total_ns));
      }
      return tr("This row's total over the %1 time of every kernel, copy and memset in %2 (%3). "
                "A share of device time, not of wall time: the diagnosis's %1 utilization is "
                "kernel time over the analysed span, its scorecard shares the steps' time.")
          .arg(device, scope_, durationText(table_.share_total_ns));
    default:
      return {};
  }
}

OperationFilterProxy::OperationFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
  setFilterCaseSensitivity(Qt::CaseInsensitive);
  setFilterKeyColumn(0);
}

void OperationFilterProxy::setNameFilter(const QString& text) {
  name_filter_ = text;
  invalidateFilter();
}

bool OperationFilterProxy::filterAcceptsRow(int source_row, const QModelIndex&) const {
  const auto* model = qobject_cast<const OperationStatsModel*>(sourceModel());
  return name_filter_.isEmpty() || !model || model->nameContains(source_row, name_filter_);
}

bool OperationFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
  const auto* model = qobject_cast<const OperationStatsModel*>(sourceModel());
  if (!model) return QSortFilterProxyModel::lessThan(left, right);
  return model->rowLess(left.row(), right.row(), left.column());
}

}  // namespace damscope
