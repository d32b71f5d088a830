// What the Statistics tab does on the UI thread once its tables are computed
// (issue 31 §5): sorting a table by each column, filtering it by a name, and
// selecting its largest row (the duration histogram of every run of it and
// the request that highlights them on the timeline). The tables themselves
// are computed on a worker for large ranks (statistics_panel.h). Two runs:
// a large ordinary one (2 M kernels under 5,000 templated names of about
// 150 characters) and a hostile one (300 names of 200,000 characters that
// differ only in their last ten, so every name comparison reads them whole).
// The target for each action is a frame, 16 ms: under it, a worker thread
// would only add a frame of latency and a stale-result check. A plain main
// printing the median of kRepeats; each action's time includes the repaint
// it causes.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <QApplication>
#include <QCoreApplication>
#include <QLineEdit>
#include <QTableView>

#include "analyzer/pipeline/pipeline.h"
#include "bench/synthetic_trace.h"
#include "gui/panels/statistics_panel.h"
#include "trace/trace_writer.h"

namespace damscope {
namespace {

constexpr int kRepeats = 5;

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

template <typename F>
double medianMs(F&& action) {
  std::vector<double> ms;
  for (int i = 0; i < kRepeats; ++i) {
    const auto start = Clock::now();
    action();
    QCoreApplication::processEvents();
    ms.push_back(msSince(start));
  }
  std::nth_element(ms.begin(), ms.begin() + kRepeats / 2, ms.end());
  return ms[kRepeats / 2];
}

// `kernels` kernels of the synthetic training trace renamed to `names`
// names made by `name_of`, round robin (none: the trace's own names).
template <typename NameOf>
std::shared_ptr<const AnalysedRun> runOf(int64_t kernels, int names, NameOf name_of) {
  TraceTables trace = syntheticTrainingTrace(kernels);
  std::vector<StringId> ids;
  ids.reserve(static_cast<size_t>(names));
  for (int i = 0; i < names; ++i) ids.push_back(trace.strings.intern(name_of(i)));
  for (size_t i = 0; i < trace.kernels.size() && !ids.empty(); ++i) {
    trace.kernels.name[i] = ids[i % ids.size()];
  }
  const std::string path = "/tmp/gui_statistics_bench.db";
  std::remove(path.c_str());
  if (Status written = writeTraceFile(trace, path); !written.ok()) {
    std::fprintf(stderr, "writing %s: %s\n", path.c_str(), written.error().message().c_str());
    return nullptr;
  }
  PipelineOptions options;
  options.store = false;
  auto opened = openRun({path}, options, EventsNeeded::kEveryRank);
  std::remove(path.c_str());
  if (!opened.ok()) {
    std::fprintf(stderr, "opening %s: %s\n", path.c_str(), opened.error().message().c_str());
    return nullptr;
  }
  return std::make_shared<const AnalysedRun>(std::move(opened).value());
}

void measure(const char* what, const std::shared_ptr<const AnalysedRun>& run) {
  if (!run) return;
  StatisticsPanel panel;
  panel.resize(1200, 800);
  panel.show();
  const auto open_start = Clock::now();
  panel.setRun(run, 0);
  while (!panel.isReady()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
  const double tables_ms = msSince(open_start);
  QTableView* view = panel.view(OperationKind::kKernels);
  const int rows = view->model()->rowCount();
  std::printf("%s: %d kernel rows, tables ready in %.0f ms (on a worker when large)\n", what, rows,
              tables_ms);
  // Ascending then descending in one action: asking again for the order a
  // view already has sorts nothing.
  double worst_sort = 0;
  for (int column = 0; column < view->model()->columnCount(); ++column) {
    const double ms = medianMs([&] {
                        view->sortByColumn(column, Qt::AscendingOrder);
                        view->sortByColumn(column, Qt::DescendingOrder);
                      }) /
                      2;
    worst_sort = std::max(worst_sort, ms);
  }
  std::printf("  sort by a column: worst %.2f ms a sort (median of %d)\n", worst_sort, kRepeats);
  QLineEdit* filter = panel.filter(OperationKind::kKernels);
  const double filter_ms = medianMs([&] {
    filter->setText("gemm");
    filter->clear();
  });
  std::printf("  filter by \"gemm\" and clear it: %.2f ms (median of %d)\n", filter_ms, kRepeats);
  // The largest row is the one with the most runs.
  const int count_column =
      panel.model(OperationKind::kKernels)->columnOf(OperationStatsModel::Column::kCount);
  view->sortByColumn(count_column, Qt::DescendingOrder);
  const double select_ms = medianMs([&] {
    view->clearSelection();
    view->setCurrentIndex(QModelIndex());
    view->selectRow(0);
  });
  std::printf(
      "  select the row with the most runs (%s runs: histogram + highlight request): %.2f "
      "ms (median of %d)\n",
      qPrintable(view->model()->index(0, count_column).data().toString()), select_ms, kRepeats);
}

}  // namespace
}  // namespace damscope

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  using damscope::runOf;
  damscope::measure("2 M kernels, 5,000 names", runOf(2'000'000, 5'000, [](int i) {
                      return "void at::native::vectorized_elementwise_kernel<4, "
                             "at::native::BinaryFunctor<float, float, float, "
                             "at::native::binary_internal::MulFunctor<float>>, "
                             "at::detail::Array<char*, 3>>(int, variant_" +
                             std::to_string(i) + ")";
                    }));
  damscope::measure("2 M kernels, the synthetic trace's own names",
                    runOf(2'000'000, 0, [](int) { return std::string(); }));
  damscope::measure("300 k kernels, 300 names of 200,000 characters",
                    runOf(300'000, 300, [](int i) {
                      std::string name(199'990, 'k');
                      return name + std::to_string(1'000'000'000 + i);
                    }));
  return 0;
}
