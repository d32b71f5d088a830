// The lost_spans rows of a capture (docs/trace-format.md): where in time the
// collector lost events. At each commit the writer thread hands in how many
// events each stat has lost so far (CUPTI's dropped-record count, the NVTX
// rings' overflow, the size limit's discards); a rise since the previous
// commit becomes a span over that interval, and a rise in the very next
// interval extends the same span, so a long episode of loss is one row, not
// one per commit.
//
// Writer thread only; nothing here runs on the program's threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace damscope::collector {

class CaptureWriter;

class LostSpanRows {
 public:
  // Counting from `start_ns` (the window's opening), where every count is 0.
  LostSpanRows(CaptureWriter& capture, int64_t start_ns)
      : capture_(capture), checked_ns_(start_ns) {}

  // A commit at `now`: `total` is how many events stat `stat` has lost since
  // the window opened. Call once per stat per commit, then committed(now).
  void atCommit(const std::string& stat, int64_t total, int64_t now);
  // The commit at `now` is done: the next interval starts there.
  void committed(int64_t now) { checked_ns_ = now; }

 private:
  // What a stat had lost by the previous commit, and its last span, which
  // the next interval's loss may extend.
  struct Stat {
    std::string stat;
    int64_t total = 0;
    int64_t id = -1;  // its last lost_spans row; -1: none yet
    int64_t ts = 0;
    int64_t end = 0;
    int64_t events = 0;
  };

  CaptureWriter& capture_;
  int64_t checked_ns_;       // the previous commit's time
  std::vector<Stat> stats_;  // one per stat named so far
};

}  // namespace damscope::collector
