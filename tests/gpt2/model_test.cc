// The model as a whole: initial loss, a whole-model gradient check, learning,
// determinism, the order of the ops against stepOrder(), and the op costs
// against the model FLOPs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "reference_workloads/gpt2/cpu/cpu_backend.h"
#include "reference_workloads/gpt2/model/gpt2_model.h"
#include "reference_workloads/gpt2/model/model_flops.h"
#include "reference_workloads/gpt2/model/op_sites.h"
#include "reference_workloads/gpt2/model/parameters.h"
#include "reference_workloads/gpt2/model/random.h"
#include "tests/gpt2/gradient_check.h"

namespace damscope::gpt2 {
namespace {

ModelConfig preset(const std::string& name, bool pad = false) {
  auto c = findConfig(name, pad);
  EXPECT_TRUE(c.ok());
  return *c;
}

ModelConfig customConfig(int layers, int d_model, int heads, int max_seq, int vocab,
                         int padded_vocab) {
  ModelConfig c;
  c.name = "test";
  c.layers = layers;
  c.d_model = d_model;
  c.heads = heads;
  c.max_seq = max_seq;
  c.vocab = vocab;
  c.padded_vocab = padded_vocab;
  return c;
}

std::unique_ptr<Gpt2Model> makeModel(const ModelConfig& c, StepShape s, Backend& backend,
                                     uint64_t seed = 1) {
  auto m = Gpt2Model::create(c, s, backend, seed);
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message());
  return std::move(*m);
}

struct Tokens {
  std::vector<int32_t> inputs, targets;
};

Tokens randomTokens(StepShape s, int vocab, uint64_t seed) {
  Tokens t;
  uint64_t x = seed * 2654435761u + 7;
  for (int i = 0; i < s.batch * s.seq; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    t.inputs.push_back(static_cast<int32_t>((x >> 33) % vocab));
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    t.targets.push_back(static_cast<int32_t>((x >> 33) % vocab));
  }
  return t;
}

TEST(ModelTest, ParallelNormalFillEqualsOneSequentialPass) {
  // Three blocks of 2^17 deviates and an odd tail: the blocks start mid-stream.
  const size_t n = 3 * (size_t{1} << 17) + 5;
  std::vector<float> parallel(n);
  fillNormal(parallel.data(), n, 77, 0.5f);
  Normal normal(77);
  size_t differ = 0;
  for (size_t j = 0; j < n; ++j) differ += parallel[j] != 0.5f * normal.next();
  EXPECT_EQ(differ, 0u);
}

TEST(ModelTest, InitialLossIsLnVocab) {
  CpuBackend backend(2);
  const ModelConfig c = preset("tiny");
  const StepShape s{4, 64};
  auto model = makeModel(c, s, backend);
  const Tokens t = randomTokens(s, c.vocab, 3);
  EXPECT_NEAR(model->forward(t.inputs.data(), t.targets.data()), std::log(256.0), 0.1);
}

TEST(ModelTest, InitialLossIgnoresThePaddedVocabulary) {
  CpuBackend backend(2);
  const ModelConfig c = customConfig(1, 32, 2, 16, 1000, 1024);
  const StepShape s{2, 16};
  auto model = makeModel(c, s, backend);
  const Tokens t = randomTokens(s, c.vocab, 4);
  EXPECT_NEAR(model->forward(t.inputs.data(), t.targets.data()), std::log(1000.0), 0.1);
}

// The model's gradients against central differences of its loss, for a
// sample of parameters of every tensor: catches wiring errors (a wrong
// buffer, a missing residual path, the tied embedding) that per-op checks
// cannot see.
TEST(ModelTest, GradientsMatchFiniteDifferencesForEveryTensor) {
  CpuBackend backend(2);
  const ModelConfig c = customConfig(2, 8, 2, 6, 11, 16);
  const StepShape s{2, 5};
  auto model = makeModel(c, s, backend, 7);
  const Tokens t = randomTokens(s, c.vocab, 5);
  // Larger weights than GPT-2's 0.02 init, so that every path carries signal.
  const ParameterLayout& layout = model->layout();
  std::vector<float> params(layout.total());
  model->download(StateBuffer::kParams, params.data());
  const auto noise = testing::randomVector(params.size(), 6, 0.5f);
  for (size_t i = 0; i < params.size(); ++i) params[i] += noise[i];
  const size_t real_wte = size_t(c.vocab) * c.d_model;  // padded rows stay 0
  for (size_t i = real_wte; i < layout.size(ParamTensor::kWte); ++i) params[i] = 0.0f;
  model->upload(StateBuffer::kParams, params.data());

  model->forward(t.inputs.data(), t.targets.data());
  model->backward();
  std::vector<float> grads(layout.total());
  model->download(StateBuffer::kGrads, grads.data());

  auto loss = [&] {
    model->upload(StateBuffer::kParams, params.data());
    return double(model->forward(t.inputs.data(), t.targets.data()));
  };
  for (int ti = 0; ti < kNumParamTensors; ++ti) {
    const auto tensor = static_cast<ParamTensor>(ti);
    const size_t offset = layout.offset(tensor);
    const size_t size = tensor == ParamTensor::kWte ? real_wte : layout.size(tensor);
    // Up to 12 elements spread over the tensor.
    std::vector<float> sample_grads;
    std::vector<size_t> indices;
    for (size_t k = 0; k < 12 && k < size; ++k) indices.push_back(offset + k * size / 12);
    std::vector<double> numeric;
    for (size_t i : indices) {
      const float keep = params[i];
      params[i] = keep + float(testing::kStep);
      const double up = loss();
      params[i] = keep - float(testing::kStep);
      const double down = loss();
      params[i] = keep;
      numeric.push_back((up - down) / (2 * testing::kStep));
      sample_grads.push_back(grads[i]);
    }
    // fp32 through two blocks: a looser tolerance than a single op's.
    const auto worst = testing::worstMismatch(sample_grads, numeric, 5e-4, 5e-3);
    EXPECT_LE(worst.ratio, 1.0) << paramTensorName(tensor) << ": " << testing::describe(worst);
  }
}

TEST(ModelTest, OverfitsOneBatch) {
  CpuBackend backend(2);
  const ModelConfig c = preset("tiny");
  const StepShape s{4, 64};
  auto model = makeModel(c, s, backend);
  const Tokens t = randomTokens(s, 64, 8);  // a 64-token alphabet inside the 256
  OptimizerSettings opt;
  float first = 0, last = 0;
  for (int step = 0; step < 30; ++step) {
    last = model->forward(t.inputs.data(), t.targets.data());
    if (step == 0) first = last;
    model->backward();
    model->optimizerStep(3e-3f, model->gradNorm(), opt);
  }
  EXPECT_LT(last, 0.5f * first) << "first " << first << ", after 30 steps " << last;
}

std::vector<float> trainLosses(uint64_t seed, int threads, int steps) {
  CpuBackend backend(threads);
  const ModelConfig c = preset("tiny");
  const StepShape s{2, 32};
  auto model = makeModel(c, s, backend, seed);
  std::vector<float> losses;
  for (int step = 0; step < steps; ++step) {
    const Tokens t = randomTokens(s, c.vocab, 100 + step);
    losses.push_back(model->forward(t.inputs.data(), t.targets.data()));
    model->backward();
    model->optimizerStep(1e-3f, model->gradNorm(), OptimizerSettings{});
  }
  return losses;
}

TEST(ModelTest, SameSeedAndThreadsGiveBitIdenticalLosses) {
  const auto a = trainLosses(42, 2, 4), b = trainLosses(42, 2, 4);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0);
}

TEST(ModelTest, DifferentSeedsGiveDifferentLosses) {
  EXPECT_NE(trainLosses(42, 2, 2), trainLosses(43, 2, 2));
}

TEST(ModelTest, PaddedVocabularyRowsStayZero) {
  CpuBackend backend(2);
  const ModelConfig c = customConfig(1, 16, 2, 8, 100, 128);
  const StepShape s{2, 8};
  auto model = makeModel(c, s, backend);
  for (int step = 0; step < 3; ++step) {
    const Tokens t = randomTokens(s, c.vocab, step);
    model->forward(t.inputs.data(), t.targets.data());
    model->backward();
    model->optimizerStep(1e-2f, model->gradNorm(), OptimizerSettings{});
  }
  std::vector<float> params(model->layout().total());
  model->download(StateBuffer::kParams, params.data());
  for (size_t i = size_t(c.vocab) * c.d_model; i < size_t(c.padded_vocab) * c.d_model; ++i) {
    ASSERT_EQ(params[i], 0.0f) << i;
  }
}

// Records what the model reports, in order, and checks nesting.
class RecordingTracer final : public OpTracer {
 public:
  void beginOp(OpSite site, int layer) override {
    EXPECT_FALSE(open_) << "op ranges nest";
    open_ = true;
    calls.emplace_back(site, layer);
  }
  void endOp() override {
    EXPECT_TRUE(open_);
    open_ = false;
  }
  std::vector<std::pair<OpSite, int>> calls;

 private:
  bool open_ = false;
};

TEST(ModelTest, OpsRunInStepOrder) {
  CpuBackend backend(2);
  const ModelConfig c = preset("tiny");
  const StepShape s{1, 16};
  auto model = makeModel(c, s, backend);
  RecordingTracer tracer;
  model->setTracer(&tracer);
  const Tokens t = randomTokens(s, c.vocab, 9);
  model->forward(t.inputs.data(), t.targets.data());
  model->backward();
  model->optimizerStep(1e-3f, model->gradNorm(), OptimizerSettings{});
  EXPECT_EQ(tracer.calls, stepOrder(c));
}

// The matmuls' annotated FLOPs of a step are 6 N per token up to the
// parameters that are not matmul weights (embeddings' position table,
// layernorms, biases) and the bias adds: within 3% for `small`.
TEST(ModelTest, MatmulFlopsOfAStepAreSixNPerToken) {
  const ModelConfig c = preset("small");
  const StepShape s{4, 128};
  const size_t n = ParameterLayout(c).total();
  double matmul = 0, all = 0;
  for (const auto& [site, layer] : stepOrder(c)) {
    const OpCost cost = opSiteCost(site, c, s, n);
    all += cost.flops;
    if (opSiteInfo(site).op.rfind("matmul", 0) == 0) matmul += cost.flops;
  }
  const double six_n = 6.0 * parameterCount(c) * s.batch * s.seq;
  EXPECT_NEAR(matmul / six_n, 1.0, 0.03);
  // The whole step (attention and elementwise ops too) counts more than the
  // model FLOPs' 6 N + 6 L d T, and not absurdly more.
  EXPECT_GT(all, modelFlopsPerStep(c, s));
  EXPECT_LT(all, 1.5 * modelFlopsPerStep(c, s));
}

// Fused attention does the materialised form's arithmetic but moves only
// q, k, v, the outputs and per-row statistics: no T x T tensor in memory.
TEST(ModelTest, FusedAttentionCountsTheSameFlopsAndNoTxTBytes) {
  const ModelConfig c = preset("124m");
  const StepShape s{2, 256};
  const size_t n = ParameterLayout(c).total();
  const int64_t btc = int64_t{s.batch} * s.seq * c.d_model,
                rows = int64_t{s.batch} * c.heads * s.seq;
  for (const OpSite site : {OpSite::kAttentionFwd, OpSite::kAttentionBwd}) {
    const OpCost materialised = opSiteCost(site, c, s, n, AttentionForm::kMaterialised);
    const OpCost fused = opSiteCost(site, c, s, n, AttentionForm::kFused);
    EXPECT_EQ(fused.flops, materialised.flops);
    EXPECT_EQ(fused.bytes,
              site == OpSite::kAttentionFwd ? 4 * (4 * btc + rows) : 4 * (7 * btc + 3 * rows));
    EXPECT_LT(fused.bytes, materialised.bytes);
  }
  // Every other op is the same either way.
  const OpCost ln_m = opSiteCost(OpSite::kLn1Fwd, c, s, n, AttentionForm::kMaterialised);
  const OpCost ln_f = opSiteCost(OpSite::kLn1Fwd, c, s, n, AttentionForm::kFused);
  EXPECT_EQ(ln_m.bytes, ln_f.bytes);
}

TEST(ModelTest, ParameterCountIsLlmcs) {
  EXPECT_EQ(parameterCount(preset("124m")), 124439808);  // llm.c's figure for GPT-2 124M
  EXPECT_EQ(parameterCount(preset("1.5b")), 1557611200);
  // The padded vocabulary is memory, not parameters.
  EXPECT_EQ(parameterCount(preset("124m", true)), 124439808);
  EXPECT_EQ(preset("124m", true).padded_vocab, 50304);
}

}  // namespace
}  // namespace damscope::gpt2
