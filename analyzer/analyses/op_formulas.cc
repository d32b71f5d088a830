// Op FLOPs and bytes by family: see op_formulas.h.
//
// Sources of the formulas:
//   matrix ops, convolutions and their gradients, attention forward and
//     backward: torch/utils/flop_counter.py (mm_flop, bmm_flop,
//     conv_flop_count, conv_backward_flop, sdpa_flop_count,
//     sdpa_backward_flop_count); a causal mask halves attention's FLOPs
//     (Dao, "FlashAttention-2", 2023, section 4.1: the masked half of the
//     blocks is skipped)
//   normalizations: fvcore/nn/jit_handles.py norm_flop_counter (5 FLOPs per
//     element with an affine transform, 4 without); a backward pass as twice
//     its forward (two reductions and two elementwise passes over the input)
//   softmax: max, subtract, exp, sum and divide per element; its backward
//     (y * (g - sum(g * y))) 4 per element
//   optimizers: the update equations of torch.optim (Adam, AdamW, SGD with
//     momentum, Adagrad), counted per parameter element
//   everything else: one FLOP per arithmetic operation per output element,
//     and none for the ops that only move data (copies, casts, gathers)
#include "analyzer/analyses/op_formulas.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace damscope {
namespace {

using Kind = OpInput::Kind;

double numel(const Dims& d) {
  return std::accumulate(d.begin(), d.end(), 1.0, std::multiplies<>());
}

const OpInput* at(const std::vector<OpInput>& in, size_t i) {
  return i < in.size() ? &in[i] : nullptr;
}

// Input i when it is a tensor with exactly `rank` dims (any rank when 0).
const OpInput* tensor(const std::vector<OpInput>& in, size_t i, size_t rank = 0) {
  const OpInput* t = at(in, i);
  if (!t || t->kind != Kind::kTensor) return nullptr;
  if (rank != 0 && t->dims.size() != rank) return nullptr;
  return t;
}

double bytesOf(const OpInput& t) {
  if (t.kind == Kind::kTensor) return numel(t.dims) * t.element_bytes;
  double b = 0;
  for (const Dims& d : t.list) b += numel(d) * t.element_bytes;
  return b;
}

double elementsOf(const OpInput& t) {
  if (t.kind == Kind::kTensor) return numel(t.dims);
  double n = 0;
  for (const Dims& d : t.list) n += numel(d);
  return n;
}

// Every tensor input's bytes.
double inputBytes(const std::vector<OpInput>& in) {
  double b = 0;
  for (const OpInput& t : in) b += bytesOf(t);
  return b;
}

// The largest tensor input: the activation of a normalization or loss,
// whatever its argument order.
const OpInput* largest(const std::vector<OpInput>& in) {
  const OpInput* best = nullptr;
  for (const OpInput& t : in) {
    if (t.kind == Kind::kTensor && (!best || numel(t.dims) > numel(best->dims))) best = &t;
  }
  return best;
}

// A Concrete Inputs value "[2, 2]" or "2" read as numbers; empty when unknown.
Dims concreteList(const OpInput* in) {
  Dims out;
  if (!in) return out;
  const std::string& s = in->concrete;
  size_t i = 0;
  while (i < s.size()) {
    if ((s[i] >= '0' && s[i] <= '9') || s[i] == '-') {
      size_t used = 0;
      try {
        out.push_back(std::stod(s.substr(i), &used));
      } catch (...) {
        return {};
      }
      i += used;
    } else {
      ++i;
    }
  }
  return out;
}

bool concreteTrue(const OpInput* in) { return in && in->concrete == "True"; }

std::optional<OpWork> work(double flops, double bytes, bool model_math = false) {
  if (!std::isfinite(flops) || !std::isfinite(bytes) || flops < 0 || !(bytes > 0)) {
    return std::nullopt;
  }
  return OpWork{flops, bytes, model_math};
}

// ---- matrix products (flop_counter mm_flop, bmm_flop, addmm_flop) ----

std::optional<OpWork> matmulWork(const Dims& a_in, const Dims& b_in, double size, bool bias) {
  Dims a = a_in, b = b_in;
  if (a.empty() || b.empty()) return std::nullopt;
  if (a.size() == 1) a.insert(a.begin(), 1);  // a vector is a one-row matrix
  if (b.size() == 1) b.push_back(1);
  const double m = a[a.size() - 2], k = a.back(), n = b.back();
  if (b[b.size() - 2] != k) return std::nullopt;
  // Batch dims broadcast against each other (torch.matmul).
  const Dims ab(a.begin(), a.end() - 2), bb(b.begin(), b.end() - 2);
  double batch = 1;
  for (size_t i = 0; i < std::max(ab.size(), bb.size()); ++i) {
    const double x = i < ab.size() ? ab[ab.size() - 1 - i] : 1;
    const double y = i < bb.size() ? bb[bb.size() - 1 - i] : 1;
    if (x != y && x != 1 && y != 1) return std::nullopt;
    batch *= std::max(x, y);
  }
  double flops = 2 * batch * m * k * n;
  double elements = numel(a) + numel(b) + batch * m * n;
  if (bias) flops += batch * m * n, elements += batch * m * n;
  return work(flops, elements * size, true);
}

std::optional<OpWork> matmul(const RecordedOp& op) {
  const std::string& n = op.base;
  // addmm, baddbmm, addmv and addbmm take the bias first.
  const bool bias_first = n == "addmm" || n == "baddbmm" || n == "addmv" || n == "addbmm" ||
                          n == "_addmm_activation";
  const size_t first = bias_first ? 1 : 0;
  const OpInput* a = tensor(op.inputs, first);
  const OpInput* b = tensor(op.inputs, first + 1);
  if (!a || !b) return std::nullopt;
  if (n == "linear") {
    // input [.., K] x weight [N, K]^T
    if (b->dims.size() != 2) return std::nullopt;
    const Dims bt = {b->dims[1], b->dims[0]};
    return matmulWork(a->dims, bt, a->element_bytes, tensor(op.inputs, 2) != nullptr);
  }
  if (n == "addbmm") {
    // sum over the batch of [B,M,K] x [B,K,N]: a bmm whose output is [M,N]
    auto w = matmulWork(a->dims, b->dims, a->element_bytes, false);
    if (w && a->dims.size() == 3) w->bytes -= (a->dims[0] - 1) * a->dims[1] * b->dims[2] * a->element_bytes;
    return w;
  }
  if ((n == "mm" || n == "addmm" || n == "_addmm_activation") &&
      (a->dims.size() != 2 || b->dims.size() != 2)) {
    return std::nullopt;
  }
  if ((n == "bmm" || n == "baddbmm") && (a->dims.size() != 3 || b->dims.size() != 3 ||
                                         a->dims[0] != b->dims[0])) {
    return std::nullopt;
  }
  return matmulWork(a->dims, b->dims, a->element_bytes, bias_first);
}

// ---- convolutions (flop_counter conv_flop_count, conv_backward_flop) ----

// flop_counter's conv_flop_count: 2 x batch x prod(conv_shape) x prod(weight),
// where conv_shape is the output's spatial dims, or the input's for a
// transposed convolution (its weight is [C_in, C_out/groups, k...]).
double convFlops(const Dims& x, const Dims& w, const Dims& conv_spatial) {
  return 2 * x[0] * numel(conv_spatial) * numel(w);
}

Dims spatial(const Dims& d) { return Dims(d.begin() + 2, d.end()); }

bool transposedConv(const RecordedOp& op) {
  if (op.base.find("transpose") != std::string::npos) return true;
  // convolution / _convolution (input, weight, bias, stride, padding, dilation, transposed, ...)
  return (op.base == "convolution" || op.base == "_convolution") && concreteTrue(at(op.inputs, 6));
}

// Where the stride, padding and dilation of a forward convolution sit in its
// signature (native_functions.yaml), for Concrete Inputs.
struct ConvArgs {
  size_t stride, padding, dilation;
};
std::optional<ConvArgs> convArgsOf(std::string_view base) {
  if (base == "conv1d" || base == "conv2d" || base == "conv3d" || base == "convolution" ||
      base == "_convolution" || base == "mkldnn_convolution") {
    return ConvArgs{3, 4, 5};
  }
  if (base == "cudnn_convolution" || base == "miopen_convolution") return ConvArgs{3, 2, 4};
  return std::nullopt;
}

// The output's spatial dims of a forward convolution: from its backward
// node's gradient, else from its stride, padding and dilation
// (floor((in + 2p - d(k-1) - 1) / s) + 1, the Conv2d formula of the
// PyTorch documentation), else unknown.
std::optional<Dims> convOutput(const RecordedOp& op, const Dims& x, const Dims& w) {
  if (op.output && op.output->size() == x.size() && (*op.output)[0] == x[0]) {
    return spatial(*op.output);
  }
  const std::optional<ConvArgs> args = convArgsOf(op.base);
  if (!args) return std::nullopt;
  const size_t n = x.size() - 2;
  const OpInput* padding_in = at(op.inputs, args->padding);
  Dims stride = concreteList(at(op.inputs, args->stride));
  Dims padding = concreteList(padding_in);
  Dims dilation = concreteList(at(op.inputs, args->dilation));
  if (stride.size() == 1) stride.assign(n, stride[0]);
  if (dilation.size() == 1) dilation.assign(n, dilation[0]);
  if (stride.size() != n || dilation.size() != n) return std::nullopt;
  const bool same = padding_in && padding_in->concrete.find("same") != std::string::npos;
  const bool valid = padding_in && padding_in->concrete.find("valid") != std::string::npos;
  if (valid) padding.assign(n, 0);
  if (padding.size() == 1) padding.assign(n, padding[0]);
  Dims out(n);
  for (size_t i = 0; i < n; ++i) {
    if (same) {
      out[i] = x[2 + i];
      continue;
    }
    if (padding.size() != n || stride[i] <= 0) return std::nullopt;
    out[i] = std::floor((x[2 + i] + 2 * padding[i] - dilation[i] * (w[2 + i] - 1) - 1) / stride[i]) + 1;
    if (out[i] < 1) return std::nullopt;
  }
  return out;
}

std::optional<OpWork> convolution(const RecordedOp& op) {
  const OpInput* x = tensor(op.inputs, 0);
  const OpInput* w = tensor(op.inputs, 1);
  if (!x || !w || x->dims.size() < 3 || w->dims.size() != x->dims.size()) return std::nullopt;
  const bool transposed = transposedConv(op);
  double bytes = bytesOf(*x) + bytesOf(*w);
  if (const OpInput* bias = tensor(op.inputs, 2, 1)) bytes += bytesOf(*bias);
  if (transposed) {
    // Its FLOPs need only the input; its output is written at least as large
    // as its input times C_out/C_in.
    const double c_out = w->dims[1] * (x->dims[1] / w->dims[0]);
    bytes += numel(x->dims) / x->dims[1] * c_out * x->element_bytes;
    return work(convFlops(x->dims, w->dims, spatial(x->dims)), bytes, true);
  }
  const std::optional<Dims> out = convOutput(op, x->dims, w->dims);
  if (!out) return std::nullopt;
  bytes += x->dims[0] * w->dims[0] * numel(*out) * x->element_bytes;
  return work(convFlops(x->dims, w->dims, *out), bytes, true);
}

// The forward convolution's input and weight, from the backward op's own
// shapes where it has them, else from the forward op it differentiates.
struct ConvShapes {
  std::optional<Dims> x, w, g;
  double size = 0;
};

// Gradients of a convolution: each of the input's and the weight's costs
// what the forward did (flop_counter conv_backward_flop).
std::optional<OpWork> convolutionBackward(const RecordedOp& op) {
  const std::string& n = op.base;
  ConvShapes s;
  auto take = [&](std::optional<Dims>& into, const OpInput* t) {
    if (t && !into) into = t->dims, s.size = s.size > 0 ? s.size : t->element_bytes;
  };
  // Which gradients the op computes, and where its shapes sit.
  bool grad_input = true, grad_weight = true;
  if (n.ends_with("_backward_input")) {
    // (self_size, grad_output, weight, ...)
    grad_weight = false;
    take(s.g, tensor(op.inputs, 1)), take(s.w, tensor(op.inputs, 2));
  } else if (n.ends_with("_backward_weight")) {
    // (weight_size, grad_output, self, ...)
    grad_input = false;
    take(s.g, tensor(op.inputs, 1)), take(s.x, tensor(op.inputs, 2));
  } else if (n == "cudnn_convolution_backward" || n == "mkldnn_convolution_backward" ||
             n == "miopen_convolution_backward") {
    // (self, grad_output, weight, ...)
    take(s.x, tensor(op.inputs, 0)), take(s.g, tensor(op.inputs, 1)), take(s.w, tensor(op.inputs, 2));
  } else {
    // convolution_backward(grad_output, input, weight, bias_sizes, stride,
    // padding, dilation, transposed, output_padding, groups, output_mask)
    take(s.g, tensor(op.inputs, 0)), take(s.x, tensor(op.inputs, 1)), take(s.w, tensor(op.inputs, 2));
    // output_mask [input, weight, bias], where Concrete Inputs recorded it.
    if (op.inputs.size() > 10 && !op.inputs[10].concrete.empty()) {
      const std::string& mask = op.inputs[10].concrete;
      const size_t first = mask.find_first_of("TF"), second = mask.find_first_of("TF", mask.find(',') + 1);
      grad_input = first != std::string::npos && mask[first] == 'T';
      grad_weight = mask.find(',') != std::string::npos && second != std::string::npos && mask[second] == 'T';
    }
  }
  // The forward op's input and weight fill what the backward op lacks.
  take(s.x, tensor(op.forward_inputs, 0));
  take(s.w, tensor(op.forward_inputs, 1));
  if (!s.g || !s.w || s.g->size() < 3 || s.w->size() != s.g->size()) return std::nullopt;
  const double one = convFlops(*s.g, *s.w, spatial(*s.g));
  const double grads = (grad_input ? 1 : 0) + (grad_weight ? 1 : 0);
  // Read the gradient, the input and the weight; write the gradients.
  const double g = numel(*s.g), w = numel(*s.w);
  const double x = s.x ? numel(*s.x) : s.g->at(0) * (*s.w)[1] * numel(spatial(*s.g));
  const double bytes = (g + x + w + (grad_input ? x : 0) + (grad_weight ? w : 0)) * s.size;
  return work(one * grads, bytes, true);
}

// ---- attention (flop_counter sdpa_flop_count, sdpa_backward_flop_count) ----

// Q [B,H,T,D] (or [B,T,H,D] for the _flash/_efficient_attention kernels'
// ops), K [.., S, D], V [.., S, Dv]: QK^T and PV, 2 B H T S (D + Dv).
std::optional<OpWork> attentionWork(const RecordedOp& op, size_t q_at, bool heads_second,
                                     size_t causal_at, double passes) {
  const OpInput* q = tensor(op.inputs, q_at, 4);
  const OpInput* k = tensor(op.inputs, q_at + 1, 4);
  const OpInput* v = tensor(op.inputs, q_at + 2, 4);
  if (!q || !k || !v) return std::nullopt;
  const size_t t_at = heads_second ? 2 : 1;
  const double b = q->dims[0], h = heads_second ? q->dims[1] : q->dims[2];
  const double t = q->dims[t_at], s = k->dims[t_at], d = q->dims[3], dv = v->dims[3];
  double flops = 2 * b * h * t * s * (d + dv) * passes;
  if (concreteTrue(at(op.inputs, causal_at))) flops /= 2;
  const double out = b * h * t * dv * q->element_bytes;
  // Forward: read Q, K, V, write O. Backward: read dO, Q, K, V, O, write dQ, dK, dV.
  const double qkv = bytesOf(*q) + bytesOf(*k) + bytesOf(*v);
  const double bytes = passes > 1 ? 2 * qkv + 2 * out : qkv + out;
  return work(flops, bytes, true);
}

std::optional<OpWork> attention(const RecordedOp& op) {
  const std::string& n = op.base;
  // is_causal's place: sdpa (q,k,v,attn_mask,dropout_p,is_causal,..);
  // _scaled_dot_product_flash_attention (q,k,v,dropout_p,is_causal,..);
  // _scaled_dot_product_efficient_attention (q,k,v,attn_bias,compute_lse,dropout_p,is_causal,..)
  if (n == "scaled_dot_product_attention") return attentionWork(op, 0, true, 5, 1);
  if (n == "_scaled_dot_product_flash_attention") return attentionWork(op, 0, true, 4, 1);
  if (n == "_scaled_dot_product_efficient_attention") return attentionWork(op, 0, true, 6, 1);
  if (n == "_scaled_dot_product_cudnn_attention") return attentionWork(op, 0, true, 6, 1);
  // _flash_attention_forward (q,k,v,cum_q,cum_k,max_q,max_k,dropout,is_causal,..), [B,T,H,D]
  if (n == "_flash_attention_forward") return attentionWork(op, 0, false, 8, 1);
  // _efficient_attention_forward (q,k,v,bias,cu_q,cu_k,max_q,max_k,dropout,custom_mask_type,..)
  return attentionWork(op, 0, false, 99, 1);
}

// The backward is four matrix products of the forward's size: twice its FLOPs.
std::optional<OpWork> attentionBackward(const RecordedOp& op) {
  const std::string& n = op.base;
  // (grad_out, q, k, v, out, logsumexp, cum_q, cum_k, max_q, max_k, dropout_p, is_causal, ..)
  if (n == "_scaled_dot_product_flash_attention_backward") return attentionWork(op, 1, true, 11, 2);
  // (grad_out, q, k, v, attn_bias, out, logsumexp, seed, offset, dropout_p, grad_input_mask, is_causal, ..)
  if (n == "_scaled_dot_product_efficient_attention_backward") {
    return attentionWork(op, 1, true, 11, 2);
  }
  if (n == "_scaled_dot_product_cudnn_attention_backward") return attentionWork(op, 1, true, 99, 2);
  // (grad_out, q, k, v, out, logsumexp, cum_q, cum_k, max_q, max_k, dropout_p, is_causal, ..), [B,T,H,D]
  if (n == "_flash_attention_backward") return attentionWork(op, 1, false, 11, 2);
  return attentionWork(op, 1, false, 99, 2);
}

// ---- normalizations (fvcore norm_flop_counter) ----

std::optional<OpWork> normalization(const RecordedOp& op) {
  const OpInput* x = largest(op.inputs);
  if (!x) return std::nullopt;
  // An affine transform: a weight input besides the activation.
  bool affine = false;
  for (const OpInput& t : op.inputs) affine |= &t != x && t.kind == Kind::kTensor;
  const double per_element = affine ? 5 : 4;
  // Read every input (the activation, the statistics and the affine
  // parameters), write the output.
  return work(per_element * numel(x->dims), inputBytes(op.inputs) + bytesOf(*x));
}

std::optional<OpWork> normalizationBackward(const RecordedOp& op) {
  const OpInput* x = largest(op.inputs);
  if (!x) return std::nullopt;
  // Read the gradient, the input and the statistics; write the input's gradient.
  return work(2 * 5 * numel(x->dims), inputBytes(op.inputs) + bytesOf(*x));
}

// ---- softmax ----

std::optional<OpWork> softmax(const RecordedOp& op) {
  const OpInput* x = tensor(op.inputs, 0);
  if (!x) return std::nullopt;
  return work(5 * numel(x->dims), 2 * bytesOf(*x));
}

std::optional<OpWork> softmaxBackward(const RecordedOp& op) {
  // (grad_output, output, dim, input_dtype)
  const OpInput* g = tensor(op.inputs, 0);
  const OpInput* y = tensor(op.inputs, 1);
  if (!g || !y) return std::nullopt;
  return work(4 * numel(g->dims), bytesOf(*g) + 2 * bytesOf(*y));
}

// ---- embeddings: rows gathered, or their gradients scattered back ----

std::optional<OpWork> embedding(const RecordedOp& op) {
  // embedding(weight [V, D], indices [..]); _embedding_bag(weight, indices, offsets, ..)
  const OpInput* w = tensor(op.inputs, 0, 2);
  const OpInput* idx = tensor(op.inputs, 1);
  if (!w || !idx) return std::nullopt;
  const double rows = numel(idx->dims) * w->dims[1] * w->element_bytes;
  if (op.base == "embedding") return work(0, bytesOf(*idx) + 2 * rows);
  // A bag sums its rows: one add per gathered element; its output is one row per bag.
  const OpInput* offsets = tensor(op.inputs, 2, 1);
  const double bags = offsets ? numel(offsets->dims) : 1;
  return work(numel(idx->dims) * w->dims[1], bytesOf(*idx) + rows + bags * w->dims[1] * w->element_bytes);
}

std::optional<OpWork> embeddingBackward(const RecordedOp& op) {
  // (grad [.., D], indices, num_weights, ..): each gradient row read and
  // added into its weight row (read and written).
  const OpInput* g = tensor(op.inputs, 0);
  const OpInput* idx = tensor(op.inputs, 1);
  if (!g || !idx) return std::nullopt;
  return work(numel(g->dims), 3 * bytesOf(*g) + bytesOf(*idx));
}

// ---- losses ----

std::optional<OpWork> nllLoss(const RecordedOp& op) {
  // (self [N, C, ..], target [N, ..], weight, reduction, ignore_index): one
  // log-probability gathered and summed per target.
  const OpInput* x = tensor(op.inputs, 0);
  const OpInput* target = tensor(op.inputs, 1);
  if (!x || !target) return std::nullopt;
  const double n = numel(target->dims);
  return work(n, bytesOf(*target) + n * x->element_bytes);
}

std::optional<OpWork> nllLossBackward(const RecordedOp& op) {
  // (grad_output, self, target, ..): the whole input's gradient is written.
  const OpInput* x = tensor(op.inputs, 1);
  const OpInput* target = tensor(op.inputs, 2);
  if (!x || !target) return std::nullopt;
  return work(numel(target->dims), bytesOf(*x) + bytesOf(*target));
}

// mse_loss, binary cross entropy and their backward: a few FLOPs per element
// over inputs of one shape.
std::optional<OpWork> pointwiseLoss(const RecordedOp& op) {
  const OpInput* x = largest(op.inputs);
  if (!x) return std::nullopt;
  return work(4 * numel(x->dims), inputBytes(op.inputs) + bytesOf(*x));
}

// ---- pooling and upsampling ----

std::optional<OpWork> pooling(const RecordedOp& op) {
  // (self, kernel_size, stride, padding, ..), or (self, output_size) for the adaptive ones
  const OpInput* x = tensor(op.inputs, 0);
  if (!x || x->dims.size() < 3) return std::nullopt;
  double out = 0;
  if (op.output && op.output->size() == x->dims.size()) out = numel(*op.output);
  const Dims kernel = concreteList(at(op.inputs, 1));
  const double window = op.base.starts_with("adaptive") || op.base.starts_with("_adaptive")
                            ? 0
                            : (kernel.empty() ? 0 : numel(kernel));
  // Each output compares or adds its window; without them, each input element once.
  const double flops = out > 0 && window > 0 ? out * window : numel(x->dims);
  const double indices = op.base.find("with_indices") != std::string::npos ? 8 : 0;
  return work(flops, bytesOf(*x) + out * (x->element_bytes + indices));
}

std::optional<OpWork> poolingBackward(const RecordedOp& op) {
  // (grad_output, self, ..[, indices]): the input's gradient written whole.
  const OpInput* g = tensor(op.inputs, 0);
  const OpInput* x = tensor(op.inputs, 1);
  if (!g || !x) return std::nullopt;
  return work(std::max(numel(g->dims), numel(x->dims)), inputBytes(op.inputs) + bytesOf(*x));
}

std::optional<OpWork> upsample(const RecordedOp& op) {
  // (self, output_size, ..): nearest copies, the interpolating ones weigh
  // 2^dims neighbours per output.
  const OpInput* x = tensor(op.inputs, 0);
  if (!x || x->dims.size() < 3) return std::nullopt;
  double out = 0;
  const Dims size = concreteList(at(op.inputs, 1));
  if (size.size() == x->dims.size() - 2) {
    out = x->dims[0] * x->dims[1] * numel(size);
  } else if (op.output && op.output->size() == x->dims.size()) {
    out = numel(*op.output);
  } else {
    return std::nullopt;
  }
  const bool nearest = op.base.find("nearest") != std::string::npos;
  const double flops = nearest ? 0 : out * 2 * std::pow(2.0, static_cast<double>(x->dims.size() - 2));
  return work(flops, bytesOf(*x) + out * x->element_bytes);
}

std::optional<OpWork> upsampleBackward(const RecordedOp& op) {
  // (grad_output, output_size, input_size, ..): the gradient read, the
  // input's gradient written (its size from input_size where recorded).
  const OpInput* g = tensor(op.inputs, 0);
  if (!g) return std::nullopt;
  const Dims input_size = concreteList(at(op.inputs, 2));
  const double written = input_size.size() == g->dims.size() ? numel(input_size) * g->element_bytes
                                                               : bytesOf(*g);
  return work(numel(g->dims), bytesOf(*g) + written);
}

// ---- elementwise ops, plain, in place and _foreach_ ----

// FLOPs per output element of the elementwise ops. Transcendentals count as
// the few instructions their approximations take.
const std::unordered_map<std::string_view, double>& elementwiseFlops() {
  static const std::unordered_map<std::string_view, double> table = {
      {"add", 1}, {"sub", 1}, {"rsub", 1}, {"mul", 1}, {"div", 1}, {"neg", 1},
      {"abs", 1}, {"reciprocal", 1}, {"pow", 2}, {"sqrt", 1}, {"rsqrt", 1},
      {"square", 1}, {"maximum", 1}, {"minimum", 1}, {"clamp", 2}, {"clamp_min", 1},
      {"clamp_max", 1}, {"relu", 1}, {"threshold", 1}, {"threshold_backward", 1},
      {"leaky_relu", 2}, {"leaky_relu_backward", 2}, {"hardtanh", 2},
      {"hardtanh_backward", 2}, {"sign", 1}, {"floor", 1}, {"ceil", 1}, {"round", 1},
      {"exp", 4}, {"exp2", 4}, {"expm1", 4}, {"log", 4}, {"log2", 4}, {"log1p", 4},
      {"sin", 4}, {"cos", 4}, {"tanh", 4}, {"tanh_backward", 2}, {"sigmoid", 4},
      {"sigmoid_backward", 2}, {"erf", 4}, {"gelu", 8}, {"gelu_backward", 12}, {"silu", 5},
      {"silu_backward", 8}, {"softplus", 6}, {"softplus_backward", 6}, {"mish", 10},
      {"hardswish", 4}, {"hardswish_backward", 4}, {"hardsigmoid", 3}, {"elu", 5},
      {"elu_backward", 5}, {"addcmul", 2}, {"addcdiv", 2}, {"lerp", 3}, {"where", 1},
      {"masked_fill", 1}, {"eq", 1}, {"ne", 1}, {"lt", 1}, {"le", 1}, {"gt", 1}, {"ge", 1},
      {"logical_and", 1}, {"logical_or", 1}, {"logical_not", 1}, {"bitwise_and", 1},
      {"bitwise_or", 1}, {"bitwise_not", 1}, {"fmod", 2}, {"remainder", 2},
      {"nan_to_num", 3}, {"isnan", 1}, {"isinf", 1}, {"native_dropout", 3},
      {"native_dropout_backward", 2}, {"dropout", 3}, {"fill", 0}, {"zero", 0},
      {"copy", 0}, {"_to_copy", 0}, {"clone", 0}, {"contiguous", 0}, {"to", 0},
      {"_amp_foreach_non_finite_check_and_unscale", 2},
  };
  return table;
}

// The shape the tensor inputs broadcast to (NumPy rules), empty when they do not.
std::optional<Dims> broadcastShape(const std::vector<const OpInput*>& tensors) {
  Dims out;
  for (const OpInput* t : tensors) {
    const Dims& d = t->dims;
    if (d.size() > out.size()) out.insert(out.begin(), d.size() - out.size(), 1);
    for (size_t i = 0; i < d.size(); ++i) {
      double& o = out[out.size() - d.size() + i];
      if (d[i] == o || d[i] == 1) continue;
      if (o != 1) return std::nullopt;
      o = d[i];
    }
  }
  return out;
}

std::optional<OpWork> elementwise(const RecordedOp& op) {
  const double per_element = elementwiseFlops().at(op.base);
  const OpInput* first = at(op.inputs, 0);
  if (op.foreach || (first && first->kind == Kind::kTensorList)) {
    // Lists of tensors, element by element: the first list is the output.
    if (!first || first->kind != Kind::kTensorList || first->list.empty()) return std::nullopt;
    double bytes = inputBytes(op.inputs);
    if (!op.in_place) bytes += bytesOf(*first);
    return work(per_element * elementsOf(*first), bytes);
  }
  std::vector<const OpInput*> tensors;
  for (const OpInput& t : op.inputs) {
    if (t.kind == Kind::kTensor) tensors.push_back(&t);
  }
  if (tensors.empty()) return std::nullopt;
  const std::optional<Dims> out = broadcastShape(tensors);
  if (!out) return std::nullopt;
  // copy_(self, src) writes self: the destination is not read.
  double bytes = inputBytes(op.inputs);
  if (op.base == "copy" || op.base == "fill" || op.base == "zero") bytes -= bytesOf(*tensors[0]);
  bytes += numel(*out) * tensors[0]->element_bytes;
  return work(per_element * numel(*out), bytes);
}

// ---- reductions: each input element read and combined once ----

std::optional<OpWork> reduction(const RecordedOp& op) {
  const OpInput* x = at(op.inputs, 0);
  if (!x || x->kind == Kind::kOther) return std::nullopt;
  if (x->kind == Kind::kTensorList && x->list.empty()) return std::nullopt;
  // The output is at most the input's size and, where the reduced dims are
  // not recorded, not counted: the bytes are the input's.
  return work(elementsOf(*x), bytesOf(*x));
}

// ---- data movement: bytes only ----

std::optional<OpWork> concatenation(const RecordedOp& op) {
  // cat / stack (tensors, dim): every input read, the output (their sum) written.
  const OpInput* list = at(op.inputs, 0);
  if (!list || list->kind != Kind::kTensorList || list->list.empty()) return std::nullopt;
  return work(0, 2 * bytesOf(*list));
}

std::optional<OpWork> gather(const RecordedOp& op) {
  // gather(self, dim, index): one element read and written per index;
  // scatter/scatter_add(self, dim, index, src): each src element read,
  // and its destination read and written.
  const OpInput* index = tensor(op.inputs, 2);
  const OpInput* x = tensor(op.inputs, 0);
  if (!index || !x) return std::nullopt;
  const double n = numel(index->dims);
  if (op.base == "gather") return work(0, bytesOf(*index) + 2 * n * x->element_bytes);
  return work(op.base == "scatter_add" ? n : 0, bytesOf(*index) + 3 * n * x->element_bytes);
}

std::optional<OpWork> indexSelect(const RecordedOp& op) {
  // index_select(self, dim, index): the output is the input with `dim`
  // shrunk to the index's length; without the dim, each index picks a row.
  const OpInput* x = tensor(op.inputs, 0);
  const OpInput* index = tensor(op.inputs, 2, 1);
  if (!x || !index || x->dims.empty()) return std::nullopt;
  const double row = numel(x->dims) / x->dims[0];
  return work(0, bytesOf(*index) + 2 * index->dims[0] * row * x->element_bytes);
}

// ---- fused optimizers (torch.optim update equations, per parameter element) ----

std::optional<OpWork> optimizer(const RecordedOp& op) {
  // (params, grads, state lists.., ..): the element count is the parameters'.
  const OpInput* params = at(op.inputs, 0);
  if (!params || params->kind != Kind::kTensorList || params->list.empty()) return std::nullopt;
  const double n = elementsOf(*params), size = params->element_bytes;
  const std::string& name = op.base;
  // Adam: m = b1 m + (1-b1) g (3), v = b2 v + (1-b2) g^2 (4), p -= lr m / (sqrt(v) + eps)
  // with both bias corrections (6); AdamW's decoupled decay adds 2. Reads p,
  // g, m, v; writes p, m, v.
  if (name == "_fused_adam") return work(13 * n, 7 * n * size);
  if (name == "_fused_adamw") return work(15 * n, 7 * n * size);
  // Adagrad: s += g^2 (2), p -= lr g / (sqrt(s) + eps) (4). Reads p, g, s; writes p, s.
  if (name == "_fused_adagrad") return work(6 * n, 5 * n * size);
  // SGD with momentum: buf = mu buf + g (2), p -= lr buf (2); reads p, g,
  // buf, writes p, buf. Without momentum buffers: p -= lr g.
  const OpInput* momentum = at(op.inputs, 2);
  const bool with_momentum =
      momentum && momentum->kind == Kind::kTensorList && !momentum->list.empty();
  return with_momentum ? work(4 * n, 5 * n * size) : work(2 * n, 3 * n * size);
}

const std::unordered_map<std::string_view, OpFormula>& formulas() {
  static const std::unordered_map<std::string_view, OpFormula> table = [] {
    std::unordered_map<std::string_view, OpFormula> t;
    for (std::string_view n : {"mm", "addmm", "bmm", "baddbmm", "addbmm", "linear", "matmul",
                               "mv", "addmv", "dot", "_addmm_activation"}) {
      t[n] = matmul;
    }
    for (std::string_view n :
         {"conv1d", "conv2d", "conv3d", "convolution", "_convolution", "_convolution_mode",
          "cudnn_convolution", "mkldnn_convolution", "miopen_convolution",
          "convolution_overrideable", "cudnn_convolution_relu", "cudnn_convolution_add_relu",
          "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
          "cudnn_convolution_transpose", "miopen_convolution_transpose",
          "slow_conv_transpose2d", "_slow_conv2d_forward", "thnn_conv2d"}) {
      t[n] = convolution;
    }
    for (std::string_view n :
         {"convolution_backward", "convolution_backward_overrideable",
          "cudnn_convolution_backward", "cudnn_convolution_backward_input",
          "cudnn_convolution_backward_weight", "cudnn_convolution_transpose_backward_input",
          "cudnn_convolution_transpose_backward_weight", "mkldnn_convolution_backward",
          "miopen_convolution_backward", "miopen_convolution_backward_input",
          "miopen_convolution_backward_weight", "_slow_conv2d_backward"}) {
      t[n] = convolutionBackward;
    }
    for (std::string_view n :
         {"scaled_dot_product_attention", "_scaled_dot_product_flash_attention",
          "_scaled_dot_product_efficient_attention", "_scaled_dot_product_cudnn_attention",
          "_flash_attention_forward", "_efficient_attention_forward"}) {
      t[n] = attention;
    }
    for (std::string_view n :
         {"_scaled_dot_product_flash_attention_backward",
          "_scaled_dot_product_efficient_attention_backward",
          "_scaled_dot_product_cudnn_attention_backward", "_flash_attention_backward",
          "_efficient_attention_backward"}) {
      t[n] = attentionBackward;
    }
    for (std::string_view n :
         {"batch_norm", "native_batch_norm", "cudnn_batch_norm", "_batch_norm_impl_index",
          "miopen_batch_norm", "_native_batch_norm_legit", "_native_batch_norm_legit_no_training",
          "_batch_norm_with_update", "_batch_norm_no_update", "layer_norm", "native_layer_norm",
          "group_norm", "native_group_norm", "rms_norm", "_fused_rms_norm", "instance_norm"}) {
      t[n] = normalization;
    }
    for (std::string_view n :
         {"native_batch_norm_backward", "cudnn_batch_norm_backward", "batch_norm_backward",
          "miopen_batch_norm_backward", "native_layer_norm_backward",
          "native_group_norm_backward", "_fused_rms_norm_backward"}) {
      t[n] = normalizationBackward;
    }
    for (std::string_view n : {"softmax", "_softmax", "log_softmax", "_log_softmax", "_safe_softmax"}) {
      t[n] = softmax;
    }
    for (std::string_view n : {"_softmax_backward_data", "_log_softmax_backward_data"}) {
      t[n] = softmaxBackward;
    }
    for (std::string_view n : {"embedding", "_embedding_bag", "embedding_bag",
                               "_embedding_bag_forward_only"}) {
      t[n] = embedding;
    }
    for (std::string_view n : {"embedding_backward", "embedding_dense_backward",
                               "_embedding_bag_backward", "_embedding_bag_dense_backward"}) {
      t[n] = embeddingBackward;
    }
    for (std::string_view n : {"nll_loss_forward", "nll_loss2d_forward"}) t[n] = nllLoss;
    for (std::string_view n : {"nll_loss_backward", "nll_loss2d_backward"}) t[n] = nllLossBackward;
    for (std::string_view n : {"mse_loss", "mse_loss_backward", "binary_cross_entropy",
                               "binary_cross_entropy_backward", "binary_cross_entropy_with_logits",
                               "smooth_l1_loss", "smooth_l1_loss_backward", "huber_loss",
                               "huber_loss_backward", "l1_loss"}) {
      t[n] = pointwiseLoss;
    }
    for (std::string_view n :
         {"max_pool1d", "max_pool2d", "max_pool3d", "max_pool2d_with_indices",
          "max_pool3d_with_indices", "avg_pool1d", "avg_pool2d", "avg_pool3d",
          "adaptive_avg_pool1d", "adaptive_avg_pool2d", "_adaptive_avg_pool2d",
          "adaptive_avg_pool3d", "_adaptive_avg_pool3d", "adaptive_max_pool2d"}) {
      t[n] = pooling;
    }
    for (std::string_view n :
         {"max_pool2d_with_indices_backward", "max_pool3d_with_indices_backward",
          "avg_pool2d_backward", "avg_pool3d_backward", "_adaptive_avg_pool2d_backward",
          "_adaptive_avg_pool3d_backward", "adaptive_max_pool2d_backward"}) {
      t[n] = poolingBackward;
    }
    for (std::string_view n :
         {"upsample_nearest1d", "upsample_nearest2d", "upsample_nearest3d", "upsample_linear1d",
          "upsample_bilinear2d", "upsample_bicubic2d", "upsample_trilinear3d",
          "_upsample_nearest_exact2d", "_upsample_bilinear2d_aa"}) {
      t[n] = upsample;
    }
    for (std::string_view n :
         {"upsample_nearest1d_backward", "upsample_nearest2d_backward",
          "upsample_nearest3d_backward", "upsample_linear1d_backward",
          "upsample_bilinear2d_backward", "upsample_bicubic2d_backward",
          "upsample_trilinear3d_backward"}) {
      t[n] = upsampleBackward;
    }
    for (const auto& [n, flops] : elementwiseFlops()) t[n] = elementwise;
    for (std::string_view n : {"sum", "mean", "norm", "linalg_vector_norm", "max", "min", "amax",
                               "amin", "prod", "var", "std", "var_mean", "std_mean", "argmax",
                               "argmin", "all", "any", "logsumexp", "cumsum", "nonzero",
                               "count_nonzero"}) {
      t[n] = reduction;
    }
    for (std::string_view n : {"cat", "_cat", "stack"}) t[n] = concatenation;
    for (std::string_view n : {"gather", "scatter", "scatter_add"}) t[n] = gather;
    t["index_select"] = indexSelect;
    for (std::string_view n : {"_fused_adam", "_fused_adamw", "_fused_sgd", "_fused_adagrad"}) {
      t[n] = optimizer;
    }
    return t;
  }();
  return table;
}

}  // namespace

OpFormula formulaOf(std::string_view base) {
  const auto& table = formulas();
  auto it = table.find(base);
  return it == table.end() ? nullptr : it->second;
}

}  // namespace damscope
