// FLOPs and bytes of a framework op, counted from the shapes the PyTorch
// profiler records with record_shapes=True (a cpu_op's "Input Dims", "Input
// type" and, from PyTorch 2.1, "Concrete Inputs" arguments): the `estimated`
// source of kernel work (kernel_work.h) when a trace has no counters and no
// annotation. The formulas, per op family, are in op_formulas.h; this file
// reads the recorded arguments into what they take.
//
// What the shapes alone do not say, autograd's links do (op_links.h): a
// forward op's output shape is its backward node's incoming gradient (a
// convolution's output size needs its stride and padding otherwise), and a
// backward op that lacks a shape (cudnn_convolution_backward_weight records
// only the weight's size as a list) takes it from the forward op.
//
// The dtype of a tensor list is not recorded: a list takes the op's first
// tensor's, else 4 bytes (FP32).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "analyzer/analyses/op_formulas.h"

namespace damscope {

// An op call as recorded: its name, its args JSON object, and what autograd
// links add (empty when nothing).
struct OpCall {
  std::string_view name;
  std::string_view args;
  std::string_view output_dims;   // JSON array: the output's dims, from the backward node
  std::string_view forward_args;  // a backward op: the forward op's args JSON object
};

// True when `name` has a formula (its shapes may still be missing).
bool countsOpWork(std::string_view name);

// The work of the op, or nothing when it has no formula or its shapes are
// missing, malformed or do not fit the formula.
std::optional<OpWork> estimateOpWork(const OpCall& call);

// The op as recorded (its name parsed, its inputs' dims and dtypes), for
// analyses that read shapes rather than count work (the tensor-core
// alignment lint, kernel_lints.h); nothing when it is not an ATen op or its
// shapes are missing or malformed.
std::optional<RecordedOp> recordedOp(std::string_view name, std::string_view args);

// estimateOpWork with a memory: ops repeat the same few shapes thousands of
// times (every layer, every step), so each distinct call is counted once.
class OpWorkCounter {
 public:
  std::optional<OpWork> count(const OpCall& call);

 private:
  std::unordered_map<std::string, std::optional<OpWork>> cache_;
};

}  // namespace damscope
