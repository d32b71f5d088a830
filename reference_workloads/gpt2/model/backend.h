// The contract between the model (the order of a training step, model/) and
// a backend that owns memory and runs the ops: cpu/ now, cuda/ later as one
// more implementation of this class.
//
// Pointers passed to the ops are backend memory (from allocate). Ops may be
// asynchronous (a CUDA backend enqueues them on its stream); download() and
// the two scalar results (gradNormSquared) are the only points where the host
// waits. Shapes: B batch, T sequence, C width, NH heads, OC output features,
// V the real vocabulary and Vp its padded size, "rows" = B * T positions.
// Tensors are row-major, the last dimension contiguous.
//
// Gradient semantics, chosen so that a step needs no pass that zeroes the
// gradients: every *Backward op WRITES (=) the gradients of its parameters and
// of its inputs, except where noted "adds (+=)": a block layernorm's input
// gradient (it lands on the residual stream, which already holds the skip
// path's gradient) and the embedding's token-table gradient (which already
// holds the tied LM head's). Parameter gradients that no op writes (wpe rows at or past
// T, the padded vocabulary rows) keep the zero they were allocated with.
// The math of each op and its FLOP/byte counts are in ops/<op>.h.
#pragma once

#include <cstddef>
#include <cstdint>

namespace damscope::gpt2 {

struct AdamWArgs {
  float lr = 0;
  float beta1 = 0.9f;  // GPT-3's AdamW settings (Brown et al. 2020, appendix B)
  float beta2 = 0.95f;
  float eps = 1e-8f;
  float grad_scale = 1;  // global-norm clipping factor applied to every gradient
  int64_t step = 1;      // t >= 1, for the bias corrections 1 - beta^t
};

// A run of parameters that share a weight decay: one tensor of the layout.
struct AdamWSegment {
  size_t offset = 0;  // floats from the start of the buffers
  size_t count = 0;
  float weight_decay = 0;  // 0 for tensors that do not decay
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const char* name() const = 0;

  // Zero-initialised memory, or nullptr when it cannot be had.
  virtual void* allocate(size_t bytes) = 0;
  virtual void release(void* p) noexcept = 0;
  virtual void upload(void* dst, const void* host_src, size_t bytes) = 0;
  virtual void download(void* host_dst, const void* src, size_t bytes) = 0;
  // dst = src, both backend memory, in order with the ops (the data-parallel
  // gradient buckets are packed and unpacked with it, dist/).
  virtual void copy(void* dst, const void* src, size_t bytes) = 0;
  // Returns when every op issued so far has finished (nothing to wait for
  // where ops run synchronously).
  virtual void synchronize() = 0;

  // out (B,T,C) = wte[tokens] + wpe[t]
  virtual void embeddingForward(float* out, const int32_t* tokens, const float* wte,
                                const float* wpe, int B, int T, int C) = 0;
  // dwte[tokens] adds (+=) dout; dwpe[t] = sum over b of dout[b,t]
  virtual void embeddingBackward(float* dwte, float* dwpe, const float* dout, const int32_t* tokens,
                                 int B, int T, int C) = 0;

  // out (rows,C) = (inp - mean) * rstd * weight + bias; keeps mean, rstd (rows)
  virtual void layernormForward(float* out, float* mean, float* rstd, const float* inp,
                                const float* weight, const float* bias, int rows, int C) = 0;
  // dinp adds (+=) when accumulate, else is written; dweight, dbias written
  virtual void layernormBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                                 const float* inp, const float* weight, const float* mean,
                                 const float* rstd, int rows, int C, bool accumulate) = 0;

  // out (rows,OC) = inp (rows,C) weight^T (weight (OC,C)) + bias (OC); bias may be null
  virtual void matmulForward(float* out, const float* inp, const float* weight, const float* bias,
                             int rows, int C, int OC) = 0;
  // dinp = dout weight; dweight = dout^T inp; dbias = column sums of dout (when non-null)
  virtual void matmulBackward(float* dinp, float* dweight, float* dbias, const float* dout,
                              const float* inp, const float* weight, int rows, int C, int OC) = 0;

  // Causal multi-head self-attention over qkv (B,T,3C) = [q | k | v]: out (B,T,C);
  // preatt (scratch) and att (kept for backward) are (B,NH,T,T), causal half used.
  virtual void attentionForward(float* out, float* preatt, float* att, const float* qkv, int B,
                                int T, int C, int NH) = 0;
  // dqkv (B,T,3C) written; dpreatt, datt (B,NH,T,T) scratch
  virtual void attentionBackward(float* dqkv, float* dpreatt, float* datt, const float* dout,
                                 const float* qkv, const float* att, int B, int T, int C,
                                 int NH) = 0;

  // out = GELU(inp), tanh approximation; n elements
  virtual void geluForward(float* out, const float* inp, size_t n) = 0;
  // dinp = GELU'(inp) * dout
  virtual void geluBackward(float* dinp, const float* inp, const float* dout, size_t n) = 0;

  // out = a + b
  virtual void residualForward(float* out, const float* a, const float* b, size_t n) = 0;
  // da = dout; db = dout
  virtual void residualBackward(float* da, float* db, const float* dout, size_t n) = 0;

  // probs (rows,Vp) = softmax over the first V logits (padding 0);
  // losses (rows) = -log probs[target]
  virtual void crossentropyForward(float* losses, float* probs, const float* logits,
                                   const int32_t* targets, int rows, int V, int Vp) = 0;
  // dlogits = (probs - onehot(target)) * dloss, padding 0
  virtual void crossentropyBackward(float* dlogits, const float* probs, const int32_t* targets,
                                    float dloss, int rows, int V, int Vp) = 0;

  // Sum of squares of n gradients, on the host (waits).
  virtual double gradNormSquared(const float* grads, size_t n) = 0;
  // One AdamW step (Loshchilov & Hutter 2019) on every segment of the four
  // buffers, in one pass: one kernel launch, one parallel region.
  virtual void adamw(float* params, const float* grads, float* m, float* v,
                     const AdamWSegment* segments, int count, const AdamWArgs& args) = 0;
};

}  // namespace damscope::gpt2
