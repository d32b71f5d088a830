// `damscope info TRACE [--json]`: what a trace holds (ranks, devices, event
// counts, time span, import notes). Works on a damscope trace store and on
// any importable trace, which is imported into memory first.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "analyzer/importers/kineto/legacy_autograd.h"
#include "analyzer/importers/trace_import.h"
#include "analyzer/report/text_format.h"
#include "cli/commands.h"
#include "cli/progress_line.h"
#include "trace/sqlite_db.h"
#include "trace/trace_summary.h"
#include "trace/trace_writer.h"

namespace damscope {
namespace {

// A run.db as it is; any other trace imported into an in-memory store.
Result<Database> openAsStore(TraceInput input) {
  if (input.format == TraceFormat::kTraceStore) {
    // An unfinished recording is finalized first, on a connection of its own.
    const std::string path = input.path;
    input.db.reset();
    finalizeUnfinishedRecordings({path});
    return Database::open(path, Database::Mode::kReadOnly);
  }
  ProgressLine line("reading " + input.path);
  DAMSCOPE_ASSIGN_OR_RETURN(TraceTables tables,
                            importTrace(std::move(input), nullptr, line.progress()));
  DAMSCOPE_ASSIGN_OR_RETURN(Database memory,
                            Database::open(":memory:", Database::Mode::kReadWriteCreate));
  DAMSCOPE_ASSIGN_OR_RETURN(TraceWriter writer, TraceWriter::create(std::move(memory)));
  DAMSCOPE_RETURN_IF_ERROR(writer.append(tables));
  return writer.finishAndRelease();
}

std::string deviceLine(const DeviceSummary& d) {
  std::string line = fmt::format("{} {}", d.kind == "cpu" ? "CPU" : "GPU", d.device);
  if (!d.name.empty()) line += "  " + terminalName(d.name);
  if (d.sm_count > 0) line += fmt::format("  {} SMs", d.sm_count);
  if (d.memory_bytes > 0) line += "  " + formatBytes(static_cast<double>(d.memory_bytes));
  if (d.compute_major >= 0) line += fmt::format("  cc {}.{}", d.compute_major, d.compute_minor);
  return line;
}

std::string processLine(const ProcessSummary& p, int64_t threads) {
  std::string line;
  if (p.rank >= 0) {
    line = fmt::format("rank {}", p.rank);
    if (p.world_size > 0) line += fmt::format(" of {}", p.world_size);
    if (!p.comm_backend.empty()) line += fmt::format(" ({})", terminalName(p.comm_backend));
    line += "  ";
  }
  // A legacy autograd profiler trace names no OS process (pid NULL).
  line += p.pid >= 0 ? fmt::format("pid {}", p.pid) : "pid unknown";
  if (!p.name.empty()) line += "  " + terminalName(p.name);
  if (!p.hostname.empty()) line += "  on " + terminalName(p.hostname);
  if (threads > 0) line += fmt::format("  {} thread{}", threads, threads == 1 ? "" : "s");
  return line;
}

std::string formatText(const std::string& path, TraceFormat format, const TraceSummary& s) {
  std::string out;
  const std::string source = s.metaValue("source_format");
  const bool legacy = source == kLegacyAutogradSourceFormat;
  std::string origin = format == TraceFormat::kTraceStore ? "damscope trace"
                       : legacy                           ? std::string(kLegacyAutogradDescription)
                                                          : std::string(formatDescription(format));
  if (format == TraceFormat::kTraceStore && source == "damscope-collector") {
    origin += ", recorded by damscope " + s.metaValue("collector.trigger");
    const std::string gpu = s.metaValue("collector.gpu");
    if (!gpu.empty() && gpu != "recorded") origin += "; GPU activity not recorded: " + gpu;
  } else if (format == TraceFormat::kTraceStore && !source.empty()) {
    origin += ", imported from " + std::string(source == "kineto" ? "PyTorch profiler (Kineto) JSON"
                                               : source == "nsys" ? "Nsight Systems export"
                                               : legacy ? std::string(kLegacyAutogradDescription)
                                                        : source);
    if (!s.metaValue("source_file").empty()) origin += " " + s.metaValue("source_file");
  }
  out += fmt::format("{}  ({})\n", terminalName(path), terminalName(origin));

  if (s.has_events && s.metaValue("clock") == "session") {
    // Times from the capture's start (docs/trace-format.md, Conventions): no date to show.
    out += fmt::format("  span       {}, from {} after the capture started (no wall-clock time)\n",
                       formatDuration(static_cast<double>(s.last_end - s.first_ts)),
                       formatDuration(static_cast<double>(s.first_ts)));
  } else if (s.has_events) {
    out += fmt::format("  span       {} + {}\n", utcTimestamp(s.first_ts),
                       formatDuration(static_cast<double>(s.last_end - s.first_ts)));
  } else {
    out += fmt::format("  span       no events\n");
  }
  if (s.processes.empty()) out += fmt::format("  process    unknown\n");
  for (size_t i = 0; i < s.processes.size(); ++i) {
    out += fmt::format("  {}  {}\n", i == 0 ? "process  " : "         ",
                       processLine(s.processes[i], s.processes.size() == 1 ? s.threads : 0));
  }

  int idle_devices = 0;
  bool first = true;
  for (const DeviceSummary& d : s.devices) {
    if (!d.active()) {
      ++idle_devices;
      continue;
    }
    out += fmt::format("  {}  {}\n", first ? "device   " : "         ", deviceLine(d));
    std::string streams;
    for (int64_t stream : d.streams)
      streams += (streams.empty() ? "" : ", ") + std::to_string(stream);
    std::string activity =
        fmt::format("{} kernels, {} memcpys, {} memsets", withThousands(d.kernels),
                    withThousands(d.memcpys), withThousands(d.memsets));
    if (!d.streams.empty())
      activity += fmt::format(" on stream{} {}", d.streams.size() == 1 ? "" : "s", streams);
    if (d.gpu_ranges > 0) activity += fmt::format("; {} GPU ranges", withThousands(d.gpu_ranges));
    out += fmt::format("             {}\n", activity);
    first = false;
  }
  if (first) out += fmt::format("  device     no GPU activity in this trace\n");
  if (idle_devices > 0) {
    out += fmt::format("             {} more device{} visible to the process, with no activity\n",
                       idle_devices, idle_devices == 1 ? "" : "s");
  }

  auto detail = [](const std::vector<std::pair<std::string, int64_t>>& parts) {
    std::string text;
    for (const auto& [name, n] : parts) {
      text += (text.empty() ? "" : ", ") + (name.empty() ? std::string("other") : terminalName(name)) +
              " " +
              withThousands(n);
    }
    return text.empty() ? text : "  (" + text + ")";
  };
  out += fmt::format("  events\n");
  const std::string nccl =
      s.nccl_kernels > 0 ? fmt::format("  ({} NCCL)", withThousands(s.nccl_kernels)) : "";
  out += fmt::format("    kernels         {:>12}{}\n", withThousands(s.rows("kernels")), nccl);
  out += fmt::format("    memcpys         {:>12}\n", withThousands(s.rows("memcpys")));
  out += fmt::format("    memsets         {:>12}\n", withThousands(s.rows("memsets")));
  out += fmt::format("    api calls       {:>12}{}\n", withThousands(s.rows("api_calls")),
                     detail(s.api_kinds));
  out += fmt::format("    ranges          {:>12}{}\n", withThousands(s.rows("ranges")),
                     detail(s.range_categories));
  out += fmt::format("    syncs           {:>12}\n", withThousands(s.rows("syncs")));
  out += fmt::format("    counters        {:>12}\n", withThousands(s.rows("counters")));
  out += fmt::format("    kernel metrics  {:>12}\n", withThousands(s.rows("kernel_metrics")));

  if (!s.stats.empty()) {
    out += fmt::format("  notes\n");
    for (const auto& stat : s.stats) {
      out += fmt::format("    {:>10}  {}: {}\n", withThousands(stat.value),
                         terminalName(stat.name), terminalName(stat.description));
    }
  }
  return out;
}

nlohmann::json toJson(const std::string& path, TraceFormat format, const TraceSummary& s) {
  nlohmann::json j;
  j["file"] = path;
  j["format"] = format != TraceFormat::kTraceStore &&
                        s.metaValue("source_format") == kLegacyAutogradSourceFormat
                    ? kLegacyAutogradDescription
                    : formatDescription(format);
  j["meta"] = nlohmann::json::object();
  for (const auto& [key, value] : s.meta) j["meta"][key] = value;
  j["processes"] = nlohmann::json::array();
  for (const auto& p : s.processes) {
    nlohmann::json jp = {{"pid", p.pid >= 0 ? nlohmann::json(p.pid) : nlohmann::json()},
                         {"name", p.name},
                         {"hostname", p.hostname}};
    jp["rank"] = p.rank >= 0 ? nlohmann::json(p.rank) : nlohmann::json();
    jp["world_size"] = p.world_size > 0 ? nlohmann::json(p.world_size) : nlohmann::json();
    jp["comm_backend"] = p.comm_backend;
    j["processes"].push_back(jp);
  }
  j["devices"] = nlohmann::json::array();
  for (const auto& d : s.devices) {
    nlohmann::json jd = {
        {"device", d.device},         {"kind", d.kind},       {"name", d.name},
        {"kernels", d.kernels},       {"memcpys", d.memcpys}, {"memsets", d.memsets},
        {"gpu_ranges", d.gpu_ranges}, {"streams", d.streams}, {"active", d.active()}};
    jd["sm_count"] = d.sm_count > 0 ? nlohmann::json(d.sm_count) : nlohmann::json();
    jd["memory_bytes"] = d.memory_bytes > 0 ? nlohmann::json(d.memory_bytes) : nlohmann::json();
    j["devices"].push_back(jd);
  }
  j["counts"] = nlohmann::json::object();
  for (const auto& [table, n] : s.table_rows) j["counts"][table] = n;
  j["counts"]["nccl_kernels"] = s.nccl_kernels;
  j["range_categories"] = nlohmann::json::object();
  for (const auto& [category, n] : s.range_categories) j["range_categories"][category] = n;
  j["api_kinds"] = nlohmann::json::object();
  for (const auto& [api, n] : s.api_kinds) j["api_kinds"][api] = n;
  if (s.has_events) {
    j["first_ts_ns"] = s.first_ts;
    j["last_end_ns"] = s.last_end;
    j["span_ns"] = s.last_end - s.first_ts;
  }
  j["stats"] = nlohmann::json::object();
  for (const auto& stat : s.stats) j["stats"][stat.name] = stat.value;
  return j;
}

}  // namespace

int runInfo(const InfoArgs& args) {
  auto input = openTraceInput(args.input);
  if (!input.ok()) {
    printError(input.error().message());
    return kExitBadInput;
  }
  const TraceFormat format = input->format;
  auto db = openAsStore(std::move(input.value()));
  if (!db.ok()) {
    printError(db.error().message());
    return kExitBadInput;
  }
  auto summary = summarizeTrace(db.value());
  if (!summary.ok()) {
    printError(summary.error().message());
    return kExitBadInput;
  }
  if (args.json) {
    fmt::print("{}\n", toJson(args.input, format, summary.value())
                           .dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  } else {
    fmt::print("{}", terminalSafe(formatText(args.input, format, summary.value())));
  }
  return kExitOk;
}

}  // namespace damscope
