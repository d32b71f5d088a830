// damscope-gui's main window: the parts (timeline, diagnosis, charts,
// statistics, ranks, event details) around one open run, the menus that open
// and export, and the wiring between the parts. It owns no analysis: a
// RunLoader opens the run off the UI thread and every part renders the same
// AnalysedRun.
//
// Layout: the timeline, charts, roofline, statistics and ranks as tabs in the
// middle, the diagnosis docked on the right, an event's details docked
// below. Any part that points at events (a finding, a table row, a chart
// point) sends them to the timeline, which shows and highlights them.
#pragma once

#include <QMainWindow>
#include <QStringList>
#include <memory>

#include "gui/models/event_ref.h"

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
class RanksPanel;
class RooflineChart;
class RunLoader;
class StatisticsPanel;
class TimelineView;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // The views --view names, in tab order, and the diagnosis.
  enum class View { kTimeline, kCharts, kRoofline, kStatistics, kRanks, kDiagnosis };
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
  void showRank(int rank);

 signals:
  // After open(): the run is shown, or opening it failed.
  void runShown();
  void openFailed(const QString& message);

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
  void showEvents(const EventRefs& events);

  bool remember_ = true;
  RunLoader* loader_ = nullptr;
  std::shared_ptr<const AnalysedRun> run_;
  QStringList inputs_;
  int rank_ = 0;

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
  QComboBox* rank_box_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* progress_label_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QMenu* recent_menu_ = nullptr;
};

}  // namespace damscope
