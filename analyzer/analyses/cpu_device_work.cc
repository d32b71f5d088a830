// The work of a CPU device: see cpu_device_work.h.
#include "analyzer/analyses/cpu_device_work.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>

#include "analyzer/analyses/model_annotation.h"
#include "analyzer/analyses/name_patterns.h"

namespace damscope {
namespace {

constexpr std::string_view kRangeIdKey = "{\"range_id\":";

bool hasGpuActivity(const TraceTables& t) {
  return !t.kernels.empty() || !t.memcpys.empty() || !t.memsets.empty();
}

// A device ordinal no row of the devices table uses: 0 unless taken.
int32_t freeOrdinal(const DeviceTable& devices) {
  int32_t highest = -1;
  bool zero_taken = false;
  for (int32_t d : devices.device) {
    if (isNull(d)) continue;
    zero_taken |= d == 0;
    highest = std::max(highest, d);
  }
  return zero_taken ? highest + 1 : 0;
}

}  // namespace

int64_t cpuOpRange(const std::string& kernel_args) {
  if (kernel_args.size() <= kRangeIdKey.size() + 1 ||
      kernel_args.compare(0, kRangeIdKey.size(), kRangeIdKey) != 0 || kernel_args.back() != '}') {
    return kNullInt;
  }
  int64_t row = kNullInt;
  const char* first = kernel_args.data() + kRangeIdKey.size();
  const char* last = kernel_args.data() + kernel_args.size() - 1;
  const auto [end, ec] = std::from_chars(first, last, row);
  if (ec != std::errc() || end != last || row < 0) return kNullInt;
  return row;
}

CpuDeviceWork deriveCpuDeviceWork(TraceTables& t) {
  CpuDeviceWork work;
  if (hasGpuActivity(t)) return work;
  const RangeTable& r = t.ranges;

  // Per range: 1 trainer op, 2 framework op, 3 data loading, 0 other; the
  // names of trainer ops are read once per distinct message.
  enum : uint8_t { kOther, kTrainerOp, kFrameworkOp, kDataLoading };
  const StringId domain = t.strings.find("damscope");
  std::vector<uint8_t> kind(r.size(), kOther);
  std::unordered_map<int32_t, std::string> op_names;
  std::unordered_map<int32_t, bool> data_categories;
  bool any_trainer_op = false, any_framework_op = false;
  for (size_t i = 0; i < r.size(); ++i) {
    if (isNull(r.thread_id[i])) continue;  // GPU-side ranges
    if (domain.valid() && r.domain[i] == domain) {
      auto [it, inserted] = op_names.try_emplace(r.name[i].value);
      if (inserted) it->second = annotationName(t.strings.get(r.name[i]));
      if (!it->second.empty()) {
        kind[i] = kTrainerOp, any_trainer_op = true;
        continue;
      }
    }
    const std::string_view category = t.strings.get(r.category[i]);
    if (isDataLoadingRange(t.strings.get(r.name[i]), category)) {
      kind[i] = kDataLoading;
    } else if (isFrameworkOpCategory(category)) {
      kind[i] = kFrameworkOp, any_framework_op = true;
    }
  }
  if (!any_trainer_op && !any_framework_op) return work;
  const uint8_t wanted = any_trainer_op ? kTrainerOp : kFrameworkOp;

  // Outermost ops outside data loading: no enclosing range is an op of the
  // same source or a data-loading range. A parent may come after its child
  // in the table (the collector stores a range when it closes), so each
  // chain of parents is walked once and its answers are kept.
  enum : uint8_t { kUnknown, kOpen, kBlocked };  // kBlocked: an op or data range, or inside one
  std::vector<uint8_t> state(r.size(), kUnknown);
  auto parentOf = [&](size_t i) -> int64_t {
    const int64_t p = r.parent_id[i];
    return !isNull(p) && p >= 0 && static_cast<size_t>(p) < r.size() && static_cast<size_t>(p) != i
               ? p
               : -1;
  };
  std::vector<size_t> chain;
  auto settle = [&](size_t i) {
    chain.clear();
    size_t at = i;
    // Bounded by the table size, so a hostile cycle of parents ends too.
    while (state[at] == kUnknown && chain.size() <= r.size()) {
      chain.push_back(at);
      const int64_t p = parentOf(at);
      if (p < 0) break;
      at = static_cast<size_t>(p);
    }
    bool inside = state[at] == kBlocked;
    for (size_t k = chain.size(); k-- > 0;) {
      const size_t c = chain[k];
      if (state[c] == kUnknown) {
        state[c] = inside || kind[c] == wanted || kind[c] == kDataLoading ? kBlocked : kOpen;
      }
      inside = state[c] == kBlocked;
    }
  };
  std::vector<int64_t> ops;
  for (size_t i = 0; i < r.size(); ++i) {
    if (kind[i] != wanted || r.dur[i] <= 0) continue;
    const int64_t p = parentOf(i);
    if (p >= 0) settle(static_cast<size_t>(p));
    if (p < 0 || state[static_cast<size_t>(p)] == kOpen) ops.push_back(static_cast<int64_t>(i));
  }
  if (ops.empty()) return work;
  std::stable_sort(ops.begin(), ops.end(), [&](int64_t a, int64_t b) { return r.ts[a] < r.ts[b]; });

  const ModelAnnotation model = readModelAnnotation(t);
  work.device = freeOrdinal(t.devices);
  DeviceTable::Row device;
  device.device = work.device;
  device.kind = DeviceKind::kCpu;
  device.vendor = t.strings.intern("cpu");
  device.name = t.strings.intern(model.device.name.value_or("CPU"));
  if (model.device.bandwidth_bytes_per_s) {
    device.memory_bandwidth_bytes_per_s = *model.device.bandwidth_bytes_per_s;
  }
  t.devices.append(device);

  t.kernels.reserve(ops.size());
  for (int64_t row : ops) {
    const size_t i = static_cast<size_t>(row);
    KernelTable::Row k;
    k.ts = r.ts[i];
    k.dur = r.dur[i];
    k.device = work.device;
    const int64_t thread = r.thread_id[i];
    if (thread >= 0 && static_cast<size_t>(thread) < t.threads.size()) {
      k.stream = t.threads.tid[static_cast<size_t>(thread)];
    }
    k.name = wanted == kTrainerOp ? t.strings.intern(op_names.at(r.name[i].value)) : r.name[i];
    k.args = std::string(kRangeIdKey) + std::to_string(row) + "}";
    t.kernels.append(k);
  }
  work.source = any_trainer_op ? CpuWorkSource::kTrainerOps : CpuWorkSource::kFrameworkOps;
  work.ops = static_cast<int64_t>(ops.size());
  return work;
}

}  // namespace damscope
