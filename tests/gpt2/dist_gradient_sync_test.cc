// Data parallel's bucketing and averaging (dist/gradient_buckets.h,
// dist/gradient_sync.h) on the CPU backend, against a stand-in communicator
// that plays the other rank: every gradient float lands in exactly one
// bucket, buckets respect their size, and after finish() the gradients are
// the average of this rank's and the other rank's, whether the all-reduces
// start after the backward pass or during it.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "reference_workloads/gpt2/cpu/cpu_backend.h"
#include "reference_workloads/gpt2/dist/gradient_buckets.h"
#include "reference_workloads/gpt2/dist/gradient_sync.h"
#include "reference_workloads/gpt2/model/gpt2_model.h"

namespace damscope::gpt2 {
namespace {

ModelConfig tiny() {
  auto c = findConfig("tiny", false);
  EXPECT_TRUE(c.ok());
  return *c;
}

// Rank 0 of two; the other rank's gradients are all `other`. Records when
// each all-reduce started, counted in completions the model had reported.
class TwoRankStandIn final : public Communicator {
 public:
  explicit TwoRankStandIn(float other) : other_(other) {}
  const char* name() const override { return "stand-in"; }
  int rank() const override { return 0; }
  int size() const override { return 2; }
  void setTracer(CollectiveTracer*) override {}
  void startAllReduce(float* data, size_t n, int bucket) override {
    for (size_t i = 0; i < n; ++i) data[i] = (data[i] + other_) / 2;
    started.push_back({bucket, completions_seen});
  }
  void wait() override { ++waits; }

  struct Start {
    int bucket;
    int completions_seen;
  };
  std::vector<Start> started;
  int completions_seen = 0;
  int waits = 0;

 private:
  float other_;
};

// Counts completions for the stand-in, then hands them to the sync.
class CountingListener final : public GradientListener {
 public:
  CountingListener(TwoRankStandIn& comm, GradientListener& next) : comm_(comm), next_(next) {}
  void gradientsReady(OpSite site, int layer) override {
    ++comm_.completions_seen;
    next_.gradientsReady(site, layer);
  }

 private:
  TwoRankStandIn& comm_;
  GradientListener& next_;
};

TEST(GradientBuckets, EveryGradientFloatIsInExactlyOneBucket) {
  const ModelConfig c = tiny();
  const ParameterLayout layout(c);
  for (size_t bucket_bytes : {size_t{1}, size_t{64} << 10, size_t{1} << 20, size_t{1} << 30}) {
    const BucketPlan plan(c, bucket_bytes);
    std::vector<int> covered(layout.total(), 0);
    size_t packed = 0;
    int last_ready = -1;
    for (const GradientBucket& b : plan.buckets()) {
      EXPECT_EQ(b.packed_offset, packed);
      size_t floats = 0;
      for (const GradientSlice& s : b.slices) {
        for (size_t i = s.offset; i < s.offset + s.count; ++i) ++covered[i];
        floats += s.count;
      }
      EXPECT_EQ(b.floats, floats);
      // Only a bucket of one slice may exceed the size.
      if (b.slices.size() > 1) {
        EXPECT_LE(b.floats * sizeof(float), bucket_bytes);
      }
      EXPECT_GE(b.ready_after, last_ready) << "buckets in completion order";
      last_ready = b.ready_after;
      packed += b.floats;
    }
    EXPECT_EQ(plan.packedFloats(), layout.total());
    EXPECT_TRUE(std::all_of(covered.begin(), covered.end(), [](int n) { return n == 1; }))
        << "bucket bytes " << bucket_bytes;
  }
}

TEST(GradientBuckets, CompletionsFollowTheBackwardPassLastLayerFirst) {
  const ModelConfig c = tiny();
  const BucketPlan plan(c, 1 << 20);
  const std::vector<GradientCompletion>& done = plan.completions();
  ASSERT_EQ(done.size(), size_t(2 + 6 * c.layers));  // lnf, 6 per block, embedding
  EXPECT_EQ(done.front().site, OpSite::kLnfBwd);
  EXPECT_EQ(done[1].site, OpSite::kFcProjBwd);
  EXPECT_EQ(done[1].layer, c.layers - 1);
  EXPECT_EQ(done.back().site, OpSite::kEmbeddingBwd);
  // One bucket per slice when a bucket holds a single float: the last one
  // waits for the embedding's backward (the tied wte, wpe).
  const BucketPlan fine(c, 1);
  EXPECT_EQ(fine.buckets().back().ready_after, int(done.size()) - 1);
  EXPECT_EQ(fine.buckets().front().ready_after, 0);
}

// The gradients of one step of rank 0's batch, without data parallel.
std::vector<float> plainGradients(const ModelConfig& c, StepShape shape,
                                  const std::vector<int32_t>& tokens) {
  CpuBackend backend(1);
  auto model = Gpt2Model::create(c, shape, backend, 7);
  EXPECT_TRUE(model.ok());
  (*model)->forward(tokens.data(), tokens.data() + tokens.size() / 2);
  (*model)->backward();
  std::vector<float> g((*model)->layout().total());
  (*model)->download(StateBuffer::kGrads, g.data());
  return g;
}

void expectAveragedGradients(bool overlap) {
  const ModelConfig c = tiny();
  const StepShape shape{2, 16};
  std::vector<int32_t> tokens(2 * 2 * 16);
  for (size_t i = 0; i < tokens.size(); ++i) tokens[i] = int32_t((i * 37 + 11) % c.vocab);
  const std::vector<float> plain = plainGradients(c, shape, tokens);

  CpuBackend backend(1);
  auto model = Gpt2Model::create(c, shape, backend, 7);
  ASSERT_TRUE(model.ok());
  TwoRankStandIn comm(0.25f);
  auto sync = GradientSync::create(backend, comm, BucketPlan(c, 8 << 10), overlap,
                                   (*model)->gradientBuffer());
  ASSERT_TRUE(sync.ok());
  CountingListener counting(comm, **sync);
  (*model)->setGradientListener(&counting);
  (*model)->forward(tokens.data(), tokens.data() + tokens.size() / 2);
  (*model)->backward();
  const size_t started_in_backward = comm.started.size();
  (*sync)->finish();

  const size_t buckets = (*sync)->plan().buckets().size();
  ASSERT_GT(buckets, 4u);
  ASSERT_EQ(comm.started.size(), buckets);
  EXPECT_EQ(comm.waits, 1);
  for (size_t b = 0; b < buckets; ++b) EXPECT_EQ(comm.started[b].bucket, int(b)) << "in order";
  const int completions = int((*sync)->plan().completions().size());
  if (overlap) {
    EXPECT_EQ(started_in_backward, buckets);
    EXPECT_LT(comm.started.front().completions_seen, completions / 2)
        << "the first bucket starts early in the backward pass";
  } else {
    EXPECT_EQ(started_in_backward, 0u);
    EXPECT_EQ(comm.started.front().completions_seen, completions);
  }
  std::vector<float> g((*model)->layout().total());
  (*model)->download(StateBuffer::kGrads, g.data());
  for (size_t i = 0; i < g.size(); ++i) {
    ASSERT_FLOAT_EQ(g[i], (plain[i] + 0.25f) / 2) << "float " << i;
  }
}

TEST(GradientSync, AveragesAfterTheBackwardPass) { expectAveragedGradients(false); }

TEST(GradientSync, AveragesBucketByBucketDuringTheBackwardPass) {
  expectAveragedGradients(true);
}

}  // namespace
}  // namespace damscope::gpt2
