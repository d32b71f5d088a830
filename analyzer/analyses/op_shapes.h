// FLOPs and bytes of a framework op, counted from the shapes the PyTorch
// profiler records with record_shapes=True (a cpu_op's "Input Dims" and
// "Input type" arguments): the `estimated` source of kernel work
// (kernel_work.h) when a trace has no counters and no annotation.
//
// Counted ops, with FLOPs = 2 per multiply-add:
//   aten::mm        [M,K] x [K,N]                 2 M K N
//   aten::addmm     bias, [M,K] x [K,N]           2 M K N (+ M N for the bias)
//   aten::bmm       [B,M,K] x [B,K,N]             2 B M K N
//   aten::baddbmm   bias, [B,M,K] x [B,K,N]       2 B M K N (+ B M N)
//   aten::linear    [..,K] x [N,K]^T (+ [N])      2 M K N, M = product of the leading dims
//   aten::scaled_dot_product_attention and its _flash/_efficient/_cudnn forms
//                   Q [B,H,T,D], K and V [B,H,S,D]  4 B H T S D (QK^T and PV),
//                   counted without a causal mask (the shapes do not say)
// Bytes are what the op must read and write at least: every input and the
// output once, at the element size of "Input type"; a kernel moves at least
// that much, so the arithmetic intensity from it is an upper bound. Ops whose
// output shape the inputs do not determine (convolutions without their
// stride and padding) are not counted.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace damscope {

struct OpWork {
  double flops = 0;
  double bytes = 0;
};

// True when `name` is one of the ops above (its shapes may still be missing).
bool countsOpWork(std::string_view name);

// The work of op `name` from its args JSON object, or nothing when the op is
// not one of the above or its shapes are missing or malformed.
std::optional<OpWork> estimateOpWork(std::string_view name, std::string_view args_json);

// estimateOpWork with a memory: ops repeat the same few shapes thousands of
// times (every layer, every step), so each distinct (op, shapes) is counted
// once.
class OpWorkCounter {
 public:
  std::optional<OpWork> count(std::string_view name, std::string_view args_json);

 private:
  std::unordered_map<std::string, std::optional<OpWork>> cache_;
};

}  // namespace damscope
