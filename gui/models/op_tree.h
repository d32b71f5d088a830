// The Statistics panel's module tree: where the GPU time goes by nn.Module,
// then by the op that launched it, then by kernel — the TensorBoard plugin's
// Module view ("which layer is it, and which op in it?").
//
// Each GPU operation (kernel, copy, memset) that starts in the window is
// placed by the attribution of op_breakdown.h, computed once there: its
// modules (kModule: module ranges, "## name ##" record_function ranges, the
// "Module Hierarchy" argument, backward work through the forward op's
// sequence number), outermost first, each a level of the tree; then its leaf
// op (kLeafOp: the innermost framework op); then its kernel's name (a copy:
// "memcpy HtoD", a memset: "memset"). An operation in no module hangs under
// "(no module)", one launched by no op under "(no op)"; in a trace with no
// module at all (recorded without with_modules) the ops are the roots.
//
// A node's GPU time is the summed durations of the operations beneath it (a
// sum, as the op tables sum: two operations overlapping on two streams both
// count); a module's self time is that of the operations whose innermost
// module it is. Children come largest first.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gui/models/event_ref.h"
#include "gui/models/time_window.h"

namespace damscope {

enum class OpTreeLevel : uint8_t { kModule, kOp, kKernel };

struct OpTreeNode {
  std::string name;
  OpTreeLevel level = OpTreeLevel::kModule;
  int parent = -1;            // index into OpTree::nodes; -1 for a root
  std::vector<int> children;  // largest gpu_ns first
  int64_t gpu_ns = 0;
  int64_t self_ns = 0;               // modules: as innermost module; ops and kernels: gpu_ns
  int64_t operations = 0;            // GPU operations beneath
  EventRefs events;                  // kernels only: its operations, in time order
  std::vector<int32_t> event_order;  // each event's place in the trace's time order
};

struct OpTree {
  std::vector<OpTreeNode> nodes;
  std::vector<int> roots;    // largest gpu_ns first
  int64_t gpu_ns = 0;        // all the tree's operations: the share's denominator
  bool has_modules = false;  // some operation lies in a module

  // The operations beneath `node`, in time order.
  EventRefs eventsOf(int node) const;
};

// The tree of `rank` of `run`, over the operations that start in `window`
// (none: all of them).
OpTree buildOpTree(const AnalysedRun& run, int rank, const std::optional<TimeWindow>& window);

}  // namespace damscope
