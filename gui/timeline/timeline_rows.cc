// The timeline's rows for one rank: see timeline_rows.h.
#include "gui/timeline/timeline_rows.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

#include <fmt/format.h>

namespace damscope {
namespace {

constexpr size_t kEventKindCount = 7;  // EventKind's values

using StreamKey = std::pair<int32_t, int64_t>;  // (device, stream)

// Lanes of one row while it is built: events are appended unsorted and sorted
// (and, where asked, packed onto non-overlapping lanes) at the end.
struct RowDraft {
  RowKind kind = RowKind::kStream;
  std::string label;
  std::vector<LaneEvent> work;                       // kDeviceWork
  std::vector<LaneEvent> bubbles;                    // kBubbles
  std::map<int32_t, std::vector<LaneEvent>> ranges;  // kRanges by depth
  std::vector<LaneEvent> api_calls;                  // kApiCalls, packed
  std::vector<LaneEvent> syncs;                      // kSyncs, packed
};

void sortByStart(std::vector<LaneEvent>& events) {
  std::stable_sort(events.begin(), events.end(),
                   [](const LaneEvent& a, const LaneEvent& b) { return a.start < b.start; });
}

int64_t endOf(int64_t ts, int64_t dur) {
  return ts + std::max<int64_t>(dur, 0);
}

class Builder {
 public:
  Builder(const AnalysedRun& run, int rank, const Progress& progress)
      : t_(run.tables[static_cast<size_t>(rank)]), progress_(progress) {
    out_.rank = rank;
    if (static_cast<size_t>(rank) < run.run.ranks.size()) {
      result_ = &run.run.ranks[static_cast<size_t>(rank)];
    }
  }

  TimelineRows build() {
    out_.lane_of.resize(kEventKindCount);
    // Reported by the events each stage handles; sorting the rows' lanes
    // (emitRows) costs about as much again as collecting them.
    const double device =
        static_cast<double>(t_.kernels.size() + t_.memcpys.size() + t_.memsets.size());
    const double host =
        static_cast<double>(t_.api_calls.size() + t_.ranges.size() + t_.syncs.size());
    const double gaps = result_ ? static_cast<double>(result_->gaps.size()) : 0.0;
    const double total = std::max(1.0, 2 * (device + host + gaps));
    collectDeviceWork();
    progress_.report(device / total);
    collectHost();
    progress_.report((device + host) / total);
    if (result_) collectGaps();
    progress_.report(0.5);
    emitRows();
    progress_.report(0.95);
    collectCounters();
    if (result_) {
      for (const StepResult& step : result_->steps) {
        out_.steps.push_back({step.ts, step.dur, step.number, step.name});
      }
    }
    collectLostSpans();
    extent();
    KernelClassifier classifier(t_.strings, t_.kernels.name);
    out_.kernel_categories.resize(t_.strings.size(), KernelCategory::kOther);
    for (size_t i = 0; i < t_.strings.size(); ++i) {
      out_.kernel_categories[i] = classifier.category(StringId{static_cast<int32_t>(i)});
    }
    return std::move(out_);
  }

 private:
  bool isCpu(int32_t device) const {
    for (size_t i = 0; i < t_.devices.size(); ++i) {
      if (t_.devices.device[i] == device) return t_.devices.kind[i] == DeviceKind::kCpu;
    }
    return false;
  }
  // "GPU 0", or "CPU 0" for the cpu device of a run without a GPU.
  std::string deviceLabel(int32_t device) const {
    return (isCpu(device) ? "CPU " : "GPU ") + std::to_string(device);
  }

  void collectLostSpans() {
    const LostSpanTable& spans = t_.lost_spans;
    for (size_t i = 0; i < spans.size(); ++i) {
      std::string description;
      for (size_t s = 0; s < t_.stats.size(); ++s) {
        if (t_.stats.name[s] == spans.stat[i]) description = t_.stats.description[s];
      }
      out_.lost.push_back({spans.ts[i], spans.ts[i] + spans.dur[i], spans.events[i], spans.stat[i],
                           std::move(description), out_.rank});
    }
    std::stable_sort(out_.lost.begin(), out_.lost.end(),
                     [](const LostBand& a, const LostBand& b) { return a.start < b.start; });
  }

  RowDraft& stream(int32_t device, int64_t stream) {
    const StreamKey key{device, stream};
    if (key == last_key_ && last_stream_) return *last_stream_;
    auto [it, fresh] = streams_.try_emplace(key);
    if (fresh) {
      it->second.kind = RowKind::kStream;
      // A cpu device's "stream" is the thread that ran the op (cpu_device_work.h).
      it->second.label = deviceLabel(device) + (isCpu(device) ? " · thread " : " · stream ") +
                         (isNull(stream) ? std::string("?") : std::to_string(stream));
    }
    last_key_ = key;
    last_stream_ = &it->second;
    return it->second;
  }

  RowDraft& thread(int64_t thread_id) {
    auto [it, fresh] = threads_.try_emplace(thread_id);
    if (fresh) {
      it->second.kind = RowKind::kThread;
      it->second.label = threadLabel(thread_id);
    }
    return it->second;
  }

  std::string threadLabel(int64_t thread_id) const {
    if (thread_id < 0 || static_cast<size_t>(thread_id) >= t_.threads.size()) {
      return "thread ?";
    }
    const size_t i = static_cast<size_t>(thread_id);
    const std::string tid = std::to_string(t_.threads.tid[i]);
    const std::string_view name = t_.strings.get(t_.threads.name[i]);
    // Kineto names threads "thread 25738 (python)" already.
    if (name.find(tid) != std::string_view::npos) return std::string(name);
    std::string label = "thread " + tid;
    if (!name.empty()) label += " (" + std::string(name) + ")";
    return label;
  }

  void collectDeviceWork() {
    const auto& k = t_.kernels;
    for (size_t i = 0; i < k.size(); ++i) {
      stream(k.device[i], k.stream[i])
          .work.push_back(
              {k.ts[i], endOf(k.ts[i], k.dur[i]), static_cast<int64_t>(i), EventKind::kKernel});
    }
    const auto& c = t_.memcpys;
    for (size_t i = 0; i < c.size(); ++i) {
      stream(c.device[i], c.stream[i])
          .work.push_back(
              {c.ts[i], endOf(c.ts[i], c.dur[i]), static_cast<int64_t>(i), EventKind::kMemcpy});
    }
    const auto& m = t_.memsets;
    for (size_t i = 0; i < m.size(); ++i) {
      stream(m.device[i], m.stream[i])
          .work.push_back(
              {m.ts[i], endOf(m.ts[i], m.dur[i]), static_cast<int64_t>(i), EventKind::kMemset});
    }
  }

  void collectHost() {
    const auto& r = t_.ranges;
    for (size_t i = 0; i < r.size(); ++i) {
      const LaneEvent e{r.ts[i], endOf(r.ts[i], r.dur[i]), static_cast<int64_t>(i),
                        EventKind::kRange};
      const int32_t depth = isNull(r.depth[i]) ? 0 : std::max(0, r.depth[i]);
      if (!isNull(r.thread_id[i])) {
        thread(r.thread_id[i]).ranges[depth].push_back(e);
      } else if (!isNull(r.device[i])) {
        stream(r.device[i], r.stream[i]).ranges[depth].push_back(e);
      }
    }
    const auto& a = t_.api_calls;
    for (size_t i = 0; i < a.size(); ++i) {
      thread(a.thread_id[i])
          .api_calls.push_back(
              {a.ts[i], endOf(a.ts[i], a.dur[i]), static_cast<int64_t>(i), EventKind::kApiCall});
    }
    const auto& s = t_.syncs;
    for (size_t i = 0; i < s.size(); ++i) {
      const LaneEvent e{s.ts[i], endOf(s.ts[i], s.dur[i]), static_cast<int64_t>(i),
                        EventKind::kSync};
      if (!isNull(s.thread_id[i])) {
        thread(s.thread_id[i]).syncs.push_back(e);
      } else if (!isNull(s.device[i])) {
        stream(s.device[i], s.stream[i]).syncs.push_back(e);
      }
    }
  }

  void collectGaps() {
    for (size_t i = 0; i < result_->gaps.size(); ++i) {
      const GapResult& g = result_->gaps[i];
      const LaneEvent e{g.ts, endOf(g.ts, g.dur), static_cast<int64_t>(i), EventKind::kGap};
      if (g.stream) {
        stream(g.device, *g.stream).bubbles.push_back(e);
      } else {
        auto [it, fresh] = device_bubbles_.try_emplace(g.device);
        if (fresh) {
          it->second.kind = RowKind::kBubbles;
          it->second.label = deviceLabel(g.device) + " · bubbles";
        }
        it->second.bubbles.push_back(e);
      }
    }
  }

  // Appends one lane of `events` (sorted here) to the current row.
  void addLane(LaneKind kind, std::vector<LaneEvent> events) {
    sortByStart(events);
    Lane lane;
    lane.kind = kind;
    lane.row = static_cast<int>(out_.rows.size()) - 1;
    lane.rank = out_.rank;
    lane.events = std::move(events);
    lane.events.shrink_to_fit();  // drafts grow by doubling; a lane keeps only its events
    const int32_t index = static_cast<int32_t>(out_.lanes.size());
    for (const LaneEvent& e : lane.events) {
      auto& lookup = out_.lane_of[static_cast<size_t>(e.kind)];
      if (lookup.empty()) lookup.assign(tableSize(e.kind), -1);
      lookup[static_cast<size_t>(e.id)] = index;
    }
    out_.lanes.push_back(std::move(lane));
    ++out_.rows.back().lane_count;
  }

  // Packs events that may overlap onto the fewest lanes where none overlaps
  // (first fit in start order), appending each lane.
  void addPackedLanes(LaneKind kind, std::vector<LaneEvent> events) {
    sortByStart(events);
    std::vector<std::vector<LaneEvent>> packed;
    std::vector<int64_t> ends;
    for (const LaneEvent& e : events) {
      size_t j = 0;
      while (j < ends.size() && ends[j] > e.start) ++j;
      if (j == ends.size()) {
        packed.emplace_back();
        ends.push_back(0);
      }
      packed[j].push_back(e);
      ends[j] = e.end;
    }
    for (auto& lane : packed) addLane(kind, std::move(lane));
  }

  size_t tableSize(EventKind kind) const {
    switch (kind) {
      case EventKind::kKernel:
        return t_.kernels.size();
      case EventKind::kMemcpy:
        return t_.memcpys.size();
      case EventKind::kMemset:
        return t_.memsets.size();
      case EventKind::kApiCall:
        return t_.api_calls.size();
      case EventKind::kRange:
        return t_.ranges.size();
      case EventKind::kSync:
        return t_.syncs.size();
      case EventKind::kGap:
        return result_ ? result_->gaps.size() : 0;
    }
    return 0;
  }

  void emitRow(RowDraft& draft) {
    TimelineRow row;
    row.kind = draft.kind;
    row.label = std::move(draft.label);
    row.first_lane = static_cast<int>(out_.lanes.size());
    out_.rows.push_back(std::move(row));
    if (!draft.work.empty()) addLane(LaneKind::kDeviceWork, std::move(draft.work));
    if (!draft.bubbles.empty()) addLane(LaneKind::kBubbles, std::move(draft.bubbles));
    for (auto& [depth, events] : draft.ranges) addLane(LaneKind::kRanges, std::move(events));
    if (!draft.api_calls.empty()) addPackedLanes(LaneKind::kApiCalls, std::move(draft.api_calls));
    if (!draft.syncs.empty()) addPackedLanes(LaneKind::kSyncs, std::move(draft.syncs));
    if (out_.rows.back().lane_count == 0) out_.rows.pop_back();
  }

  // Devices in order, each with its streams then its bubbles; then threads.
  void emitRows() {
    std::map<int32_t, bool> devices;
    for (const auto& [key, draft] : streams_) devices[key.first] = true;
    for (const auto& [device, draft] : device_bubbles_) devices[device] = true;
    for (const auto& [device, unused] : devices) {
      for (auto it = streams_.lower_bound({device, std::numeric_limits<int64_t>::min()});
           it != streams_.end() && it->first.first == device; ++it) {
        emitRow(it->second);
      }
      if (auto it = device_bubbles_.find(device); it != device_bubbles_.end()) emitRow(it->second);
    }
    for (auto& [id, draft] : threads_) emitRow(draft);
  }

  // A counter's series: its rows sorted by time, and the value each holds
  // until the next (the last sample holds for no time).
  struct Series {
    std::vector<size_t> rows;
    double busy = 0;  // the integral of value over time, to rank threads' rows
  };

  void collectCounters() {
    const auto& c = t_.counters;
    // (name, device) -> thread -> series; a per-process counter has a null thread.
    std::map<std::pair<std::string_view, int32_t>, std::map<int64_t, Series>> groups;
    for (size_t i = 0; i < c.size(); ++i) {
      groups[{t_.strings.get(c.name[i]), c.device[i]}][c.thread_id[i]].rows.push_back(i);
    }
    for (auto& [key, threads] : groups) {
      const auto& [name, device] = key;
      std::string label(name);
      if (!isNull(device)) label += " (" + deviceLabel(device) + ")";
      std::vector<std::pair<int64_t, Series*>> order;
      double busiest = 0;
      for (auto& [thread_id, series] : threads) {
        std::stable_sort(series.rows.begin(), series.rows.end(),
                         [&](size_t a, size_t b) { return c.ts[a] < c.ts[b]; });
        for (size_t j = 0; j + 1 < series.rows.size(); ++j) {
          const size_t i = series.rows[j];
          series.busy += valueOf(i) * static_cast<double>(c.ts[series.rows[j + 1]] - c.ts[i]);
        }
        busiest = std::max(busiest, series.busy);
        order.emplace_back(thread_id, &series);
      }
      // Busiest thread first. A thread with under kOwnRowShare of the
      // busiest's integral (an OpenMP or allocator pool idle but for
      // start-up, say) shares one summed row with the other quiet ones, so a
      // process of many threads does not bury the ones that work.
      std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        return a.second->busy > b.second->busy;
      });
      std::vector<const Series*> quiet;
      for (const auto& [thread_id, series] : order) {
        if (!isNull(thread_id) && series->busy < kOwnRowShare * busiest) {
          quiet.push_back(series);
          continue;
        }
        emitCounterRow(isNull(thread_id) ? label : label + " (" + threadLabel(thread_id) + ")",
                       samplesOf(*series));
      }
      if (quiet.size() == 1) {
        const int64_t thread_id = c.thread_id[quiet.front()->rows.front()];
        emitCounterRow(label + " (" + threadLabel(thread_id) + ")", samplesOf(*quiet.front()));
      } else if (!quiet.empty()) {
        emitCounterRow(label + " (" + std::to_string(quiet.size()) + " quieter threads, summed)",
                       summed(quiet));
      }
    }
  }

  static constexpr double kOwnRowShare = 0.05;

  double valueOf(size_t row) const {
    const double v = t_.counters.value[row];
    return std::isnan(v) ? 0.0 : v;
  }

  // (start, end, counter row, value) of each sample of one series.
  struct Sample {
    int64_t start, end;
    int64_t row;
    double value;
  };

  std::vector<Sample> samplesOf(const Series& series) const {
    const auto& c = t_.counters;
    std::vector<Sample> out;
    for (size_t j = 0; j < series.rows.size(); ++j) {
      const size_t i = series.rows[j];
      const int64_t end = j + 1 < series.rows.size() ? c.ts[series.rows[j + 1]] : c.ts[i];
      out.push_back({c.ts[i], end, static_cast<int64_t>(i), valueOf(i)});
    }
    return out;
  }

  // The sum of several series: at every sample time of any of them, the sum
  // of the values each holds then (a series holds nothing after its last
  // sample, as it is drawn alone). Summed samples name no counter row (-1).
  std::vector<Sample> summed(const std::vector<const Series*>& series) const {
    const auto& c = t_.counters;
    struct Change {
      int64_t ts;
      size_t series;
      double value;
    };
    std::vector<Change> changes;
    for (size_t k = 0; k < series.size(); ++k) {
      const std::vector<size_t>& rows = series[k]->rows;
      for (size_t j = 0; j < rows.size(); ++j) {
        changes.push_back({c.ts[rows[j]], k, j + 1 < rows.size() ? valueOf(rows[j]) : 0.0});
      }
    }
    std::stable_sort(changes.begin(), changes.end(),
                     [](const Change& a, const Change& b) { return a.ts < b.ts; });
    std::vector<double> held(series.size(), 0.0);
    std::vector<Sample> out;
    double total = 0;
    for (size_t i = 0; i < changes.size();) {
      const int64_t ts = changes[i].ts;
      for (; i < changes.size() && changes[i].ts == ts; ++i) {
        total += changes[i].value - held[changes[i].series];
        held[changes[i].series] = changes[i].value;
      }
      if (!out.empty()) out.back().end = ts;
      out.push_back({ts, ts, -1, std::max(total, 0.0)});
    }
    return out;
  }

  void emitCounterRow(std::string label, const std::vector<Sample>& samples) {
    TimelineRow row;
    row.kind = RowKind::kCounter;
    row.label = std::move(label);
    row.first_lane = static_cast<int>(out_.lanes.size());
    row.lane_count = 1;
    out_.rows.push_back(std::move(row));
    Lane lane;
    lane.kind = LaneKind::kCounter;
    lane.row = static_cast<int>(out_.rows.size()) - 1;
    lane.rank = out_.rank;
    for (const Sample& s : samples) {
      // Counters are not events an EventRef names; id keeps the table row.
      lane.events.push_back({s.start, s.end, s.row, EventKind::kRange});
      lane.values.push_back(s.value);
      lane.max_value = std::max(lane.max_value, s.value);
    }
    out_.lanes.push_back(std::move(lane));
  }

  void extent() {
    int64_t lo = std::numeric_limits<int64_t>::max();
    int64_t hi = std::numeric_limits<int64_t>::min();
    for (const Lane& lane : out_.lanes) {
      if (lane.events.empty()) continue;
      lo = std::min(lo, lane.events.front().start);
      for (const LaneEvent& e : lane.events) hi = std::max(hi, e.end);
    }
    for (const StepBandItem& s : out_.steps) {
      lo = std::min(lo, s.ts);
      hi = std::max(hi, s.ts + s.dur);
    }
    // A loss after the last event (a file past its size limit) is in view too.
    for (const LostBand& band : out_.lost) {
      lo = std::min(lo, band.start);
      hi = std::max(hi, band.end);
    }
    if (lo > hi) lo = hi = 0;
    out_.start = lo;
    out_.end = hi;
  }

  const TraceTables& t_;
  Progress progress_;
  const RankResult* result_ = nullptr;
  TimelineRows out_;
  std::map<StreamKey, RowDraft> streams_;
  StreamKey last_key_{std::numeric_limits<int32_t>::min(), 0};
  RowDraft* last_stream_ = nullptr;
  std::map<int64_t, RowDraft> threads_;
  std::map<int32_t, RowDraft> device_bubbles_;
};

}  // namespace

std::optional<double> counterValueAt(const Lane& lane, int64_t ts) {
  if (lane.kind != LaneKind::kCounter || lane.events.empty()) return std::nullopt;
  auto it = std::upper_bound(lane.events.begin(), lane.events.end(), ts,
                             [](int64_t t, const LaneEvent& e) { return t < e.start; });
  if (it == lane.events.begin()) return std::nullopt;
  --it;
  if (it + 1 == lane.events.end() && ts > it->end) return std::nullopt;
  return lane.values[static_cast<size_t>(it - lane.events.begin())];
}

std::string counterValueText(double value) {
  if (!std::isfinite(value)) return "n/a";
  struct Prefix {
    double scale;
    const char* name;
  };
  static constexpr Prefix kPrefixes[] = {{1e12, " T"}, {1e9, " G"}, {1e6, " M"}, {1e3, " k"}};
  const double magnitude = std::abs(value);
  for (const Prefix& prefix : kPrefixes) {
    if (magnitude >= prefix.scale) {
      return fmt::format("{:.3g}{}", value / prefix.scale, prefix.name);
    }
  }
  if (magnitude > 0 && magnitude < 0.01) return fmt::format("{:.3g} m", value * 1e3);
  return fmt::format("{:.3g}", value);
}

namespace {

int lookUp(const std::vector<std::vector<int32_t>>& lane_of, const EventRef& ref) {
  const size_t kind = static_cast<size_t>(ref.kind);
  if (kind >= lane_of.size() || ref.id < 0 || static_cast<size_t>(ref.id) >= lane_of[kind].size()) {
    return -1;
  }
  return lane_of[kind][static_cast<size_t>(ref.id)];
}

}  // namespace

int TimelineRows::laneOf(const EventRef& ref) const {
  if (groups.empty()) return ref.rank == rank ? lookUp(lane_of, ref) : -1;
  for (const RankGroup& g : groups) {
    if (g.rank != ref.rank) continue;
    const int lane = lookUp(g.lane_of, ref);
    return lane < 0 ? -1 : g.first_lane + lane;
  }
  return -1;
}

int64_t TimelineRows::offsetOf(int32_t of) const {
  for (const RankGroup& g : groups) {
    if (g.rank == of) return g.offset_ns;
  }
  return 0;
}

const std::vector<KernelCategory>& TimelineRows::categoriesOf(int32_t of) const {
  for (size_t g = 0; g < groups.size() && g < by_rank_categories.size(); ++g) {
    if (groups[g].rank == of) return by_rank_categories[g];
  }
  return kernel_categories;
}

const LostBand* lostBandAt(const TimelineRows& rows, int64_t ts, int64_t slack_ns) {
  const LostBand* nearest = nullptr;
  int64_t nearest_distance = 0;
  for (const LostBand& band : rows.lost) {
    const int64_t distance = ts < band.start ? band.start - ts : ts > band.end ? ts - band.end : 0;
    if (distance > slack_ns) continue;
    if (!nearest || distance < nearest_distance) nearest = &band, nearest_distance = distance;
  }
  return nearest;
}

size_t TimelineRows::bytes() const {
  size_t n = sizeof(*this) + rows.capacity() * sizeof(TimelineRow) +
             lanes.capacity() * sizeof(Lane) + kernel_categories.capacity();
  for (const Lane& lane : lanes) {
    n += lane.events.capacity() * sizeof(LaneEvent) + lane.values.capacity() * sizeof(double);
  }
  for (const auto& lookup : lane_of) n += lookup.capacity() * sizeof(int32_t);
  for (const RankGroup& g : groups) {
    for (const auto& lookup : g.lane_of) n += lookup.capacity() * sizeof(int32_t);
  }
  for (const auto& categories : by_rank_categories) n += categories.capacity();
  return n;
}

TimelineRows buildTimelineRows(const AnalysedRun& run, int rank, const Progress& progress) {
  if (rank < 0 || static_cast<size_t>(rank) >= run.tables.size()) return {};
  return Builder(run, rank, progress).build();
}

}  // namespace damscope
