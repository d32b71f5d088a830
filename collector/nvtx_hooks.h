// The NVTX handlers: what runs on the application's threads when it calls
// NVTX while damscope is injected (NVTX_INJECTION64_PATH).
//
// NVTX v3 is header-only: every library that uses it (the application,
// PyTorch, NCCL, ...) has its own copy of NVTX's globals, and each copy loads
// the injection and calls InitializeInjectionNvtx2 on its first NVTX call.
// installNvtxHooks() fills that copy's function tables (NVTX's documented
// export table, nvtxDetail/nvtxImpl.h: NVTX_ETID_CALLBACKS ->
// GetModuleFunctionTable) with the handlers of nvtx_hooks.cc.
//
// A range or mark handler reads one global flag; while recording is off
// (dormant, --on-demand, or between capture windows) it returns at once. While
// on, it timestamps the call (CLOCK_REALTIME) and copies it into the calling
// thread's ring (nvtx_ring.h): no lock, no allocation after the thread's
// first call, no system call. Naming calls (domains, registered strings,
// categories, thread names) are kept even while dormant: they are made once,
// usually at start-up, and later windows need them.
#pragma once

#include <cstdint>

namespace damscope::collector {

using NvtxExportTableGetter = const void* (*)(uint32_t export_table_id);

// Installs the handlers into the NVTX instance behind `get_export_table`.
// Returns false when that instance offers no usable callback table.
bool installNvtxHooks(NvtxExportTableGetter get_export_table) noexcept;

// Turns recording of ranges and marks on or off for all threads.
void setNvtxRecording(bool on) noexcept;
bool nvtxRecording() noexcept;

}  // namespace damscope::collector
