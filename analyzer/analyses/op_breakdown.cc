// Where the time goes, by op, module and range: see op_breakdown.h.
#include "analyzer/analyses/op_breakdown.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <numeric>
#include <span>
#include <unordered_map>

#include "base/duration_sum.h"

namespace damscope {
namespace {

constexpr int32_t kNoSlot = -1;
constexpr std::string_view kModulePrefix = "nn.Module: ";

// Text of the value that follows `"key":` in a flat JSON object (Kineto's
// args), up to the end of a bracketed array, a string or a number; "" when
// absent. Reading only these fields keeps the per-range cost to a search:
// the args also hold long call stacks.
std::string_view fieldText(std::string_view object, std::string_view quoted_key) {
  const size_t at = object.find(quoted_key);
  if (at == std::string_view::npos) return {};
  size_t i = at + quoted_key.size();
  while (i < object.size() && (object[i] == ' ' || object[i] == ':')) ++i;
  if (i >= object.size()) return {};
  const size_t start = i;
  if (object[i] == '[') {
    int depth = 0;
    bool in_string = false;
    for (; i < object.size(); ++i) {
      const char c = object[i];
      if (in_string) {
        if (c == '\\')
          ++i;
        else if (c == '"')
          in_string = false;
      } else if (c == '"') {
        in_string = true;
      } else if (c == '[') {
        ++depth;
      } else if (c == ']' && --depth == 0) {
        return object.substr(start, i + 1 - start);
      }
    }
    return {};
  }
  if (object[i] == '"') {
    const size_t close = object.find('"', i + 1);  // module paths hold no escapes
    return close == std::string_view::npos ? std::string_view()
                                           : object.substr(i + 1, close - i - 1);
  }
  while (i < object.size() && object[i] != ',' && object[i] != '}') ++i;
  return object.substr(start, i - start);
}

std::optional<int64_t> intField(std::string_view object, std::string_view quoted_key) {
  const std::string_view text = fieldText(object, quoted_key);
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

// The module a range names, or "" when it is not a module range.
std::string_view moduleName(std::string_view category, std::string_view name) {
  if (category == "python_function" && name.starts_with(kModulePrefix)) {
    return name.substr(kModulePrefix.size());
  }
  if (name.size() > 4 && name.starts_with("## ") && name.ends_with(" ##")) {
    return name.substr(3, name.size() - 6);
  }
  return {};
}

bool isRangeGrouping(std::string_view category) {
  return category != "cpu_op" && category != "python_function" && category != "nvtx_mark" &&
         category != "gpu_user_annotation";
}

// Per slot, what the rows need beyond OpRow: the byte-counted part of the
// FLOPs, for the intensity.
struct Work {
  double flops_with_bytes = 0;
  double bytes = 0;
};

class Attribution {
 public:
  Attribution(const AnalysisInput& input, const WindowReport& window,
              const OpBreakdownOptions& options)
      : in_(input),
        r_(input.tables().ranges),
        strings_(input.tables().strings),
        window_(window),
        options_(options),
        slot_(r_.size(), kNoSlot),
        slot_by_name_(strings_.size() + 1, kNoSlot) {}

  OpBreakdownReport run(const KernelWorkReport& work, const OpRoofs& roofs);
  std::vector<std::string> innermostNames(std::span<const HostMoment> moments);

 private:
  bool annotations() const { return options_.grouping == OpGrouping::kAnnotation; }
  bool hostRange(size_t r) const { return !isNull(r_.thread_id[r]); }
  int64_t end(size_t r) const { return r_.ts[r] + std::max<int64_t>(r_.dur[r], 0); }
  bool inWindow(size_t r) const;
  int32_t slotFor(std::string_view name, std::string_view shapes);
  void classifyRanges();
  void indexTimelines();
  void linkBackward();
  int64_t innermostAt(std::span<const int32_t> timeline, int64_t t) const;
  // Slots charged for a GPU operation launched (or, kAnnotation, started) in
  // `innermost`: `chain` gets them innermost first, each once.
  void collect(int64_t innermost, bool follow_backward);
  void chargeGpu(const KernelWorkReport& work);
  void chargeRanges();
  void finish(const OpRoofs& roofs);

  const AnalysisInput& in_;
  const RangeTable& r_;
  const StringPool& strings_;
  const WindowReport& window_;
  const OpBreakdownOptions& options_;
  OpBreakdownReport report_;
  std::vector<OpRow> rows_;
  std::vector<Work> work_;
  std::unordered_map<std::string, int32_t> slot_by_key_;
  std::vector<int32_t> slot_;          // per ranges row: its row, or kNoSlot
  std::vector<int32_t> slot_by_name_;  // per string id, when rows are by name alone
  // kModule: per ranges row, the slots of its "Module Hierarchy" (innermost
  // first) as [begin, end) in hierarchy_slots_; and a backward node's
  // forward op.
  std::vector<std::pair<uint32_t, uint32_t>> hierarchy_;
  std::vector<int32_t> hierarchy_slots_;
  std::vector<int64_t> forward_of_;
  // Ranges per timeline, in time order: per host thread (threads row), or per
  // (device, stream) for GPU annotations.
  // Ranges per timeline (ranges rows, in time order). Host ranges by thread
  // in one array sized by a counting pass: thread i's are
  // [thread_begin_[i], thread_begin_[i + 1]). Memory first touched costs
  // more than the search itself on this project's VMs (page faults,
  // bench/analysis_bench.cc), so no array grows by doubling and the starts
  // are not copied. GPU annotations per (device, stream): a few.
  std::vector<uint32_t> thread_begin_;
  std::vector<int32_t> thread_rows_;
  std::map<std::pair<int32_t, int64_t>, std::vector<int32_t>> by_stream_;
  std::span<const int32_t> threadTimeline(int64_t thread) const;
  std::vector<int32_t> chain_;
  bool backward_charged_ = false;
  std::vector<std::vector<int32_t>> gpu_ops_;          // per slot, with keep_gpu_ops
  std::vector<std::vector<int32_t>> slots_of_gpu_op_;  // per GPU op, with keep_rows_of_gpu_op
};

bool Attribution::inWindow(size_t r) const {
  const int64_t ts = r_.ts[r];
  if (window_.mode == WindowMode::kRange) return ts >= window_.start && ts < window_.end;
  if (!hostRange(r)) return isNull(window_.gpu_end) || ts < window_.gpu_end;
  return !window_.cut || ts < window_.cutoff_ns;
}

int32_t Attribution::slotFor(std::string_view name, std::string_view shapes) {
  std::string key(name);
  key += '\x1f';
  key += shapes;
  auto [it, inserted] =
      slot_by_key_.try_emplace(std::move(key), static_cast<int32_t>(rows_.size()));
  if (inserted) {
    OpRow row;
    row.name = std::string(name);
    row.shapes = std::string(shapes);
    rows_.push_back(std::move(row));
    work_.emplace_back();
  }
  return it->second;
}

void Attribution::classifyRanges() {
  const StringId cpu_op = strings_.find("cpu_op");
  const StringId annotation = strings_.find("gpu_user_annotation");
  const bool modules = options_.grouping == OpGrouping::kModule;
  if (modules) hierarchy_.assign(r_.size(), {0, 0});
  for (size_t r = 0; r < r_.size(); ++r) {
    const StringId category = r_.category[r];
    const StringId name = r_.name[r];
    bool member = false;
    switch (options_.grouping) {
      case OpGrouping::kOp:
      case OpGrouping::kLeafOp:
        member = cpu_op.valid() && category == cpu_op && hostRange(r);
        break;
      case OpGrouping::kRange:
        member = hostRange(r) && isRangeGrouping(strings_.get(category));
        break;
      case OpGrouping::kAnnotation:
        member = annotation.valid() && category == annotation && !hostRange(r);
        break;
      case OpGrouping::kModule:
        member = hostRange(r) && !moduleName(strings_.get(category), strings_.get(name)).empty();
        if (!member && cpu_op.valid() && category == cpu_op) {
          // "model.layers.0.mlp" -> model.layers.0.mlp, model.layers.0, model.layers, model.
          std::string_view path = fieldText(r_.args[r], "\"Module Hierarchy\"");
          const auto begin = static_cast<uint32_t>(hierarchy_slots_.size());
          while (!path.empty()) {
            hierarchy_slots_.push_back(slotFor(path, {}));
            const size_t dot = path.rfind('.');
            path = dot == std::string_view::npos ? std::string_view() : path.substr(0, dot);
          }
          hierarchy_[r] = {begin, static_cast<uint32_t>(hierarchy_slots_.size())};
        }
        break;
    }
    if (!member) continue;
    if (options_.by_shape && cpu_op.valid() && category == cpu_op) {
      slot_[r] = slotFor(strings_.get(name), fieldText(r_.args[r], "\"Input Dims\""));
    } else {
      int32_t& by_name =
          slot_by_name_[name.valid() ? static_cast<size_t>(name.value) : slot_by_name_.size() - 1];
      if (by_name == kNoSlot) {
        const std::string_view text = strings_.get(name);
        const std::string_view module = modules ? moduleName(strings_.get(category), text) : text;
        by_name = slotFor(module, {});
      }
      slot_[r] = by_name;
    }
    // Host ranges give their rows host time; GPU annotations and the
    // "Module Hierarchy" paths have none.
    OpRow& row = rows_[static_cast<size_t>(slot_[r])];
    if (hostRange(r) && !row.cpu_total_ns) row.cpu_total_ns = 0, row.cpu_self_ns = 0;
  }
}

void Attribution::indexTimelines() {
  const size_t threads = in_.tables().threads.size();
  auto known = [&](int64_t thread) { return thread >= 0 && static_cast<size_t>(thread) < threads; };
  if (annotations()) {
    for (size_t r = 0; r < r_.size(); ++r) {
      if (slot_[r] == kNoSlot) continue;
      by_stream_[{r_.device[r], r_.stream[r]}].push_back(static_cast<int32_t>(r));
    }
    return;
  }
  thread_begin_.assign(threads + 1, 0);
  for (size_t r = 0; r < r_.size(); ++r) {
    if (known(r_.thread_id[r])) ++thread_begin_[static_cast<size_t>(r_.thread_id[r]) + 1];
  }
  for (size_t i = 1; i <= threads; ++i) thread_begin_[i] += thread_begin_[i - 1];
  thread_rows_.resize(thread_begin_[threads]);
  std::vector<uint32_t> next(thread_begin_.begin(), thread_begin_.end() - 1);
  for (size_t r = 0; r < r_.size(); ++r) {
    if (!known(r_.thread_id[r])) continue;
    thread_rows_[next[static_cast<size_t>(r_.thread_id[r])]++] = static_cast<int32_t>(r);
  }
}

std::span<const int32_t> Attribution::threadTimeline(int64_t thread) const {
  if (thread < 0 || static_cast<size_t>(thread) + 1 >= thread_begin_.size()) return {};
  const uint32_t begin = thread_begin_[static_cast<size_t>(thread)];
  const uint32_t end = thread_begin_[static_cast<size_t>(thread) + 1];
  return std::span<const int32_t>(thread_rows_).subspan(begin, end - begin);
}

// Backward nodes -> the forward op that created them (see the header).
void Attribution::linkBackward() {
  forward_of_.assign(r_.size(), kNullInt);
  const StringId cpu_op = strings_.find("cpu_op");
  std::unordered_map<int64_t, int64_t> forward_by_sequence;
  for (size_t r = 0; r < r_.size(); ++r) {
    if (!cpu_op.valid() || r_.category[r] != cpu_op || r_.args[r].empty()) continue;
    const std::optional<int64_t> sequence = intField(r_.args[r], "\"Sequence number\"");
    if (!sequence || *sequence < 0) continue;
    const int64_t fwd_thread = intField(r_.args[r], "\"Fwd thread id\"").value_or(0);
    if (fwd_thread == 0) {
      forward_by_sequence[*sequence] = static_cast<int64_t>(r);  // ranges are in time order
      continue;
    }
    auto it = forward_by_sequence.find(*sequence);
    if (it != forward_by_sequence.end()) forward_of_[r] = it->second;
  }
}

// The innermost range of a timeline that contains time `t`, or kNullInt: the
// last range to start at or before t, or the first of its enclosing ranges
// that is still open at t.
int64_t Attribution::innermostAt(std::span<const int32_t> timeline, int64_t t) const {
  const auto it = std::upper_bound(
      timeline.begin(), timeline.end(), t,
      [&](int64_t time, int32_t row) { return time < r_.ts[static_cast<size_t>(row)]; });
  if (it == timeline.begin()) return kNullInt;
  int64_t r = *(it - 1);
  while (!isNull(r) && end(static_cast<size_t>(r)) <= t) r = r_.parent_id[static_cast<size_t>(r)];
  return r;
}

void Attribution::collect(int64_t innermost, bool follow_backward) {
  const bool modules = options_.grouping == OpGrouping::kModule;
  int64_t hierarchy_at = kNullInt, backward_at = kNullInt;
  for (int64_t r = innermost; !isNull(r); r = r_.parent_id[static_cast<size_t>(r)]) {
    const auto row = static_cast<size_t>(r);
    const int32_t slot = slot_[row];
    if (slot != kNoSlot) {
      if (options_.grouping == OpGrouping::kLeafOp) {
        chain_.push_back(slot);
        return;
      }
      if (std::find(chain_.begin(), chain_.end(), slot) == chain_.end()) chain_.push_back(slot);
    }
    if (modules && isNull(hierarchy_at) && hierarchy_[row].first != hierarchy_[row].second) {
      hierarchy_at = r;
    }
    if (modules && isNull(backward_at) && !isNull(forward_of_[row])) backward_at = r;
  }
  if (!chain_.empty() || !modules) return;
  if (!isNull(hierarchy_at)) {
    const auto [begin, end] = hierarchy_[static_cast<size_t>(hierarchy_at)];
    chain_.assign(hierarchy_slots_.begin() + begin, hierarchy_slots_.begin() + end);
    return;
  }
  if (follow_backward && !isNull(backward_at)) {
    collect(forward_of_[static_cast<size_t>(backward_at)], false);
    backward_charged_ = !chain_.empty();
  }
}

void Attribution::chargeGpu(const KernelWorkReport& work) {
  const TraceTables& t = in_.tables();
  // work.kernels is by kernels row: a kernel's counts are found by search.
  auto work_of = [&](int64_t kernel) -> const KernelWork* {
    auto it = std::lower_bound(work.kernels.begin(), work.kernels.end(), kernel,
                               [](const KernelWork& w, int64_t row) { return w.kernel < row; });
    return it != work.kernels.end() && it->kernel == kernel ? &*it : nullptr;
  };
  const std::vector<GpuOp>& gpu = in_.gpu();
  for (size_t i = 0; i < gpu.size(); ++i) {
    const GpuOp& op = gpu[i];
    if (op.kind == GpuOpKind::kSync || !window_.in_window[i]) continue;
    const int64_t dur = op.end - op.ts;
    ++report_.gpu_ops;
    accumulateDuration(report_.gpu_ns, dur);
    const KernelWork* w = op.kind == GpuOpKind::kKernel ? work_of(op.row) : nullptr;
    // A computation kernel with no work is off the roofline.
    const bool computation = op.kind == GpuOpKind::kKernel && op.work != GpuWork::kCommunication;
    const bool unplaced = computation && (w == nullptr || (!(w->flops > 0) && !w->bytes));
    if (computation) accumulateDuration(report_.kernel_ns, dur);
    if (unplaced) accumulateDuration(report_.unplaced_ns, dur);
    chain_.clear();
    backward_charged_ = false;
    if (annotations()) {
      auto it = by_stream_.find({op.device, op.stream});
      if (it != by_stream_.end()) collect(innermostAt(it->second, op.ts), false);
    } else {
      if (op.launch < 0) {
        ++report_.unattributed_ops;
        accumulateDuration(report_.unattributed_ns, dur);
        continue;
      }
      const auto launch = static_cast<size_t>(op.launch);
      const int64_t thread = t.api_calls.thread_id[launch];
      collect(innermostAt(threadTimeline(thread), t.api_calls.ts[launch]), true);
    }
    if (chain_.empty()) {
      ++report_.outside_ops;
      accumulateDuration(report_.outside_ns, dur);
      continue;
    }
    if (backward_charged_) ++report_.backward_ops;
    if (options_.keep_rows_of_gpu_op) {
      slots_of_gpu_op_.resize(gpu.size());
      slots_of_gpu_op_[i] = chain_;
    }
    for (size_t c = 0; c < chain_.size(); ++c) {
      OpRow& row = rows_[static_cast<size_t>(chain_[c])];
      ++row.gpu_ops;
      if (options_.keep_gpu_ops) {
        if (gpu_ops_.size() < rows_.size()) gpu_ops_.resize(rows_.size());
        gpu_ops_[static_cast<size_t>(chain_[c])].push_back(static_cast<int32_t>(i));
      }
      if (!annotations()) {
        accumulateDuration(row.gpu_total_ns, dur);
        if (c == 0) accumulateDuration(row.gpu_self_ns, dur);
        if (unplaced) accumulateDuration(row.unplaced_ns, dur);
      }
      if (w != nullptr && w->flops > 0) {
        row.flops += w->flops;
        accumulateDuration(row.flop_time_ns, dur);
        if (w->bytes) {
          Work& x = work_[static_cast<size_t>(chain_[c])];
          x.flops_with_bytes += w->flops;
          x.bytes += *w->bytes;
        }
      }
    }
  }
}

void Attribution::chargeRanges() {
  const bool leaf = options_.grouping == OpGrouping::kLeafOp;
  for (size_t r = 0; r < r_.size(); ++r) {
    const int32_t slot = slot_[r];
    if (slot == kNoSlot || !inWindow(r)) continue;
    const int64_t dur = std::max<int64_t>(r_.dur[r], 0);
    // The nearest enclosing range of the grouping, and whether one of the
    // same row encloses this one.
    int64_t parent = kNullInt;
    bool nested_in_same = false;
    for (int64_t p = r_.parent_id[r]; !isNull(p) && !nested_in_same;
         p = r_.parent_id[static_cast<size_t>(p)]) {
      const int32_t s = slot_[static_cast<size_t>(p)];
      if (s == kNoSlot) continue;
      if (isNull(parent)) parent = p;
      nested_in_same = s == slot;
    }
    OpRow& row = rows_[static_cast<size_t>(slot)];
    ++row.calls;
    const bool parent_counts = !isNull(parent) && inWindow(static_cast<size_t>(parent));
    OpRow* parent_row =
        parent_counts ? &rows_[static_cast<size_t>(slot_[static_cast<size_t>(parent)])] : nullptr;
    if (annotations()) {
      accumulateDuration(row.gpu_total_ns, dur);
      accumulateDuration(row.gpu_self_ns, dur);
      if (parent_row != nullptr) accumulateDuration(parent_row->gpu_self_ns, -dur);
      continue;
    }
    accumulateDuration(*row.cpu_self_ns, dur);
    if (parent_row != nullptr) accumulateDuration(*parent_row->cpu_self_ns, -dur);
    if (!nested_in_same && !leaf) accumulateDuration(*row.cpu_total_ns, dur);
  }
  // A leaf op's host time is its self time: the flat profile.
  if (leaf) {
    for (OpRow& row : rows_) row.cpu_total_ns = row.cpu_self_ns;
  }
}

void Attribution::finish(const OpRoofs& roofs) {
  auto pct = [&](int64_t ns) {
    return report_.window_ns > 0
               ? 100.0 * static_cast<double>(ns) / static_cast<double>(report_.window_ns)
               : 0.0;
  };
  for (size_t s = 0; s < rows_.size(); ++s) {
    OpRow& row = rows_[s];
    row.gpu_total_pct = pct(row.gpu_total_ns);
    row.cpu_total_pct = row.cpu_total_ns ? pct(*row.cpu_total_ns) : 0.0;
    if (row.flops <= 0 || row.flop_time_ns <= 0) continue;
    row.achieved_flops_per_s = row.flops / (static_cast<double>(row.flop_time_ns) * 1e-9);
    const Work& w = work_[s];
    if (w.bytes > 0) row.intensity = w.flops_with_bytes / w.bytes;
    if (!roofs.peak_flops_per_s) continue;
    const double peak = *roofs.peak_flops_per_s;
    double ceiling = peak;
    if (row.intensity && roofs.bandwidth_bytes_per_s && *roofs.bandwidth_bytes_per_s > 0) {
      const double bandwidth = *roofs.bandwidth_bytes_per_s;
      ceiling = std::min(peak, bandwidth * *row.intensity);
      row.memory_bound = *row.intensity < peak / bandwidth;
    }
    if (ceiling > 0) {
      row.ceiling_flops_per_s = ceiling;
      row.pct_of_ceiling = 100.0 * *row.achieved_flops_per_s / ceiling;
    }
  }
}

OpBreakdownReport Attribution::run(const KernelWorkReport& work, const OpRoofs& roofs) {
  report_.grouping = options_.grouping;
  if (!isNull(window_.start) && !isNull(window_.end) && window_.end > window_.start) {
    report_.window_ns = window_.end - window_.start;
  }
  classifyRanges();
  indexTimelines();
  if (options_.grouping == OpGrouping::kModule) linkBackward();
  chargeGpu(work);
  chargeRanges();
  finish(roofs);

  auto key = [&](const OpRow& row) -> int64_t {
    switch (options_.sort) {
      case OpSort::kCpu:
        return row.cpu_total_ns.value_or(0);
      case OpSort::kCalls:
        return row.calls;
      case OpSort::kGpu:
        break;
    }
    return row.gpu_total_ns;
  };
  // Sorted through an order of slots, so that each row's GPU operations
  // follow it.
  std::vector<size_t> order(rows_.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    const OpRow& a = rows_[x];
    const OpRow& b = rows_[y];
    const int64_t ka = key(a), kb = key(b);
    if (ka != kb) return ka > kb;
    return a.name != b.name ? a.name < b.name : a.shapes < b.shapes;
  });
  report_.row_count = rows_.size();
  if (options_.top > 0 && order.size() > options_.top) order.resize(options_.top);
  report_.rows.reserve(order.size());
  if (options_.keep_gpu_ops)
    gpu_ops_.resize(rows_.size()), report_.gpu_ops_of_row.reserve(order.size());
  for (size_t slot : order) {
    report_.rows.push_back(std::move(rows_[slot]));
    if (options_.keep_gpu_ops) report_.gpu_ops_of_row.push_back(std::move(gpu_ops_[slot]));
  }
  if (options_.keep_rows_of_gpu_op) {
    // Slots become the rows' sorted positions; a slot cut by `top` has none.
    std::vector<int32_t> row_of_slot(rows_.size(), -1);
    for (size_t r = 0; r < order.size(); ++r) row_of_slot[order[r]] = static_cast<int32_t>(r);
    report_.rows_of_gpu_op.resize(in_.gpu().size());
    for (size_t g = 0; g < slots_of_gpu_op_.size(); ++g) {
      for (int32_t slot : slots_of_gpu_op_[g]) {
        const int32_t row = row_of_slot[static_cast<size_t>(slot)];
        if (row >= 0) report_.rows_of_gpu_op[g].push_back(row);
      }
    }
  }
  return std::move(report_);
}

// Only the rows' names are wanted: the ranges are classified and indexed as
// for a table, and each moment followed to its rows as a GPU operation's
// launch is, without charging anything.
std::vector<std::string> Attribution::innermostNames(std::span<const HostMoment> moments) {
  classifyRanges();
  indexTimelines();
  if (options_.grouping == OpGrouping::kModule) linkBackward();
  std::vector<std::string> out(moments.size());
  for (size_t i = 0; i < moments.size(); ++i) {
    chain_.clear();
    collect(innermostAt(threadTimeline(moments[i].thread), moments[i].ts), true);
    if (!chain_.empty()) out[i] = rows_[static_cast<size_t>(chain_.front())].name;
  }
  return out;
}

}  // namespace

std::string_view toText(OpGrouping grouping) {
  switch (grouping) {
    case OpGrouping::kOp:
      return "op";
    case OpGrouping::kLeafOp:
      return "leaf-op";
    case OpGrouping::kModule:
      return "module";
    case OpGrouping::kRange:
      return "range";
    case OpGrouping::kAnnotation:
      return "annotation";
  }
  return "op";
}

std::optional<OpGrouping> opGroupingFromText(std::string_view text) {
  for (OpGrouping g : {OpGrouping::kOp, OpGrouping::kLeafOp, OpGrouping::kModule,
                       OpGrouping::kRange, OpGrouping::kAnnotation}) {
    if (toText(g) == text) return g;
  }
  return std::nullopt;
}

OpBreakdownReport computeOpBreakdown(const AnalysisInput& input, const WindowReport& window,
                                     const KernelWorkReport& work, const OpRoofs& roofs,
                                     const OpBreakdownOptions& options) {
  return Attribution(input, window, options).run(work, roofs);
}

std::vector<std::string> innermostRowNames(const AnalysisInput& input, OpGrouping grouping,
                                           std::span<const HostMoment> moments) {
  const WindowReport whole_run;  // the names do not depend on the window
  OpBreakdownOptions options;
  options.grouping = grouping;
  return Attribution(input, whole_run, options).innermostNames(moments);
}

std::optional<AnalysisNote> unplacedOpsNote(const OpBreakdownReport& ops) {
  if (ops.kernel_ns <= 0 || ops.unplaced_ns <= 0) return std::nullopt;
  std::vector<std::pair<std::string_view, int64_t>> by_op;
  int64_t in_rows = 0;
  for (const OpRow& row : ops.rows) {
    if (row.unplaced_ns > 0) by_op.emplace_back(row.name, row.unplaced_ns);
    accumulateDuration(in_rows, row.unplaced_ns);
  }
  // What no listed op launched: kernels without a launch call or outside
  // every op, and the ops past the table's cut.
  if (ops.unplaced_ns > in_rows) {
    by_op.emplace_back("(no framework op, or past the top ops)", ops.unplaced_ns - in_rows);
  }
  std::sort(by_op.begin(), by_op.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::string list;
  size_t shown = 0;
  for (const auto& [name, ns] : by_op) {
    const double pct = 100.0 * static_cast<double>(ns) / static_cast<double>(ops.kernel_ns);
    if (pct < 0.5 || shown == 6) break;
    list += fmt::format("{}{} {:.1f} %", shown == 0 ? "" : ", ", name, pct);
    ++shown;
  }
  if (shown == 0) return std::nullopt;
  return AnalysisNote{"roofline",
                      "kernels not placed (no counters, annotation or op formula), by the op that "
                      "launched them: " +
                          list + " of computation kernel time"};
}

}  // namespace damscope
