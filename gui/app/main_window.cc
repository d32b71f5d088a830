// The main window: see main_window.h.
#include "gui/app/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QTreeView>

#include "gui/app/report_export.h"
#include "gui/app/run_loader.h"
#include "gui/app/window_analyser.h"
#include "gui/charts/charts_view.h"
#include "gui/charts/roofline_chart.h"
#include "gui/models/lost_records.h"
#include "gui/models/qt_text.h"
#include "gui/panels/diagnosis_panel.h"
#include "gui/panels/event_details_panel.h"
#include "gui/panels/keys_overlay.h"
#include "gui/panels/ranks_panel.h"
#include "gui/panels/statistics_panel.h"
#include "gui/panels/window_chip.h"
#include "gui/timeline/range_summary.h"
#include "gui/timeline/timeline_view.h"
#include "gui/timeline/timeline_widget.h"

namespace damscope {
namespace {

constexpr int kMaxRecent = 10;
// The Event dock's height: the name and six lines of a kernel's details
// in column groups (event_details_panel.h), launch call included.
constexpr int kEventDockHeight = 200;
const char* const kOpenFilter =
    "Traces (*.db *.json *.json.gz *.sqlite *.sqlite3);;damscope run (*.db);;"
    "PyTorch profiler trace (*.json *.json.gz);;Nsight Systems export (*.sqlite *.sqlite3);;"
    "All files (*)";

// Clamped as a name from the trace is (gui/models/qt_text.h): they title the
// window, fill the status bar and the rank box, which grow with their text.
QString fileNames(const QStringList& inputs) {
  QStringList names;
  for (const QString& input : inputs) names << QFileInfo(input).fileName();
  return qtName(names.join(", ").toStdString());
}

}  // namespace

std::optional<MainWindow::View> MainWindow::viewNamed(const QString& name) {
  if (name == "timeline") return View::kTimeline;
  if (name == "charts") return View::kCharts;
  if (name == "roofline") return View::kRoofline;
  if (name == "statistics") return View::kStatistics;
  if (name == "modules") return View::kModules;
  if (name == "ranks") return View::kRanks;
  if (name == "diagnosis") return View::kDiagnosis;
  return std::nullopt;
}

MainWindow::MainWindow(bool remember, QWidget* parent) : QMainWindow(parent), remember_(remember) {
  setWindowTitle("damscope");
  setAcceptDrops(true);
  loader_ = new RunLoader(this);
  connect(loader_, &RunLoader::loaded, this, &MainWindow::onLoaded);
  connect(loader_, &RunLoader::failed, this, &MainWindow::onFailed);
  connect(loader_, &RunLoader::progressed, this, &MainWindow::onProgress);
  window_analyser_ = new WindowAnalyser(this);
  connect(window_analyser_, &WindowAnalyser::analysed, this, &MainWindow::onWindowAnalysed);
  connect(window_analyser_, &WindowAnalyser::failed, this, [this](const QString& message) {
    if (chip_) chip_->setAnalysing(false);
    statusBar()->showMessage(message, 8000);
  });
  buildParts();
  buildMenus();

  resize(1600, 1000);
  if (remember_) {
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
  }
}

MainWindow::~MainWindow() = default;

void MainWindow::buildParts() {
  stack_ = new QStackedWidget(this);
  welcome_ = new QLabel(
      "<h2>damscope</h2><p>Why is this training run slow, and what do I change first?</p>"
      "<p>Open a damscope <b>run.db</b>, a PyTorch profiler trace (<b>.json</b>, "
      "<b>.json.gz</b>) or an Nsight Systems export (<b>.sqlite</b>):<br>"
      "File ▸ Open (Ctrl+O), or drop the files here. Several files open as the ranks of "
      "one job.</p>",
      stack_);
  welcome_->setAlignment(Qt::AlignCenter);
  welcome_->setWordWrap(true);
  stack_->addWidget(welcome_);

  tabs_ = new QTabWidget(stack_);
  tabs_->setDocumentMode(true);
  timeline_ = new TimelineView(tabs_);
  charts_ = new ChartsView(tabs_);
  roofline_ = new RooflineChart(tabs_);
  statistics_ = new StatisticsPanel(tabs_);
  ranks_ = new RanksPanel(tabs_);
  tabs_->addTab(timeline_, "Timeline");
  tabs_->addTab(charts_, "Charts");
  tabs_->addTab(roofline_, "Roofline");
  tabs_->addTab(statistics_, "Statistics");
  tabs_->addTab(ranks_, "Ranks");
  stack_->addWidget(tabs_);
  setCentralWidget(stack_);

  diagnosis_ = new DiagnosisPanel(this);
  auto* diagnosis_dock = new QDockWidget("Diagnosis", this);
  diagnosis_dock->setObjectName("diagnosis");
  diagnosis_dock->setWidget(diagnosis_);
  diagnosis_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  addDockWidget(Qt::RightDockWidgetArea, diagnosis_dock);
  resizeDocks({diagnosis_dock}, {560}, Qt::Horizontal);

  details_ = new EventDetailsPanel(this);
  auto* details_dock = new QDockWidget("Event", this);
  details_dock->setObjectName("details");
  details_dock->setWidget(details_);
  details_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                            QDockWidget::DockWidgetClosable);
  // Under the views, as Nsight Systems' and Perfetto's details are: wide
  // and short, the panel lays its lines out in columns and shows a kernel's
  // launch call without scrolling, and the right column keeps its whole
  // height for the diagnosis, three findings in view at 1600x1000 (issue 31 §5).
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  addDockWidget(Qt::BottomDockWidgetArea, details_dock);
  resizeDocks({details_dock}, {kEventDockHeight}, Qt::Vertical);

  // Everything that points at events shows them on the timeline.
  connect(diagnosis_, &DiagnosisPanel::eventsRequested, this,
          [this](const EventRefs& events) { showEvents(events); });
  // A Statistics row shows its runs on the timeline but stays on the
  // histogram of their durations it just drew.
  connect(statistics_, &StatisticsPanel::eventsRequested, this,
          [this](const EventRefs& events) { showEvents(events, /*bring_forward=*/false); });
  connect(charts_, &ChartsView::eventsRequested, this,
          [this](const EventRefs& events) { showEvents(events); });
  connect(roofline_, &RooflineChart::eventsRequested, this,
          [this](const EventRefs& events) { showEvents(events); });
  connect(timeline_, &TimelineView::eventSelected, details_, &EventDetailsPanel::showEvent);
  TimelineWidget* timeline = timeline_->timeline();
  connect(timeline, &TimelineWidget::windowSelected, this, &MainWindow::analyseWindow);
  connect(timeline, &TimelineWidget::windowCleared, this, &MainWindow::clearWindow);
  connect(ranks_, &RanksPanel::rankRequested, this, [this](int rank) {
    showRank(rank);
    showView(View::kTimeline);
  });

  progress_label_ = new QLabel(this);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(260);
  cancel_ = new QPushButton("Cancel", this);
  connect(cancel_, &QPushButton::clicked, loader_, &RunLoader::cancel);
  // The rank's records lost on the way in, counted (gui/models/lost_records.h).
  lost_label_ = new QLabel(this);
  statusBar()->addPermanentWidget(lost_label_);
  statusBar()->addPermanentWidget(progress_label_);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancel_);
  keys_ = new KeysOverlay(this);
  setBusy(false);
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu("&File");
  QAction* open = file->addAction("&Open…", this, &MainWindow::chooseFiles);
  open->setShortcut(QKeySequence::Open);
  recent_menu_ = file->addMenu("Open &Recent");
  fillRecentMenu();
  file->addSeparator();
  QAction* report = file->addAction("Export &Report…", this, &MainWindow::exportReport);
  report->setShortcut(QKeySequence("Ctrl+E"));
  file->addAction("Export &Image of This View…", this, &MainWindow::exportImage);
  file->addSeparator();
  QAction* quit = file->addAction("&Quit", this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* view = menuBar()->addMenu("&View");
  const std::pair<const char*, View> views[] = {{"&Timeline", View::kTimeline},
                                                {"&Charts", View::kCharts},
                                                {"&Roofline", View::kRoofline},
                                                {"&Statistics", View::kStatistics},
                                                {"R&anks", View::kRanks}};
  int key = 1;
  for (const auto& [label, which] : views) {
    QAction* a = view->addAction(label, this, [this, which = which] { showView(which); });
    a->setShortcut(QKeySequence(QString("Ctrl+%1").arg(key++)));
  }
  view->addSeparator();
  QAction* analyse =
      view->addAction("Analyse &Visible Range", this, &MainWindow::analyseVisibleRange);
  analyse->setShortcut(QKeySequence("Ctrl+R"));
  analyse->setToolTip(
      "Re-scope the diagnosis and statistics to the time the timeline shows "
      "(Shift+drag on the timeline selects any window)");
  QAction* whole = view->addAction("&Whole Run", this, &MainWindow::clearWindow);
  whole->setShortcut(QKeySequence("Ctrl+Shift+R"));
  // Every dock, to bring back one that was closed.
  view->addSeparator();
  for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());

  QMenu* help = menuBar()->addMenu("&Help");
  QAction* keys = help->addAction("&Keys", keys_, &KeysOverlay::toggle);
  keys->setObjectName("keys");
  keys->setShortcut(QKeySequence(Qt::Key_Question));
  help->addAction("&About damscope", this, [this] {
    QMessageBox::about(
        this, "About damscope",
        QString("<h3>damscope %1</h3><p>Why is this training run slow, and what do I change "
                "first? A profiler's trace of a training run, diagnosed: where the GPU waits "
                "and why, the kernels that matter and what to do about them.</p>")
            .arg(QApplication::applicationVersion().toHtmlEscaped()));
  });

  QToolBar* bar = addToolBar("Run");
  bar->setObjectName("run");
  bar->setMovable(false);
  bar->addAction(open);
  bar->addAction(report);
  bar->addSeparator();
  bar->addWidget(new QLabel(" Rank ", bar));
  rank_box_ = new QComboBox(bar);
  rank_box_->setObjectName("rankBox");
  rank_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  rank_box_->setEnabled(false);
  connect(rank_box_, &QComboBox::activated, this, [this](int index) {
    if (run_ && static_cast<size_t>(index) == run_->run.ranks.size()) {
      showAllRanks();
    } else {
      showRank(index);
    }
  });
  bar->addWidget(rank_box_);
  auto* gap = new QWidget(bar);
  gap->setFixedWidth(12);
  bar->addWidget(gap);
  chip_ = new WindowChip(bar);
  connect(chip_, &WindowChip::clearRequested, this, &MainWindow::clearWindow);
  chip_action_ = bar->addWidget(chip_);
  chip_action_->setVisible(false);
}

void MainWindow::open(const QStringList& inputs) {
  if (inputs.isEmpty()) return;
  setBusy(true);
  progress_label_->setText("Opening " + fileNames(inputs));
  loader_->load(inputs);
}

void MainWindow::onProgress(const QString& stage, const QString& detail, double fraction) {
  progress_->setValue(static_cast<int>(fraction * 1000));
  QString text = stage.isEmpty() ? QString("Working") : stage.left(1).toUpper() + stage.mid(1);
  if (!detail.isEmpty()) text += " " + QFileInfo(detail).fileName();
  progress_label_->setText(text);
}

void MainWindow::setBusy(bool busy) {
  progress_->setVisible(busy);
  cancel_->setVisible(busy);
  progress_label_->setVisible(busy);
  progress_->setRange(0, 1000);
  if (busy) progress_->setValue(0);
}

void MainWindow::onLoaded(std::shared_ptr<const AnalysedRun> run, const QStringList& inputs) {
  setBusy(false);
  run_ = std::move(run);
  inputs_ = inputs;
  rememberRecent(inputs);
  rank_box_->clear();
  for (size_t i = 0; i < run_->run.ranks.size(); ++i) {
    const RankResult& r = run_->run.ranks[i];
    QString label = r.rank ? QString::number(*r.rank) : QString::number(i);
    label += "  " + fileNames({QString::fromStdString(r.source)});
    rank_box_->addItem(label);
  }
  const bool several = run_->run.ranks.size() > 1;
  if (several) rank_box_->addItem(tr("All ranks (stacked)"));
  rank_box_->setEnabled(several);
  ranks_->setRun(run_, 0);
  // A job opens with every rank stacked on the timeline, the first rank's
  // diagnosis beside it; one rank opens as it always did.
  if (several) {
    showPartsOf(0);
    showAllRanks();
  } else {
    showRank(0);
  }
  stack_->setCurrentWidget(tabs_);
  setWindowTitle(fileNames(inputs) + " — damscope");
  statusBar()->showMessage(
      QString("Opened %1: %2 rank(s)").arg(fileNames(inputs)).arg(run_->run.ranks.size()), 8000);
  if (timeline_->isReady()) {
    emit runShown();
  } else {
    // The last stage of opening a large run, said as such: the loader's bar
    // would otherwise end at 100 % while the timeline is still built.
    progress_label_->setText("Building the timeline of " + fileNames(inputs));
    progress_label_->show();
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    progress_->show();
    const QMetaObject::Connection building = connect(
        timeline_, &TimelineView::buildProgressed, this,
        [this](double fraction) { progress_->setValue(static_cast<int>(fraction * 1000)); });
    connect(
        timeline_, &TimelineView::ready, this,
        [this, building] {
          disconnect(building);
          setBusy(false);
          emit runShown();
        },
        Qt::SingleShotConnection);
  }
}

void MainWindow::showRank(int rank) {
  if (!run_ || rank < 0 || static_cast<size_t>(rank) >= run_->run.ranks.size()) return;
  clearWindow();  // a window is of one rank's trace
  rank_ = rank;
  stacked_ = false;
  rank_box_->setCurrentIndex(rank);
  timeline_->setRun(run_, rank);
  showPartsOf(rank);
}

void MainWindow::showAllRanks() {
  if (!run_ || run_->run.ranks.size() < 2) return;
  clearWindow();
  stacked_ = true;
  rank_box_->setCurrentIndex(static_cast<int>(run_->run.ranks.size()));
  timeline_->setRun(run_, TimelineWidget::kAllRanks);
}

void MainWindow::showPartsOf(int rank) {
  rank_ = rank;
  const auto r = static_cast<size_t>(rank);
  const QString lost = lostRecordsText(run_->run.ranks[r].data_loss, run_->tables[r].lost_spans);
  lost_label_->setText(lost.isEmpty() ? QString() : "⚠ " + lost);
  lost_label_->setToolTip(
      lost.isEmpty() ? QString()
                     : tr("Counted in the trace's stats table; where the collector or importer "
                          "knew when, the time ranges are crosshatched on the timeline "
                          "(hover one for its count)"));
  diagnosis_->setRun(run_, rank);
  charts_->setRun(run_, rank);
  roofline_->setRun(run_, rank);
  statistics_->setRun(run_, rank);
  details_->setRun(run_, rank);
}

void MainWindow::analyseWindow(const TimeWindow& window) {
  if (!run_ || window.end <= window.start) return;
  window_ = window;
  timeline_->timeline()->setWindow(window);
  chip_->setWindow(window, traceStart().value_or(window.start));
  chip_->setAnalysing(true);
  chip_action_->setVisible(true);
  // The rank the diagnosis shows is analysed over the window; in the stacked
  // view the window is on the view's clock, its times moved back to the rank's.
  const TimelineData* data = timeline_->timeline()->data();
  const int64_t offset = data ? data->rows.offsetOf(rank_) : 0;
  const TimeWindow on_rank{window.start - offset, window.end - offset};
  statistics_->setWindow(on_rank);
  // What the window holds, in the Event dock: a sweep of its rows (a few ms
  // per million events), so it is done here rather than on a worker.
  if (data) {
    details_->showLines(rangeSummaryLines(summarizeRange(data->rows, *run_, window), data->rows));
  }
  window_analyser_->analyse(run_, rank_, on_rank, RunLoader::pipelineOptions().analysis);
}

void MainWindow::onWindowAnalysed(int rank, const TimeWindow& window,
                                  std::shared_ptr<const RankResult> result) {
  const TimelineData* data = timeline_->timeline()->data();
  const int64_t offset = data ? data->rows.offsetOf(rank_) : 0;
  if (rank != rank_ || !window_ ||
      window != TimeWindow{window_->start - offset, window_->end - offset}) {
    return;
  }
  chip_->setAnalysing(false);
  diagnosis_->setWindowResult(std::move(result), windowText(window, traceStart().value_or(0)));
  emit windowAnalysed();
}

void MainWindow::clearWindow() {
  window_analyser_->clear();
  if (!window_) return;
  window_.reset();
  timeline_->timeline()->setWindow(std::nullopt);
  chip_->setWindow(std::nullopt, 0);
  chip_->setAnalysing(false);
  chip_action_->setVisible(false);
  diagnosis_->setWindowResult(nullptr);
  statistics_->setWindow(std::nullopt);
}

std::optional<int64_t> MainWindow::traceStart() const {
  const TimelineData* data = timeline_->timeline()->data();
  return data ? std::optional<int64_t>(data->rows.start) : std::nullopt;
}

void MainWindow::analyseVisibleRange() {
  const TimelineWidget* timeline = timeline_->timeline();
  const TimelineData* data = timeline->data();
  if (!data) return;
  // The view, less the margin beyond the trace's ends that fitting leaves.
  const TimeScale& scale = timeline->scale();
  const TimeWindow window{std::max(scale.start(), data->rows.start),
                          std::min(scale.end(), data->rows.end)};
  timeline_->timeline()->selectWindow(window);
}

void MainWindow::onFailed(const QString& message, bool cancelled) {
  setBusy(false);
  if (cancelled) {
    statusBar()->showMessage("Opening cancelled", 5000);
  } else {
    emit openFailed(message);
    if (isVisible()) QMessageBox::warning(this, "Cannot open the run", message);
  }
}

void MainWindow::showEvents(const EventRefs& events, bool bring_forward) {
  if (events.empty()) return;
  if (events.front().rank != rank_) {
    if (stacked_) {
      clearWindow();
      showPartsOf(events.front().rank);
    } else {
      showRank(events.front().rank);
    }
  }
  if (bring_forward) tabs_->setCurrentWidget(timeline_);
  timeline_->showEvents(events);
  details_->showEvent(events.front());
}

void MainWindow::showView(View view) {
  switch (view) {
    case View::kTimeline:
      tabs_->setCurrentWidget(timeline_);
      break;
    case View::kCharts:
      tabs_->setCurrentWidget(charts_);
      break;
    case View::kRoofline:
      tabs_->setCurrentWidget(roofline_);
      break;
    case View::kStatistics:
      tabs_->setCurrentWidget(statistics_);
      break;
    case View::kModules:
      tabs_->setCurrentWidget(statistics_);
      statistics_->tabs()->setCurrentWidget(statistics_->moduleTreeView()->parentWidget());
      break;
    case View::kRanks:
      tabs_->setCurrentWidget(ranks_);
      break;
    case View::kDiagnosis:
      break;
  }
}

QImage MainWindow::grabView(View view) {
  showView(view);
  QApplication::processEvents();
  if (view == View::kDiagnosis) return diagnosis_->grab().toImage();
  return grab().toImage();
}

void MainWindow::chooseFiles() {
  QSettings settings;
  const QStringList files =
      QFileDialog::getOpenFileNames(this, "Open a run (several files: the ranks of one job)",
                                    settings.value("open/directory").toString(), kOpenFilter);
  if (files.isEmpty()) return;
  settings.setValue("open/directory", QFileInfo(files.front()).absolutePath());
  open(files);
}

void MainWindow::exportReport() {
  if (!run_) return;
  const QString stem = QFileInfo(inputs_.value(0)).completeBaseName().section('.', 0, 0);
  const QString path = QFileDialog::getSaveFileName(
      this, "Export the report", stem + "-report.html",
      "HTML report (*.html);;Markdown report (*.md);;JSON document (*.json)");
  if (path.isEmpty()) return;
  if (Status status = writeReport(*run_, path); !status.ok()) {
    QMessageBox::warning(this, "Cannot export the report",
                         QString::fromStdString(status.error().message()));
    return;
  }
  statusBar()->showMessage("Report written to " + path, 8000);
}

void MainWindow::exportImage() {
  const QString path =
      QFileDialog::getSaveFileName(this, "Export an image of this view", "damscope.png",
                                   "PNG image (*.png);;JPEG image (*.jpg)");
  if (path.isEmpty()) return;
  if (Status status = writeImage(grab().toImage(), path); !status.ok()) {
    QMessageBox::warning(this, "Cannot export the image",
                         QString::fromStdString(status.error().message()));
  }
}

void MainWindow::rememberRecent(const QStringList& inputs) {
  if (!remember_) return;
  QStringList absolute;
  for (const QString& input : inputs) absolute << QFileInfo(input).absoluteFilePath();
  const QString entry = absolute.join('\n');  // several files: one job's ranks
  QSettings settings;
  QStringList recent = settings.value("recent").toStringList();
  recent.removeAll(entry);
  recent.prepend(entry);
  while (recent.size() > kMaxRecent) recent.removeLast();
  settings.setValue("recent", recent);
  fillRecentMenu();
}

void MainWindow::fillRecentMenu() {
  recent_menu_->clear();
  const QStringList recent = remember_ ? QSettings().value("recent").toStringList() : QStringList();
  for (const QString& entry : recent) {
    const QStringList files = entry.split('\n');
    recent_menu_->addAction(fileNames(files), this, [this, files] { open(files); });
  }
  recent_menu_->setEnabled(!recent.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  QStringList files;
  for (const QUrl& url : event->mimeData()->urls()) {
    if (url.isLocalFile()) files << url.toLocalFile();
  }
  if (!files.isEmpty()) open(files);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (remember_) {
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
  }
  QMainWindow::closeEvent(event);
}

}  // namespace damscope
