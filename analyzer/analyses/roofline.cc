// Roofline placement: see roofline.h.
#include "analyzer/analyses/roofline.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <unordered_map>

#include "analyzer/analyses/kernel_precision.h"
#include "base/duration_sum.h"

namespace damscope {
namespace {

int trust(MetricSource s) {
  return s == MetricSource::kMeasured ? 0 : s == MetricSource::kAnnotated ? 1 : 2;
}

// Sums of one point's runs that have work.
struct Sum {
  std::string name;
  KernelCategory category = KernelCategory::kOther;
  std::optional<Precision> precision;
  int64_t kernels = 0, time_ns = 0, bytes_time_ns = 0;
  double flops = 0, bytes = 0, flops_with_bytes = 0;
  bool any_bytes = false;
  int worst = 0;  // least trusted source
  int64_t longest_ns = -1, longest_row = -1;

  void add(const GpuOp& op, const KernelWork& w) {
    const int64_t dur = op.end - op.ts;
    ++kernels, accumulateDuration(time_ns, dur), flops += w.flops;
    if (w.bytes) bytes += *w.bytes, flops_with_bytes += w.flops, any_bytes = true;
    worst = std::max(worst, trust(w.source));
    if (dur > longest_ns) longest_ns = dur, longest_row = op.row;
  }
};

constexpr MetricSource kByTrust[] = {MetricSource::kMeasured, MetricSource::kAnnotated,
                                     MetricSource::kEstimated};

RooflinePoint pointOf(const Sum& s, const DevicePeaks& peaks, Precision run_precision) {
  RooflinePoint p;
  p.name = s.name;
  p.category = s.category;
  p.precision = s.precision.value_or(run_precision);
  p.source = kByTrust[s.worst];
  p.kernels = s.kernels;
  p.time_ns = s.time_ns;
  p.flops = s.flops;
  if (s.any_bytes) p.bytes = s.bytes;
  if (s.any_bytes && s.bytes > 0 && s.flops_with_bytes > 0)
    p.intensity = s.flops_with_bytes / s.bytes;
  if (s.time_ns > 0) p.achieved_flops_per_s = s.flops / (static_cast<double>(s.time_ns) * 1e-9);
  const std::optional<double> peak = peaks.peakFlopsPerS(p.precision);
  if (peak && p.intensity && peaks.bandwidth_bytes_per_s) {
    p.ceiling_flops_per_s = std::min(*peak, *peaks.bandwidth_bytes_per_s * *p.intensity);
    p.memory_bound = *p.intensity < *peak / *peaks.bandwidth_bytes_per_s;
  } else if (peak && !p.intensity) {
    p.ceiling_flops_per_s = peak;
  }
  if (p.ceiling_flops_per_s && *p.ceiling_flops_per_s > 0 && p.flops > 0) {
    p.pct_of_ceiling = 100.0 * p.achieved_flops_per_s / *p.ceiling_flops_per_s;
  }
  if (s.longest_row >= 0) p.example_kernel_id = s.longest_row;
  return p;
}

// Bytes of one element of NCCL's / PyTorch's collective dtype names.
std::optional<double> dtypeBytes(std::string_view dtype) {
  std::string d(dtype);
  for (char& c : d) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (d == "float" || d == "float32" || d == "int" || d == "int32") return 4;
  if (d == "double" || d == "float64" || d == "long" || d == "int64") return 8;
  if (d == "half" || d == "float16" || d == "bfloat16" || d == "bf16") return 2;
  if (d == "byte" || d == "char" || d == "uint8" || d == "int8" || d == "bool") return 1;
  return std::nullopt;
}

// nccl-tests doc/PERFORMANCE.md: the bus bytes of one collective per rank.
struct BusBytes {
  std::string collective;
  double bytes = 0;
};
std::optional<BusBytes> busBytes(std::string_view args_json) {
  if (args_json.empty()) return std::nullopt;
  const nlohmann::json a = nlohmann::json::parse(args_json, nullptr, /*allow_exceptions=*/false);
  if (!a.is_object()) return std::nullopt;
  auto number = [&](const char* key) -> std::optional<double> {
    auto it = a.find(key);
    return it != a.end() && it->is_number() && it->get<double>() >= 0
               ? std::optional<double>(it->get<double>())
               : std::nullopt;
  };
  auto text = [&](const char* key) -> std::string {
    auto it = a.find(key);
    return it != a.end() && it->is_string() ? it->get<std::string>() : "";
  };
  std::string name = text("Collective name");
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::erase(name, '_');
  const auto size = dtypeBytes(text("dtype"));
  const auto in = number("In msg nelems"), out = number("Out msg nelems");
  const auto group = number("Group size");
  if (name.empty() || !size || !group || *group < 1) return std::nullopt;
  const double n = *group;
  double factor = 0, elements = 0;
  if (name == "allreduce") {
    factor = 2 * (n - 1) / n, elements = in.value_or(0);
  } else if (name == "allgather" || name == "allgatherbase" || name == "allgatherintocoalesced") {
    factor = (n - 1) / n, elements = out.value_or(0);
  } else if (name == "reducescatter" || name == "reducescatterbase" || name == "alltoall" ||
             name == "alltoallbase") {
    factor = (n - 1) / n, elements = in.value_or(0);
  } else if (name == "broadcast" || name == "reduce" || name == "send" || name == "recv") {
    factor = 1, elements = std::max(in.value_or(0), out.value_or(0));
  } else {
    return std::nullopt;
  }
  return BusBytes{name, factor * elements * *size};
}

}  // namespace

RooflineAnalysis computeRoofline(const AnalysisInput& in, const WindowReport& window,
                                 const KernelWorkReport& work, const DevicePeaks& peaks,
                                 Precision run_precision, const RooflineOptions& options) {
  RooflineAnalysis out;
  RooflineReport& r = out.report;
  r.bandwidth_bytes_per_s = peaks.bandwidth_bytes_per_s;
  const TraceTables& t = in.tables();
  std::vector<const KernelWork*> by_kernel(t.kernels.size(), nullptr);
  for (const KernelWork& w : work.kernels) by_kernel[static_cast<size_t>(w.kernel)] = &w;

  std::unordered_map<int32_t, Sum> by_name;
  // The precision a kernel name implies, read once per name (by string id).
  std::vector<std::optional<Precision>> precision_of(t.strings.size());
  std::vector<char> precision_read(t.strings.size(), 0);
  auto precisionOf = [&](StringId name) -> std::optional<Precision> {
    if (!name.valid()) return std::nullopt;
    const size_t id = static_cast<size_t>(name.value);
    if (!precision_read[id]) {
      precision_read[id] = 1;
      precision_of[id] = precisionOfKernelName(t.strings.get(name));
    }
    return precision_of[id];
  };
  std::array<Sum, kKernelCategoryCount> by_class;
  std::map<std::string, CollectivePoint> collectives;
  int64_t kernel_time = 0, work_time = 0;
  std::array<int64_t, 3> source_time{};
  const std::vector<GpuOp>& gpu = in.gpu();
  for (size_t g = 0; g < gpu.size(); ++g) {
    const GpuOp& op = gpu[g];
    if (op.kind != GpuOpKind::kKernel) continue;
    const size_t row = static_cast<size_t>(op.row);
    const KernelWork* w = by_kernel[row];
    const StringId name = t.kernels.name[row];
    // Every kernel with a point is placed by it, in the window or not.
    // A kernel that moves bytes and does no arithmetic sits at intensity 0:
    // below any ridge.
    bool sided = false;  // its side of the ridge comes from its point
    if (w && w->bytes && *w->bytes > 0 && peaks.bandwidth_bytes_per_s &&
        boundOf(op.category) != KernelBound::kCommunication) {
      const std::optional<double> peak =
          peaks.peakFlopsPerS(precisionOf(name).value_or(run_precision));
      if (peak) {
        sided = true;
        const bool memory = w->flops / *w->bytes < *peak / *peaks.bandwidth_bytes_per_s;
        const GpuWork side = memory ? GpuWork::kMemoryBound : GpuWork::kComputeBound;
        if (side != op.work) out.bound_overrides.emplace_back(op.row, side);
      }
    }
    if (!window.in_window[g]) continue;
    const int64_t dur = op.end - op.ts;
    if (op.work != GpuWork::kCommunication) accumulateDuration(kernel_time, dur);
    if (op.work == GpuWork::kCommunication) {
      if (auto bus = busBytes(t.kernels.args[row])) {
        CollectivePoint& c = collectives[bus->collective];
        c.name = bus->collective;
        ++c.kernels, accumulateDuration(c.time_ns, dur), c.bus_bytes += bus->bytes;
      }
      continue;
    }
    if (!w) continue;
    accumulateDuration(work_time, dur);
    if (sided) accumulateDuration(source_time[static_cast<size_t>(w->source)], dur);
    ++r.kernels_with_work;
    ++r.kernels_by_source[static_cast<size_t>(w->source)];
    Sum& s = by_name[name.value];
    if (s.kernels == 0) {
      s.name = std::string(t.strings.get(name));
      s.category = op.category;
      s.precision = precisionOf(name);
    }
    s.add(op, *w);
    Sum& c = by_class[static_cast<size_t>(op.category)];
    if (c.kernels == 0) {
      c.category = op.category;
      c.name = std::string(toText(op.category));
    }
    c.add(op, *w);
  }
  if (kernel_time > 0) {
    r.time_with_work_pct =
        100.0 * static_cast<double>(work_time) / static_cast<double>(kernel_time);
    for (size_t s = 0; s < source_time.size(); ++s) {
      r.time_by_source_pct[s] =
          100.0 * static_cast<double>(source_time[s]) / static_cast<double>(kernel_time);
    }
  }

  std::vector<const Sum*> names;
  names.reserve(by_name.size());
  for (const auto& [id, s] : by_name) names.push_back(&s);
  std::sort(names.begin(), names.end(), [](const Sum* a, const Sum* b) {
    return a->time_ns != b->time_ns ? a->time_ns > b->time_ns : a->name < b->name;
  });
  if (names.size() > options.kernel_points) names.resize(options.kernel_points);
  for (const Sum* s : names) r.kernels.push_back(pointOf(*s, peaks, run_precision));
  for (const Sum& s : by_class) {
    if (s.kernels > 0) r.classes.push_back(pointOf(s, peaks, run_precision));
  }
  std::sort(r.classes.begin(), r.classes.end(),
            [](const RooflinePoint& a, const RooflinePoint& b) { return a.time_ns > b.time_ns; });

  // A ceiling for each precision a point uses.
  std::array<bool, kPrecisionCount> used{};
  for (const RooflinePoint& p : r.kernels) used[static_cast<size_t>(p.precision)] = true;
  for (const RooflinePoint& p : r.classes) used[static_cast<size_t>(p.precision)] = true;
  used[static_cast<size_t>(run_precision)] = true;
  for (size_t i = 0; i < kPrecisionCount; ++i) {
    const auto peak = peaks.peakFlopsPerS(static_cast<Precision>(i));
    if (!used[i] || !peak) continue;
    RooflineCeiling c{static_cast<Precision>(i), *peak, std::nullopt};
    if (peaks.bandwidth_bytes_per_s) c.ridge_flops_per_byte = *peak / *peaks.bandwidth_bytes_per_s;
    r.ceilings.push_back(c);
  }

  for (auto& [name, c] : collectives) {
    if (c.time_ns > 0)
      c.achieved_bytes_per_s = c.bus_bytes / (static_cast<double>(c.time_ns) * 1e-9);
    c.link_bytes_per_s = peaks.peer_link_bytes_per_s;
    if (c.link_bytes_per_s && *c.link_bytes_per_s > 0) {
      c.pct_of_link = 100.0 * c.achieved_bytes_per_s / *c.link_bytes_per_s;
    }
    r.collectives.push_back(c);
  }
  return out;
}

}  // namespace damscope
