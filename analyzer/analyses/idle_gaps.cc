// Gaps (bubbles) and their causes: see idle_gaps.h.
#include "analyzer/analyses/idle_gaps.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <unordered_map>

#include "analyzer/analyses/host_activity.h"
#include "analyzer/analyses/intervals.h"

namespace damscope {
namespace {

GapCause causeOf(HostActivity a) {
  switch (a) {
    case HostActivity::kSync:
      return GapCause::kSynchronization;
    case HostActivity::kDataLoading:
      return GapCause::kDataLoading;
    case HostActivity::kCommunication:
      return GapCause::kCommunicationWait;
    case HostActivity::kCudaApi:
    case HostActivity::kFrameworkOp:
      return GapCause::kHostLaunch;
    case HostActivity::kUntraced:
      return GapCause::kOther;
  }
  return GapCause::kOther;
}

EvidenceTable tableOf(const GpuOp& op) {
  switch (op.kind) {
    case GpuOpKind::kKernel:
      return EvidenceTable::kKernels;
    case GpuOpKind::kMemcpy:
      return EvidenceTable::kMemcpys;
    case GpuOpKind::kMemset:
      return EvidenceTable::kMemsets;
    case GpuOpKind::kSync:
      return EvidenceTable::kSyncs;
  }
  return EvidenceTable::kNone;
}

// Splits a gap into cause-labelled pieces (see idle_gaps.h for the rules).
class Classifier {
 public:
  Classifier(const AnalysisInput& input, const GapOptions& options)
      : input_(input), host_(input), options_(options), api_(input.tables().api_calls) {
    std::map<int32_t, Intervals> comm, sync;
    for (const GpuOp& op : input.gpu()) {
      if (op.kind == GpuOpKind::kKernel && op.work == GpuWork::kCommunication) {
        comm[op.device].push_back({op.ts, op.end});
      }
    }
    const SyncTable& y = input.tables().syncs;
    for (size_t i = 0; i < y.size(); ++i) {
      sync[y.device[i]].push_back({y.ts[i], y.ts[i] + std::max<int64_t>(y.dur[i], 0)});
    }
    for (auto& [device, v] : comm) mergeIntervals(v), comm_[device] = CoverageIndex(std::move(v));
    for (auto& [device, v] : sync) mergeIntervals(v), sync_[device] = CoverageIndex(std::move(v));
  }

  // emit(start, end, cause, evidence_table, evidence_row)
  template <typename Emit>
  void classify(int64_t g0, int64_t g1, const GpuOp* next, bool stream_scope, Emit&& emit) const {
    const int64_t launch = next ? next->launch : -1;
    if (launch >= 0 && api_.ts[static_cast<size_t>(launch)] <= g0) {
      // The work was queued before the GPU went idle.
      if (g1 - g0 < options_.kernel_wait_ns) {
        emit(g0, g1, GapCause::kHostLaunch, EvidenceTable::kApiCalls, launch);
      } else if (stream_scope && covered(comm_, next->device, g0, g1) > 0) {
        emit(g0, g1, GapCause::kCommunicationWait, tableOf(*next), next->row);
      } else if (covered(sync_, next->device, g0, g1) > 0 ||
                 covered(sync_, kNullInt32, g0, g1) > 0) {
        emit(g0, g1, GapCause::kSynchronization, tableOf(*next), next->row);
      } else {
        emit(g0, g1, GapCause::kOther, tableOf(*next), next->row);
      }
      return;
    }
    // The host had not issued the work: what was the launching thread doing?
    // On a cpu device the thread that runs the ops is the device: between
    // ops it runs the framework, the training loop, the interpreter, so time
    // the trace does not explain is host overhead, not "other".
    const bool cpu = next ? input_.onCpu(*next) : input_.cpuRun();
    int64_t thread = input_.mainThread();
    int64_t host_end = g1;
    if (next && !isNull(input_.hostThreadOf(*next))) thread = input_.hostThreadOf(*next);
    if (launch >= 0) host_end = std::clamp(api_.ts[static_cast<size_t>(launch)], g0, g1);
    const GapCause untraced = cpu ? GapCause::kHostLaunch : GapCause::kOther;
    host_.forEach(thread, g0, host_end, [&](const HostSegment& s) {
      if (s.activity == HostActivity::kUntraced) {
        if (next) {
          emit(s.start, s.end, untraced, tableOf(*next), next->row);
        } else {
          emit(s.start, s.end, untraced, EvidenceTable::kNone, -1);
        }
      } else {
        emit(s.start, s.end, causeOf(s.activity),
             s.from_api ? EvidenceTable::kApiCalls : EvidenceTable::kRanges, s.row);
      }
    });
    if (host_end < g1) {
      // Inside the launch call itself. A call that blocks the host (a
      // synchronous or pageable copy) is a synchronization; any other is
      // launch overhead.
      const bool blocking = (input_.apiFlags()[static_cast<size_t>(launch)] & kApiBlocksHost) != 0;
      emit(host_end, g1, blocking ? GapCause::kSynchronization : GapCause::kHostLaunch,
           EvidenceTable::kApiCalls, launch);
    }
  }

 private:
  static int64_t covered(const std::map<int32_t, CoverageIndex>& index, int32_t device,
                         int64_t start, int64_t end) {
    auto it = index.find(device);
    return it == index.end() ? 0 : it->second.covered(start, end);
  }

  const AnalysisInput& input_;
  HostActivityIndex host_;
  const GapOptions& options_;
  const ApiCallTable& api_;
  std::map<int32_t, CoverageIndex> comm_, sync_;
};

// Collects the pieces of one gap: shares by cause, the evidence of each
// cause's longest piece, and (device gaps) the time-resolved segments.
class GapBuilder {
 public:
  GapBuilder(Gap& gap, std::vector<CauseSegment>* segments) : gap_(gap), segments_(segments) {
    if (segments_) gap_.first_segment = static_cast<uint32_t>(segments_->size());
  }

  void operator()(int64_t start, int64_t end, GapCause cause, EvidenceTable table, int64_t row) {
    if (end <= start) return;
    const size_t c = static_cast<size_t>(cause);
    gap_.by_cause[c] += end - start;
    if (end - start > longest_[c]) {
      longest_[c] = end - start;
      evidence_[c] = {table, row};
    }
    if (!segments_) return;
    if (gap_.segment_count > 0 && segments_->back().cause == cause &&
        segments_->back().end == start) {
      segments_->back().end = end;
    } else {
      segments_->push_back({start, end, cause});
      ++gap_.segment_count;
    }
  }

  void finish() {
    size_t best = static_cast<size_t>(GapCause::kOther);
    for (size_t c = 0; c < kGapCauseCount; ++c) {
      if (gap_.by_cause[c] > gap_.by_cause[best]) best = c;
    }
    gap_.cause = static_cast<GapCause>(best);
    gap_.evidence_table = evidence_[best].first;
    gap_.evidence_row = evidence_[best].second;
  }

 private:
  Gap& gap_;
  std::vector<CauseSegment>* segments_;
  std::array<int64_t, kGapCauseCount> longest_{};
  std::array<std::pair<EvidenceTable, int64_t>, kGapCauseCount> evidence_{};
};

// Indices of the GPU operations (not syncs) grouped by key, each group in
// time order: a counting sort over the few distinct keys (devices, streams).
template <typename Key>
std::vector<std::pair<Key, std::vector<uint32_t>>> groupOps(const std::vector<GpuOp>& gpu,
                                                            Key (*key_of)(const GpuOp&)) {
  std::map<Key, size_t> counts;
  for (const GpuOp& op : gpu) {
    if (op.kind != GpuOpKind::kSync) ++counts[key_of(op)];
  }
  std::vector<std::pair<Key, std::vector<uint32_t>>> groups;
  std::map<Key, size_t> slot;
  for (const auto& [key, n] : counts) {
    slot[key] = groups.size();
    groups.emplace_back(key, std::vector<uint32_t>());
    groups.back().second.reserve(n);
  }
  // One lookup per run of equal keys: operations come in long same-stream runs.
  Key last_key{};
  size_t last_slot = SIZE_MAX;
  for (size_t i = 0; i < gpu.size(); ++i) {
    if (gpu[i].kind == GpuOpKind::kSync) continue;
    const Key key = key_of(gpu[i]);
    if (last_slot == SIZE_MAX || !(key == last_key)) last_key = key, last_slot = slot[key];
    groups[last_slot].second.push_back(static_cast<uint32_t>(i));
  }
  return groups;
}

int32_t deviceKey(const GpuOp& op) {
  return op.device;
}
std::pair<int32_t, int64_t> streamKey(const GpuOp& op) {
  return {op.device, isNull(op.stream) ? int64_t{-1} : op.stream};
}

}  // namespace

std::string_view toText(GapCause cause) {
  switch (cause) {
    case GapCause::kDataLoading:
      return "data_loading";
    case GapCause::kHostLaunch:
      return "host_launch";
    case GapCause::kSynchronization:
      return "synchronization";
    case GapCause::kCommunicationWait:
      return "communication_wait";
    case GapCause::kOther:
      return "other";
  }
  return "other";
}

std::string_view toText(HtaIdleCategory category) {
  switch (category) {
    case HtaIdleCategory::kNone:
      return "";
    case HtaIdleCategory::kHostWait:
      return "host_wait";
    case HtaIdleCategory::kKernelWait:
      return "kernel_wait";
    case HtaIdleCategory::kOther:
      return "other";
  }
  return "";
}

std::string_view toText(EvidenceTable table) {
  switch (table) {
    case EvidenceTable::kNone:
      return "";
    case EvidenceTable::kRanges:
      return "ranges";
    case EvidenceTable::kApiCalls:
      return "api_calls";
    case EvidenceTable::kKernels:
      return "kernels";
    case EvidenceTable::kMemcpys:
      return "memcpys";
    case EvidenceTable::kMemsets:
      return "memsets";
    case EvidenceTable::kSyncs:
      return "syncs";
  }
  return "";
}

GapReport computeGaps(const AnalysisInput& input, const StepReport& steps,
                      const WindowReport& window, const GapOptions& options) {
  GapReport report;
  const std::vector<GpuOp>& gpu = input.gpu();
  const ApiCallTable& api = input.tables().api_calls;
  bool any = false;
  for (const GpuOp& op : gpu) {
    if (op.kind == GpuOpKind::kSync) continue;
    report.timeline_start = any ? std::min(report.timeline_start, op.ts) : op.ts;
    report.timeline_end = any ? std::max(report.timeline_end, op.end) : op.end;
    any = true;
  }
  if (!any) return report;
  if (!steps.steps.empty()) {
    report.timeline_start = std::min(report.timeline_start, steps.steps.front().start);
    report.timeline_end = std::max(report.timeline_end, steps.steps.back().end);
  }
  const Classifier classifier(input, options);
  auto in_window_range = [&](int64_t t) {
    return !isNull(window.start) && t >= window.start && t < window.end;
  };

  // Device gaps over the whole timeline.
  for (const auto& [device, ops] : groupOps<int32_t>(gpu, &deviceKey)) {
    int64_t cursor = report.timeline_start;
    // `device` by init-capture: clang before 16 cannot capture a structured
    // binding (C++20, P1091R3), and scripts/sanitize.sh builds with clang 14.
    auto add = [&, device = device](int64_t g0, int64_t g1, const GpuOp* next) {
      Gap gap;
      gap.start = g0, gap.end = g1, gap.device = device;
      gap.next_op = next ? next - gpu.data() : -1;
      gap.step = steps.stepAt(g0);
      gap.in_window = in_window_range(g0);
      GapBuilder builder(gap, &report.segments);
      classifier.classify(g0, g1, next, false, builder);
      builder.finish();
      report.gaps.push_back(gap);
    };
    for (uint32_t index : ops) {
      const GpuOp& op = gpu[index];
      if (op.ts > cursor) add(cursor, op.ts, &op);
      cursor = std::max(cursor, op.end);
    }
    if (cursor < report.timeline_end) add(cursor, report.timeline_end, nullptr);
  }
  report.device_gap_count = report.gaps.size();

  // Stream gaps, and HTA's classification of them.
  for (const auto& [key, ops] : groupOps<std::pair<int32_t, int64_t>>(gpu, &streamKey)) {
    StreamIdleSummary hta;
    hta.device = key.first, hta.stream = key.second;
    int64_t prev_end = gpu[ops.front()].end;
    uint32_t prev = ops.front();
    // HTA's figures use the window's operations only: track them separately.
    int64_t window_prev_end = kNullInt;
    for (size_t k = 0; k < ops.size(); ++k) {
      const GpuOp& op = gpu[ops[k]];
      const int64_t launch_ts = op.launch >= 0 ? api.ts[static_cast<size_t>(op.launch)] : kNullInt;
      auto hta_category = [&](int64_t g0, int64_t g1) {
        if (!isNull(launch_ts) && launch_ts > g0) return HtaIdleCategory::kHostWait;
        if (g1 - g0 < options.kernel_wait_ns) return HtaIdleCategory::kKernelWait;
        return HtaIdleCategory::kOther;
      };
      if (window.in_window[ops[k]]) {
        if (!isNull(window_prev_end) && op.ts > window_prev_end) {
          const int64_t length = op.ts - window_prev_end;
          switch (hta_category(window_prev_end, op.ts)) {
            case HtaIdleCategory::kHostWait:
              hta.host_wait_ns += length;
              break;
            case HtaIdleCategory::kKernelWait:
              hta.kernel_wait_ns += length;
              break;
            default:
              hta.other_ns += length;
          }
        }
        window_prev_end = isNull(window_prev_end) ? op.end : std::max(window_prev_end, op.end);
      }
      if (k > 0 && op.ts > prev_end) {
        Gap gap;
        gap.start = prev_end, gap.end = op.ts;
        gap.device = key.first, gap.stream = key.second;
        gap.next_op = ops[k];
        gap.step = steps.stepAt(prev_end);
        gap.in_window = window.in_window[prev] && window.in_window[ops[k]];
        gap.hta = hta_category(prev_end, op.ts);
        GapBuilder builder(gap, nullptr);
        classifier.classify(prev_end, op.ts, &op, true, builder);
        builder.finish();
        report.gaps.push_back(gap);
      }
      if (k > 0 && op.end > prev_end) prev = ops[k];
      prev_end = std::max(prev_end, op.end);
    }
    report.hta_streams.push_back(hta);
  }
  return report;
}

}  // namespace damscope
