// The lost_spans rows of a capture (docs/trace-format.md): where in time the
// collector lost events. At each commit the writer thread learns how many
// events a stat lost since the previous commit (CUPTI's dropped-record count,
// the NVTX rings' overflow); a rise becomes a span over that interval, and a
// rise in the very next interval extends the same span, so a long episode of
// loss is one row, not one per commit.
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
  explicit LostSpanRows(CaptureWriter& capture) : capture_(capture) {}

  // `events` more events counted in stat `stat` were lost within [from, to]
  // (ns on the file's clock, from <= to). Nothing happens for events <= 0.
  void onLoss(const std::string& stat, int64_t from, int64_t to, int64_t events);

 private:
  // The last span of a stat, which the next interval's loss may extend.
  struct Last {
    std::string stat;
    int64_t id = 0;  // its lost_spans row
    int64_t ts = 0;
    int64_t end = 0;
    int64_t events = 0;
  };

  CaptureWriter& capture_;
  std::vector<Last> last_;  // one per stat that lost events
};

}  // namespace damscope::collector
