// Causal multi-head self-attention on the CPU, unfused: three passes over
// memory forward and three backward, the (B, NH, T, T) scores and
// probabilities materialised between them (llm.c CPU's attention, split into
// the passes an unfused GPU implementation runs as kernels). Math and costs
// in ops/attention.h.
//
// Layouts: qkv (B, T, 3C) holds q, k, v at column offsets 0, C, 2C, head h at
// h * hs within each; the (B, NH, T, T) matrices hold row t of head (b, h) at
// ((b NH + h) T + t) T, entries s <= t used. The passes that walk a head's
// keys or values first copy them transposed, (hs, T), into the thread's
// scratch, so that every inner loop runs over s, contiguous in both the T x T
// rows and the transposed copy, and vectorises (the head-size loops of
// llm.c's form are as short as hs = 8 in the memory-bound scenario). Threads
// split the heads (passes 1 and 3) or the rows (pass 2); the accumulations
// into dk and dv stay within one head, hence one thread.
#include <cmath>
#include <vector>

#include "reference_workloads/gpt2/cpu/kernels.h"
#include "reference_workloads/gpt2/cpu/parallel.h"
#include "reference_workloads/gpt2/cpu/vector_math.h"

namespace damscope::gpt2::cpu {
namespace {

// One head's slice of q, k or v, row t at base + t * stride.
struct HeadSlice {
  const float* base;
  size_t stride;  // 3C
};

// dst (hs, T) = the head's (T, hs) slice, transposed.
void transposeIn(float* dst, HeadSlice src, int T, int hs) {
  for (int t = 0; t < T; ++t) {
    const float* row = src.base + t * src.stride;
    for (int i = 0; i < hs; ++i) dst[size_t(i) * T + t] = row[i];
  }
}

// The head's (T, hs) gradient slice = src (hs, T), transposed.
void transposeOut(float* dst_base, size_t stride, const float* src, int T, int hs) {
  for (int t = 0; t < T; ++t) {
    float* row = dst_base + t * stride;
    for (int i = 0; i < hs; ++i) row[i] = src[size_t(i) * T + t];
  }
}

// The loops over the head dimension i take four at a time, so that one
// sweep along s serves four of them: a row of the T x T matrices is loaded
// and stored once per four instead of once per i (hs = 4 in the
// memory-bound scenario: one sweep instead of four). kBlock is that four.
constexpr int kBlock = 4;

// Pass 1 forward, one head: preatt[t, s] = (sum_i q[t,i] kt[i,s]) * scale.
GPT2_SIMD_CLONES void scoresHead(float* preatt, HeadSlice q, const float* kt, int T, int hs,
                                 float scale) {
  for (int t = 0; t < T; ++t) {
    float* row = preatt + size_t(t) * T;
    const float* qt = q.base + t * q.stride;
#pragma omp simd
    for (int s = 0; s <= t; ++s) row[s] = 0.0f;
    int i = 0;
    for (; i + kBlock <= hs; i += kBlock) {
      const float a0 = qt[i], a1 = qt[i + 1], a2 = qt[i + 2], a3 = qt[i + 3];
      const float* k0 = kt + size_t(i) * T;
      const float *k1 = k0 + T, *k2 = k1 + T, *k3 = k2 + T;
#pragma omp simd
      for (int s = 0; s <= t; ++s) row[s] += a0 * k0[s] + a1 * k1[s] + a2 * k2[s] + a3 * k3[s];
    }
    for (; i < hs; ++i) {
      const float a = qt[i];
      const float* k = kt + size_t(i) * T;
#pragma omp simd
      for (int s = 0; s <= t; ++s) row[s] += a * k[s];
    }
#pragma omp simd
    for (int s = 0; s <= t; ++s) row[s] *= scale;
  }
}

// Pass 2 forward, one row of length n: p = softmax(in), max-subtracted.
GPT2_SIMD_CLONES void softmaxRow(float* p, const float* in, int n) {
  float max = in[0];
#pragma omp simd reduction(max : max)
  for (int s = 0; s < n; ++s) max = in[s] > max ? in[s] : max;
  float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
  for (int s = 0; s < n; ++s) {
    p[s] = expApprox(in[s] - max);
    sum += p[s];
  }
  const float inv = 1.0f / sum;
#pragma omp simd
  for (int s = 0; s < n; ++s) p[s] *= inv;
}

// Pass 3 forward, one head: out[t, i] = sum_{s<=t} att[t, s] vt[i, s].
GPT2_SIMD_CLONES void weightedValuesHead(float* out, size_t out_stride, const float* att,
                                         const float* vt, int T, int hs) {
  for (int t = 0; t < T; ++t) {
    const float* p = att + size_t(t) * T;
    float* o = out + t * out_stride;
    int i = 0;
    for (; i + kBlock <= hs; i += kBlock) {
      const float* v0 = vt + size_t(i) * T;
      const float *v1 = v0 + T, *v2 = v1 + T, *v3 = v2 + T;
      float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
#pragma omp simd reduction(+ : s0, s1, s2, s3)
      for (int s = 0; s <= t; ++s) {
        s0 += p[s] * v0[s];
        s1 += p[s] * v1[s];
        s2 += p[s] * v2[s];
        s3 += p[s] * v3[s];
      }
      o[i] = s0;
      o[i + 1] = s1;
      o[i + 2] = s2;
      o[i + 3] = s3;
    }
    for (; i < hs; ++i) {
      const float* v = vt + size_t(i) * T;
      float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
      for (int s = 0; s <= t; ++s) sum += p[s] * v[s];
      o[i] = sum;
    }
  }
}

// Pass 1 backward, one head: datt[t, s] = sum_i dout[t,i] vt[i,s];
// dvt[i, s] = sum_{t>=s} att[t, s] dout[t, i].
GPT2_SIMD_CLONES void valueGradientsHead(float* datt, float* dvt, const float* dout,
                                         size_t dout_stride, const float* att, const float* vt,
                                         int T, int hs) {
  for (size_t j = 0; j < size_t(hs) * T; ++j) dvt[j] = 0.0f;
  for (int t = 0; t < T; ++t) {
    const float* g = dout + t * dout_stride;
    const float* p = att + size_t(t) * T;
    float* da = datt + size_t(t) * T;
#pragma omp simd
    for (int s = 0; s <= t; ++s) da[s] = 0.0f;
    int i = 0;
    for (; i + kBlock <= hs; i += kBlock) {
      const float g0 = g[i], g1 = g[i + 1], g2 = g[i + 2], g3 = g[i + 3];
      const float* v0 = vt + size_t(i) * T;
      const float *v1 = v0 + T, *v2 = v1 + T, *v3 = v2 + T;
      float* dv0 = dvt + size_t(i) * T;
      float *dv1 = dv0 + T, *dv2 = dv1 + T, *dv3 = dv2 + T;
#pragma omp simd
      for (int s = 0; s <= t; ++s) {
        da[s] += g0 * v0[s] + g1 * v1[s] + g2 * v2[s] + g3 * v3[s];
        dv0[s] += p[s] * g0;
        dv1[s] += p[s] * g1;
        dv2[s] += p[s] * g2;
        dv3[s] += p[s] * g3;
      }
    }
    for (; i < hs; ++i) {
      const float gi = g[i];
      const float* v = vt + size_t(i) * T;
      float* dv = dvt + size_t(i) * T;
#pragma omp simd
      for (int s = 0; s <= t; ++s) {
        da[s] += gi * v[s];
        dv[s] += p[s] * gi;
      }
    }
  }
}

// Pass 2 backward, one row: dp = p (da - sum_j p_j da_j) * scale.
GPT2_SIMD_CLONES void softmaxBackwardRow(float* dp, const float* p, const float* da, int n,
                                         float scale) {
  float dot = 0.0f;
#pragma omp simd reduction(+ : dot)
  for (int s = 0; s < n; ++s) dot += p[s] * da[s];
#pragma omp simd
  for (int s = 0; s < n; ++s) dp[s] = p[s] * (da[s] - dot) * scale;
}

// Pass 3 backward, one head: dq[t, i] = sum_s dp[t, s] kt[i, s];
// dkt[i, s] = sum_{t>=s} dp[t, s] q[t, i].
GPT2_SIMD_CLONES void queryKeyGradientsHead(float* dq, size_t dq_stride, float* dkt,
                                            const float* dpreatt, HeadSlice q, const float* kt,
                                            int T, int hs) {
  for (size_t j = 0; j < size_t(hs) * T; ++j) dkt[j] = 0.0f;
  for (int t = 0; t < T; ++t) {
    const float* dp = dpreatt + size_t(t) * T;
    const float* qt = q.base + t * q.stride;
    float* dqt = dq + t * dq_stride;
    int i = 0;
    for (; i + kBlock <= hs; i += kBlock) {
      const float* k0 = kt + size_t(i) * T;
      const float *k1 = k0 + T, *k2 = k1 + T, *k3 = k2 + T;
      float* dk0 = dkt + size_t(i) * T;
      float *dk1 = dk0 + T, *dk2 = dk1 + T, *dk3 = dk2 + T;
      const float q0 = qt[i], q1 = qt[i + 1], q2 = qt[i + 2], q3 = qt[i + 3];
      float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
#pragma omp simd reduction(+ : s0, s1, s2, s3)
      for (int s = 0; s <= t; ++s) {
        const float d = dp[s];
        s0 += d * k0[s];
        s1 += d * k1[s];
        s2 += d * k2[s];
        s3 += d * k3[s];
        dk0[s] += d * q0;
        dk1[s] += d * q1;
        dk2[s] += d * q2;
        dk3[s] += d * q3;
      }
      dqt[i] = s0;
      dqt[i + 1] = s1;
      dqt[i + 2] = s2;
      dqt[i + 3] = s3;
    }
    for (; i < hs; ++i) {
      const float* k = kt + size_t(i) * T;
      float* dk = dkt + size_t(i) * T;
      const float qi = qt[i];
      float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
      for (int s = 0; s <= t; ++s) {
        sum += dp[s] * k[s];
        dk[s] += dp[s] * qi;
      }
      dqt[i] = sum;
    }
  }
}

}  // namespace

void attentionForward(float* out, float* preatt, float* att, const float* qkv, int B, int T, int C,
                      int NH) {
  const int hs = C / NH;
  const int heads = B * NH;
  const size_t C3 = size_t(3) * C;
  const size_t TT = size_t(T) * T;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hs));

#pragma omp parallel
  {
    std::vector<float> kt(size_t(hs) * T);
#pragma omp for schedule(static)
    for (int bh = 0; bh < heads; ++bh) {
      const float* base = qkv + size_t(bh / NH) * T * C3 + size_t(bh % NH) * hs;
      transposeIn(kt.data(), {base + C, C3}, T, hs);
      scoresHead(preatt + bh * TT, {base, C3}, kt.data(), T, hs, scale);
    }
  }
  const long all_rows = long{heads} * T;
#pragma omp parallel for schedule(static)
  for (long r = 0; r < all_rows; ++r) {
    softmaxRow(att + size_t(r) * T, preatt + size_t(r) * T, static_cast<int>(r % T) + 1);
  }
#pragma omp parallel
  {
    std::vector<float> vt(size_t(hs) * T);
#pragma omp for schedule(static)
    for (int bh = 0; bh < heads; ++bh) {
      const int b = bh / NH, h = bh % NH;
      const float* base = qkv + size_t(b) * T * C3 + size_t(h) * hs;
      transposeIn(vt.data(), {base + 2 * C, C3}, T, hs);
      weightedValuesHead(out + size_t(b) * T * C + size_t(h) * hs, C, att + bh * TT, vt.data(), T,
                         hs);
    }
  }
}

void attentionBackward(float* dqkv, float* dpreatt, float* datt, const float* dout,
                       const float* qkv, const float* att, int B, int T, int C, int NH) {
  const int hs = C / NH;
  const int heads = B * NH;
  const size_t C3 = size_t(3) * C;
  const size_t TT = size_t(T) * T;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hs));

#pragma omp parallel
  {
    std::vector<float> vt(size_t(hs) * T), dvt(size_t(hs) * T);
#pragma omp for schedule(static)
    for (int bh = 0; bh < heads; ++bh) {
      const int b = bh / NH, h = bh % NH;
      const size_t head = size_t(b) * T * C3 + size_t(h) * hs;
      transposeIn(vt.data(), {qkv + head + 2 * C, C3}, T, hs);
      valueGradientsHead(datt + bh * TT, dvt.data(), dout + size_t(b) * T * C + size_t(h) * hs, C,
                         att + bh * TT, vt.data(), T, hs);
      transposeOut(dqkv + head + 2 * C, C3, dvt.data(), T, hs);
    }
  }
  const long all_rows = long{heads} * T;
#pragma omp parallel for schedule(static)
  for (long r = 0; r < all_rows; ++r) {
    softmaxBackwardRow(dpreatt + size_t(r) * T, att + size_t(r) * T, datt + size_t(r) * T,
                       static_cast<int>(r % T) + 1, scale);
  }
#pragma omp parallel
  {
    std::vector<float> kt(size_t(hs) * T), dkt(size_t(hs) * T);
#pragma omp for schedule(static)
    for (int bh = 0; bh < heads; ++bh) {
      const int b = bh / NH, h = bh % NH;
      const size_t head = size_t(b) * T * C3 + size_t(h) * hs;
      transposeIn(kt.data(), {qkv + head + C, C3}, T, hs);
      queryKeyGradientsHead(dqkv + head, C3, dkt.data(), dpreatt + bh * TT, {qkv + head, C3},
                            kt.data(), T, hs);
      transposeOut(dqkv + head + C, C3, dkt.data(), T, hs);
    }
  }
}

}  // namespace damscope::gpt2::cpu
