// Builds NVTX ranges from the events the writer thread drains from the
// per-thread rings (nvtx_ring.h), for one capture window.
//
// Rows (trace/tables.h, RangeTable):
//   push/pop and start/end ranges -> category "nvtx", dur = close - open
//   marks                         -> category "nvtx_mark", dur 0
//   domain = the NVTX domain's name (NULL for the default domain), name = the
//   message (ASCII, wide or registered), args = JSON of what the event carried
//   besides: {"payload": <number>, "category": "<name>" or <number>,
//   "color": "#aarrggbb", "truncated": true, "open_at_end": true}.
//
// Nesting follows trace/range_nesting.h: per thread, a range's depth is the
// number of ranges open on that thread when it opened, and its parent is the
// innermost of those that is still open when it closes (so it contains it).
// A range is written when it closes, usually before its parent closes; the
// parent's id is then set by a row update (capture_writer.h). Start/end
// ranges live on the thread that started them and may end on any thread.
//
// A window starts and ends in the middle of the application's work: pops and
// ends of ranges opened before the window are ignored (counted), and ranges
// still open when the window closes are written with the window's end time
// and "open_at_end": true.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "collector/capture_writer.h"
#include "collector/nvtx_ring.h"

namespace damscope::collector {

// Names the application gave through NVTX, kept for the process's lifetime
// (naming calls come once, usually before any window opens).
class NvtxNames {
 public:
  void setThread(int64_t tid, std::string name) { threads_[tid] = std::move(name); }
  const std::string* thread(int64_t tid) const;
  void setCategory(const void* domain, uint32_t category, std::string name) {
    categories_[{domain, category}] = std::move(name);
  }
  const std::string* category(const void* domain, uint32_t category) const;

 private:
  std::unordered_map<int64_t, std::string> threads_;
  std::map<std::pair<const void*, uint32_t>, std::string> categories_;
};

// The UTF-8 text of an event's message.
std::string nvtxMessageText(const NvtxEventHeader& h, const uint8_t* message);

// Applies a naming event (kNameThread, kNameCategory) to `names`; returns
// false for any other event.
bool applyNvtxNaming(const NvtxEventHeader& h, const uint8_t* message, NvtxNames& names);

// True for the names training loops give their step ranges: "step",
// "step N" / "step#N" / "step_N" / "step:N" (any case), "ProfilerStep#N"
// (PyTorch's profiler). docs/collector.md lists them.
bool isStepRangeName(std::string_view name);

class NvtxAssembler {
 public:
  // Events stamped before `window_start_ns` are ignored.
  NvtxAssembler(CaptureWriter& capture, NvtxNames& names, int64_t window_start_ns);

  // One drained event of the thread `tid` that pushed it.
  void onEvent(int64_t tid, const NvtxEventHeader& h, const uint8_t* message);

  // Called with (start, end) whenever a step range (isStepRangeName) closes.
  void setStepObserver(std::function<void(int64_t, int64_t)> observer) {
    step_observer_ = std::move(observer);
  }

  // Closes every range still open at `end_ns` and counts what never matched.
  void closeAll(int64_t end_ns);

  static constexpr const char* kStatUnmatchedPops = "collector.nvtx_unmatched_pops";
  static constexpr const char* kStatUnmatchedEnds = "collector.nvtx_unmatched_ends";
  static constexpr const char* kStatOpenAtEnd = "collector.nvtx_open_at_end";
  static constexpr const char* kStatTruncated = "collector.nvtx_truncated_messages";

 private:
  struct Open {
    int64_t ts;
    const void* domain;
    bool start_end;
    uint64_t id;  // start/end range id
    StringId name;
    std::string args;
    int32_t depth;
    std::vector<int64_t> children;  // closed direct children waiting for this range's id
  };
  struct ThreadState {
    std::vector<Open> open;  // in open order
  };

  Open makeOpen(const NvtxEventHeader& h, const uint8_t* message, ThreadState& thread);
  std::string argsFor(const NvtxEventHeader& h);
  StringId domainName(const void* domain);
  // Writes open[index] of thread `tid` as a range ending at `end_ns`.
  void close(int64_t tid, ThreadState& thread, size_t index, int64_t end_ns, bool open_at_end);
  void setParent(int64_t child_id, int64_t parent_id);

  CaptureWriter& capture_;
  NvtxNames& names_;
  int64_t window_start_ns_;
  std::function<void(int64_t, int64_t)> step_observer_;
  StringId nvtx_category_, mark_category_;
  std::unordered_map<const void*, StringId> domain_names_;
  std::unordered_map<int64_t, ThreadState> threads_;
  std::unordered_map<uint64_t, int64_t> start_thread_;  // start/end range id -> tid
  std::unordered_map<uint64_t, int64_t> early_ends_;    // ends drained before their start
};

}  // namespace damscope::collector
