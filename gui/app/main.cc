// damscope-gui: the desktop GUI. Thin: parses the command line, opens the
// window and, with --screenshot, saves an image of a view once the run is
// open and analysed, then exits (for documentation and tests).
//
//   damscope-gui [FILE...]                     run.db, Kineto .json(.gz), nsys .sqlite
//   damscope-gui FILE... --screenshot OUT.png [--view timeline|diagnosis|charts|roofline|
//                                                    statistics|modules|ranks]
//                                             [--window START..END]
//
// --window selects a time window as a Shift+drag would (seconds from the
// trace's start, as the ruler shows them) and waits for its analysis before
// the screenshot.
//
// Exit codes follow the CLI's: 0 done, 2 bad input (a file that cannot be
// opened, an unknown view, a malformed option, no display to open a window
// on), 1 anything else.
#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <optional>
#include <utility>

#include "analyzer/report/text_format.h"
#include "gui/app/main_window.h"
#include "gui/app/report_export.h"

namespace {

constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

// "1.20..1.45" -> {1.20, 1.45}: seconds from the trace's start.
std::optional<std::pair<double, double>> parseWindow(const QString& text) {
  const QStringList parts = text.split("..");
  if (parts.size() != 2) return std::nullopt;
  bool ok_start = false;
  bool ok_end = false;
  const double start = parts[0].toDouble(&ok_start);
  const double end = parts[1].toDouble(&ok_end);
  if (!ok_start || !ok_end || !(end > start) || start < 0) return std::nullopt;
  return std::pair{start, end};
}

// --size's bounds. At least 200x200, below which no view can lay itself out;
// at most 8192x8192: the largest common display is 7680x4320 (8K UHD), and
// the grab is w*h*4 bytes, 256 MiB at the maximum, where 40000x40000 would
// take 6.4 GB and more for the encoder.
constexpr int kMinSide = 200;
constexpr int kMaxSide = 8192;

// "1600x1000" -> QSize(1600, 1000); nothing for anything else: a third
// number, a sign, letters, or a side out of [kMinSide, kMaxSide].
std::optional<QSize> parseWindowSize(const QString& text) {
  const QStringList parts = text.split('x');
  if (parts.size() != 2) return std::nullopt;
  int sides[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    const QString& part = parts[i];
    const bool digits = !part.isEmpty() && part.size() <= 5 &&
                        std::all_of(part.begin(), part.end(), [](QChar c) { return c.isDigit(); });
    if (!digits) return std::nullopt;
    sides[i] = part.toInt();
    if (sides[i] < kMinSide || sides[i] > kMaxSide) return std::nullopt;
  }
  return QSize(sides[0], sides[1]);
}

// One line, as the CLI's: a message can quote a path or a name from the trace
// (analyzer/report/text_format.h).
void printError(const QString& message) {
  std::fprintf(stderr, "damscope-gui: %s\n", damscope::terminalName(message.toStdString()).c_str());
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

// The command line as damscope-gui reads it; --help and --version print
// from it before any window system is touched.
struct CommandLine {
  QCommandLineParser parser;
  QCommandLineOption screenshot{
      "screenshot", "Save an image of the window once the run is analysed, then exit.", "FILE.png"};
  QCommandLineOption view{
      "view",
      "The view to show: timeline, diagnosis, charts, roofline, statistics, modules (the "
      "Statistics panel's module tree) or ranks.",
      "VIEW", "timeline"};
  QCommandLineOption size{"size",
                          "Window size for --screenshot (default 1600x1000; each side 200 to "
                          "8192 pixels).",
                          "WxH", "1600x1000"};
  QCommandLineOption window{"window",
                            "Analyse a time window, seconds from the trace's start (as the ruler "
                            "shows them), as a Shift+drag on the timeline does.",
                            "START..END"};

  CommandLine() {
    parser.setApplicationDescription(
        "damscope's desktop GUI: the timeline with its bubbles, the diagnosis, charts, kernel "
        "statistics and ranks of a training run.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        "files",
        "run.db, PyTorch profiler trace (.json, .json.gz) or nsys export (.sqlite); "
        "several files open as the ranks of one job.",
        "[FILE...]");
    parser.addOption(screenshot);
    parser.addOption(view);
    parser.addOption(size);
    parser.addOption(window);
  }
};

// Whether the command line only asks for the help or the version: QApplication
// needs a display (it aborts without one), and printing text needs none.
bool wantsTextOnly(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const QByteArray arg(argv[i]);
    if (arg == "--") return false;
    if (arg == "-h" || arg == "--help" || arg == "-?" || arg == "--help-all" || arg == "-v" ||
        arg == "--version") {
      return true;
    }
  }
  return false;
}

void nameApplication() {
  QCoreApplication::setOrganizationName("damscope");
  QCoreApplication::setApplicationName("damscope-gui");
  QCoreApplication::setApplicationVersion(DAMSCOPE_VERSION);
}

// What the command line asks for, checked; an error names the option.
struct Settings {
  damscope::MainWindow::View view{};
  QStringList files;
  std::optional<QString> screenshot;
  QSize size;
  std::optional<std::pair<double, double>> window_s;
};

std::optional<Settings> settingsOf(const CommandLine& command_line, QString& error) {
  const QCommandLineParser& parser = command_line.parser;
  Settings settings;
  const auto chosen = damscope::MainWindow::viewNamed(parser.value(command_line.view));
  if (!chosen) {
    error = "--view " + parser.value(command_line.view) +
            ": expected timeline, diagnosis, charts, roofline, statistics, modules or ranks";
    return std::nullopt;
  }
  settings.view = *chosen;
  settings.files = parser.positionalArguments();
  if (parser.isSet(command_line.screenshot)) {
    settings.screenshot = parser.value(command_line.screenshot);
    if (settings.files.isEmpty()) {
      error = "--screenshot needs a run to open: damscope-gui FILE --screenshot OUT.png";
      return std::nullopt;
    }
  }
  const std::optional<QSize> size = parseWindowSize(parser.value(command_line.size));
  if (!size) {
    error = QString("--size %1: expected WIDTHxHEIGHT, each side %2 to %3 pixels")
                .arg(parser.value(command_line.size))
                .arg(kMinSide)
                .arg(kMaxSide);
    return std::nullopt;
  }
  settings.size = *size;
  if (parser.isSet(command_line.window)) {
    settings.window_s = parseWindow(parser.value(command_line.window));
    if (!settings.window_s) {
      error = "--window " + parser.value(command_line.window) +
              ": expected START..END, seconds from the trace's start, END after START";
      return std::nullopt;
    }
  }
  return settings;
}

// Whether Qt can open a window: QApplication aborts (SIGABRT, after a page of
// plugin messages) when the platform it picks has no display. Checked before,
// so that the user reads one line instead.
bool hasWindowSystem(int argc, char** argv) {
  if (!qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") || !qEnvironmentVariableIsEmpty("DISPLAY") ||
      !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
    return true;
  }
  for (int i = 1; i < argc; ++i) {
    const QByteArray arg(argv[i]);
    if (arg == "-platform" || arg == "--platform") return true;  // Qt's own option
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (wantsTextOnly(argc, argv)) {
    const QCoreApplication text_only(argc, argv);
    nameApplication();
    CommandLine command_line;
    command_line.parser.process(text_only);  // prints and exits
    return kExitFailure;
  }
  // The options are checked before any window system is touched: a wrong
  // one is one line and exit code 2 with or without a display. Qt's own
  // options (-platform NAME, ...) are not known yet, so only the values of
  // damscope-gui's options are judged here; QApplication takes Qt's out of
  // the command line, and it is parsed again below.
  {
    QStringList arguments;
    for (int i = 0; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
    CommandLine early;
    early.parser.parse(arguments);
    QString error;
    if (!settingsOf(early, error)) {
      printError(error);
      return kExitBadInput;
    }
  }
  const bool shooting = wantsScreenshot(argc, argv);
  // A screenshot needs no display: without one, draw offscreen.
  if (shooting && !hasWindowSystem(argc, argv)) qputenv("QT_QPA_PLATFORM", "offscreen");
  if (!hasWindowSystem(argc, argv)) {
    printError(
        "no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset); run it in a "
        "desktop session, with ssh -X, or under xvfb-run, or save an image with --screenshot");
    return kExitBadInput;
  }
  if (shooting) qInstallMessageHandler(quietQtWarnings);
  QApplication app(argc, argv);
  nameApplication();

  CommandLine command_line;
  command_line.parser.process(app);
  QString error;
  const std::optional<Settings> settings = settingsOf(command_line, error);
  if (!settings) {
    printError(error);
    return kExitBadInput;
  }
  const damscope::MainWindow::View chosen = settings->view;
  const std::optional<std::pair<double, double>> window_s = settings->window_s;

  damscope::MainWindow window(/*remember=*/!settings->screenshot);
  if (settings->screenshot) {
    const QString out = *settings->screenshot;
    // Exactly the size asked for: the image is w*h*4 bytes however wide the
    // content would like to be.
    window.setFixedSize(settings->size);
    QObject::connect(&window, &damscope::MainWindow::openFailed, &app, [](const QString& message) {
      printError(message);
      QApplication::exit(kExitBadInput);
    });
    auto shoot = [&window, out, chosen] {
      window.showView(chosen);
      // Let the views lay themselves out and paint once before the grab.
      QTimer::singleShot(200, &window, [&window, out, chosen] {
        const damscope::Status saved = damscope::writeImage(window.grabView(chosen), out);
        if (!saved.ok()) {
          printError(QString::fromStdString(saved.error().message()));
          QApplication::exit(kExitFailure);
          return;
        }
        QApplication::exit(0);
      });
    };
    QObject::connect(&window, &damscope::MainWindow::windowAnalysed, &app, shoot);
    QObject::connect(&window, &damscope::MainWindow::runShown, &app, [&window, window_s, shoot] {
      const std::optional<int64_t> origin = window.traceStart();
      if (!window_s || !origin) {
        shoot();
        return;
      }
      window.analyseWindow({*origin + static_cast<int64_t>(window_s->first * 1e9),
                            *origin + static_cast<int64_t>(window_s->second * 1e9)});
    });
  }
  window.show();
  if (!settings->screenshot) window.showView(chosen);
  window.open(settings->files);
  return QApplication::exec();
}
