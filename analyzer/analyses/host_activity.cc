// What each host thread was doing over time: see host_activity.h.
#include "analyzer/analyses/host_activity.h"

#include <algorithm>

#include "analyzer/analyses/intervals.h"
#include "analyzer/analyses/name_patterns.h"

namespace damscope {
namespace {

struct Source {
  int64_t start, end;
  int64_t row;
  bool from_api;
};

}  // namespace

HostActivityIndex::HostActivityIndex(const AnalysisInput& input) {
  const TraceTables& t = input.tables();
  const size_t threads = t.threads.size();
  offsets_.assign(threads + 1, 0);
  if (threads == 0) return;

  // Range classes by distinct (name, category): ranges repeat a few names.
  const RangeTable& r = t.ranges;
  const ApiCallTable& api = t.api_calls;
  std::vector<std::vector<Source>> by_class(threads * 5);
  auto bucket = [&](int64_t thread, HostActivity a) -> std::vector<Source>& {
    return by_class[static_cast<size_t>(thread) * 5 + static_cast<size_t>(a)];
  };
  auto valid_thread = [&](int64_t thread) {
    return !isNull(thread) && thread >= 0 && static_cast<size_t>(thread) < threads;
  };
  for (size_t i = 0; i < api.size(); ++i) {
    if (!valid_thread(api.thread_id[i])) continue;
    const int64_t end = api.ts[i] + std::max<int64_t>(api.dur[i], 0);
    const HostActivity a =
        (input.apiFlags()[i] & kApiBlocksHost) ? HostActivity::kSync : HostActivity::kCudaApi;
    bucket(api.thread_id[i], a).push_back({api.ts[i], end, int64_t(i), true});
  }
  // Per distinct name: -2 not classified yet, -3 a step (a container, even
  // when the profiler records it as a cpu_op), -1 nothing special.
  std::vector<int8_t> name_class(t.strings.size() + 1, -2);
  for (size_t i = 0; i < r.size(); ++i) {
    if (!valid_thread(r.thread_id[i])) continue;
    const std::string_view category = t.strings.get(r.category[i]);
    HostActivity a;
    if (category == "dataloader") {  // the 2021 Kineto format's own category
      a = HostActivity::kDataLoading;
    } else {
      const size_t key =
          r.name[i].valid() ? static_cast<size_t>(r.name[i].value) : t.strings.size();
      int8_t& cls = name_class[key];
      if (cls == -2) {
        const std::string_view name = t.strings.get(r.name[i]);
        cls = profilerStepNumber(name) || isStepAnnotationName(name, nullptr) ? int8_t{-3}
              : isDataLoadingRange(name, "") ? static_cast<int8_t>(HostActivity::kDataLoading)
              : isCommunicationRange(name)   ? static_cast<int8_t>(HostActivity::kCommunication)
                                             : int8_t{-1};
      }
      if (cls == -3) continue;
      if (cls >= 0) {
        a = static_cast<HostActivity>(cls);
      } else if (isFrameworkOpCategory(category)) {
        a = HostActivity::kFrameworkOp;
      } else {
        continue;  // container annotations (steps, forward, Python functions) say nothing
      }
    }
    const int64_t end = r.ts[i] + std::max<int64_t>(r.dur[i], 0);
    bucket(r.thread_id[i], a).push_back({r.ts[i], end, int64_t(i), false});
  }

  // Paint each thread's timeline in precedence order: a class owns the time
  // that no higher class already covers.
  for (size_t thread = 0; thread < threads; ++thread) {
    std::vector<HostSegment> painted;
    Intervals covered;
    for (size_t a = 0; a < 5; ++a) {
      std::vector<Source>& sources = by_class[thread * 5 + a];
      if (sources.empty()) continue;
      std::stable_sort(sources.begin(), sources.end(), [](const Source& x, const Source& y) {
        return x.start < y.start || (x.start == y.start && x.end > y.end);
      });
      // Merge this class's sources, remembering the outermost event of each piece.
      size_t i = 0;
      Intervals merged;
      std::vector<std::pair<int64_t, bool>> evidence;
      while (i < sources.size()) {
        if (sources[i].end <= sources[i].start) {
          ++i;
          continue;
        }
        Interval piece{sources[i].start, sources[i].end};
        const auto ev = std::make_pair(sources[i].row, sources[i].from_api);
        ++i;
        while (i < sources.size() && sources[i].start < piece.end) {
          piece.end = std::max(piece.end, sources[i].end);
          ++i;
        }
        merged.push_back(piece);
        evidence.push_back(ev);
      }
      // The parts of each merged piece not yet covered by a higher class.
      size_t j = 0;
      for (size_t k = 0; k < merged.size(); ++k) {
        int64_t cursor = merged[k].start;
        while (j < covered.size() && covered[j].end <= cursor) ++j;
        size_t c = j;
        auto emit = [&](int64_t s, int64_t e) {
          painted.push_back(
              {s, e, static_cast<HostActivity>(a), evidence[k].second, evidence[k].first});
        };
        while (c < covered.size() && covered[c].start < merged[k].end) {
          if (covered[c].start > cursor) emit(cursor, covered[c].start);
          cursor = std::max(cursor, covered[c].end);
          ++c;
        }
        if (cursor < merged[k].end) emit(cursor, merged[k].end);
      }
      covered = uniteIntervals(covered, merged);
    }
    std::sort(painted.begin(), painted.end(),
              [](const HostSegment& x, const HostSegment& y) { return x.start < y.start; });
    offsets_[thread] = segments_.size();
    segments_.insert(segments_.end(), painted.begin(), painted.end());
  }
  offsets_[threads] = segments_.size();
}

const HostSegment* HostActivityIndex::find(int64_t thread, int64_t start,
                                           const HostSegment** last) const {
  if (isNull(thread) || thread < 0 || static_cast<size_t>(thread) + 1 >= offsets_.size()) {
    *last = nullptr;
    return nullptr;
  }
  const HostSegment* begin = segments_.data() + offsets_[static_cast<size_t>(thread)];
  const HostSegment* end = segments_.data() + offsets_[static_cast<size_t>(thread) + 1];
  *last = end;
  return std::lower_bound(begin, end, start,
                          [](const HostSegment& s, int64_t t) { return s.end <= t; });
}

}  // namespace damscope
