// Exports: see report_export.h.
#include "gui/app/report_export.h"

#include <QFileInfo>
#include <QImageWriter>
#include <QSaveFile>

#include "analyzer/report/report_html.h"
#include "analyzer/report/result_json.h"
#include "analyzer/report/step_strip.h"

namespace damscope {

ReportKind reportKindOf(const QString& path) {
  const QString lower = path.toLower();
  if (lower.endsWith(".md") || lower.endsWith(".markdown")) return ReportKind::kMarkdown;
  if (lower.endsWith(".json")) return ReportKind::kJson;
  return ReportKind::kHtml;
}

std::string renderReport(const AnalysedRun& run, ReportKind kind) {
  switch (kind) {
    case ReportKind::kJson:
      return runJsonText(run.run) + "\n";
    case ReportKind::kMarkdown:
      return renderMarkdownReport(run.run);
    case ReportKind::kHtml:
      break;
  }
  std::optional<StepStrip> strip;
  if (!run.tables.empty() && !run.run.ranks.empty()) {
    strip = buildStepStrip(run.tables.front(), run.run.ranks.front());
  }
  return renderHtmlReport(run.run, strip);
}

Status writeReport(const AnalysedRun& run, const QString& path) {
  const std::string text = renderReport(run, reportKindOf(path));
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) {
    return Error(path.toStdString() + ": " + file.errorString().toStdString());
  }
  file.write(text.data(), static_cast<qint64>(text.size()));
  if (!file.commit()) return Error(path.toStdString() + ": " + file.errorString().toStdString());
  return okStatus();
}

Status writeImage(const QImage& image, const QString& path) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) {
    return Error(path.toStdString() + ": " + file.errorString().toStdString());
  }
  QByteArray format = QFileInfo(path).suffix().toLower().toLatin1();
  if (format.isEmpty()) format = "png";
  QImageWriter writer(&file, format);
  if (!writer.write(image)) {
    return Error(path.toStdString() + ": " + writer.errorString().toStdString());
  }
  if (!file.commit()) return Error(path.toStdString() + ": " + file.errorString().toStdString());
  return okStatus();
}

}  // namespace damscope
