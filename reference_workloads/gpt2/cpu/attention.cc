// Causal multi-head self-attention on the CPU, unfused: three passes over
// memory forward and three backward, the (B, NH, T, T) scores and
// probabilities materialised between them (llm.c CPU's attention, split into
// the passes an unfused GPU implementation runs as kernels). Math and costs
// in ops/attention.h.
//
// Layouts: qkv (B, T, 3C) holds q, k, v at column offsets 0, C, 2C, head h at
// h * hs within each; the (B, NH, T, T) matrices hold row t of head (b, h) at
// ((b NH + h) T + t) T, entries s <= t used. Threads split the (b, h) heads,
// so the accumulations into dk and dv stay within one thread.
#include <cmath>

#include "reference_workloads/gpt2/cpu/kernels.h"

namespace damscope::gpt2::cpu {
namespace {

struct Head {
  int b, h;
};

inline Head headOf(int bh, int NH) {
  return {bh / NH, bh % NH};
}

}  // namespace

void attentionForward(float* out, float* preatt, float* att, const float* qkv, int B, int T, int C,
                      int NH) {
  const int hs = C / NH;
  const int heads = B * NH;
  const size_t C3 = size_t(3) * C;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hs));

  // Pass 1: preatt[t,s] = q[t].k[s] / sqrt(hs), s <= t.
#pragma omp parallel for schedule(static)
  for (int bh = 0; bh < heads; ++bh) {
    const Head x = headOf(bh, NH);
    const float* base = qkv + size_t(x.b) * T * C3 + size_t(x.h) * hs;
    for (int t = 0; t < T; ++t) {
      const float* q = base + t * C3;
      float* row = preatt + (size_t(bh) * T + t) * T;
      for (int s = 0; s <= t; ++s) {
        const float* k = base + s * C3 + C;
        float dot = 0.0f;
#pragma omp simd reduction(+ : dot)
        for (int i = 0; i < hs; ++i) dot += q[i] * k[i];
        row[s] = dot * scale;
      }
    }
  }
  // Pass 2: att[t,:] = softmax(preatt[t, 0..t]), max-subtracted for range.
  const long all_rows = long{heads} * T;
#pragma omp parallel for schedule(static)
  for (long r = 0; r < all_rows; ++r) {
    const int t = static_cast<int>(r % T);
    const float* in = preatt + size_t(r) * T;
    float* p = att + size_t(r) * T;
    float max = in[0];
    for (int s = 1; s <= t; ++s) max = std::fmax(max, in[s]);
    float sum = 0.0f;
    for (int s = 0; s <= t; ++s) {
      p[s] = std::exp(in[s] - max);
      sum += p[s];
    }
    const float inv = 1.0f / sum;
#pragma omp simd
    for (int s = 0; s <= t; ++s) p[s] *= inv;
  }
  // Pass 3: out[t] = sum_{s<=t} att[t,s] v[s].
#pragma omp parallel for schedule(static)
  for (int bh = 0; bh < heads; ++bh) {
    const Head x = headOf(bh, NH);
    const float* base = qkv + size_t(x.b) * T * C3 + size_t(x.h) * hs;
    for (int t = 0; t < T; ++t) {
      float* o = out + (size_t(x.b) * T + t) * C + size_t(x.h) * hs;
      const float* p = att + (size_t(bh) * T + t) * T;
#pragma omp simd
      for (int i = 0; i < hs; ++i) o[i] = 0.0f;
      for (int s = 0; s <= t; ++s) {
        const float* v = base + s * C3 + 2 * C;
        const float a = p[s];
#pragma omp simd
        for (int i = 0; i < hs; ++i) o[i] += a * v[i];
      }
    }
  }
}

void attentionBackward(float* dqkv, float* dpreatt, float* datt, const float* dout,
                       const float* qkv, const float* att, int B, int T, int C, int NH) {
  const int hs = C / NH;
  const int heads = B * NH;
  const size_t C3 = size_t(3) * C;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hs));

  // Pass 1: datt[t,s] = dout[t].v[s];  dv[s] = sum_{t>=s} att[t,s] dout[t].
#pragma omp parallel for schedule(static)
  for (int bh = 0; bh < heads; ++bh) {
    const Head x = headOf(bh, NH);
    const size_t head_offset = size_t(x.b) * T * C3 + size_t(x.h) * hs;
    const float* base = qkv + head_offset;
    float* dbase = dqkv + head_offset;
    for (int s = 0; s < T; ++s) {
      float* dv = dbase + s * C3 + 2 * C;
#pragma omp simd
      for (int i = 0; i < hs; ++i) dv[i] = 0.0f;
    }
    for (int t = 0; t < T; ++t) {
      const float* g = dout + (size_t(x.b) * T + t) * C + size_t(x.h) * hs;
      const float* p = att + (size_t(bh) * T + t) * T;
      float* da = datt + (size_t(bh) * T + t) * T;
      for (int s = 0; s <= t; ++s) {
        const float* v = base + s * C3 + 2 * C;
        float* dv = dbase + s * C3 + 2 * C;
        const float a = p[s];
        float dot = 0.0f;
#pragma omp simd reduction(+ : dot)
        for (int i = 0; i < hs; ++i) {
          dot += g[i] * v[i];
          dv[i] += a * g[i];
        }
        da[s] = dot;
      }
    }
  }
  // Pass 2: dpreatt[t,s] = att[t,s] (datt[t,s] - sum_j att[t,j] datt[t,j]) / sqrt(hs).
  const long all_rows = long{heads} * T;
#pragma omp parallel for schedule(static)
  for (long r = 0; r < all_rows; ++r) {
    const int t = static_cast<int>(r % T);
    const float* p = att + size_t(r) * T;
    const float* da = datt + size_t(r) * T;
    float* dp = dpreatt + size_t(r) * T;
    float dot = 0.0f;
#pragma omp simd reduction(+ : dot)
    for (int s = 0; s <= t; ++s) dot += p[s] * da[s];
#pragma omp simd
    for (int s = 0; s <= t; ++s) dp[s] = p[s] * (da[s] - dot) * scale;
  }
  // Pass 3: dq[t] = sum_s dpreatt[t,s] k[s];  dk[s] = sum_t dpreatt[t,s] q[t].
#pragma omp parallel for schedule(static)
  for (int bh = 0; bh < heads; ++bh) {
    const Head x = headOf(bh, NH);
    const size_t head_offset = size_t(x.b) * T * C3 + size_t(x.h) * hs;
    const float* base = qkv + head_offset;
    float* dbase = dqkv + head_offset;
    for (int t = 0; t < T; ++t) {
      float* dq = dbase + t * C3;
      float* dk = dbase + t * C3 + C;
#pragma omp simd
      for (int i = 0; i < hs; ++i) {
        dq[i] = 0.0f;
        dk[i] = 0.0f;
      }
    }
    for (int t = 0; t < T; ++t) {
      const float* q = base + t * C3;
      float* dq = dbase + t * C3;
      const float* dp = dpreatt + (size_t(bh) * T + t) * T;
      for (int s = 0; s <= t; ++s) {
        const float* k = base + s * C3 + C;
        float* dk = dbase + s * C3 + C;
        const float d = dp[s];
#pragma omp simd
        for (int i = 0; i < hs; ++i) {
          dq[i] += d * k[i];
          dk[i] += d * q[i];
        }
      }
    }
  }
}

}  // namespace damscope::gpt2::cpu
