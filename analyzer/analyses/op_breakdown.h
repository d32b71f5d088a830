// Where the time goes, by op, module and range (DESIGN.md "Attribution";
// `damscope ops`): every kernel, copy and memset in the analysis window is
// charged to the host ranges it was launched inside, and the ranges' own host
// time is summed by name.
//
// Attribution of a GPU operation. Its correlation id names the runtime call
// that launched it (AnalysisInput::launchOf, GpuOp::launch); the host ranges
// open on that call's thread at the call's start enclose it (ranges nest by
// time on one thread: trace/range_nesting.h). The innermost range is found by
// binary search on the thread's ranges, the enclosing ones by following
// parent_id. Operations without a launch call (no correlation id, or the call
// was not recorded) cannot be attributed and are counted apart
// (unattributed_*); so are those whose launch lies outside every range of the
// grouping (outside_*).
//
// Groupings (which ranges make the rows, by ranges.category as the importers
// store it, docs/trace-format.md):
//   kOp          framework ops (cpu_op; Kineto's 2021 "Operator"), nested
//                ops counted in their parents' totals
//   kLeafOp      the innermost framework op only: a GPU operation counts for
//                the op that launched it, and only ops with no op inside
//                them make rows (total = self)
//   kModule      nn.Module ranges: Kineto python_function events named
//                "nn.Module: Name_0" (row "Name_0"), record_function ranges
//                named "## name ##" (row "name"); where a launch lies in no
//                such range, the innermost op carrying Kineto's "Module
//                Hierarchy" argument ("model.layers.0.mlp") names it and its
//                dotted prefixes (no host time: the argument is not a range).
//                Backward work runs on the autograd thread, outside every
//                module: a backward node (a cpu_op whose "Fwd thread id" is
//                not 0) is linked to the forward op that created it by its
//                "Sequence number", and its GPU work goes to that op's
//                modules. Among forward ops with one sequence number the one
//                that started last is taken, as PyTorch links them
//                (torch/csrc/autograd/profiler_kineto.cpp,
//                generateForwardBackwardLink: the sequence number only
//                advances when a backward node is created, so the last op to
//                see it created the node). The link is by sequence number
//                alone among forward ops that started before the backward
//                node: the trace gives the forward thread's RecordFunction id,
//                not its OS thread, and one forward thread is the common case.
//   kRange       every other host range: NVTX, record_function /
//                user_annotation (ProfilerStep#N included), dataloader; not
//                framework ops, python functions or NVTX marks
//   kAnnotation  GPU user annotations (Kineto gpu_user_annotation: GPU-side
//                ranges on a device and stream). A GPU operation belongs to
//                the annotations on its own stream that contain its start.
//
// Figures of a row (one per name, or per name and "Input Dims" with
// by_shape):
//   calls          ranges of that name in the window
//   gpu_total_ns   summed durations of the GPU operations launched inside a
//                  range of that name, nested ranges included; an operation
//                  inside two nested ranges of one name counts once. A sum,
//                  not a union, as the TensorBoard plugin's operator view
//                  sums its ops' kernel durations (kineto tb_plugin
//                  torch_tb_profiler/profiler/node.py, OperatorNode
//                  device_duration): operations overlapping on two streams
//                  both count.
//                  kAnnotation: the summed durations of the annotations
//                  themselves, every instance, as HTA's
//                  get_gpu_user_annotation_breakdown sums them
//                  (hta/analyzers/breakdown_analysis.py @f4d0062c: groupby
//                  name, dur sum), idle time inside them included.
//   gpu_self_ns    the GPU operations whose innermost range of the grouping
//                  has this name; kAnnotation: annotation time minus that of
//                  the annotations directly inside it on its stream
//   cpu_total_ns   host time inside ranges of that name: summed durations of
//                  the ranges not nested in a range of the same name
//   cpu_self_ns    summed durations minus those of the ranges of the
//                  grouping directly inside them (a child range whose parent
//                  is in the window)
//                  (both empty for kAnnotation and the "Module Hierarchy"
//                  modules, which have no host range)
//   *_pct          of the analysed window's span (WindowReport start..end:
//                  the analysed steps, so per cent of step time)
//   FLOP/s         over the kernels inside the range (total) with FLOPs from
//                  kernel_work.h: summed FLOPs over their summed time. The
//                  roofline place takes their summed bytes (kernels with both
//                  counts): intensity = FLOPs / bytes, ceiling = min(peak,
//                  bandwidth x intensity), memory-bound below the ridge
//                  (peak / bandwidth), as roofline.h places a kernel, against
//                  the run's precision's peak.
//
// Window: GPU operations are those WindowReport::in_window keeps (syncs are
// waiting, not work, and are left out). Host ranges count where the window
// keeps CPU events: with HTA's cut, those that start before the last step's
// start; with a chosen time range, those that start inside it; else all.
// GPU annotations count when they start before the window's last GPU
// operation ends (inside a chosen range: when they start inside it).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/analysis_note.h"
#include "analyzer/analyses/analysis_window.h"
#include "analyzer/analyses/kernel_work.h"

namespace damscope {

enum class OpGrouping : uint8_t { kOp, kLeafOp, kModule, kRange, kAnnotation };
std::string_view toText(OpGrouping grouping);  // "op", "leaf-op", "module", "range", "annotation"
std::optional<OpGrouping> opGroupingFromText(std::string_view text);

enum class OpSort : uint8_t { kGpu, kCpu, kCalls };  // largest first; ties by name

struct OpRow {
  std::string name;
  std::string shapes;  // the ops' "Input Dims" JSON text; "" unless by_shape (or none recorded)
  int64_t calls = 0;
  int64_t gpu_ops = 0;  // GPU operations counted in gpu_total_ns (kAnnotation: inside it)
  int64_t gpu_total_ns = 0;
  int64_t gpu_self_ns = 0;
  std::optional<int64_t> cpu_total_ns;  // empty: no host ranges (see the header)
  std::optional<int64_t> cpu_self_ns;
  double gpu_total_pct = 0;  // of the window span
  double cpu_total_pct = 0;
  // Work of the kernels in gpu_total (kernel_work.h).
  double flops = 0;
  int64_t flop_time_ns = 0;  // time of the kernels with FLOPs
  // Time of its computation kernels (not collectives) with neither FLOPs nor
  // bytes: off the roofline, what the next op formula would place.
  int64_t unplaced_ns = 0;
  std::optional<double> achieved_flops_per_s;
  std::optional<double> intensity;  // FLOP/byte
  std::optional<double> ceiling_flops_per_s;
  std::optional<double> pct_of_ceiling;
  std::optional<bool> memory_bound;
  bool operator==(const OpRow&) const = default;
};

// The device's roofs, for the rows' roofline place (device_peaks.h).
struct OpRoofs {
  std::optional<double> peak_flops_per_s;  // at the run's precision
  std::optional<double> bandwidth_bytes_per_s;
};

struct OpBreakdownOptions {
  OpGrouping grouping = OpGrouping::kOp;
  bool by_shape = false;  // one row per (name, "Input Dims")
  OpSort sort = OpSort::kGpu;
  size_t top = 0;  // rows kept after sorting; 0: all
  // Keep each row's GPU operations (OpBreakdownReport::gpu_ops_of_row): what
  // a viewer selects when a row is clicked.
  bool keep_gpu_ops = false;
  // Keep each GPU operation's enclosing rows (OpBreakdownReport::rows_of_gpu_op):
  // what a tree of nested modules is built from.
  bool keep_rows_of_gpu_op = false;
};

struct OpBreakdownReport {
  OpGrouping grouping = OpGrouping::kOp;
  int64_t window_ns = 0;  // the window's span, the denominator of the shares
  int64_t gpu_ops = 0;    // window GPU operations (not syncs) and their summed time
  int64_t gpu_ns = 0;
  int64_t unattributed_ops = 0;  // no launch call to follow
  int64_t unattributed_ns = 0;
  int64_t outside_ops = 0;  // a launch call in no range of the grouping
  int64_t outside_ns = 0;
  int64_t backward_ops = 0;  // kModule: charged through a backward node's forward op
  int64_t kernel_ns = 0;     // window computation kernels (not collectives): their time
  int64_t unplaced_ns = 0;   // of those, with no work; outside_/unattributed_ included
  size_t row_count = 0;      // rows before `top` cut them
  std::vector<OpRow> rows;   // sorted by options.sort
  // With keep_gpu_ops, per row: its GPU operations (indexes into
  // AnalysisInput::gpu(), in time order), those gpu_total_ns sums.
  std::vector<std::vector<int32_t>> gpu_ops_of_row;
  // With keep_rows_of_gpu_op, per GPU operation (an index into
  // AnalysisInput::gpu()): the rows that hold it, innermost first (for
  // kModule, its module and those around it, outermost last); empty for an
  // operation outside the window, unattributed or outside every range. Rows
  // cut by `top` are left out.
  std::vector<std::vector<int32_t>> rows_of_gpu_op;
  bool operator==(const OpBreakdownReport&) const = default;
};

OpBreakdownReport computeOpBreakdown(const AnalysisInput& input, const WindowReport& window,
                                     const KernelWorkReport& work, const OpRoofs& roofs,
                                     const OpBreakdownOptions& options);

// A moment on a host thread (a threads row): where a GPU operation was
// launched (its launch call's start) or a call was made.
struct HostMoment {
  int64_t thread = kNullInt;
  int64_t ts = 0;
};

// For each moment, the name of the innermost row of `grouping` (kLeafOp or
// kModule) that a GPU operation launched there is charged to, as
// computeOpBreakdown charges it (a backward node's work: its forward op's
// module), or "" when no range of the grouping holds it. For the few
// operations a finding cites: nothing is charged, so the cost is one pass
// over the ranges.
std::vector<std::string> innermostRowNames(const AnalysisInput& input, OpGrouping grouping,
                                           std::span<const HostMoment> moments);

// From a leaf-op table: the ops whose computation kernels are off the
// roofline (no counters, annotation or op formula), by that time, as a note
// saying where the next formula would count most; empty when under 0.5 %
// each.
std::optional<AnalysisNote> unplacedOpsNote(const OpBreakdownReport& leaf_ops);

}  // namespace damscope
