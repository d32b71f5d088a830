// Keeps the collector's exit handler first: see exit_order.h.
#include "collector/exit_order.h"

#include <link.h>

#include <algorithm>
#include <cstddef>

namespace damscope::collector {

uint64_t sharedObjectChanges() {
  uint64_t changes = 0;
  // Every object reports the same process-wide counters: read the first.
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t size, void* out) -> int {
        if (size < offsetof(dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs)) return 1;
        *static_cast<uint64_t*>(out) = info->dlpi_adds + info->dlpi_subs;
        return 1;
      },
      &changes);
  return changes;
}

bool ExitOrder::update(uint64_t object_changes, int64_t now_ns) {
  if (!started_) {
    // The first call follows a registration (Collector::instance, startGpu).
    started_ = true;
    object_changes_ = object_changes;
    next_ns_ = now_ns + backoff_ns_;
    return false;
  }
  const bool loaded = object_changes != object_changes_;
  const bool timer = now_ns >= next_ns_;
  if (!loaded && !timer) return false;
  register_();
  ++registrations_;
  object_changes_ = object_changes;
  if (timer) backoff_ns_ = std::min(backoff_ns_ * 2, kMaxBackoffNs);
  next_ns_ = now_ns + backoff_ns_;
  return true;
}

}  // namespace damscope::collector
