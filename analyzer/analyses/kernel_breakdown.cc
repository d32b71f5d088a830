// Kernel breakdown: see kernel_breakdown.h.
#include "analyzer/analyses/kernel_breakdown.h"

#include <algorithm>

#include "base/duration_sum.h"

namespace damscope {

KernelBreakdownReport computeKernelBreakdown(const AnalysisInput& input, const WindowReport& window,
                                             const KernelBreakdownOptions& options) {
  KernelBreakdownReport report;
  const KernelTable& k = input.tables().kernels;
  const std::vector<GpuOp>& gpu = input.gpu();
  std::array<CategoryTime, kKernelCategoryCount> categories{};
  // Per kernel name: a slot in `names` (string ids are dense, so a flat array).
  std::vector<int32_t> slot(input.tables().strings.size() + 1, -1);
  std::vector<TopKernel> names;
  std::vector<std::pair<int64_t, int64_t>> fp32;  // (dur, row)

  for (size_t i = 0; i < gpu.size(); ++i) {
    const GpuOp& op = gpu[i];
    if (op.kind != GpuOpKind::kKernel || !window.in_window[i]) continue;
    const int64_t dur = op.end - op.ts;
    ++report.kernels;
    accumulateDuration(report.total_ns, dur);
    CategoryTime& c = categories[static_cast<size_t>(op.category)];
    c.category = op.category;
    ++c.kernels;
    accumulateDuration(c.total_ns, dur);

    const StringId name = k.name[static_cast<size_t>(op.row)];
    int32_t& at = slot[name.valid() ? static_cast<size_t>(name.value) : slot.size() - 1];
    const bool inserted = at < 0;
    if (inserted) {
      at = static_cast<int32_t>(names.size());
      names.emplace_back();
    }
    TopKernel& t = names[static_cast<size_t>(at)];
    if (inserted) {
      t.name = name, t.category = op.category, t.min_ns = dur, t.max_ns = dur;
      t.longest_row = op.row;
    }
    ++t.kernels;
    accumulateDuration(t.total_ns, dur);
    t.min_ns = std::min(t.min_ns, dur);
    if (dur > t.max_ns) t.max_ns = dur, t.longest_row = op.row;

    switch (input.kernels().mathPath(name)) {
      case MathPath::kFp32Simt:
        accumulateDuration(report.fp32_matrix_ns, dur);
        fp32.emplace_back(dur, op.row);
        break;
      case MathPath::kTensorCore:
        accumulateDuration(report.tensor_core_ns, dur);
        break;
      default:
        break;
    }
    if (boundOf(op.category) == KernelBound::kCompute) accumulateDuration(report.matrix_ns, dur);
  }

  auto pct = [&](int64_t ns) {
    return report.total_ns > 0
               ? 100.0 * static_cast<double>(ns) / static_cast<double>(report.total_ns)
               : 0.0;
  };
  for (CategoryTime& c : categories) {
    if (c.kernels == 0) continue;
    c.pct = pct(c.total_ns);
    report.categories.push_back(c);
  }
  std::stable_sort(
      report.categories.begin(), report.categories.end(),
      [](const CategoryTime& a, const CategoryTime& b) { return a.total_ns > b.total_ns; });

  for (TopKernel& t : names) t.pct = pct(t.total_ns);
  report.top = std::move(names);
  std::sort(report.top.begin(), report.top.end(), [](const TopKernel& a, const TopKernel& b) {
    return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name.value < b.name.value;
  });
  if (report.top.size() > options.top_kernels) report.top.resize(options.top_kernels);

  const size_t evidence = std::min<size_t>(fp32.size(), 10);
  std::partial_sort(fp32.begin(), fp32.begin() + static_cast<std::ptrdiff_t>(evidence), fp32.end(),
                    [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = 0; i < evidence; ++i) report.fp32_matrix_rows.push_back(fp32[i].second);
  return report;
}

}  // namespace damscope
