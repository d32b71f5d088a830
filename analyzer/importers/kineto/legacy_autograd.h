// The legacy autograd profiler's Chrome-trace JSON, as a PyTorch built
// without Kineto writes it (Debian 12's python3-torch 1.13.1 is one: both
// torch.profiler.profile and torch.autograd.profiler.profile export it).
// EventList.export_chrome_trace (torch/autograd/profiler_util.py; read here
// in 1.13.1, earlier releases write the same shape) prints it by hand, one
// format string per event:
//
//   [{"name": "aten::addmm", "ph": "X", "ts": 1234, "dur": 56, "tid": 1,
//     "pid": "CPU functions", "args": {}}, ...]
//
// a bare JSON array (no "traceEvents" object, no metadata, no "M" events);
// `pid` is the string "CPU functions" (older releases add GPU spans under
// "CUDA functions", with `tid` the device); `tid` is RecordFunction's thread
// id (1, 2, ... in the order threads first recorded), not the OS's, or for
// events recorded on another RPC node the string " node_id:N, thread_id:T ";
// there is no "cat"; `ts` counts microseconds from the start of the capture,
// not from the epoch; `args` is always empty, even with record_shapes; "s"
// (and, in older releases, "f") flow events with cat "cpu_to_cuda" link an op
// to its GPU work. Names are written unescaped, so a name holding a quote
// makes the file invalid JSON.
//
// The Kineto importer reads it (kineto_internal.h): a bare array whose first
// event has such a pid is this format, and every event of it must be too.
#pragma once

#include <string_view>

namespace damscope {

// The `pid` strings export_chrome_trace writes.
inline constexpr std::string_view kLegacyCpuPid = "CPU functions";
inline constexpr std::string_view kLegacyCudaPid = "CUDA functions";

// meta.source_format of a trace imported from this format, and its name for people.
inline constexpr std::string_view kLegacyAutogradSourceFormat = "pytorch-autograd-legacy";
inline constexpr std::string_view kLegacyAutogradDescription =
    "PyTorch legacy autograd profiler JSON";

// The ranges.category Kineto gives an event of this name. The legacy format
// drops the RecordFunction scope that Kineto's category comes from
// (torch/csrc/profiler/collection.cpp, scopeToType: a USER_SCOPE range, what
// torch.autograd.profiler.record_function opens, becomes "user_annotation";
// every other scope "cpu_op"), so the name decides:
//   "cpu_op"           operators and autograd functions: names with a
//                      namespace ("aten::mm", "autograd::engine::
//                      evaluate_function: ...", "torch::autograd::
//                      AccumulateGrad"), autograd nodes ("AddmmBackward0",
//                      "CopyBackwards"), and the ops PyTorch records by a bare
//                      name with RECORD_FUNCTION ("detach", "detach_" in
//                      torch/csrc/autograd/VariableTypeManual.cpp;
//                      "record_param_comms" in c10d's ParamCommsUtils.hpp);
//   "user_annotation"  every other name: what record_function ranges are
//                      called ("ProfilerStep#4", "enumerate(DataLoader)#
//                      _SingleProcessDataLoaderIter.__next__",
//                      "Optimizer.step#SGD.step", a user's "forward").
// Checked against Kineto's own categories on the real traces in
// ../shared/traces (legacy_autograd_import_test.cc): the rule disagrees only
// on the forward calls of custom autograd Functions, which Kineto records as
// cpu_op under their class name ("CompiledFunction").
std::string_view legacyRangeCategory(std::string_view name);

}  // namespace damscope
