// Writing what the GUI shows to a file: the report (HTML, Markdown or JSON,
// by the file's suffix, rendered by the same code as `damscope report`) and
// images of a view. Files are written whole or not at all (a temporary name,
// renamed when complete).
#pragma once

#include <QImage>
#include <QString>

#include "analyzer/pipeline/pipeline.h"
#include "base/result.h"

namespace damscope {

enum class ReportKind { kHtml, kMarkdown, kJson };

// By suffix: .md/.markdown, .json, else HTML.
ReportKind reportKindOf(const QString& path);

// The run's report, as `damscope report` renders it for the same inputs.
std::string renderReport(const AnalysedRun& run, ReportKind kind);

// Writes `text` (or the image, by the path's suffix) to `path`; the error
// names the file and what the system said.
Status writeReport(const AnalysedRun& run, const QString& path);
Status writeImage(const QImage& image, const QString& path);

}  // namespace damscope
