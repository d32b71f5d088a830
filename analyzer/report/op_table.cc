// The op table as text and JSON: see op_table.h.
#include "analyzer/report/op_table.h"

#include <fmt/format.h>

#include "analyzer/report/text_format.h"

namespace damscope {
namespace {

constexpr size_t kNameWidth = 48;

template <typename T>
nlohmann::json orNull(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

std::string optionalDuration(const std::optional<int64_t>& ns) {
  return ns ? formatDuration(static_cast<double>(*ns)) : "-";
}

}  // namespace

std::string opRooflineText(const OpRow& row) {
  if (!row.achieved_flops_per_s) return "";
  std::string out = fmt::format("{:.1f} TFLOP/s", *row.achieved_flops_per_s / 1e12);
  if (row.memory_bound) out += *row.memory_bound ? ", memory-bound" : ", compute-bound";
  if (row.pct_of_ceiling) out += fmt::format(", {:.0f} % of ceiling", *row.pct_of_ceiling);
  return out;
}

std::string opTableText(const OpBreakdownReport& report) {
  std::string out = fmt::format(
      "By {}: {} rows, shares of the analysed window ({}); GPU time {} in {} operations\n",
      toText(report.grouping), withThousands(static_cast<int64_t>(report.row_count)),
      formatDuration(static_cast<double>(report.window_ns)),
      formatDuration(static_cast<double>(report.gpu_ns)), withThousands(report.gpu_ops));
  if (report.unattributed_ops > 0 || report.outside_ops > 0) {
    out += fmt::format(
        "Not in any row: {} ({} operations) without a launch call, {} ({}) launched outside "
        "every {}\n",
        formatDuration(static_cast<double>(report.unattributed_ns)),
        withThousands(report.unattributed_ops),
        formatDuration(static_cast<double>(report.outside_ns)), withThousands(report.outside_ops),
        toText(report.grouping));
  }
  if (report.backward_ops > 0) {
    out += fmt::format("{} backward operations charged to their forward op's module\n",
                       withThousands(report.backward_ops));
  }
  out += fmt::format("{:<{}} {:>9} {:>10} {:>10} {:>6} {:>10} {:>10} {:>6}  {}\n", "name",
                     kNameWidth, "calls", "GPU total", "GPU self", "GPU %", "CPU total",
                     "CPU self", "CPU %", "FLOP/s, roofline");
  for (const OpRow& row : report.rows) {
    out += fmt::format(
        "{:<{}} {:>9} {:>10} {:>10} {:>6.1f} {:>10} {:>10} {:>6}  {}\n",
        clipText(terminalName(row.name), kNameWidth), kNameWidth, withThousands(row.calls),
        formatDuration(static_cast<double>(row.gpu_total_ns)),
        formatDuration(static_cast<double>(row.gpu_self_ns)), row.gpu_total_pct,
        optionalDuration(row.cpu_total_ns), optionalDuration(row.cpu_self_ns),
        row.cpu_total_ns ? fmt::format("{:.1f}", row.cpu_total_pct) : "-", opRooflineText(row));
    // Shapes are long ("[[32, 256, 56, 56], [256], ...]"): a line of their own.
    if (!row.shapes.empty()) out += fmt::format("    {}\n", terminalName(row.shapes));
  }
  return out;
}

nlohmann::json opTableJson(const OpBreakdownReport& report) {
  nlohmann::json rows = nlohmann::json::array();
  for (const OpRow& row : report.rows) {
    rows.push_back({{"name", row.name},
                    {"shapes", row.shapes},
                    {"calls", row.calls},
                    {"gpu_ops", row.gpu_ops},
                    {"gpu_total_ns", row.gpu_total_ns},
                    {"gpu_self_ns", row.gpu_self_ns},
                    {"gpu_total_pct", row.gpu_total_pct},
                    {"cpu_total_ns", orNull(row.cpu_total_ns)},
                    {"cpu_self_ns", orNull(row.cpu_self_ns)},
                    {"cpu_total_pct", row.cpu_total_ns ? nlohmann::json(row.cpu_total_pct)
                                                       : nlohmann::json(nullptr)},
                    {"flops", row.flops},
                    {"flop_time_ns", row.flop_time_ns},
                    {"achieved_flops_per_s", orNull(row.achieved_flops_per_s)},
                    {"intensity_flops_per_byte", orNull(row.intensity)},
                    {"ceiling_flops_per_s", orNull(row.ceiling_flops_per_s)},
                    {"pct_of_ceiling", orNull(row.pct_of_ceiling)},
                    {"memory_bound", orNull(row.memory_bound)}});
  }
  return {{"grouping", toText(report.grouping)},
          {"window_ns", report.window_ns},
          {"gpu_ops", report.gpu_ops},
          {"gpu_ns", report.gpu_ns},
          {"unattributed_ops", report.unattributed_ops},
          {"unattributed_ns", report.unattributed_ns},
          {"outside_ops", report.outside_ops},
          {"outside_ns", report.outside_ns},
          {"backward_ops", report.backward_ops},
          {"row_count", report.row_count},
          {"rows", std::move(rows)}};
}

}  // namespace damscope
