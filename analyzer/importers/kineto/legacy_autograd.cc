// The legacy autograd profiler's events (legacy_autograd.h): how a document
// is recognised, the category rule, and the router that turns its events into
// host ranges. The reader and the final pass are the Kineto importer's
// (kineto_internal.h); only the routing differs.
#include "analyzer/importers/kineto/legacy_autograd.h"

#include <cctype>
#include <unordered_map>
#include <vector>

#include "analyzer/importers/kineto/kineto_internal.h"
#include "base/json_text.h"

namespace damscope {
namespace {

// "AddmmBackward0", "ReluBackward1", "CopyBackwards", "MyFunctionBackward":
// autograd nodes are named <Forward>Backward, with a number in current
// releases (1.13's trace has "AddmmBackward0"), CopyBackwards being the one
// plural (torch/csrc/autograd/functions/tensor.h).
bool isAutogradNodeName(std::string_view name) {
  while (!name.empty() && std::isdigit(static_cast<unsigned char>(name.back()))) {
    name.remove_suffix(1);
  }
  return name.ends_with("Backward") || name.ends_with("Backwards");
}

}  // namespace

std::string_view legacyRangeCategory(std::string_view name) {
  constexpr std::string_view kOp = "cpu_op", kAnnotation = "user_annotation";
  if (name.find("::") != std::string_view::npos) return kOp;
  if (isAutogradNodeName(name)) return kOp;
  if (name == "detach" || name == "detach_" || name == "record_param_comms") return kOp;
  return kAnnotation;
}

namespace kineto {
namespace {

// `name` quoted for a message: JSON-escaped, so that it stays on one line,
// and cut to 80 bytes at a character boundary, since a name can be anything.
std::string quoted(std::string_view name) {
  constexpr size_t kMax = 80;
  bool cut = false;
  if (name.size() > kMax) {
    size_t end = kMax;
    while (end > 0 && (static_cast<unsigned char>(name[end]) & 0xC0) == 0x80) --end;
    name = name.substr(0, end);
    cut = true;
  }
  std::string out;
  appendJsonString(out, name);
  if (cut) out.insert(out.size() - 1, "...");
  return out;
}

// An id as the event wrote it, for a message.
std::string idText(const EventId& id) {
  if (!id.text.empty()) return quoted(id.text);
  if (id.numeric()) return std::to_string(id.number);
  return "missing or not a string or number";
}

// " node_id:0, thread_id:1 ": the tid of an event that the RPC framework
// recorded on another node (profiler_util.py writes it for is_remote events).
bool isRemoteThread(std::string_view tid) {
  while (!tid.empty() && tid.front() == ' ') tid.remove_prefix(1);
  return tid.starts_with("node_id:") && tid.find("thread_id:") != std::string_view::npos;
}

}  // namespace

int64_t clipTruncatedEnds(RangeTable& ranges) {
  // The most a truncated end can overhang: both ends lose less than 1 µs.
  constexpr int64_t kMaxOverhang = 1000;
  int64_t clipped = 0;
  std::unordered_map<int64_t, std::vector<size_t>> open;  // thread -> stack of open rows
  for (size_t i = 0; i < ranges.size(); ++i) {
    auto& stack = open[ranges.thread_id[i]];
    const int64_t ts = ranges.ts[i];
    auto end = [&](size_t row) { return ranges.ts[row] + ranges.dur[row]; };
    while (!stack.empty() && end(stack.back()) <= ts) stack.pop_back();
    if (!stack.empty()) {
      const int64_t container_end = end(stack.back());
      if (end(i) > container_end && end(i) - container_end <= kMaxOverhang) {
        ranges.dur[i] = container_end - ts;
        ++clipped;
      }
    }
    stack.push_back(i);
  }
  return clipped;
}

bool isLegacyAutogradEvent(const Event& first) {
  return first.pid.text == kLegacyCpuPid || first.pid.text == kLegacyCudaPid;
}

Status LegacyEventRouter::route(Event& e) {
  ++s_.events;
  const char phase = e.ph.empty() ? '\0' : e.ph[0];
  if (phase == 's' || phase == 'f') {
    // cpu_to_cuda arrows from an op to its GPU span: nothing to store.
    ++s_.flow_events;
    return okStatus();
  }
  if (phase != 'X') {
    s_.stat("kineto.unsupported_phase_events",
            "events of a phase the profiler does not write (B/E/C/...); not stored");
    return okStatus();
  }
  // Every event of the format names one of its two pids and no category; one
  // that does not comes from another profiler, and a document mixing two
  // formats cannot be read as either.
  if (e.pid.text == kLegacyCudaPid) {
    s_.stat("kineto.legacy_cuda_events",
            "GPU spans of the legacy profiler's use_cuda mode (pid \"CUDA functions\": an op's "
            "GPU time measured with CUDA events, not kernels); not stored");
    return okStatus();
  }
  if (e.pid.text != kLegacyCpuPid) {
    return Error("event " + quoted(e.name) + " has pid " + idText(e.pid) +
                 ", not \"CPU functions\": the events of two profilers mixed");
  }
  if (!e.cat.empty()) {
    return Error("event " + quoted(e.name) + " has category " + quoted(e.cat) +
                 ", which this format never writes: the events of two profilers mixed");
  }
  if (!e.tid.numeric()) {
    if (isRemoteThread(e.tid.text)) {
      s_.stat("kineto.legacy_remote_events",
              "events recorded on another RPC node (tid \" node_id:N, thread_id:T \"), on that "
              "node's clock; not stored");
      return okStatus();
    }
    return Error("event " + quoted(e.name) + " has tid " + idText(e.tid) +
                 ", which is not a thread id");
  }
  if (!checkCompleteTimes(s_, e)) return okStatus();

  RangeTable::Row r;
  r.ts = e.ts, r.dur = e.dur;
  // The format has no OS pid: one process, pid NULL (unknown).
  r.thread_id = s_.registry.thread(kNullInt, e.tid.number);
  r.category = t_.strings.intern(legacyRangeCategory(e.name));
  r.name = t_.strings.intern(e.name);
  r.args = e.extras;
  t_.ranges.append(r);
  return okStatus();
}

}  // namespace kineto
}  // namespace damscope
