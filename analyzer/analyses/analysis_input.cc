// The analyses' view of one rank's trace: see analysis_input.h.
#include "analyzer/analyses/analysis_input.h"

#include <algorithm>
#include <unordered_map>

#include "analyzer/analyses/cpu_device_work.h"
#include "analyzer/analyses/name_patterns.h"

namespace damscope {
namespace {

GpuWork memcpyWork(CopyKind kind) {
  switch (kind) {
    case CopyKind::kDtoD:
    case CopyKind::kAtoA:
    case CopyKind::kAtoD:
    case CopyKind::kDtoA:
      return GpuWork::kMemoryBound;
    case CopyKind::kPtoP:
      return GpuWork::kCommunication;
    default:
      return GpuWork::kHostTransfer;  // HtoD, DtoH, HtoA, AtoH, HtoH, unknown
  }
}

bool isPageable(MemoryKind kind) {
  return kind == MemoryKind::kPageable;
}

}  // namespace

AnalysisInput::AnalysisInput(const TraceTables& tables)
    : tables_(&tables),
      classifier_(tables.strings, tables.kernels.name),
      model_(readModelAnnotation(tables)) {}

int64_t AnalysisInput::launchOf(int64_t correlation_id) const {
  if (isNull(correlation_id)) return -1;
  if (!dense_.empty()) {
    const int64_t at = correlation_id - dense_base_;
    if (at < 0 || at >= static_cast<int64_t>(dense_.size())) return -1;
    return dense_[static_cast<size_t>(at)];
  }
  auto it =
      std::lower_bound(sparse_.begin(), sparse_.end(), std::make_pair(correlation_id, int64_t{-1}));
  if (it == sparse_.end() || it->first != correlation_id) return -1;
  return it->second;
}

int64_t AnalysisInput::hostThreadOf(const GpuOp& op) const {
  if (op.launch >= 0) return tables_->api_calls.thread_id[static_cast<size_t>(op.launch)];
  const int64_t range = opRange(op);
  return isNull(range) ? kNullInt : tables_->ranges.thread_id[static_cast<size_t>(range)];
}

int32_t AnalysisInput::smCount(int32_t device) const {
  const DeviceTable& d = tables_->devices;
  for (size_t i = 0; i < d.size(); ++i) {
    if (d.device[i] == device && d.kind[i] == DeviceKind::kGpu && !isNull(d.sm_count[i]) &&
        d.sm_count[i] > 0) {
      return d.sm_count[i];
    }
  }
  return 0;
}

AnalysisInput AnalysisInput::build(const TraceTables& tables) {
  AnalysisInput in(tables);
  const ApiCallTable& api = tables.api_calls;

  // Correlation index over the API calls. CUPTI hands out correlation ids
  // from one increasing counter per process, so they are nearly dense: a
  // flat array is the common case; anything else falls back to a sorted list.
  int64_t lo = INT64_MAX, hi = INT64_MIN, with_id = 0;
  for (int64_t c : api.correlation_id) {
    if (isNull(c)) continue;
    lo = std::min(lo, c), hi = std::max(hi, c), ++with_id;
  }
  auto earlier = [&](int64_t a, int64_t b) { return b < 0 || api.ts[a] < api.ts[b]; };
  if (with_id > 0 && hi - lo < 4 * with_id + 1024) {
    in.dense_base_ = lo;
    in.dense_.assign(static_cast<size_t>(hi - lo + 1), -1);
    for (size_t i = 0; i < api.size(); ++i) {
      const int64_t c = api.correlation_id[i];
      if (isNull(c)) continue;
      int64_t& slot = in.dense_[static_cast<size_t>(c - lo)];
      if (earlier(static_cast<int64_t>(i), slot)) slot = static_cast<int64_t>(i);
    }
  } else if (with_id > 0) {
    in.sparse_.reserve(static_cast<size_t>(with_id));
    for (size_t i = 0; i < api.size(); ++i) {
      if (!isNull(api.correlation_id[i]))
        in.sparse_.emplace_back(api.correlation_id[i], int64_t(i));
    }
    std::sort(in.sparse_.begin(), in.sparse_.end(), [&](const auto& a, const auto& b) {
      if (a.first != b.first) return a.first < b.first;
      return api.ts[a.second] < api.ts[b.second];
    });
    // Keep the earliest call per id: lower_bound lands on it.
  }

  in.api_flags_.assign(api.size(), 0);
  for (size_t i = 0; i < api.size(); ++i) {
    if (isSynchronizingApi(tables.strings.get(api.name[i]))) in.api_flags_[i] |= kApiBlocksHost;
  }

  auto clampEnd = [&](int64_t ts, int64_t dur) {
    if (dur < 0) {
      ++in.negative_durations_;
      return ts;
    }
    return ts + dur;
  };
  auto link = [&](GpuOp& op, int64_t correlation_id) {
    op.launch = in.launchOf(correlation_id);
    if (op.launch >= 0) {
      in.api_flags_[static_cast<size_t>(op.launch)] |= kApiLaunchesGpuWork;
      ++in.ops_with_launch_;
    } else {
      ++in.ops_without_launch_;
    }
  };

  const KernelTable& k = tables.kernels;
  // Kernels of a cpu device are ops derived from ranges (cpu_device_work.h).
  std::vector<int32_t> cpu_devices;
  for (size_t d = 0; d < tables.devices.size(); ++d) {
    if (tables.devices.kind[d] == DeviceKind::kCpu) cpu_devices.push_back(tables.devices.device[d]);
  }
  if (!cpu_devices.empty()) {
    in.cpu_op_range_.assign(k.size(), kNullInt);
    for (size_t i = 0; i < k.size(); ++i) {
      if (std::find(cpu_devices.begin(), cpu_devices.end(), k.device[i]) == cpu_devices.end()) {
        continue;
      }
      const int64_t range = cpuOpRange(k.args[i]);
      if (!isNull(range) && static_cast<size_t>(range) < tables.ranges.size()) {
        in.cpu_op_range_[i] = range;
      }
    }
  }
  const MemcpyTable& m = tables.memcpys;
  const MemsetTable& s = tables.memsets;
  const SyncTable& y = tables.syncs;
  in.gpu_.reserve(k.size() + m.size() + s.size() + y.size());
  for (size_t i = 0; i < k.size(); ++i) {
    GpuOp op;
    op.ts = k.ts[i], op.end = clampEnd(k.ts[i], k.dur[i]);
    op.stream = k.stream[i], op.device = k.device[i], op.row = static_cast<int64_t>(i);
    op.kind = GpuOpKind::kKernel;
    op.category = in.classifier_.category(k.name[i]);
    switch (boundOf(op.category)) {
      case KernelBound::kCompute:
        op.work = GpuWork::kComputeBound;
        break;
      case KernelBound::kMemory:
        op.work = GpuWork::kMemoryBound;
        break;
      case KernelBound::kCommunication:
        op.work = GpuWork::kCommunication;
        break;
    }
    if (!in.onCpu(op)) link(op, k.correlation_id[i]);
    in.gpu_.push_back(op);
  }
  for (size_t i = 0; i < m.size(); ++i) {
    GpuOp op;
    op.ts = m.ts[i], op.end = clampEnd(m.ts[i], m.dur[i]);
    op.stream = m.stream[i], op.device = m.device[i], op.row = static_cast<int64_t>(i);
    op.kind = GpuOpKind::kMemcpy;
    op.category = KernelCategory::kMemory;
    op.work = memcpyWork(m.copy_kind[i]);
    link(op, m.correlation_id[i]);
    // A copy from or to pageable memory blocks the calling thread (CUDA
    // Runtime API reference, "API synchronization behavior", Memcpy): its
    // launch call is a synchronization as far as the host is concerned.
    if (op.launch >= 0 && (isPageable(m.src_kind[i]) || isPageable(m.dst_kind[i]))) {
      in.api_flags_[static_cast<size_t>(op.launch)] |= kApiBlocksHost;
    }
    in.gpu_.push_back(op);
  }
  for (size_t i = 0; i < s.size(); ++i) {
    GpuOp op;
    op.ts = s.ts[i], op.end = clampEnd(s.ts[i], s.dur[i]);
    op.stream = s.stream[i], op.device = s.device[i], op.row = static_cast<int64_t>(i);
    op.kind = GpuOpKind::kMemset;
    op.category = KernelCategory::kMemory;
    op.work = GpuWork::kMemoryBound;
    link(op, s.correlation_id[i]);
    in.gpu_.push_back(op);
  }
  // Stream syncs: only those tied to a stream are GPU-side events (HTA keeps
  // them as such); they are never counted as launches of GPU work.
  for (size_t i = 0; i < y.size(); ++i) {
    if (isNull(y.stream[i]) || y.stream[i] < 0) continue;
    GpuOp op;
    op.ts = y.ts[i], op.end = clampEnd(y.ts[i], y.dur[i]);
    op.stream = y.stream[i], op.device = y.device[i], op.row = static_cast<int64_t>(i);
    op.kind = GpuOpKind::kSync;
    op.category = KernelCategory::kOther;
    op.work = GpuWork::kSyncWait;
    op.launch = in.launchOf(y.correlation_id[i]);
    in.gpu_.push_back(op);
  }
  // Each table is normally sorted already (the store keeps them by time):
  // sort only what is not, then merge the four runs in linear time.
  auto before = [](const GpuOp& a, const GpuOp& b) {
    if (a.ts != b.ts) return a.ts < b.ts;
    return a.end > b.end;
  };
  const auto first = in.gpu_.begin();
  size_t run_start = 0;
  for (size_t i = 1; i <= in.gpu_.size(); ++i) {
    const bool run_ends = i == in.gpu_.size() || in.gpu_[i].kind != in.gpu_[i - 1].kind;
    if (!run_ends) continue;
    auto begin = first + static_cast<std::ptrdiff_t>(run_start);
    auto end = first + static_cast<std::ptrdiff_t>(i);
    if (!std::is_sorted(begin, end, before)) std::stable_sort(begin, end, before);
    if (run_start > 0) std::inplace_merge(first, begin, end, before);
    run_start = i;
  }

  // The launching thread: the one whose calls launched the most GPU work
  // (on a CPU run, the one that ran the most ops).
  std::unordered_map<int64_t, int64_t> launches_by_thread;
  std::vector<int32_t> devices;
  int64_t cpu_ops = 0, device_ops = 0;
  for (const GpuOp& op : in.gpu_) {
    if (op.kind == GpuOpKind::kSync) continue;
    ++device_ops;
    if (in.onCpu(op)) ++cpu_ops;
    const int64_t thread = in.hostThreadOf(op);
    if (!isNull(thread)) ++launches_by_thread[thread];
    if (devices.empty() || devices.back() != op.device) devices.push_back(op.device);
  }
  in.cpu_run_ = device_ops > 0 && cpu_ops == device_ops;
  int64_t best = 0;
  for (const auto& [thread, count] : launches_by_thread) {
    if (count > best || (count == best && thread < in.main_thread_)) {
      best = count;
      in.main_thread_ = thread;
    }
  }
  std::sort(devices.begin(), devices.end());
  devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
  in.active_devices_ = std::move(devices);
  return in;
}

void AnalysisInput::applyBoundOverrides(const std::vector<std::pair<int64_t, GpuWork>>& overrides) {
  if (overrides.empty()) return;
  std::vector<int8_t> work(tables_->kernels.size(), -1);
  for (const auto& [row, side] : overrides)
    work[static_cast<size_t>(row)] = static_cast<int8_t>(side);
  for (GpuOp& op : gpu_) {
    if (op.kind == GpuOpKind::kKernel && work[static_cast<size_t>(op.row)] >= 0) {
      op.work = static_cast<GpuWork>(work[static_cast<size_t>(op.row)]);
    }
  }
}

}  // namespace damscope
