// The FLOPs and bytes of one ATen op, by op family, from its recorded
// shapes (op_shapes.h parses them): the formulas.
//
// FLOPs count 2 per multiply-add, as torch.utils.flop_counter does. Bytes are
// what the op must read and write at least once, in their dtype: every
// tensor input read once and the output written once. A kernel moves at
// least that much, so the arithmetic intensity from it is an upper bound.
//
// Only matrix, convolution and attention FLOPs are model math (they are what
// torch.utils.flop_counter and MFU count); the FLOPs of the other families
// place their kernels on the roofline, where a factor of two in the count of
// an elementwise op does not move it off the memory side.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace damscope {

using Dims = std::vector<double>;

// One recorded input of an op.
struct OpInput {
  enum class Kind : unsigned char { kOther, kTensor, kTensorList };
  Kind kind = Kind::kOther;
  Dims dims;                // kTensor; empty: a 0-dim tensor (one element)
  std::vector<Dims> list;   // kTensorList, when the profiler recorded its tensors
  double element_bytes = 0;  // kTensor, kTensorList: the dtype's size
  std::string concrete;     // PyTorch >= 2.1 "Concrete Inputs": a scalar's value, "" unknown
};

// An op call as the formulas see it: the name without "aten::", its inputs,
// and what its autograd links add (op_links.h).
struct RecordedOp {
  std::string base;          // "add" for aten::add_ and aten::_foreach_add_
  bool in_place = false;     // a trailing underscore
  bool foreach = false;      // aten::_foreach_*
  std::vector<OpInput> inputs;
  std::optional<Dims> output;  // the forward op's output, from its backward node's gradient
  std::vector<OpInput> forward_inputs;  // a backward op: the inputs of the forward op it differentiates
};

struct OpWork {
  double flops = 0;
  double bytes = 0;
  bool model_math = false;  // matrix, convolution or attention FLOPs (MFU counts them)
};

using OpFormula = std::optional<OpWork> (*)(const RecordedOp&);

// The formula for an op's base name, or null when there is none.
OpFormula formulaOf(std::string_view base);

}  // namespace damscope
