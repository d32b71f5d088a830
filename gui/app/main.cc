// damscope-gui: the desktop GUI. Thin: parses the command line, opens the
// window and, with --screenshot, saves an image of a view once the run is
// open and analysed, then exits (for documentation and tests).
//
//   damscope-gui [FILE...]                     run.db, Kineto .json(.gz), nsys .sqlite
//   damscope-gui FILE... --screenshot OUT.png [--view timeline|diagnosis|charts|roofline|
//                                                    statistics|ranks]
//
// Exit codes follow the CLI's: 0 done, 2 bad input (a file that cannot be
// opened, an unknown view), 1 anything else.
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>

#include "gui/app/main_window.h"
#include "gui/app/report_export.h"

namespace {

constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

void printError(const QString& message) {
  std::fprintf(stderr, "damscope-gui: %s\n", message.toLocal8Bit().constData());
}

bool wantsScreenshot(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (QByteArray(argv[i]).startsWith("--screenshot")) return true;
  }
  return false;
}

// With --screenshot the program is a command: its stderr carries damscope's
// one-line errors, not the platform plugin's chatter ("This plugin does not
// support propagateSizeHints()", "XDG_RUNTIME_DIR not set").
void quietQtWarnings(QtMsgType type, const QMessageLogContext&, const QString& message) {
  if (type == QtCriticalMsg || type == QtFatalMsg) {
    std::fprintf(stderr, "damscope-gui: %s\n", message.toLocal8Bit().constData());
  }
}

}  // namespace

int main(int argc, char** argv) {
  // A screenshot needs no display: without one, draw offscreen.
  if (wantsScreenshot(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") &&
      qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
  }
  if (wantsScreenshot(argc, argv)) qInstallMessageHandler(quietQtWarnings);
  QApplication app(argc, argv);
  QApplication::setOrganizationName("damscope");
  QApplication::setApplicationName("damscope-gui");
  QApplication::setApplicationVersion(DAMSCOPE_VERSION);

  QCommandLineParser parser;
  parser.setApplicationDescription(
      "damscope's desktop GUI: the timeline with its bubbles, the diagnosis, charts, kernel "
      "statistics and ranks of a training run.");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(
      "files", "run.db, PyTorch profiler trace (.json, .json.gz) or nsys export (.sqlite); "
               "several files open as the ranks of one job.",
      "[FILE...]");
  const QCommandLineOption screenshot(
      "screenshot", "Save an image of the window once the run is analysed, then exit.", "FILE.png");
  const QCommandLineOption view(
      "view", "The view to show: timeline, diagnosis, charts, roofline, statistics or ranks.",
      "VIEW", "timeline");
  const QCommandLineOption size("size", "Window size for --screenshot (default 1600x1000).",
                                "WxH", "1600x1000");
  parser.addOption(screenshot);
  parser.addOption(view);
  parser.addOption(size);
  parser.process(app);

  const auto chosen = damscope::MainWindow::viewNamed(parser.value(view));
  if (!chosen) {
    printError("--view " + parser.value(view) +
               ": expected timeline, diagnosis, charts, roofline, statistics or ranks");
    return kExitBadInput;
  }
  const QStringList files = parser.positionalArguments();
  const bool shooting = parser.isSet(screenshot);
  if (shooting && files.isEmpty()) {
    printError("--screenshot needs a run to open: damscope-gui FILE --screenshot OUT.png");
    return kExitBadInput;
  }
  QSize window_size(1600, 1000);
  if (const QStringList wh = parser.value(size).split('x'); wh.size() == 2) {
    window_size = QSize(wh[0].toInt(), wh[1].toInt());
  }
  if (window_size.width() < 200 || window_size.height() < 200) {
    printError("--size " + parser.value(size) + ": expected WIDTHxHEIGHT, at least 200x200");
    return kExitBadInput;
  }

  damscope::MainWindow window(/*remember=*/!shooting);
  if (shooting) {
    const QString out = parser.value(screenshot);
    window.resize(window_size);
    QObject::connect(&window, &damscope::MainWindow::openFailed, &app, [](const QString& message) {
      printError(message);
      QApplication::exit(kExitBadInput);
    });
    QObject::connect(&window, &damscope::MainWindow::runShown, &app, [&window, out, chosen] {
      window.showView(*chosen);
      // Let the views lay themselves out and paint once before the grab.
      QTimer::singleShot(200, &window, [&window, out, chosen] {
        const damscope::Status saved = damscope::writeImage(window.grabView(*chosen), out);
        if (!saved.ok()) {
          printError(QString::fromStdString(saved.error().message()));
          QApplication::exit(kExitFailure);
          return;
        }
        QApplication::exit(0);
      });
    });
  }
  window.show();
  if (!shooting) window.showView(*chosen);
  window.open(files);
  return QApplication::exec();
}
