// damscope-gui's main window: the parts (timeline, diagnosis, charts,
// statistics, ranks, event details) around one open run, the menus that open
// and export, and the wiring between the parts. It owns no analysis: a
// RunLoader opens the run off the UI thread and every part renders the same
// AnalysedRun.
//
// Layout: the timeline, charts, roofline, statistics and ranks as tabs in the
// middle, the diagnosis docked on the right, an event's details docked
// below. Any part that points at events (a finding, a table row, a chart
// point, a search match) sends them to the timeline, which shows and
// highlights them, and the first one's details to the Event dock; a
// Statistics row does so without leaving its histogram. View lists every
// dock; Help lists the keys (an overlay, also `?`) and says what damscope is.
//
// A time window selected on the timeline (Shift+drag, or View ▸ Analyse
// Visible Range) shows what it holds in the Event dock (range_summary.h)
// and re-scopes the diagnosis, its scorecard and the statistics to that
// window: a WindowAnalyser re-analyses the rank off the UI thread,
// and a chip in the tool bar ("window: 1.20–1.45 s [clear]") says so until
// it is cleared (its clear, Esc on the timeline, View ▸ Whole Run), another
// rank is shown or another run opened. The charts and the ranks stay the
// whole run's.
//
// A job of several ranks opens with all of them stacked on the timeline
// (TimelineWidget::kAllRanks; the Rank box's "All ranks" entry) and the first
// rank's diagnosis; choosing a rank in the box shows that rank alone, as a run
// of one rank always shows. In the stacked view a window re-scopes the rank
// the diagnosis shows.
#pragma once

#include <QMainWindow>
#include <QStringList>
#include <memory>

#include "gui/models/event_ref.h"
#include "gui/models/time_window.h"

class QAction;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QMenu;

namespace damscope {

class ChartsView;
class DiagnosisPanel;
class EventDetailsPanel;
class KeysOverlay;
class RanksPanel;
class RooflineChart;
class RunLoader;
class StatisticsPanel;
class TimelineView;
class WindowAnalyser;
class WindowChip;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // The views --view names, in tab order, and the diagnosis; kModules is the
  // Statistics panel's module tree.
  enum class View { kTimeline, kCharts, kRoofline, kStatistics, kModules, kRanks, kDiagnosis };
  static std::optional<View> viewNamed(const QString& name);

  // remember: restore and save window state and recent files (QSettings);
  // off for --screenshot, which must look the same on every machine.
  explicit MainWindow(bool remember = true, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens `inputs` as the ranks of one run (off the UI thread).
  void open(const QStringList& inputs);
  void showView(View view);
  // An image of `view` as a person would see it.
  QImage grabView(View view);

  const AnalysedRun* run() const { return run_.get(); }
  int currentRank() const { return rank_; }
  // One rank everywhere: its timeline, diagnosis, charts and statistics.
  void showRank(int rank);
  // Every rank of a job stacked on the timeline (the Rank box's last entry,
  // "All ranks", and how a job opens); the other parts keep showing the
  // rank they showed. Nothing with one rank.
  void showAllRanks();
  bool showsAllRanks() const { return stacked_; }

  // Re-scopes the diagnosis and statistics to `window` of the rank shown;
  // clearWindow() shows the whole run again.
  void analyseWindow(const TimeWindow& window);
  void clearWindow();
  std::optional<TimeWindow> window() const { return window_; }
  // Where the rank shown starts (its timeline's origin, as the ruler counts
  // time); empty while none is shown.
  std::optional<int64_t> traceStart() const;
  WindowChip* windowChip() const { return chip_; }

 signals:
  // After open(): the run is shown, or opening it failed.
  void runShown();
  void openFailed(const QString& message);
  // The diagnosis shows the window's re-analysis.
  void windowAnalysed();

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildMenus();
  void buildParts();
  void onLoaded(std::shared_ptr<const AnalysedRun> run, const QStringList& inputs);
  void onFailed(const QString& message, bool cancelled);
  void onProgress(const QString& stage, const QString& detail, double fraction);
  void setBusy(bool busy);
  void chooseFiles();
  void exportReport();
  void exportImage();
  void rememberRecent(const QStringList& inputs);
  void fillRecentMenu();
  // Shows `events` on the timeline (bring_forward: and brings its tab
  // forward) and the first one's details in the Event dock.
  void showEvents(const EventRefs& events, bool bring_forward = true);
  void onWindowAnalysed(int rank, const TimeWindow& window,
                        std::shared_ptr<const RankResult> result);
  void analyseVisibleRange();
  void showPartsOf(int rank);  // the diagnosis, charts, statistics and details

  bool remember_ = true;
  RunLoader* loader_ = nullptr;
  WindowAnalyser* window_analyser_ = nullptr;
  std::shared_ptr<const AnalysedRun> run_;
  QStringList inputs_;
  int rank_ = 0;
  bool stacked_ = false;  // the timeline shows every rank
  std::optional<TimeWindow> window_;

  QStackedWidget* stack_ = nullptr;  // the welcome text, then the tabs
  QLabel* welcome_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  TimelineView* timeline_ = nullptr;
  ChartsView* charts_ = nullptr;
  RooflineChart* roofline_ = nullptr;
  StatisticsPanel* statistics_ = nullptr;
  RanksPanel* ranks_ = nullptr;
  DiagnosisPanel* diagnosis_ = nullptr;
  EventDetailsPanel* details_ = nullptr;
  KeysOverlay* keys_ = nullptr;  // Help ▸ Keys, `?`
  QComboBox* rank_box_ = nullptr;
  WindowChip* chip_ = nullptr;
  QAction* chip_action_ = nullptr;  // shows and hides the chip in the tool bar
  QProgressBar* progress_ = nullptr;
  QLabel* progress_label_ = nullptr;
  QLabel* lost_label_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QMenu* recent_menu_ = nullptr;
};

}  // namespace damscope
