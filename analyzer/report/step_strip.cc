// The representative step's timeline strip: see step_strip.h.
#include "analyzer/report/step_strip.h"

#include <algorithm>
#include <map>

#include "analyzer/analyses/kernel_categories.h"

namespace damscope {
namespace {

struct Event {
  int64_t ts = 0;
  int64_t end = 0;
  int64_t stream = 0;
  KernelCategory category = KernelCategory::kOther;
  std::string_view name;
};

// The analysed step of median duration (the lower median of an even count).
const StepResult* medianStep(const RankResult& r, int64_t& considered) {
  std::vector<const StepResult*> steps;
  for (const StepResult& s : r.steps) {
    if (s.in_window && s.dur > 0) steps.push_back(&s);
  }
  considered = static_cast<int64_t>(steps.size());
  if (steps.empty()) return nullptr;
  const size_t mid = (steps.size() - 1) / 2;
  std::nth_element(steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(mid), steps.end(),
                   [](const StepResult* a, const StepResult* b) {
                     return a->dur != b->dur ? a->dur < b->dur : a->number < b->number;
                   });
  return steps[mid];
}

// The device's events that overlap [start, end), clipped to it.
std::vector<Event> eventsIn(const TraceTables& t, int32_t device, int64_t start, int64_t end) {
  std::vector<Event> out;
  auto add = [&](int64_t ts, int64_t dur, int64_t stream, KernelCategory category,
                 std::string_view name) {
    const int64_t e = ts + std::max<int64_t>(dur, 0);
    if (e <= start || ts >= end) return;
    out.push_back({std::max(ts, start), std::min(e, end), isNull(stream) ? 0 : stream, category,
                   name});
  };
  const KernelClassifier classes(t.strings, t.kernels.name);
  for (size_t i = 0; i < t.kernels.size(); ++i) {
    if (t.kernels.device[i] != device) continue;
    add(t.kernels.ts[i], t.kernels.dur[i], t.kernels.stream[i], classes.category(t.kernels.name[i]),
        t.strings.get(t.kernels.name[i]));
  }
  for (size_t i = 0; i < t.memcpys.size(); ++i) {
    if (t.memcpys.device[i] != device) continue;
    add(t.memcpys.ts[i], t.memcpys.dur[i], t.memcpys.stream[i], KernelCategory::kMemory,
        toText(t.memcpys.copy_kind[i]));
  }
  for (size_t i = 0; i < t.memsets.size(); ++i) {
    if (t.memsets.device[i] != device) continue;
    add(t.memsets.ts[i], t.memsets.dur[i], t.memsets.stream[i], KernelCategory::kMemory, "memset");
  }
  return out;
}

// Spans of one stream, sorted; neighbours closer than `quantum` merge when
// they are the same kind of work or both too narrow to draw on their own.
std::vector<StripSpan> mergeSpans(std::vector<Event>& events, int64_t origin, int64_t quantum) {
  std::sort(events.begin(), events.end(),
            [](const Event& a, const Event& b) { return a.ts < b.ts; });
  std::vector<StripSpan> out;
  int64_t longest = 0;  // of the span being built
  for (const Event& e : events) {
    const int64_t dur = e.end - e.ts;
    if (!out.empty()) {
      StripSpan& last = out.back();
      const int64_t last_end = origin + last.ts + last.dur;
      const bool narrow = dur < quantum && last.dur < quantum;
      if (e.ts - last_end < quantum && (narrow || e.category == last.category)) {
        last.dur = std::max(last_end, e.end) - origin - last.ts;
        ++last.events;
        if (dur > longest) {
          longest = dur;
          last.category = e.category;
          last.name = std::string(e.name);
        }
        continue;
      }
    }
    out.push_back({e.ts - origin, dur, e.category, 1, std::string(e.name)});
    longest = dur;
  }
  return out;
}

}  // namespace

std::optional<StepStrip> buildStepStrip(const TraceTables& t, const RankResult& r,
                                        int resolution) {
  if (!r.device) return std::nullopt;
  StepStrip strip;
  const StepResult* step = medianStep(r, strip.steps_considered);
  if (!step) return std::nullopt;
  const int64_t start = step->ts, end = step->ts + step->dur;
  std::vector<Event> events = eventsIn(t, *r.device, start, end);
  if (events.empty()) return std::nullopt;

  strip.step_number = step->number;
  strip.step_name = step->name;
  strip.dur = step->dur;
  strip.device = *r.device;
  if (r.device_kind == DeviceKind::kCpu) strip.lane = "thread";
  const int64_t quantum = std::max<int64_t>(1, step->dur / std::max(resolution, 1));
  std::map<int64_t, std::vector<Event>> by_stream;
  for (const Event& e : events) by_stream[e.stream].push_back(e);
  for (auto& [stream, list] : by_stream) {
    strip.rows.push_back({stream, mergeSpans(list, start, quantum)});
  }
  for (const GapResult& g : r.gaps) {
    if (g.device != *r.device || g.stream) continue;  // the device's bubbles only
    const int64_t b = std::max(g.ts, start), e = std::min(g.ts + g.dur, end);
    if (e > b) strip.bubbles.push_back({b - start, e - b, g.cause});
  }
  return strip;
}

}  // namespace damscope
