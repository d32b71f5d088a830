// The tracks of a Chrome trace export (chrome_trace.h): which process and
// thread id every event goes to, and the names and sort order the metadata
// events give them. Laid out once, before any event is written, so that the
// writer's inner loop only looks a track up.
//
// Ids: a host process or thread keeps the trace's own pid/tid when it is a
// positive 31-bit number not yet taken (viewers read ids as 32-bit integers:
// Perfetto's CoerceToUint32); everything else, GPU processes and tracks
// included, gets an id from kSyntheticIdBase = 2^22 up, above Linux's
// largest pid (proc(5), /proc/sys/kernel/pid_max), skipping ids in use, so
// that no two tracks of the export share an id.
//
// Order (process_sort_index, thread_sort_index): host processes first, in
// table order; then one process per device, ascending. In a host process the
// thread that launched the most GPU work comes first. In a device's process:
// "steps" (primary device only), "GPU N idle gaps", then its streams,
// ascending.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/result/analysis_result.h"
#include "trace/tables.h"

namespace damscope {

// A range on a GPU stream (Kineto's gpu_user_annotation), not on a host thread.
inline bool isGpuRange(const RangeTable& r, size_t i) {
  return isNull(r.thread_id[i]) && !(isNull(r.device[i]) && isNull(r.stream[i]));
}
// A sync the GPU operations leave out (analysis_input.h: they keep those tied
// to a stream): it is exported on its host thread.
inline bool isHostSync(const SyncTable& s, size_t i) {
  return isNull(s.stream[i]) || s.stream[i] < 0;
}

struct ChromeTrack {
  int64_t pid = 0;
  int64_t tid = 0;
};

struct ChromeProcess {
  int64_t pid = 0;
  std::string name;
  int64_t sort_index = 0;
};

struct ChromeThread {
  ChromeTrack track;
  std::string name;
  int64_t sort_index = 0;
};

class ChromeTrackLayout {
 public:
  static constexpr int64_t kSyntheticIdBase = int64_t{1} << 22;

  // Every track the export of `tables` (through `input`, built from them)
  // and `result` writes to.
  static ChromeTrackLayout build(const AnalysisInput& input, const RankResult& result);

  const std::vector<ChromeProcess>& processes() const { return processes_; }
  const std::vector<ChromeThread>& threads() const { return threads_; }

  // A host event of threads row `thread_id` (unknown or out of range: a
  // track for events whose thread is unknown).
  ChromeTrack hostThread(int64_t thread_id) const {
    return thread_id >= 0 && thread_id < static_cast<int64_t>(host_threads_.size())
               ? host_threads_[static_cast<size_t>(thread_id)]
               : unknown_thread_;
  }
  // A GPU event on (device, stream); every pair the input's GPU operations
  // and GPU ranges use has one.
  ChromeTrack stream(int32_t device, int64_t stream) const;
  ChromeTrack steps() const { return steps_; }
  // The gap track of `device`; every device with device gaps has one.
  ChromeTrack gaps(int32_t device) const;
  // The process of `device`'s counters, or of a host thread's (thread_id
  // unknown: the first host process).
  int64_t devicePid(int32_t device) const;
  int64_t hostPid(int64_t thread_id) const { return hostThread(thread_id).pid; }

 private:
  int64_t ownPid(int64_t pid);
  int64_t ownTid(int64_t tid);
  int64_t fresh();

  std::vector<ChromeProcess> processes_;
  std::vector<ChromeThread> threads_;
  std::vector<ChromeTrack> host_threads_;  // per threads row
  ChromeTrack unknown_thread_;
  std::vector<std::pair<std::pair<int32_t, int64_t>, ChromeTrack>> streams_;  // sorted
  std::vector<std::pair<int32_t, ChromeTrack>> gaps_;                         // sorted
  std::vector<std::pair<int32_t, int64_t>> device_pids_;                      // sorted
  ChromeTrack steps_;
  std::set<int64_t> used_pids_, used_tids_;
  int64_t next_id_ = kSyntheticIdBase;
};

}  // namespace damscope
