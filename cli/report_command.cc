// `damscope report RUN [more ranks...] [-o report.html|report.md|report.json]`:
// the diagnosis as a document. Results stored earlier are read back, and a
// trace without them is analysed first and stored as analyze stores it
// (analyzer/pipeline/pipeline.h, StoredResults::kShow); the HTML's timeline
// strip also reads the first rank's events. The document is written under a temporary name and
// appears only once complete (base/pending_file.h); Ctrl-C leaves nothing.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "analyzer/pipeline/pipeline.h"
#include "analyzer/report/output_sink.h"
#include "analyzer/report/report_html.h"
#include "analyzer/report/result_json.h"
#include "analyzer/report/step_strip.h"
#include "analyzer/report/text_format.h"
#include "base/pending_file.h"
#include "cli/commands.h"
#include "cli/long_work.h"

namespace damscope {
namespace {

enum class ReportFormat { kHtml, kMarkdown, kJson };

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// --format, else the output's suffix, else HTML.
Result<ReportFormat> reportFormat(const ReportArgs& args) {
  std::string format = args.format;
  if (format.empty()) {
    if (endsWith(args.output, ".md") || endsWith(args.output, ".markdown")) {
      format = "md";
    } else if (endsWith(args.output, ".json")) {
      format = "json";
    } else {
      format = "html";
    }
  }
  if (format == "html") return ReportFormat::kHtml;
  if (format == "md" || format == "markdown") return ReportFormat::kMarkdown;
  if (format == "json") return ReportFormat::kJson;
  return Error("--format " + args.format + ": expected html, md or json");
}

// "traces/resnet50.pt.trace.json.gz" -> "resnet50-report.html", here.
std::string defaultOutput(const std::string& input, ReportFormat format) {
  std::string stem = std::filesystem::path(defaultStoreName(input)).stem().string();
  const char* suffix = format == ReportFormat::kHtml       ? ".html"
                       : format == ReportFormat::kMarkdown ? ".md"
                                                           : ".json";
  return stem + "-report" + suffix;
}

// How a reader supplies what a note lacks: analyse the run.db again with the
// flag, then report again.
ReportOptions reportOptions(const RunResult& run) {
  std::string where = "RUN.db";
  if (run.ranks.size() == 1) {
    where = run.ranks.front().store.empty() ? run.ranks.front().source : run.ranks.front().store;
  }
  const std::string again = "damscope analyze " + where + " ";
  ReportOptions report;
  report.remedies[static_cast<size_t>(Remedy::kDevice)] =
      again + "--gpu NAME (or --peak-tflops X), then report again";
  report.remedies[static_cast<size_t>(Remedy::kModel)] =
      again + "--model NAME (or --params N), then report again";
  report.remedies[static_cast<size_t>(Remedy::kTokens)] =
      again + "--tokens-per-step N, then report again";
  return report;
}

Result<std::string> renderReport(const ReportArgs& args, ReportFormat format,
                                 const Progress& progress) {
  PipelineOptions options;
  options.store = !args.no_store;
  // The HTML draws the first rank's representative step from its events.
  const EventsNeeded need =
      format == ReportFormat::kHtml ? EventsNeeded::kFirstRank : EventsNeeded::kNone;
  DAMSCOPE_ASSIGN_OR_RETURN(AnalysedRun opened, openRun(args.inputs, options, need, progress));
  const RunResult& run = opened.run;
  switch (format) {
    case ReportFormat::kJson:
      return runJsonText(run) + "\n";
    case ReportFormat::kMarkdown:
      return renderMarkdownReport(run, reportOptions(run));
    case ReportFormat::kHtml:
      break;
  }
  const std::optional<StepStrip> strip = buildStepStrip(opened.tables.front(), run.ranks.front());
  return renderHtmlReport(run, strip, reportOptions(run));
}

}  // namespace

int runReport(const ReportArgs& args) {
  auto format = reportFormat(args);
  if (!format.ok()) {
    printError(format.error().message());
    return kExitBadInput;
  }
  const bool to_stdout = args.output == "-";
  const std::string output =
      args.output.empty() ? defaultOutput(args.inputs.front(), *format) : args.output;
  std::error_code ec;
  for (const std::string& input : args.inputs) {
    if (!to_stdout && std::filesystem::equivalent(input, output, ec)) {
      printError(output + ": output would overwrite the input");
      return kExitBadInput;
    }
  }
  std::optional<PendingFile> pending;
  if (!to_stdout) {
    auto created = PendingFile::create(output, args.force);
    if (!created.ok()) return printFailure(created.error(), "use --force to replace it");
    pending.emplace(std::move(created.value()));
  }
  Result<std::string> document = runLongWork(
      "reporting", [&](const Progress& progress) { return renderReport(args, *format, progress); });
  if (!document.ok()) {
    return printFailure(document.error(), "pass --no-store to analyse in memory");
  }
  if (to_stdout) {
    std::fwrite(document->data(), 1, document->size(), stdout);
    return kExitOk;
  }
  auto sink = openFileSink(pending->tempPath(), false);
  Status written = sink.ok() ? (*sink)->write(*document) : Status(sink.error());
  if (written.ok()) written = (*sink)->close();
  if (written.ok()) written = pending->commit();
  if (!written.ok()) {
    printError(pending->userMessage(written.error().message()));
    return exitCodeOf(written.error());
  }
  fmt::print("{}: report of {} ({})\n", terminalName(output), terminalName(args.inputs.front()),
             formatBytes(static_cast<double>(document->size())));
  return kExitOk;
}

}  // namespace damscope
