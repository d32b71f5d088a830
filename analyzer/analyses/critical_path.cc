#include "analyzer/analyses/critical_path.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "analyzer/analyses/name_patterns.h"
#include "base/median.h"

namespace damscope {

std::string_view toText(PathBound bound) {
  switch (bound) {
    case PathBound::kCpu:
      return "cpu";
    case PathBound::kData:
      return "data";
    case PathBound::kKernel:
      return "kernel";
    case PathBound::kCommunication:
      return "communication";
    case PathBound::kLaunchDelay:
      return "launch_delay";
    case PathBound::kKernelGap:
      return "kernel_gap";
  }
  return "cpu";
}

namespace {

// A runtime API name without the version suffix CUPTI appends
// (cudaLaunchKernel_v7000 -> cudaLaunchKernel).
std::string_view apiBase(std::string_view name) {
  const size_t at = name.find("_v");
  return at == std::string_view::npos ? name : name.substr(0, at);
}

template <size_t N>
bool oneOf(std::string_view name, const std::array<std::string_view, N>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// HTA's CUDA_RUNTIME_EVENTS: the calls that take the CUDA runtime's lock.
constexpr std::array<std::string_view, 3> kRuntimeLockCalls = {"cudaHostAlloc", "cudaLaunchKernel",
                                                               "cudaMemcpyAsync"};
// HTA's runtime launch events (trace_symbol_table.py,
// get_runtime_launch_events_mask): the calls that enqueue work on a stream.
constexpr std::array<std::string_view, 11> kQueueingCalls = {
    "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel",     "cuLaunchKernelEx",
    "cudaMemcpyAsync",  "cudaMemsetAsync",     "hipLaunchKernel",    "hipExtModuleLaunchKernel",
    "hipMemsetAsync",   "hipMemcpyAsync",      "hipMemcpyWithStream"};
// HTA's CPGraph.BLOCKING_SYNC_CALLS and their HIP twins: the time a
// blocking call waits is the GPU's, not the CPU's. Unlike the host activity
// (name_patterns.h, isSynchronizingApi), cudaFree stays CPU time here, as in
// HTA: it frees memory too, and on simple_add_a100 HTA's path holds 9.1 ms of it.
constexpr std::array<std::string_view, 10> kBlockingCalls = {"cudaDeviceSynchronize",
                                                             "cudaStreamSynchronize",
                                                             "cudaEventQuery",
                                                             "cudaEventSynchronize",
                                                             "cudaMemcpy",
                                                             "cudaMemcpyAsync",
                                                             "hipDeviceSynchronize",
                                                             "hipStreamSynchronize",
                                                             "hipEventSynchronize",
                                                             "hipMemcpy"};

constexpr int8_t kNoBound = -1;

enum class Source : uint8_t { kRange, kApi, kGpu };

// One event of the graph: it owns nodes 2i (start) and 2i + 1 (end).
struct Event {
  int64_t ts = 0;
  int64_t end = 0;
  int64_t thread = kNullInt;  // host events, after the backward thread's remap
  size_t row = 0;             // in its table, or in AnalysisInput::gpu()
  Source source = Source::kRange;
  PathBound bound = PathBound::kCpu;
  bool blocking = false;      // a call whose wait is the GPU's
  bool runtime_lock = false;  // a call that takes the CUDA runtime's lock
};

struct Edge {
  uint32_t from = 0;
  uint32_t to = 0;
  int64_t weight = 0;
  int8_t bound = kNoBound;  // a PathBound, or kNoBound for a dependency
  bool what_if = false;     // a dependency only the what-ifs follow
};

using StreamKey = std::pair<int64_t, int32_t>;  // stream, device
StreamKey streamOf(const GpuOp& op) {
  return {op.stream, op.device};
}

// What a window's graph needs from the whole trace, computed once.
class GraphSource {
 public:
  explicit GraphSource(const AnalysisInput& input);
  CriticalPath pathOf(int64_t start, int64_t end) const;

 private:
  struct GraphBuild;
  void addHostEdges(GraphBuild& g) const;
  void addGpuEdges(GraphBuild& g, int64_t start, int64_t end) const;

  const AnalysisInput& input_;
  std::vector<size_t> ranges_by_ts_;  // host op ranges, by start
  std::vector<size_t> api_by_ts_;     // calls of nonzero length, by start
  std::vector<PathBound> range_bound_;
  std::vector<uint8_t> api_lock_, api_blocking_;
  // GPU operations launched by each call (indexes into input.gpu()), as CSR.
  std::vector<size_t> launched_offsets_, launched_;
  // HTA's queue length per GPU operation: after its launch call and after
  // its start; -1 when the operation's call does not queue work.
  std::vector<int32_t> queue_at_launch_, queue_at_start_;
  std::vector<size_t> syncs_;  // stream and context syncs with a launch call
  // Per stream, its operations' launch times in order and the latest end of
  // those launched so far: what an earlier step left running on it.
  struct StreamBusy {
    std::vector<int64_t> launch_ts;
    std::vector<int64_t> busy_until;
  };
  std::map<StreamKey, StreamBusy> busy_;
  // Ops and annotations whose names hold "forward" and "autograd", by start.
  std::vector<size_t> forward_ranges_, autograd_ranges_;
};

bool inWindow(int64_t ts, int64_t start, int64_t end) {
  return ts >= start && ts < end;
}

// What a range's name or category says, per distinct string (bits).
enum NameBits : uint8_t {
  kStepName = 1,
  kDataName = 2,
  kForwardName = 4,
  kAutogradName = 8,
  kOpCategory = 16,          // framework ops (cpu_op)
  kAnnotationCategory = 32,  // cpu_op or user_annotation: where HTA looks for threads
  kDataCategory = 64,
  kClassified = 128,
};
// What a runtime call's name says, per distinct string (bits).
enum CallBits : uint8_t {
  kLockCall = 1,
  kBlockingCall = 2,
  kQueueingCall = 4,
  kCallClassified = 8
};

template <typename Classify>
uint8_t cached(std::vector<uint8_t>& cache, const StringPool& strings, StringId id,
               Classify&& classify) {
  const size_t key = id.valid() ? static_cast<size_t>(id.value) : strings.size();
  if (cache[key] == 0) cache[key] = classify(strings.get(id));
  return cache[key];
}

// Sorts `rows` by `ts[row]` unless they are already (the store keeps tables
// by time), stably.
void sortByTime(std::vector<size_t>& rows, const std::vector<int64_t>& ts) {
  auto before = [&](size_t a, size_t b) { return ts[a] < ts[b]; };
  if (!std::is_sorted(rows.begin(), rows.end(), before)) {
    std::stable_sort(rows.begin(), rows.end(), before);
  }
}

GraphSource::GraphSource(const AnalysisInput& input) : input_(input) {
  const TraceTables& t = input.tables();
  const RangeTable& r = t.ranges;
  const ApiCallTable& api = t.api_calls;
  const std::vector<GpuOp>& gpu = input.gpu();

  // Host ranges that are work: framework ops and data loading; on a CPU run
  // the device ops' ranges too; without framework ops at all, every host
  // range that is not a step (NVTX-annotated programs name their work so).
  std::vector<int8_t> device_work(r.size(), -1);
  for (const GpuOp& op : gpu) {
    const int64_t range = input.opRange(op);
    if (!isNull(range)) device_work[static_cast<size_t>(range)] = static_cast<int8_t>(op.work);
  }
  std::vector<uint8_t> names(t.strings.size() + 1, 0), categories(t.strings.size() + 1, 0);
  auto name_bits = [&](size_t i) {
    return cached(names, t.strings, r.name[i], [](std::string_view name) {
      uint8_t bits = kClassified;
      if (profilerStepNumber(name) || isStepAnnotationName(name, nullptr)) bits |= kStepName;
      if (isDataLoadingRange(name, "")) bits |= kDataName;
      if (name.find("forward") != std::string_view::npos) bits |= kForwardName;
      if (name.find("autograd") != std::string_view::npos) bits |= kAutogradName;
      return bits;
    });
  };
  auto category_bits = [&](size_t i) {
    return cached(categories, t.strings, r.category[i], [](std::string_view category) {
      uint8_t bits = kClassified;
      if (isFrameworkOpCategory(category)) bits |= kOpCategory;
      if (category == "cpu_op" || category == "user_annotation") bits |= kAnnotationCategory;
      if (isDataLoadingRange("", category)) bits |= kDataCategory;
      return bits;
    });
  };
  bool framework_ops = false;
  for (size_t i = 0; i < r.size() && !framework_ops; ++i) {
    framework_ops = (category_bits(i) & kOpCategory) != 0;
  }
  range_bound_.assign(r.size(), PathBound::kCpu);
  for (size_t i = 0; i < r.size(); ++i) {
    if (isNull(r.thread_id[i]) || r.dur[i] <= 0) continue;
    const uint8_t name = name_bits(i);
    const uint8_t category = category_bits(i);
    if (category & kAnnotationCategory) {
      if (name & kForwardName) forward_ranges_.push_back(i);
      if (name & kAutogradName) autograd_ranges_.push_back(i);
    }
    if (name & kStepName) continue;
    const bool data = (name & kDataName) || (category & kDataCategory);
    const bool op = (category & kOpCategory) || device_work[i] >= 0;
    if (!data && !op && framework_ops) continue;
    if (data) {
      range_bound_[i] = PathBound::kData;
    } else if (device_work[i] >= 0) {
      range_bound_[i] = static_cast<GpuWork>(device_work[i]) == GpuWork::kCommunication
                            ? PathBound::kCommunication
                            : PathBound::kKernel;
    }
    ranges_by_ts_.push_back(i);
  }
  for (std::vector<size_t>* rows : {&ranges_by_ts_, &forward_ranges_, &autograd_ranges_}) {
    sortByTime(*rows, r.ts);
  }

  api_lock_.assign(api.size(), 0);
  api_blocking_.assign(api.size(), 0);
  std::vector<uint8_t> queueing(api.size(), 0);
  std::vector<uint8_t> calls(t.strings.size() + 1, 0);
  for (size_t i = 0; i < api.size(); ++i) {
    const uint8_t bits = cached(calls, t.strings, api.name[i], [](std::string_view name) {
      const std::string_view base = apiBase(name);
      return static_cast<uint8_t>(kCallClassified |
                                  (oneOf(base, kRuntimeLockCalls) ? kLockCall : 0) |
                                  (oneOf(base, kBlockingCalls) ? kBlockingCall : 0) |
                                  (oneOf(base, kQueueingCalls) ? kQueueingCall : 0));
    });
    api_lock_[i] = (bits & kLockCall) != 0;
    api_blocking_[i] = (bits & kBlockingCall) != 0;
    queueing[i] = (bits & kQueueingCall) != 0;
    if (api.dur[i] > 0 && !isNull(api.thread_id[i])) api_by_ts_.push_back(i);
  }
  sortByTime(api_by_ts_, api.ts);

  // The operations each call launched; syncs are handled apart.
  auto launched_op = [&](const GpuOp& op) {
    return op.launch >= 0 && op.kind != GpuOpKind::kSync && !input.onCpu(op);
  };
  launched_offsets_.assign(api.size() + 1, 0);
  for (const GpuOp& op : gpu) {
    if (launched_op(op)) ++launched_offsets_[static_cast<size_t>(op.launch) + 1];
  }
  for (size_t i = 0; i < api.size(); ++i) launched_offsets_[i + 1] += launched_offsets_[i];
  launched_.resize(launched_offsets_.back());
  std::vector<size_t> fill(launched_offsets_.begin(), launched_offsets_.end() - 1);
  std::map<StreamKey, std::vector<size_t>> by_stream;  // launched operations, by start
  for (size_t k = 0; k < gpu.size(); ++k) {
    if (!launched_op(gpu[k])) continue;
    launched_[fill[static_cast<size_t>(gpu[k].launch)]++] = k;
    by_stream[streamOf(gpu[k])].push_back(k);
  }

  // Per stream: queue lengths over the whole trace (HTA's TraceCounters
  // queue length: +1 at each queueing call, -1 when its operation starts; on
  // a tie the start comes first, the stream was free at that moment), and
  // how long the work launched up to each moment keeps it busy. A stream
  // runs its operations in launch order, so the launches are nearly always
  // in time order already: merging them with the starts needs no sort.
  queue_at_launch_.assign(gpu.size(), -1);
  queue_at_start_.assign(gpu.size(), -1);
  for (auto& [key, starts] : by_stream) {
    auto launch_ts = [&](size_t k) { return api.ts[static_cast<size_t>(gpu[k].launch)]; };
    std::vector<size_t> launches = starts;
    auto launched_first = [&](size_t a, size_t b) { return launch_ts(a) < launch_ts(b); };
    if (!std::is_sorted(launches.begin(), launches.end(), launched_first)) {
      std::stable_sort(launches.begin(), launches.end(), launched_first);
    }
    StreamBusy& busy = busy_[key];
    int64_t until = kNullInt;
    for (const size_t k : launches) {
      until = std::max(until, gpu[k].end);
      busy.launch_ts.push_back(launch_ts(k));
      busy.busy_until.push_back(until);
    }
    int32_t queue = 0;
    size_t i = 0, j = 0;
    while (i < starts.size() || j < launches.size()) {
      const bool start = j == launches.size() ||
                         (i < starts.size() && gpu[starts[i]].ts <= launch_ts(launches[j]));
      if (start) {
        const size_t k = starts[i++];
        if (!queueing[static_cast<size_t>(gpu[k].launch)]) continue;
        queue_at_start_[k] = --queue;
      } else {
        const size_t k = launches[j++];
        if (!queueing[static_cast<size_t>(gpu[k].launch)]) continue;
        queue_at_launch_[k] = ++queue;
      }
    }
  }

  const SyncTable& y = t.syncs;
  for (size_t i = 0; i < y.size(); ++i) {
    const bool stream_sync = y.kind[i] == SyncKind::kStreamSynchronize;
    if ((stream_sync || y.kind[i] == SyncKind::kContextSynchronize) &&
        input.launchOf(y.correlation_id[i]) >= 0) {
      syncs_.push_back(i);
    }
  }
  std::stable_sort(syncs_.begin(), syncs_.end(), [&](size_t a, size_t b) {
    return y.ts[a] + std::max<int64_t>(y.dur[a], 0) < y.ts[b] + std::max<int64_t>(y.dur[b], 0);
  });
}

struct GraphSource::GraphBuild {
  std::vector<Event> events;
  std::vector<Edge> edges;
  std::unordered_map<size_t, uint32_t> api_event;  // api_calls row -> event

  static uint32_t startOf(size_t e) { return static_cast<uint32_t>(2 * e); }
  static uint32_t endOf(size_t e) { return static_cast<uint32_t>(2 * e + 1); }
  int64_t timeOf(uint32_t node) const {
    const Event& e = events[node / 2];
    return node % 2 ? e.end : e.ts;
  }
  void add(uint32_t from, uint32_t to, int8_t bound, bool weighed = true, bool what_if = false) {
    const int64_t weight = weighed ? std::max<int64_t>(timeOf(to) - timeOf(from), 0) : 0;
    edges.push_back({from, to, weight, bound, what_if});
  }
};

// HTA's _construct_graph_from_cuda_runtime_events: lock-taking calls on all
// threads, in the order their nodes occur; then its call-stack walk of each
// thread (_construct_graph_from_call_stack).
void GraphSource::addHostEdges(GraphBuild& g) const {
  // Host events by thread, then start, the longer first (the parent).
  std::vector<size_t> host;
  for (size_t e = 0; e < g.events.size(); ++e) {
    if (g.events[e].source != Source::kGpu) host.push_back(e);
  }
  std::stable_sort(host.begin(), host.end(), [&](size_t a, size_t b) {
    const Event &x = g.events[a], &y = g.events[b];
    if (x.thread != y.thread) return x.thread < y.thread;
    if (x.ts != y.ts) return x.ts < y.ts;
    return x.end > y.end;
  });
  auto contains = [&](size_t outer, size_t inner) {
    const Event &o = g.events[outer], &i = g.events[inner];
    return o.thread == i.thread && i.ts >= o.ts && i.end <= o.end;
  };
  // What runs inside a data loading range loads data too (HTA counts only
  // the range's own time: it bounds a path by the event an edge belongs to).
  std::vector<size_t> stack;
  for (const size_t e : host) {
    while (!stack.empty() && !contains(stack.back(), e)) stack.pop_back();
    if (!stack.empty() && g.events[stack.back()].bound == PathBound::kData &&
        g.events[e].bound == PathBound::kCpu) {
      g.events[e].bound = PathBound::kData;
    }
    stack.push_back(e);
  }
  stack.clear();

  std::vector<uint32_t> lock_nodes;
  for (size_t e = 0; e < g.events.size(); ++e) {
    if (!g.events[e].runtime_lock) continue;
    lock_nodes.push_back(GraphBuild::startOf(e));
    lock_nodes.push_back(GraphBuild::endOf(e));
  }
  std::stable_sort(lock_nodes.begin(), lock_nodes.end(), [&](uint32_t a, uint32_t b) {
    const int64_t ta = g.timeOf(a), tb = g.timeOf(b);
    return ta != tb ? ta < tb : a / 2 < b / 2;
  });
  std::vector<uint32_t> open;
  std::optional<uint32_t> last;
  for (const uint32_t node : lock_nodes) {
    if (node % 2 == 0) {
      open.push_back(node);
    } else {
      while (!open.empty()) {
        const uint32_t previous = open.back();
        open.pop_back();
        const bool same = previous / 2 == node / 2;
        g.add(previous, node, same ? static_cast<int8_t>(g.events[node / 2].bound) : kNoBound,
              same);
      }
      if (last && *last % 2 == 1) g.add(*last, node, kNoBound, false);
    }
    last = node;
  }

  auto shares_lock = [&](uint32_t a, uint32_t b) {
    return g.events[a / 2].runtime_lock && g.events[b / 2].runtime_lock &&
           (a % 2 == 0 || b % 2 == 1);
  };
  std::optional<uint32_t> previous;       // the last node seen on this thread
  std::optional<size_t> previous_parent;  // the parent of its event
  auto attributed = [&](uint32_t from, uint32_t to) -> std::optional<size_t> {
    if (from % 2 == 0) return from / 2;  // start -> anything: the source event
    if (to % 2 == 1) return to / 2;      // end -> end: the event being left
    return previous_parent;              // end -> start: the enclosing event
  };
  auto link = [&](uint32_t node, bool weighed, bool top_level) {
    if (previous && !shares_lock(*previous, node)) {
      if (top_level) {
        g.add(*previous, node, kNoBound, false);
      } else {
        const std::optional<size_t> owner = attributed(*previous, node);
        g.add(*previous, node, owner ? static_cast<int8_t>(g.events[*owner].bound) : kNoBound,
              weighed);
      }
    }
    previous = node;
  };
  auto parent_of_top = [&]() -> std::optional<size_t> {
    if (stack.size() < 2) return std::nullopt;
    return stack[stack.size() - 2];
  };
  auto leave = [&]() {
    const size_t e = stack.back();
    link(GraphBuild::endOf(e), !g.events[e].blocking, false);
    previous_parent = parent_of_top();
    stack.pop_back();
  };
  for (size_t i = 0; i < host.size(); ++i) {
    const size_t e = host[i];
    const Event& ev = g.events[e];
    if (i > 0 && g.events[host[i - 1]].thread != ev.thread) {
      while (!stack.empty()) leave();
      previous.reset();
      previous_parent.reset();
    }
    while (!stack.empty() && !contains(stack.back(), e)) leave();
    link(GraphBuild::startOf(e), true, stack.empty());
    stack.push_back(e);
    previous_parent = parent_of_top();
  }
  while (!stack.empty()) leave();
}

// HTA's _construct_graph_from_kernels: launch delays or gaps on each stream,
// each operation's duration, and the syncs that wait for a stream.
void GraphSource::addGpuEdges(GraphBuild& g, int64_t start, int64_t end) const {
  const ApiCallTable& api = input_.tables().api_calls;
  const SyncTable& y = input_.tables().syncs;
  struct Item {
    int64_t order;  // operations by start, syncs by end
    size_t event;   // an operation's event, or a syncs row
    bool sync;
  };
  std::vector<Item> items;
  for (size_t e = 0; e < g.events.size(); ++e) {
    if (g.events[e].source == Source::kGpu) items.push_back({g.events[e].ts, e, false});
  }
  for (const size_t i : syncs_) {
    const auto call = static_cast<size_t>(input_.launchOf(y.correlation_id[i]));
    if (api.dur[call] > 0 && inWindow(api.ts[call], start, end)) {
      items.push_back({y.ts[i] + std::max<int64_t>(y.dur[i], 0), i, true});
    }
  }
  std::stable_sort(items.begin(), items.end(),
                   [](const Item& a, const Item& b) { return a.order < b.order; });

  // What-if only: each stream starts busy with the work launched before the
  // window that is still running at its start (the previous step's tail),
  // an event of its own; a faster host cannot start the window's first
  // operation before that ends.
  std::map<StreamKey, uint32_t> busy_at_start;
  for (const auto& [key, b] : busy_) {
    const auto at = std::lower_bound(b.launch_ts.begin(), b.launch_ts.end(), start);
    if (at == b.launch_ts.begin()) continue;
    const int64_t until = b.busy_until[static_cast<size_t>(at - b.launch_ts.begin()) - 1];
    if (until <= start) continue;
    Event e;
    e.ts = start, e.end = until, e.source = Source::kGpu, e.bound = PathBound::kKernel;
    const size_t id = g.events.size();
    g.events.push_back(e);
    g.add(GraphBuild::startOf(id), GraphBuild::endOf(id), kNoBound, true, true);
    busy_at_start.emplace(key, GraphBuild::endOf(id));
  }
  std::map<StreamKey, uint32_t> last_on_stream;  // the last operation's end node
  for (const Item& item : items) {
    if (item.sync) {
      const auto call = static_cast<size_t>(input_.launchOf(y.correlation_id[item.event]));
      const auto host = g.api_event.find(call);
      if (host == g.api_event.end()) continue;
      const uint32_t waits = GraphBuild::endOf(host->second);
      if (y.kind[item.event] == SyncKind::kContextSynchronize) {
        for (const auto& [stream, node] : last_on_stream) g.add(node, waits, kNoBound, false);
      } else if (const auto it = last_on_stream.find({y.stream[item.event], y.device[item.event]});
                 it != last_on_stream.end()) {
        g.add(it->second, waits, kNoBound, false);
      }
      continue;
    }
    const Event& ev = g.events[item.event];
    const GpuOp& op = input_.gpu()[ev.row];
    const uint32_t op_start = GraphBuild::startOf(item.event);
    g.add(op_start, GraphBuild::endOf(item.event), static_cast<int8_t>(ev.bound));
    const uint32_t call = GraphBuild::startOf(g.api_event.at(static_cast<size_t>(op.launch)));
    const StreamKey key = streamOf(op);
    const auto last = last_on_stream.find(key);
    const bool stream_free =
        last == last_on_stream.end() || g.timeOf(last->second) < g.timeOf(call);
    const bool launch_delay =
        queue_at_launch_[ev.row] == 1 && queue_at_start_[ev.row] == 0 && stream_free;
    // HTA's launch edge weighs the delay only when the call is what the
    // operation waited for; else nothing: it still cannot start before it.
    g.add(call, op_start, launch_delay ? static_cast<int8_t>(PathBound::kLaunchDelay) : kNoBound,
          launch_delay);
    if (last == last_on_stream.end()) {
      if (const auto busy = busy_at_start.find(key); busy != busy_at_start.end()) {
        g.add(busy->second, op_start, kNoBound, false, true);
      }
    } else {
      // The gap to the stream's previous operation is a delay (HTA) when the
      // queue held work and it is short. Otherwise HTA adds no edge; the
      // what-ifs add one that weighs nothing, as the stream still runs the
      // two in order when a faster host launches the second one earlier.
      const bool gap = !launch_delay && ev.ts - g.timeOf(last->second) < kKernelGapLimitNs;
      if (gap) {
        g.add(last->second, op_start, static_cast<int8_t>(PathBound::kKernelGap));
      } else {
        g.add(last->second, op_start, kNoBound, false, true);
      }
    }
    last_on_stream[key] = GraphBuild::endOf(item.event);
  }
}

// The longest paths, in one pass over the topological order with a lane per
// question: HTA's graph as it is (lane 0, the path itself), the what-if
// graph as it is (lane 1), and the what-if graph with each bound's edges
// weighing nothing (lanes 2 + bound). Fills `path`.
constexpr size_t kLanes = 2 + kPathBoundCount;
void longestPaths(size_t nodes, const std::vector<Edge>& edges,
                  const std::vector<uint32_t>& topological, CriticalPath& path) {
  std::vector<uint32_t> offsets(nodes + 1, 0);
  for (const Edge& e : edges) ++offsets[e.to + 1];
  for (size_t i = 0; i < nodes; ++i) offsets[i + 1] += offsets[i];
  std::vector<uint32_t> incoming(edges.size());
  std::vector<uint32_t> fill(offsets.begin(), offsets.end() - 1);
  for (size_t k = 0; k < edges.size(); ++k)
    incoming[fill[edges[k].to]++] = static_cast<uint32_t>(k);

  std::vector<std::array<int64_t, kLanes>> distance(nodes, std::array<int64_t, kLanes>{});
  std::vector<int64_t> via(nodes, -1);  // the edge lane 0's longest path arrives by
  for (const uint32_t v : topological) {
    std::array<int64_t, kLanes>& at = distance[v];
    for (uint32_t k = offsets[v]; k < offsets[v + 1]; ++k) {
      const Edge& e = edges[incoming[k]];
      const std::array<int64_t, kLanes>& from = distance[e.from];
      if (!e.what_if && from[0] + e.weight > at[0]) {
        at[0] = from[0] + e.weight;
        via[v] = incoming[k];
      }
      at[1] = std::max(at[1], from[1] + e.weight);
      for (size_t b = 0; b < kPathBoundCount; ++b) {
        const int64_t w = e.bound == static_cast<int8_t>(b) ? 0 : e.weight;
        at[2 + b] = std::max(at[2 + b], from[2 + b] + w);
      }
    }
  }
  std::array<int64_t, kLanes> longest{};
  size_t end = 0;
  for (size_t v = 0; v < nodes; ++v) {
    if (distance[v][0] > longest[0]) end = v;
    for (size_t l = 0; l < kLanes; ++l) longest[l] = std::max(longest[l], distance[v][l]);
  }
  path.length_ns = longest[0];
  for (auto v = end; via[v] >= 0;) {
    const Edge& e = edges[static_cast<size_t>(via[v])];
    if (e.bound != kNoBound) path.bound_ns[static_cast<uint8_t>(e.bound)] += e.weight;
    v = e.from;
  }
  for (size_t b = 0; b < kPathBoundCount; ++b) {
    path.without_ns[b] = std::max<int64_t>(path.length_ns - (longest[1] - longest[2 + b]), 0);
  }
}

CriticalPath GraphSource::pathOf(int64_t start, int64_t end) const {
  const TraceTables& t = input_.tables();
  const RangeTable& r = t.ranges;
  const ApiCallTable& api = t.api_calls;
  GraphBuild g;
  CriticalPath path;

  auto first_at = [&](const std::vector<size_t>& rows, const std::vector<int64_t>& ts) {
    return std::lower_bound(rows.begin(), rows.end(), start,
                            [&](size_t row, int64_t at) { return ts[row] < at; });
  };
  for (auto it = first_at(ranges_by_ts_, r.ts); it != ranges_by_ts_.end() && r.ts[*it] < end;
       ++it) {
    Event e;
    e.ts = r.ts[*it], e.end = r.ts[*it] + r.dur[*it], e.thread = r.thread_id[*it];
    e.row = *it, e.source = Source::kRange, e.bound = range_bound_[*it];
    g.events.push_back(e);
  }
  const std::vector<GpuOp>& gpu = input_.gpu();
  for (auto it = first_at(api_by_ts_, api.ts); it != api_by_ts_.end() && api.ts[*it] < end; ++it) {
    Event e;
    e.ts = api.ts[*it], e.end = api.ts[*it] + api.dur[*it], e.thread = api.thread_id[*it];
    e.row = *it, e.source = Source::kApi, e.bound = PathBound::kCpu;
    e.blocking = api_blocking_[*it], e.runtime_lock = api_lock_[*it];
    g.api_event.emplace(*it, static_cast<uint32_t>(g.events.size()));
    g.events.push_back(e);
    for (size_t k = launched_offsets_[*it]; k < launched_offsets_[*it + 1]; ++k) {
      const GpuOp& op = gpu[launched_[k]];
      if (op.end <= op.ts) continue;
      Event o;
      o.ts = op.ts, o.end = op.end, o.row = launched_[k], o.source = Source::kGpu;
      o.bound = op.work == GpuWork::kCommunication ? PathBound::kCommunication : PathBound::kKernel;
      g.events.push_back(o);
    }
  }
  if (g.events.empty()) return path;

  // HTA merges the backward pass's thread into the forward pass's when
  // exactly one thread has each (autograd ops run on their own thread).
  auto only_thread_with = [&](const std::vector<size_t>& rows) -> int64_t {
    int64_t found = kNullInt;
    for (auto it = first_at(rows, r.ts); it != rows.end() && r.ts[*it] < end; ++it) {
      if (!isNull(found) && found != r.thread_id[*it]) return kNullInt;
      found = r.thread_id[*it];
    }
    return found;
  };
  const int64_t forward = only_thread_with(forward_ranges_);
  const int64_t backward = only_thread_with(autograd_ranges_);
  if (!isNull(forward) && !isNull(backward) && forward != backward) {
    for (Event& e : g.events) {
      if (e.source != Source::kGpu && e.thread == backward) e.thread = forward;
    }
  }

  addHostEdges(g);
  addGpuEdges(g, start, end);

  // Kahn's topological order; every edge runs forward in time but ties and
  // clipped weights make time alone an unsafe order.
  const size_t nodes = 2 * g.events.size();
  std::vector<uint32_t> in_degree(nodes, 0);
  std::vector<size_t> offsets(nodes + 1, 0);
  for (const Edge& e : g.edges) ++in_degree[e.to], ++offsets[e.from + 1];
  for (size_t i = 0; i < nodes; ++i) offsets[i + 1] += offsets[i];
  std::vector<uint32_t> outgoing(g.edges.size());
  std::vector<size_t> fill(offsets.begin(), offsets.end() - 1);
  for (const Edge& e : g.edges) outgoing[fill[e.from]++] = e.to;
  std::vector<uint32_t> order;
  order.reserve(nodes);
  for (uint32_t v = 0; v < nodes; ++v) {
    if (in_degree[v] == 0) order.push_back(v);
  }
  for (size_t i = 0; i < order.size(); ++i) {
    for (size_t k = offsets[order[i]]; k < offsets[order[i] + 1]; ++k) {
      if (--in_degree[outgoing[k]] == 0) order.push_back(outgoing[k]);
    }
  }
  if (order.size() != nodes) return path;  // a cycle: the trace's times contradict themselves

  longestPaths(nodes, g.edges, order, path);
  return path;
}

}  // namespace

CriticalPath computeCriticalPath(const AnalysisInput& input, int64_t start, int64_t end) {
  return GraphSource(input).pathOf(start, end);
}

std::vector<StepCriticalPath> computeStepCriticalPaths(const AnalysisInput& input,
                                                       const StepReport& steps,
                                                       const WindowReport& window) {
  std::vector<StepCriticalPath> paths;
  if (window.step_count == 0) return paths;
  const GraphSource source(input);
  const size_t n = std::min(window.step_count, kMaxCriticalPathSteps);
  for (size_t i = 0; i < n; ++i) {
    const size_t s = window.first_step + i * window.step_count / n;
    const Step& step = steps.steps[s];
    paths.push_back({s, source.pathOf(step.host_start, step.host_end)});
  }
  return paths;
}

std::optional<PathProjection> projectWithout(PathBound bound, const std::vector<int64_t>& step_ns,
                                             const std::vector<CriticalPath>& paths) {
  const auto b = static_cast<size_t>(bound);
  int64_t on_path = 0, length = 0;
  std::vector<int64_t> measured, projected;
  for (size_t i = 0; i < paths.size() && i < step_ns.size(); ++i) {
    on_path += paths[i].bound_ns[b];
    length += paths[i].length_ns;
    measured.push_back(step_ns[i]);
    projected.push_back(
        std::max<int64_t>(step_ns[i] - (paths[i].length_ns - paths[i].without_ns[b]), 0));
  }
  if (on_path <= 0 || length <= 0) return std::nullopt;
  return PathProjection{100.0 * static_cast<double>(on_path) / static_cast<double>(length),
                        std::llround(median(std::move(measured))),
                        std::llround(median(std::move(projected)))};
}

}  // namespace damscope
