// Summary tables of one rank's operations, like `nsys stats`' cuda_gpu_kern_sum,
// cuda_gpu_mem_time_sum and cuda_api_sum reports: one row per kernel name, per
// copy kind (memsets as one more row) or per API call name, with count, total,
// average, median, min and max duration and the row's share of the time.
//
// The figures are computed once per setRun by operationRows(), a pure
// function of the event tables (tested against hand-computed figures); the
// item model only formats them. Durations are shown in ns/µs/ms/s but sorted
// as numbers ("9 µs" before "10 µs"): the proxy compares the rows' figures
// themselves (OperationStatsModel::rowLess), not the cells' QVariants, which
// cost a conversion per comparison. With the columns sized once per table
// (statistics_panel.cc), a sort of 5,000 kernel rows went from 25 to 4-7 ms
// (bench/gui_statistics_bench).
//
// The Ops table is `damscope ops --by leaf-op` (op_breakdown.h): one row
// per framework op, its calls and the GPU time of the kernels, copies and
// memsets it launched (per call in the average column); its events are
// those GPU operations.
//
// Shares: a kernel or copy row's "% of GPU time" is its total over the total
// of all device operations of the rank (kernels + copies + memsets), so the
// kernel and copy tables add up to 100 % together; an API row's share is of
// all API-call time (nsys cuda_api_sum's "Time (%)"). With a time window
// (time_window.h) the tables hold only the operations that start inside it,
// as the window's analysis counts GPU work (analysis_window.h), and the
// shares are of the window's totals. On a CPU run
// (RankResult::device_kind kCpu) the device is the CPU and the header says so.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include "gui/models/event_ref.h"
#include "gui/models/figure_text.h"
#include "gui/models/qt_text.h"
#include "gui/models/time_window.h"

namespace damscope {

enum class OperationKind : uint8_t { kKernels, kCopies, kApiCalls, kOps };

// One row of a summary. Times in ns; bytes only for copies (0 otherwise).
struct OperationRow {
  std::string name;      // kernel name, copy kind ("HtoD", "memset") or API name
  std::string category;  // kernel category (kernel_categories.h); empty for others
  int64_t count = 0;
  int64_t total_ns = 0;
  double average_ns = 0;
  double median_ns = 0;  // the middle run; the mean of the two middle ones for an even count
  int64_t min_ns = 0;
  int64_t max_ns = 0;
  int64_t bytes = 0;
  double pct = 0;    // of the device's (or the API calls') total time, 0..100
  EventRefs events;  // every instance, in time order
};

// One table: its rows and what their shares divide by.
struct OperationTable {
  std::vector<OperationRow> rows;
  double share_total_ns = 0;  // the denominator of every row's pct; 0: no shares
  bool cpu = false;           // the device is the CPU (RankResult::device_kind)
};

// The table of `kind` for `rank` of `run` (within `window` when there is
// one), rows largest total first; empty for a rank the run does not have.
// Pure and safe on any thread: the statistics panel computes it on a worker.
OperationTable operationTable(const AnalysedRun& run, int rank, OperationKind kind,
                              const std::optional<TimeWindow>& window = std::nullopt);
// operationTable's rows.
std::vector<OperationRow> operationRows(const AnalysedRun& run, int rank, OperationKind kind,
                                        const std::optional<TimeWindow>& window = std::nullopt);

// Names are shown clamped, kNameShownBytes in a row and kNameTooltipBytes in
// a tooltip (gui/models/qt_text.h); a kernel's row shows its short name
// (short_names.h), the one the top-kernels chart gives it, and its tooltip
// the whole name. Sorting and filtering read the clamped text, so they cost
// as little.

class OperationStatsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Role {
    // QVariant of EventRefs: every instance the row stands for.
    EventsRole = Qt::UserRole + 1,
  };
  enum class Column {
    kName,
    kCategory,
    kCount,
    kTotal,
    kAverage,
    kMedian,
    kMin,
    kMax,
    kBytes,
    kThroughput,
    kPct
  };

  explicit OperationStatsModel(OperationKind kind, QObject* parent = nullptr);

  OperationKind kind() const { return kind_; }
  // A null run empties the model; a window keeps what starts inside it.
  // The scope is named "the selected window" or "the whole trace".
  void setRun(const std::shared_ptr<const AnalysedRun>& run, int rank,
              const std::optional<TimeWindow>& window = std::nullopt);
  // Shows `table`, computed elsewhere (operationTable); `scope` names what it
  // counts over, as figure_scope.h words it ("the 5 analysed steps"), for the
  // headers' tooltips.
  void setTable(OperationTable table, const QString& scope);
  const QString& scope() const { return scope_; }

  // The columns this kind shows, left to right.
  const std::vector<Column>& columns() const { return columns_; }
  int columnOf(Column column) const;
  const std::vector<OperationRow>& rows() const { return table_.rows; }
  // Whether row `row`'s shown name, or a kernel's whole name, holds `text`
  // (ignoring case).
  bool nameContains(int row, const QString& text) const;
  // Whether row `a` sorts before row `b` by `column` (an index of columns()):
  // figures as numbers, names by their shown text.
  bool rowLess(int a, int b, int column) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QVariant display(size_t row, Column column) const;

  QVariant headerTip(Column column) const;
  // A computed cell (throughput, share) as text, or missing with the reason.
  FigureText figure(const OperationRow& row, Column column) const;

  OperationKind kind_;
  std::vector<Column> columns_;
  OperationTable table_;
  // Each row's name as shown, made once per table: a kernel's short name
  // (short_names.h, as the top-kernels chart shows it), others clamped to
  // kNameShownBytes; and a kernel's whole name, clamped, for the filter.
  std::vector<QString> shown_names_;
  std::vector<QString> whole_names_;
  QString scope_;
};

// The proxy every statistics view uses: sorts by OperationStatsModel::rowLess,
// keeps the rows whose name holds a case-insensitive substring
// (OperationStatsModel::nameContains: "float" finds a kernel whose short
// name folded its template arguments away).
class OperationFilterProxy : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  explicit OperationFilterProxy(QObject* parent = nullptr);
  // Rows whose name contains `text`, ignoring case; empty shows every row.
  void setNameFilter(const QString& text);

 protected:
  bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
  bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;

 private:
  QString name_filter_;
};

}  // namespace damscope
