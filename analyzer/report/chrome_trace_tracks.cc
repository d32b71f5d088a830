// The tracks of a Chrome trace export: see chrome_trace_tracks.h.
#include "analyzer/report/chrome_trace_tracks.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

namespace damscope {
namespace {

// The largest id viewers read exactly (as a signed or unsigned 32-bit int).
constexpr int64_t kMaxOwnId = (int64_t{1} << 31) - 1;

bool usableOwnId(int64_t id) {
  return id > 0 && id <= kMaxOwnId;
}

template <typename Key>
ChromeTrack findTrack(const std::vector<std::pair<Key, ChromeTrack>>& tracks, const Key& key) {
  auto it = std::lower_bound(tracks.begin(), tracks.end(), key,
                             [](const auto& entry, const Key& k) { return entry.first < k; });
  return it != tracks.end() && it->first == key ? it->second : ChromeTrack{};
}

std::string deviceLabel(const TraceTables& t, int32_t device) {
  if (isNull(device)) return "GPU (unknown device)";
  for (size_t i = 0; i < t.devices.size(); ++i) {
    if (t.devices.device[i] != device) continue;
    std::string label =
        (t.devices.kind[i] == DeviceKind::kCpu ? "CPU " : "GPU ") + std::to_string(device);
    const std::string_view name = t.strings.get(t.devices.name[i]);
    if (!name.empty()) label += " (" + std::string(name) + ")";
    return label;
  }
  return "GPU " + std::to_string(device);
}

std::string deviceShortLabel(int32_t device) {
  return isNull(device) ? "GPU ?" : "GPU " + std::to_string(device);
}

}  // namespace

int64_t ChromeTrackLayout::ownPid(int64_t pid) {
  return usableOwnId(pid) && used_pids_.insert(pid).second ? pid : -1;
}

int64_t ChromeTrackLayout::ownTid(int64_t tid) {
  return usableOwnId(tid) && used_tids_.insert(tid).second ? tid : -1;
}

int64_t ChromeTrackLayout::fresh() {
  while (used_pids_.count(next_id_) || used_tids_.count(next_id_)) ++next_id_;
  used_pids_.insert(next_id_);
  used_tids_.insert(next_id_);
  return next_id_++;
}

ChromeTrack ChromeTrackLayout::stream(int32_t device, int64_t stream) const {
  return findTrack(streams_, std::make_pair(device, stream));
}

ChromeTrack ChromeTrackLayout::gaps(int32_t device) const {
  return findTrack(gaps_, device);
}

int64_t ChromeTrackLayout::devicePid(int32_t device) const {
  auto it = std::lower_bound(device_pids_.begin(), device_pids_.end(), device,
                             [](const auto& entry, int32_t d) { return entry.first < d; });
  return it != device_pids_.end() && it->first == device ? it->second : unknown_thread_.pid;
}

ChromeTrackLayout ChromeTrackLayout::build(const AnalysisInput& input, const RankResult& result) {
  ChromeTrackLayout l;
  const TraceTables& t = input.tables();
  const ProcessTable& procs = t.processes;
  const ThreadTable& threads = t.threads;

  // The trace's own ids first, so that fresh ids step around all of them.
  std::vector<int64_t> pids(procs.size()), tids(threads.size());
  for (size_t i = 0; i < procs.size(); ++i) pids[i] = l.ownPid(procs.pid[i]);
  for (size_t i = 0; i < threads.size(); ++i) tids[i] = l.ownTid(threads.tid[i]);
  for (int64_t& pid : pids)
    if (pid < 0) pid = l.fresh();
  for (int64_t& tid : tids)
    if (tid < 0) tid = l.fresh();

  for (size_t i = 0; i < procs.size(); ++i) {
    std::string name(t.strings.get(procs.name[i]));
    if (name.empty()) name = "host";
    if (!isNull(procs.rank[i])) name += " (rank " + std::to_string(procs.rank[i]) + ")";
    l.processes_.push_back({pids[i], std::move(name), static_cast<int64_t>(i)});
  }
  // The process of host events whose thread names none: the first one, or
  // one made for them when the trace lists no process.
  std::optional<int64_t> host_pid;
  if (!procs.empty()) host_pid = pids.front();
  auto hostPid = [&]() {
    if (!host_pid) {
      host_pid = l.fresh();
      l.processes_.push_back({*host_pid, "host", -1});
    }
    return *host_pid;
  };

  const int64_t main_thread = input.mainThread();
  l.host_threads_.resize(threads.size());
  for (size_t i = 0; i < threads.size(); ++i) {
    const int64_t p = threads.process_id[i];
    const int64_t pid =
        p >= 0 && p < static_cast<int64_t>(procs.size()) ? pids[static_cast<size_t>(p)] : hostPid();
    l.host_threads_[i] = {pid, tids[i]};
    std::string name(t.strings.get(threads.name[i]));
    if (name.empty()) name = "thread " + std::to_string(threads.tid[i]);
    const int64_t sort = static_cast<int64_t>(i) == main_thread ? 0 : static_cast<int64_t>(i) + 1;
    l.threads_.push_back({l.host_threads_[i], std::move(name), sort});
  }

  // Host events whose thread is unknown get a track of their own; host
  // counters without a thread go to the host process.
  auto unknownThread = [&](int64_t thread_id) {
    return thread_id < 0 || thread_id >= static_cast<int64_t>(threads.size());
  };
  bool unknown =
      std::any_of(t.api_calls.thread_id.begin(), t.api_calls.thread_id.end(), unknownThread);
  for (size_t i = 0; i < t.ranges.size() && !unknown; ++i) {
    unknown = !isGpuRange(t.ranges, i) && unknownThread(t.ranges.thread_id[i]);
  }
  for (size_t i = 0; i < t.syncs.size() && !unknown; ++i) {
    unknown = isHostSync(t.syncs, i) && unknownThread(t.syncs.thread_id[i]);
  }
  bool host_counters = false;
  for (size_t i = 0; i < t.counters.size() && !host_counters; ++i) {
    host_counters = isNull(t.counters.device[i]) && unknownThread(t.counters.thread_id[i]);
  }
  if (unknown) {
    l.unknown_thread_ = {hostPid(), l.fresh()};
    l.threads_.push_back(
        {l.unknown_thread_, "thread unknown", static_cast<int64_t>(threads.size()) + 1});
  } else if (host_counters) {
    l.unknown_thread_ = {hostPid(), 0};
  }

  // Devices and their streams: every (device, stream) GPU work runs on.
  std::set<std::pair<int32_t, int64_t>> streams;
  std::pair<int32_t, int64_t> last{kNullInt32, kNullInt};
  bool any = false;
  for (const GpuOp& op : input.gpu()) {
    if (!isTraceTime(op.ts)) continue;
    const std::pair<int32_t, int64_t> key{op.device, op.stream};
    if (!any || key != last) streams.insert(key);
    last = key, any = true;
  }
  for (size_t i = 0; i < t.ranges.size(); ++i) {
    if (isGpuRange(t.ranges, i)) streams.insert({t.ranges.device[i], t.ranges.stream[i]});
  }
  std::set<int32_t> devices;
  for (const auto& s : streams) devices.insert(s.first);
  std::set<int32_t> gap_devices;
  for (const GapResult& g : result.gaps) {
    if (!g.stream) gap_devices.insert(g.device);
  }
  devices.insert(gap_devices.begin(), gap_devices.end());
  for (size_t i = 0; i < t.counters.size(); ++i) {
    if (!isNull(t.counters.device[i])) devices.insert(t.counters.device[i]);
  }
  // Steps go with the primary device; a trace without GPU work has them on
  // the host.
  const bool steps = !result.steps.empty();
  std::optional<int32_t> steps_device = result.device;
  if (!steps_device && !devices.empty()) steps_device = *devices.begin();
  if (steps && steps_device) devices.insert(*steps_device);
  if (steps && !steps_device) {
    l.steps_ = {hostPid(), l.fresh()};
    l.threads_.push_back({l.steps_, "steps", -1});
  }

  int64_t process_sort = static_cast<int64_t>(procs.size());
  for (int32_t device : devices) {
    const int64_t pid = l.fresh();
    l.processes_.push_back({pid, deviceLabel(t, device), process_sort++});
    l.device_pids_.push_back({device, pid});
    if (steps && steps_device == device) {
      l.steps_ = {pid, l.fresh()};
      l.threads_.push_back({l.steps_, "steps", 0});
    }
    if (gap_devices.count(device)) {
      const ChromeTrack track{pid, l.fresh()};
      l.gaps_.push_back({device, track});
      l.threads_.push_back({track, deviceShortLabel(device) + " idle gaps", 1});
    }
    int64_t thread_sort = 2;
    for (auto it = streams.lower_bound({device, std::numeric_limits<int64_t>::min()});
         it != streams.end() && it->first == device; ++it) {
      const ChromeTrack track{pid, l.fresh()};
      l.streams_.push_back({*it, track});
      l.threads_.push_back({track,
                            deviceShortLabel(device) + " stream " +
                                (isNull(it->second) ? "unknown" : std::to_string(it->second)),
                            thread_sort++});
    }
  }
  return l;
}

}  // namespace damscope
