// The entry points of libdamscope_inject.so, the only symbols it exports
// (inject.map). Both are noexcept trampolines: nothing may throw, exit or
// abort across them into the application.
//
// - InitializeInjection: the CUDA driver loads the library named by
//   CUDA_INJECTION64_PATH during cuInit and calls this (the CUPTI injection
//   sample, extras/CUPTI/samples/cupti_trace_injection, uses the same hook).
// - InitializeInjectionNvtx2: each NVTX instance loads the library named by
//   NVTX_INJECTION64_PATH on its first NVTX call and calls this with its
//   export table (nvtx3/nvtxDetail/nvtxInit.h).
// Whichever comes first creates the process's collector (collector.h).
#include "collector/collector.h"
#include "collector/nvtx_hooks.h"

#define DAMSCOPE_EXPORT extern "C" __attribute__((visibility("default")))

DAMSCOPE_EXPORT int InitializeInjection(void) noexcept {
  try {
    if (auto* collector = damscope::collector::Collector::instance()) {
      collector->onCudaInitialized();
    }
  } catch (...) {
  }
  return 1;
}

DAMSCOPE_EXPORT int InitializeInjectionNvtx2(const void* (*get_export_table)(uint32_t)) noexcept {
  try {
    // An inert collector (bad settings, a forked child) declines: NVTX then
    // turns this instance's calls into no-ops.
    if (!damscope::collector::Collector::instance()) return 0;
    return damscope::collector::installNvtxHooks(get_export_table) ? 1 : 0;
  } catch (...) {
    return 0;
  }
}
