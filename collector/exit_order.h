// Keeps the collector's exit handler ahead of the teardown of the libraries
// CUPTI depends on.
//
// exit() runs atexit handlers last registered first. Libraries that a CUDA
// program loads after CUPTI started (NVML, the PTX JIT, NCCL, loaded with
// dlopen by the driver, CUPTI or the application) register their own
// teardown then, after the collector's handler, so it ran before the
// collector's: on an H100 with CUPTI 13.0.1 the writer's final
// cuptiActivityDisable then crashed inside CUPTI and took the recorded
// process down with it (docs/gpu-results.md, 2026-11-26). Registering the
// handler again after such a load puts it first once more; the shutdown it
// runs is idempotent, so the earlier registrations find it done.
//
// Two triggers, both checked by the writer thread between commits:
//  - the process loaded or unloaded a shared object (glibc's dl_iterate_phdr
//    counts adds and removals, dlpi_adds/dlpi_subs);
//  - a back-off timer, 1 s, 2 s, 4 s, ... up to 64 s, for handlers a library
//    registers on first use rather than at load; its registrations grow with
//    the logarithm of the run's length at first and by one a minute after.
#pragma once

#include <cstdint>

namespace damscope::collector {

// Loads and unloads of shared objects so far in this process.
uint64_t sharedObjectChanges();

class ExitOrder {
 public:
  // `register_handler` puts the collector's exit handler at the front of
  // exit()'s list (std::atexit); injected for tests.
  explicit ExitOrder(void (*register_handler)()) : register_(register_handler) {}

  // Called by the writer between commits: registers the handler again when
  // `object_changes` moved since the last registration or the back-off
  // timer ran out at `now_ns` (a monotonic clock). Returns true when it did.
  bool update(uint64_t object_changes, int64_t now_ns);

  int registrations() const { return registrations_; }

 private:
  static constexpr int64_t kFirstBackoffNs = 1'000'000'000;
  static constexpr int64_t kMaxBackoffNs = 64'000'000'000;

  void (*register_)();
  bool started_ = false;
  uint64_t object_changes_ = 0;
  int64_t next_ns_ = 0;
  int64_t backoff_ns_ = kFirstBackoffNs;
  int registrations_ = 0;
};

}  // namespace damscope::collector
