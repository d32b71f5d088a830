// Autograd's links between a framework op and its gradient, read from what
// the PyTorch profiler records: every op that autograd records carries a
// "Sequence number", the same on the forward op (and the ops it nests) and
// on the backward node that differentiates it ("ConvolutionBackward0",
// "CudnnConvolutionBackward", on the autograd thread, with "Fwd thread id").
// The backward node's first input is the gradient of the forward op's
// output, so it has the output's shape; the ops the node runs differentiate
// the forward op, whose inputs they may not record (HTA's CallGraph and the
// TensorBoard plugin link forward and backward the same way).
//
// An ATen op inside a backward node that has a sequence number of its own is
// a forward op run again, for activation checkpointing: the ops a backward
// node runs to differentiate are not recorded by autograd and have none.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "trace/tables.h"

namespace damscope {

struct OpLinks {
  // Per ranges row (empty when the trace has no sequence numbers).
  std::vector<int64_t> backward_node;  // a forward op: its backward node's row, or kNullInt
  std::vector<int64_t> forward_op;     // an op run by a backward node: the forward op's row, or kNullInt
  std::vector<char> recomputed;        // a forward op run again inside a backward node

  bool empty() const { return backward_node.empty(); }
  // The output dims of forward op `range` (JSON array text), or "".
  std::string_view outputDims(const TraceTables& t, int64_t range) const;
  // The args of the forward op that op `range` differentiates, or "".
  std::string_view forwardArgs(const TraceTables& t, int64_t range) const;
  bool isRecomputed(int64_t range) const {
    return !empty() && recomputed[static_cast<size_t>(range)] != 0;
  }
};

OpLinks linkOps(const TraceTables& tables);

}  // namespace damscope
