// The D·A·M scorecard and verdict: see scorecard.h.
#include "analyzer/analyses/scorecard.h"

#include <algorithm>
#include <limits>
#include <map>

#include "analyzer/analyses/intervals.h"

namespace damscope {
namespace {

Axis axisOf(GapCause cause) {
  switch (cause) {
    case GapCause::kDataLoading:
      return Axis::kDataStall;
    case GapCause::kHostLaunch:
      return Axis::kHostStall;
    case GapCause::kSynchronization:
      return Axis::kSyncStall;
    case GapCause::kCommunicationWait:
      return Axis::kExposedCommunication;
    case GapCause::kOther:
      return Axis::kOtherIdle;
  }
  return Axis::kOtherIdle;
}

// Busy classes in precedence order.
enum Busy { kCompute, kMemory, kCommunication, kTransfer, kBusyCount };

constexpr Axis kBusyAxis[kBusyCount] = {Axis::kComputeBound, Axis::kMemoryBound,
                                        Axis::kExposedCommunication, Axis::kDataStall};

}  // namespace

std::string_view toText(Axis axis) {
  switch (axis) {
    case Axis::kDataStall:
      return "data_stall";
    case Axis::kHostStall:
      return "host_stall";
    case Axis::kSyncStall:
      return "sync_stall";
    case Axis::kExposedCommunication:
      return "exposed_communication";
    case Axis::kMemoryBound:
      return "memory_bound";
    case Axis::kComputeBound:
      return "compute_bound";
    case Axis::kOtherIdle:
      return "other_idle";
  }
  return "other_idle";
}

std::string_view axisLabel(Axis axis) {
  switch (axis) {
    case Axis::kDataStall:
      return "data stall";
    case Axis::kHostStall:
      return "host/launch stall";
    case Axis::kSyncStall:
      return "sync stall";
    case Axis::kExposedCommunication:
      return "exposed communication";
    case Axis::kMemoryBound:
      return "memory-bound kernels";
    case Axis::kComputeBound:
      return "compute-bound kernels";
    case Axis::kOtherIdle:
      return "other idle";
  }
  return "other idle";
}

std::string_view toText(Verdict verdict) {
  switch (verdict) {
    case Verdict::kNone:
      return "none";
    case Verdict::kDataBound:
      return "data-bound";
    case Verdict::kHostBound:
      return "host-bound";
    case Verdict::kCommunicationBound:
      return "communication-bound";
    case Verdict::kMemoryBound:
      return "memory-bound";
    case Verdict::kComputeBound:
      return "compute-bound";
    case Verdict::kStarved:
      return "starved";
  }
  return "none";
}

std::string_view verdictLabel(Verdict verdict, DeviceKind kind) {
  if (kind == DeviceKind::kCpu) {
    switch (verdict) {
      case Verdict::kNone:
        return "no ops to judge";
      case Verdict::kDataBound:
        return "the input pipeline starves the compute thread";
      case Verdict::kHostBound:
        return "framework code between ops takes the CPU's time";
      case Verdict::kCommunicationBound:
        return "the CPU waits for collectives";
      case Verdict::kMemoryBound:
        return "the ops are limited by memory bandwidth";
      case Verdict::kComputeBound:
        return "the ops are limited by arithmetic throughput";
      case Verdict::kStarved:
        return "the compute thread idles for a cause the trace does not show: record the host in "
               "more detail";
    }
  }
  switch (verdict) {
    case Verdict::kNone:
      return "no GPU work to judge";
    case Verdict::kDataBound:
      return "the input pipeline starves the GPU";
    case Verdict::kHostBound:
      return "the GPU waits for the host to give it work";
    case Verdict::kCommunicationBound:
      return "the GPU waits for collectives";
    case Verdict::kMemoryBound:
      return "the kernels are limited by memory bandwidth";
    case Verdict::kComputeBound:
      return "the kernels are limited by arithmetic throughput";
    case Verdict::kStarved:
      return "the GPU idles for a cause the trace does not show: record the host in more detail "
             "(CPU sampling, OS runtime, NVTX around data loading and the step)";
  }
  return "";
}

std::string_view damTerm(Verdict verdict) {
  switch (verdict) {
    case Verdict::kNone:
      return "-";
    case Verdict::kDataBound:
      return "Data";
    case Verdict::kHostBound:
      return "Host";
    case Verdict::kCommunicationBound:
      return "Communication";
    case Verdict::kMemoryBound:
      return "Machine";
    case Verdict::kComputeBound:
      return "Algorithm";
    case Verdict::kStarved:
      return "Unknown";
  }
  return "-";
}

// Summed in 128 bits and clamped to int64 instead of wrapping: the axes of a
// computed card are parts of one span, but a card read back from a damaged
// run.db can hold anything (issue 32: a data_stall_ns of INT64_MAX), and the
// reader compares this sum with the card's dur to refuse such a card. Seven
// int64 axes cannot overflow the 128-bit sum.
int64_t Scorecard::total() const {
  __int128 sum = 0;
  for (int64_t v : ns) sum += v;
  return static_cast<int64_t>(std::clamp<__int128>(sum, std::numeric_limits<int64_t>::min(),
                                                   std::numeric_limits<int64_t>::max()));
}

double Scorecard::pct(Axis axis) const {
  const int64_t all = total();
  return all > 0
             ? 100.0 * static_cast<double>(ns[static_cast<size_t>(axis)]) / static_cast<double>(all)
             : 0.0;
}

double Scorecard::stallPct() const {
  return 100.0 - pct(Axis::kComputeBound) - pct(Axis::kMemoryBound);
}

std::optional<Axis> Scorecard::largestKnownStall() const {
  std::optional<Axis> best;
  for (Axis a :
       {Axis::kDataStall, Axis::kHostStall, Axis::kSyncStall, Axis::kExposedCommunication}) {
    const int64_t t = ns[static_cast<size_t>(a)];
    if (t > 0 && (!best || t > ns[static_cast<size_t>(*best)])) best = a;
  }
  return best;
}

void decideVerdict(Scorecard& card, const ScorecardOptions& options) {
  if (card.total() <= 0) {
    card.verdict = Verdict::kNone;
    return;
  }
  if (card.stallPct() >= options.starved_pct) {
    // The largest stall axis decides; ties go to the earlier axis in the
    // diagnostic order (data, host, sync, communication, unexplained).
    Axis best = Axis::kDataStall;
    for (Axis a :
         {Axis::kHostStall, Axis::kSyncStall, Axis::kExposedCommunication, Axis::kOtherIdle}) {
      if (card.ns[static_cast<size_t>(a)] > card.ns[static_cast<size_t>(best)]) best = a;
    }
    card.deciding_axis = best;
    switch (best) {
      case Axis::kDataStall:
        card.verdict = Verdict::kDataBound;
        break;
      case Axis::kExposedCommunication:
        card.verdict = Verdict::kCommunicationBound;
        break;
      case Axis::kOtherIdle:
        card.verdict = Verdict::kStarved;
        break;
      default:
        card.verdict = Verdict::kHostBound;
        break;
    }
    return;
  }
  const bool compute = card.ns[static_cast<size_t>(Axis::kComputeBound)] >=
                       card.ns[static_cast<size_t>(Axis::kMemoryBound)];
  card.deciding_axis = compute ? Axis::kComputeBound : Axis::kMemoryBound;
  card.verdict = compute ? Verdict::kComputeBound : Verdict::kMemoryBound;
}

ScorecardReport computeScorecard(const AnalysisInput& input, const StepReport& steps,
                                 const WindowReport& window, const GapReport& gaps,
                                 const ScorecardOptions& options) {
  ScorecardReport report;
  const std::vector<GpuOp>& gpu = input.gpu();
  // The primary device: the most GPU work (union of its operations).
  std::map<int32_t, Intervals> busy_by_device;
  for (const GpuOp& op : gpu) {
    if (op.kind != GpuOpKind::kSync) busy_by_device[op.device].push_back({op.ts, op.end});
  }
  if (busy_by_device.empty()) {
    report.notes.push_back("no GPU work: the scorecard cannot be computed");
    return report;
  }
  int64_t most = -1;
  for (auto& [device, v] : busy_by_device) {
    mergeIntervals(v);
    const int64_t busy = totalLength(v);
    if (busy > most) most = busy, report.device = device;
  }
  if (busy_by_device.size() > 1) {
    report.notes.push_back("several devices ran work: the scorecard is for device " +
                           std::to_string(report.device) + ", the busiest");
  }

  // Busy time of the primary device, painted in precedence order.
  std::array<Intervals, kBusyCount> busy;
  for (const GpuOp& op : gpu) {
    if (op.device != report.device || op.kind == GpuOpKind::kSync) continue;
    Busy cls = kMemory;
    switch (op.work) {
      case GpuWork::kComputeBound:
        cls = kCompute;
        break;
      case GpuWork::kMemoryBound:
        cls = kMemory;
        break;
      case GpuWork::kCommunication:
        cls = kCommunication;
        break;
      case GpuWork::kHostTransfer:
        cls = kTransfer;
        break;
      case GpuWork::kSyncWait:
        continue;
    }
    busy[cls].push_back({op.ts, op.end});
  }
  std::array<CoverageIndex, kBusyCount> busy_index;
  Intervals covered;
  for (size_t c = 0; c < kBusyCount; ++c) {
    mergeIntervals(busy[c]);
    busy_index[c] = CoverageIndex(subtractIntervals(busy[c], covered));
    covered = uniteIntervals(covered, busy[c]);
  }
  // Idle time of the primary device by cause, from its device gaps.
  std::array<Intervals, kGapCauseCount> idle;
  for (size_t g = 0; g < gaps.device_gap_count; ++g) {
    const Gap& gap = gaps.gaps[g];
    if (gap.device != report.device) continue;
    for (uint32_t s = 0; s < gap.segment_count; ++s) {
      const CauseSegment& seg = gaps.segments[gap.first_segment + s];
      idle[static_cast<size_t>(seg.cause)].push_back({seg.start, seg.end});
    }
  }
  std::array<CoverageIndex, kGapCauseCount> idle_index;
  for (size_t c = 0; c < kGapCauseCount; ++c) {
    mergeIntervals(idle[c]);
    idle_index[c] = CoverageIndex(std::move(idle[c]));
  }

  auto card = [&](int64_t start, int64_t end) {
    Scorecard s;
    s.start = start;
    s.end = end;
    int64_t assigned = 0;
    for (size_t c = 0; c < kBusyCount; ++c) {
      const int64_t ns = busy_index[c].covered(start, end);
      s.ns[static_cast<size_t>(kBusyAxis[c])] += ns;
      assigned += ns;
    }
    for (size_t c = 0; c < kGapCauseCount; ++c) {
      const int64_t ns = idle_index[c].covered(start, end);
      s.ns[static_cast<size_t>(axisOf(static_cast<GapCause>(c)))] += ns;
      assigned += ns;
    }
    // Time no gap covers (outside the gaps' timeline): unexplained idle.
    s.ns[static_cast<size_t>(Axis::kOtherIdle)] += std::max<int64_t>(0, (end - start) - assigned);
    decideVerdict(s, options);
    return s;
  };

  for (const Step& step : steps.steps) report.steps.push_back(card(step.start, step.end));
  if (window.step_count > 0) {
    Scorecard run;
    run.start = steps.steps[window.first_step].start;
    run.end = steps.steps[window.first_step + window.step_count - 1].end;
    for (size_t i = window.first_step; i < window.first_step + window.step_count; ++i) {
      for (size_t a = 0; a < kAxisCount; ++a) run.ns[a] += report.steps[i].ns[a];
    }
    decideVerdict(run, options);
    report.run = run;
  } else if (!isNull(window.start) && window.end > window.start) {
    report.run = card(window.start, window.end);
  } else {
    report.notes.push_back("no analysed time range: the scorecard cannot be computed");
    return report;
  }
  report.valid = report.run.total() > 0;
  return report;
}

}  // namespace damscope
