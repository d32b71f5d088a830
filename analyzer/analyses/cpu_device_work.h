// The work of a CPU device: on a run without a GPU, the ops the workload ran
// on its compute threads take the place of kernels (DESIGN.md "Reference
// workload": "the analyzer treats the trainer's op ranges on its compute
// threads as the work of a cpu device"; docs/analysis.md, "CPU runs").
//
// A trace with no GPU activity at all (no kernels, copies or memsets) whose
// host ranges say what ran gets a `cpu` device and one kernels row per op:
//   1. the damscope trainer's op ranges, NVTX ranges in domain "damscope"
//      whose message is a JSON object with an "op" key (DESIGN.md "Workload
//      annotations"), named after the op ("matmul_fwd(qkv)"), and its
//      collective ranges ({"collective": ...}, model_annotation.h), named
//      after the collective ("all_reduce"), which the kernel classifier
//      calls communication: they run on the trainer's MPI thread, so a
//      collective that overlaps the compute thread's ops is hidden and one
//      that does not is exposed, as NCCL kernels on a GPU;
//   2. else the framework's CPU operators: ranges of category cpu_op (ATen
//      ops from the PyTorch profiler, Kineto or the legacy autograd profiler),
//      under their own names.
// Only the outermost op of a nest counts (an op and the ops it calls are one
// piece of work), and ops inside a data-loading range are the input
// pipeline's, not the model's, so they stay host work: the time the compute
// thread spends loading data is then an idle gap of the CPU device, charged to
// data loading, as it is on a GPU.
//
// Each derived kernel keeps its op range in `args` ({"range_id": N}), its
// thread's tid as its stream (a CPU device's "stream" is the thread that ran
// the op), and no correlation id: nothing launches it. The device takes its
// name and memory bandwidth from the model annotation's device section when
// the workload sent one. The derivation is a pure function of the trace, so
// a reader that derives again gets the same rows and ids; a trace that has
// them already (stored by an earlier analysis or import) is left alone.
#pragma once

#include <cstdint>
#include <string>

#include "trace/tables.h"

namespace damscope {

enum class CpuWorkSource : uint8_t {
  kNone,         // a GPU run, or no op ranges: nothing derived
  kTrainerOps,   // domain "damscope" {"op": ...} ranges
  kFrameworkOps  // cpu_op ranges
};

struct CpuDeviceWork {
  CpuWorkSource source = CpuWorkSource::kNone;
  int32_t device = kNullInt32;  // the cpu device's ordinal
  int64_t ops = 0;              // kernels rows added
};

// Appends the cpu device and its ops to `tables` when the trace is a CPU run
// (see above); leaves every other trace unchanged.
CpuDeviceWork deriveCpuDeviceWork(TraceTables& tables);

// The op range a kernels row on a cpu device was derived from (its args'
// "range_id"), or kNullInt.
int64_t cpuOpRange(const std::string& kernel_args);

}  // namespace damscope
