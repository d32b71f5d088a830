// Gaps (bubbles): every interval in which a GPU, or one of its streams, sat
// idle, and why.
//
// Two scopes:
//  - device gaps: time inside the analysed timeline (the steps, widened to
//    cover the GPU work) when no stream of the device runs anything. These
//    are what the D·A·M scorecard charges to stall axes.
//  - stream gaps: the time between two consecutive GPU operations of one
//    stream (kernels, copies, memsets), as HTA's idle-time analysis sees it.
//
// Each gap is explained by the GPU operation that ended it and the host
// thread that launched that operation (correlation id -> launch call):
//  - [launch start, gap end): the launch call was already issued and the GPU
//    waited for it to arrive: host/launch overhead, or synchronization when
//    the call blocks the host (a synchronous copy, or one from pageable
//    memory, which the CUDA runtime performs synchronously).
//  - [gap start, launch start): the host had not issued the work yet; the
//    launching thread's activity (host_activity.h) says why, moment by
//    moment: blocked in a synchronizing call -> synchronization; inside a
//    data-loading range -> data loading; inside a collective's host range ->
//    communication wait; inside other CUDA calls or framework ops ->
//    host/launch overhead; untraced -> other.
//  - if the work was queued before the gap began, the GPU had it and did not
//    run it: shorter than GapOptions::kernel_wait_ns it is the GPU's own
//    launch latency (host/launch); longer, the stream waited for something:
//    a communication kernel on another stream -> communication wait, a
//    stream-wait/sync event -> synchronization, else other.
// On a cpu device (cpu_device_work.h) nothing launches an op: the thread
// that ran it is read over the whole gap, and its untraced time is
// host/launch overhead (the thread is the device; between ops it runs the
// loop and the framework), never "other".
// A gap's `cause` is its largest share; the shares are kept too, and device
// gaps keep their time-resolved segments for the scorecard.
//
// HTA's own classification of stream gaps is kept beside it for comparison
// (HolisticTraceAnalysis @f4d0062c, hta/analyzers/idle_time_breakdown.py):
// host wait when the launch call started after the previous operation on the
// stream ended, kernel wait when the gap is shorter than 30 µs
// (consecutive_kernel_delay), else other; summed per stream over the window.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/analysis_window.h"
#include "analyzer/analyses/steps.h"
#include "base/result.h"

namespace damscope {

enum class GapCause : uint8_t {
  kDataLoading,
  kHostLaunch,
  kSynchronization,
  kCommunicationWait,
  kOther
};
constexpr size_t kGapCauseCount = 5;
std::string_view toText(GapCause cause);

enum class HtaIdleCategory : uint8_t { kNone, kHostWait, kKernelWait, kOther };
constexpr size_t kHtaIdleCategoryCount = 4;
std::string_view toText(HtaIdleCategory category);

// Where the evidence of a gap's cause lives.
enum class EvidenceTable : uint8_t {
  kNone,
  kRanges,
  kApiCalls,
  kKernels,
  kMemcpys,
  kMemsets,
  kSyncs
};
constexpr size_t kEvidenceTableCount = 7;
std::string_view toText(EvidenceTable table);

struct CauseSegment {
  int64_t start = 0;
  int64_t end = 0;
  GapCause cause = GapCause::kOther;
};

struct Gap {
  int64_t start = 0;
  int64_t end = 0;
  int64_t stream = kNullInt;  // kNullInt: a device gap
  int32_t device = 0;
  GapCause cause = GapCause::kOther;
  HtaIdleCategory hta = HtaIdleCategory::kNone;
  bool in_window = false;
  EvidenceTable evidence_table = EvidenceTable::kNone;
  std::array<int64_t, kGapCauseCount> by_cause{};
  int64_t next_op = -1;  // index into AnalysisInput::gpu(), -1: none
  int64_t step = -1;     // StepReport index of the step the gap starts in
  int64_t evidence_row = -1;
  uint32_t first_segment = 0;  // device gaps: segments [first, first + count)
  uint32_t segment_count = 0;

  int64_t duration() const { return end - start; }
  bool deviceScope() const { return isNull(stream); }
};

// HTA's idle-time breakdown of one stream, over the window.
struct StreamIdleSummary {
  int32_t device = 0;
  int64_t stream = 0;
  int64_t host_wait_ns = 0;
  int64_t kernel_wait_ns = 0;
  int64_t other_ns = 0;
  int64_t total() const { return host_wait_ns + kernel_wait_ns + other_ns; }
  bool operator==(const StreamIdleSummary&) const = default;
};

struct GapOptions {
  // HTA's consecutive_kernel_delay: a gap shorter than this between work that
  // was already queued is the GPU's own latency between kernels.
  int64_t kernel_wait_ns = 30'000;
};

struct GapReport {
  std::vector<Gap>
      gaps;  // device gaps (by device, time), then stream gaps (by device, stream, time)
  size_t device_gap_count = 0;
  std::vector<CauseSegment> segments;
  std::vector<StreamIdleSummary> hta_streams;
  int64_t timeline_start = kNullInt;  // the range device gaps cover
  int64_t timeline_end = kNullInt;
};

GapReport computeGaps(const AnalysisInput& input, const StepReport& steps,
                      const WindowReport& window, const GapOptions& options);

}  // namespace damscope
