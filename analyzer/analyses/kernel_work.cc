// The work of each kernel: see kernel_work.h.
#include "analyzer/analyses/kernel_work.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "analyzer/analyses/model_annotation.h"
#include "analyzer/analyses/op_links.h"
#include "analyzer/analyses/op_shapes.h"

namespace damscope {
namespace {

// Most trusted first (kernel_work.h).
constexpr std::array<MetricSource, 3> kByTrust = {MetricSource::kMeasured, MetricSource::kAnnotated,
                                                  MetricSource::kEstimated};
int trust(MetricSource s) {
  return s == MetricSource::kMeasured ? 0 : s == MetricSource::kAnnotated ? 1 : 2;
}

struct RangeCounts {
  double flops = 0;
  std::optional<double> bytes;
  MetricSource source = MetricSource::kEstimated;
  bool model_math = false;  // a matrix, convolution or attention op's shapes: its matrix kernels did the math
};

std::optional<double> positive(double v) {
  return std::isfinite(v) && v > 0 ? std::optional<double>(v) : std::nullopt;
}

// {"op":..,"flops":..,"bytes":..} in domain "damscope" (DESIGN.md, "Workload annotations").
std::optional<RangeCounts> opAnnotation(std::string_view message) {
  const std::optional<OpAnnotation> a = parseOpAnnotation(message);
  if (!a || (!a->flops && !a->bytes)) return std::nullopt;
  RangeCounts c;
  c.source = MetricSource::kAnnotated;
  c.flops = a->flops.value_or(0);
  c.bytes = a->bytes;
  return c;
}

// The counts every range carries, from the best source it has.
std::unordered_map<int64_t, RangeCounts> rangeCounts(const TraceTables& t) {
  std::unordered_map<int64_t, RangeCounts> out;
  auto offer = [&](int64_t range, const RangeCounts& c) {
    auto [it, inserted] = out.try_emplace(range, c);
    if (!inserted && trust(c.source) < trust(it->second.source)) it->second = c;
  };
  const KernelMetricTable& km = t.kernel_metrics;
  for (size_t i = 0; i < km.size(); ++i) {
    if (isNull(km.range_id[i]) || !isNull(km.kernel_id[i])) continue;
    RangeCounts c;
    c.flops = positive(km.flops[i]).value_or(0);
    c.bytes = positive(km.dram_bytes[i]);
    c.source = km.source[i];
    if (c.flops > 0 || c.bytes) offer(km.range_id[i], c);
  }
  const StringId domain = t.strings.find("damscope");
  // Whether an op name is one op_shapes.h can count: asked once per name.
  std::unordered_map<int32_t, bool> countable;
  OpWorkCounter shapes;
  const OpLinks links = linkOps(t);
  for (size_t i = 0; i < t.ranges.size(); ++i) {
    if (isNull(t.ranges.thread_id[i])) continue;  // host ranges launch kernels
    const std::string_view name = t.strings.get(t.ranges.name[i]);
    if (domain.valid() && t.ranges.domain[i] == domain) {
      if (auto c = opAnnotation(name)) offer(static_cast<int64_t>(i), *c);
      continue;
    }
    auto [known, inserted] = countable.try_emplace(t.ranges.name[i].value, false);
    if (inserted) known->second = countsOpWork(name);
    if (!known->second) continue;
    const int64_t row = static_cast<int64_t>(i);
    const OpCall call{name, t.ranges.args[i], links.outputDims(t, row), links.forwardArgs(t, row)};
    if (std::optional<OpWork> w = shapes.count(call)) {
      // A forward op run again for checkpointing did its math once already.
      if (links.isRecomputed(row)) w->model_math = false;
      auto it = out.find(row);
      if (it != out.end() && it->second.source == MetricSource::kEstimated) {
        // PyTorch's own FLOP count stands; the shapes add the bytes.
        if (!it->second.bytes) it->second.bytes = w->bytes;
        it->second.model_math = w->model_math;
      } else {
        offer(row, {w->flops, w->bytes, MetricSource::kEstimated, w->model_math});
      }
    }
  }
  return out;
}

struct Interval {
  int64_t start = 0;
  int64_t end = 0;
  int64_t range = 0;
};

using RangesByThread = std::unordered_map<int64_t, std::vector<Interval>>;

void addRange(const TraceTables& t, int64_t range, RangesByThread& by_thread) {
  const size_t r = static_cast<size_t>(range);
  by_thread[t.ranges.thread_id[r]].push_back(
      {t.ranges.ts[r], t.ranges.ts[r] + std::max<int64_t>(t.ranges.dur[r], 0), range});
}

// For each kernel `wanted` says to look for, launched by a call inside one of
// the ranges, the innermost such range on the call's thread (`by_thread`'s
// lists are sorted in place).
template <typename Wanted>
std::unordered_map<int64_t, std::vector<size_t>> launchesIn(const AnalysisInput& in,
                                                            RangesByThread& by_thread,
                                                            const Wanted& wanted) {
  const TraceTables& t = in.tables();
  if (by_thread.empty()) return {};
  struct Launch {
    int64_t ts;
    size_t op;
  };
  // The kernels each call launched (a CUDA graph launch runs many under one
  // correlation id), then the calls in table order: the store keeps
  // api_calls sorted by time, so each thread's list comes out sorted without
  // a sort of a million launches (checked, and sorted if not). The kernels
  // of call c are kernels[first[c] .. first[c + 1]).
  const std::vector<GpuOp>& gpu = in.gpu();
  std::vector<int32_t> first(t.api_calls.size() + 1, 0);
  const auto launched = [&](const GpuOp& op) {
    return op.kind == GpuOpKind::kKernel && op.launch >= 0 &&
           static_cast<size_t>(op.launch) < t.api_calls.size() && wanted(op);
  };
  for (const GpuOp& op : gpu) {
    if (launched(op)) ++first[static_cast<size_t>(op.launch) + 1];
  }
  for (size_t c = 1; c < first.size(); ++c) first[c] += first[c - 1];
  std::vector<int32_t> kernels(static_cast<size_t>(first.back()));
  {
    std::vector<int32_t> filled(first.begin(), first.end() - 1);
    for (size_t g = 0; g < gpu.size(); ++g) {
      if (launched(gpu[g])) {
        kernels[static_cast<size_t>(filled[static_cast<size_t>(gpu[g].launch)]++)] =
            static_cast<int32_t>(g);
      }
    }
  }
  // Consecutive calls mostly come from one thread and one range: the last
  // lookup is kept, which spares a million hash lookups.
  std::unordered_map<int64_t, std::vector<Launch>> launches;
  int64_t last_thread = kNullInt;
  std::vector<Launch>* last_launches = nullptr;  // null: the thread has none of the ranges
  for (size_t call = 0; call + 1 < first.size(); ++call) {
    if (first[call] == first[call + 1]) continue;
    const int64_t thread = t.api_calls.thread_id[call];
    if (thread != last_thread || last_launches == nullptr) {
      last_thread = thread;
      last_launches = by_thread.count(thread) ? &launches[thread] : nullptr;
    }
    if (!last_launches) continue;
    for (int32_t k = first[call]; k < first[call + 1]; ++k) {
      last_launches->push_back({t.api_calls.ts[call], static_cast<size_t>(kernels[static_cast<size_t>(k)])});
    }
  }
  std::unordered_map<int64_t, std::vector<size_t>> out;  // range -> gpu op indexes
  for (auto& [thread, calls] : launches) {
    std::vector<Interval>& ranges = by_thread[thread];
    std::sort(ranges.begin(), ranges.end(), [](const Interval& a, const Interval& b) {
      return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    const auto by_time = [](const Launch& a, const Launch& b) { return a.ts < b.ts; };
    if (!std::is_sorted(calls.begin(), calls.end(), by_time)) {
      std::sort(calls.begin(), calls.end(), by_time);
    }
    // A sweep with the ranges open at the call: ranges on one thread nest, so
    // the last opened that is still open is the innermost.
    std::vector<const Interval*> open;
    size_t next = 0;
    const Interval* last_range = nullptr;
    std::vector<size_t>* last_ops = nullptr;
    for (const Launch& call : calls) {
      while (next < ranges.size() && ranges[next].start <= call.ts) open.push_back(&ranges[next++]);
      while (!open.empty() && open.back()->end <= call.ts) open.pop_back();
      if (open.empty()) continue;
      if (open.back() != last_range) {
        last_range = open.back();
        last_ops = &out[last_range->range];
      }
      last_ops->push_back(call.op);
    }
  }
  return out;
}

}  // namespace

KernelWorkReport computeKernelWork(const AnalysisInput& in) {
  const TraceTables& t = in.tables();
  KernelWorkReport report;
  // Few kernels have counts: a slot per kernel into a compact list, and the
  // trust of what each has so far (3: nothing).
  std::vector<int32_t> slot(t.kernels.size(), -1);
  std::vector<int8_t> best_trust(t.kernels.size(), 3);
  auto give = [&](const KernelWork& w) {
    int32_t& s = slot[static_cast<size_t>(w.kernel)];
    if (s < 0) {
      s = static_cast<int32_t>(report.kernels.size());
      report.kernels.push_back(w);
    } else {
      report.kernels[static_cast<size_t>(s)] = w;
    }
    best_trust[static_cast<size_t>(w.kernel)] = static_cast<int8_t>(trust(w.source));
  };

  const KernelMetricTable& km = t.kernel_metrics;
  for (size_t i = 0; i < km.size(); ++i) {
    const int64_t k = km.kernel_id[i];
    if (isNull(k) || k < 0 || static_cast<size_t>(k) >= t.kernels.size()) continue;
    const std::optional<double> flops = positive(km.flops[i]), bytes = positive(km.dram_bytes[i]);
    if ((!flops && !bytes) || trust(km.source[i]) >= best_trust[static_cast<size_t>(k)]) continue;
    give(KernelWork{k, flops.value_or(0), bytes, km.source[i], kNullInt});
  }

  const std::unordered_map<int64_t, RangeCounts> counts = rangeCounts(t);
  std::vector<char> has_kernels(t.ranges.size(), 0);
  // An op of a cpu device is its range's whole work: nothing else ran in it.
  for (const GpuOp& op : in.gpu()) {
    const int64_t range = in.opRange(op);
    if (isNull(range)) continue;
    auto it = counts.find(range);
    if (it == counts.end() || trust(it->second.source) >= best_trust[static_cast<size_t>(op.row)]) {
      continue;
    }
    has_kernels[static_cast<size_t>(range)] = 1;
    give(KernelWork{op.row, it->second.flops, it->second.bytes, it->second.source, range});
  }
  for (MetricSource source : kByTrust) {
    RangesByThread ranges;
    for (const auto& [range, c] : counts) {
      if (c.source == source) addRange(t, range, ranges);
    }
    const auto lacks_better = [&](const GpuOp& op) {
      return best_trust[static_cast<size_t>(op.row)] > trust(source);
    };
    for (auto& [range, ops] : launchesIn(in, ranges, lacks_better)) {
      has_kernels[static_cast<size_t>(range)] = 1;
      const RangeCounts& c = counts.at(range);
      // A matrix op's FLOPs are its GEMM's, not those of the transposes,
      // bias or memset kernels it launches beside it; its bytes are shared
      // by all of them. Without a matrix kernel, every kernel shares both.
      const auto matrix = [&](size_t g) {
        return boundOf(in.gpu()[g].category) == KernelBound::kCompute;
      };
      const bool matrix_flops = c.model_math && std::any_of(ops.begin(), ops.end(), matrix);
      double total = 0, matrix_total = 0;
      for (size_t g : ops) {
        const double d = static_cast<double>(in.gpu()[g].end - in.gpu()[g].ts);
        total += d;
        if (!matrix_flops || matrix(g)) matrix_total += d;
      }
      const auto shareOf = [&](size_t g, double of, size_t count) {
        return of > 0 ? static_cast<double>(in.gpu()[g].end - in.gpu()[g].ts) / of
                      : 1.0 / static_cast<double>(count);
      };
      const size_t flops_kernels =
          matrix_flops ? static_cast<size_t>(std::count_if(ops.begin(), ops.end(), matrix)) : ops.size();
      for (size_t g : ops) {
        const GpuOp& op = in.gpu()[g];
        const bool does_math = !matrix_flops || matrix(g);
        KernelWork w{op.row, does_math ? c.flops * shareOf(g, matrix_total, flops_kernels) : 0,
                     std::nullopt, source, range};
        w.model_math = c.model_math && does_math;
        if (c.bytes) w.bytes = *c.bytes * shareOf(g, total, ops.size());
        if (w.flops > 0 || w.bytes) give(w);
      }
    }
  }
  for (const auto& [range, c] : counts) {
    if (!has_kernels[static_cast<size_t>(range)]) ++report.ranges_without_kernels;
  }
  std::sort(report.kernels.begin(), report.kernels.end(),
            [](const KernelWork& a, const KernelWork& b) { return a.kernel < b.kernel; });
  for (const KernelWork& w : report.kernels) {
    ++report.kernels_by_source[static_cast<size_t>(w.source)];
  }
  return report;
}

}  // namespace damscope
