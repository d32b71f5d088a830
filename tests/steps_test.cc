// Steps: which ranges are steps, their GPU-aligned extent (TensorBoard plugin
// rule), incomplete tail steps, and bad step ranges.
#include "analyzer/analyses/steps.h"

#include <gtest/gtest.h>

#include "analyzer/analyses/name_patterns.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;
using testing::us;

StepReport stepsOf(const TraceTables& t, const StepOptions& options = {}) {
  const AnalysisInput in = AnalysisInput::build(t);
  return computeSteps(in, options);
}

TEST(Steps, ProfilerStepsAreAlignedToTheGpuWorkTheyLaunch) {
  TraceBuilder b;
  b.step(0, 100, 1), b.step(100, 100, 2), b.step(200, 100, 3);
  b.launchKernel(10, 20, 130, "k");  // runs past its step's host end
  b.launchKernel(110, 150, 40, "k");
  b.launchKernel(210, 220, 10, "k");
  const TraceTables t = b.build();
  const StepReport r = stepsOf(t);
  ASSERT_EQ(r.source, StepSource::kProfilerStep);
  ASSERT_EQ(r.steps.size(), 3u);
  EXPECT_TRUE(r.aligned_to_gpu);
  EXPECT_EQ(r.steps[0].number, 1);
  EXPECT_EQ(r.steps[0].start, 0);
  EXPECT_EQ(r.steps[0].end, us(150));    // the GPU end of its launches
  EXPECT_EQ(r.steps[1].start, us(150));  // starts where the previous aligned step ended
  EXPECT_EQ(r.steps[1].end, us(200));
  EXPECT_EQ(r.steps[2].end, us(300));
  EXPECT_EQ(r.steps[1].host_start, us(100));
  for (const Step& s : r.steps) EXPECT_TRUE(s.complete);
  EXPECT_EQ(r.stepAt(us(160)), 1);
  EXPECT_EQ(r.stepAt(us(400)), -1);
}

TEST(Steps, TailStepsWithoutOrWithTooFewLaunchesAreIncomplete) {
  TraceBuilder b;
  b.step(0, 100, 1), b.step(100, 100, 2), b.step(200, 100, 3);
  for (int i = 0; i < 5; ++i) b.launchKernel(10 + i, 50 + i, 1, "k");
  for (int i = 0; i < 5; ++i) b.launchKernel(110 + i, 150 + i, 1, "k");
  for (int i = 0; i < 3; ++i) b.launchKernel(210 + i, 250 + i, 1, "k");  // 3 < 0.8 x 5
  const StepReport r = stepsOf(b.build());
  ASSERT_EQ(r.steps.size(), 3u);
  EXPECT_TRUE(r.steps[1].complete);
  EXPECT_FALSE(r.steps[2].complete);
  EXPECT_EQ(r.completeCount(), 2u);

  TraceBuilder c;
  c.step(0, 100, 1), c.step(100, 100, 2);
  c.launchKernel(10, 20, 1, "k");
  const StepReport none_in_last = stepsOf(c.build());
  EXPECT_TRUE(none_in_last.steps[0].complete);
  EXPECT_FALSE(none_in_last.steps[1].complete);
}

TEST(Steps, AnnotationAndTrainerStepsAndPreferenceOrder) {
  TraceBuilder b;
  b.range(0, 50, "step", "nvtx");
  b.range(50, 50, "step", "nvtx");
  b.range(0, 10, "Iteration 7", "user_annotation");
  StepReport r = stepsOf(b.build());
  EXPECT_EQ(r.source, StepSource::kAnnotation);
  ASSERT_EQ(r.steps.size(), 2u) << "the thread with the most step ranges wins; nested ones drop";

  TraceBuilder trainer;
  trainer.range(0, 50, "step", "nvtx", 0, "damscope");
  trainer.range(50, 50, "step", "nvtx", 0, "damscope");
  EXPECT_EQ(stepsOf(trainer.build()).source, StepSource::kTrainer);

  TraceBuilder both;
  both.step(0, 100, 4);
  both.range(0, 100, "train_step", "nvtx");
  both.range(100, 100, "train_step", "nvtx");
  r = stepsOf(both.build());
  EXPECT_EQ(r.source, StepSource::kProfilerStep);
  EXPECT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].number, 4);
}

TEST(Steps, StepNamesAreRecognisedAndOthersAreNot) {
  std::optional<int64_t> n;
  EXPECT_TRUE(isStepAnnotationName("step", &n));
  EXPECT_FALSE(n.has_value());
  EXPECT_TRUE(isStepAnnotationName("Step 12", &n));
  EXPECT_EQ(*n, 12);
  EXPECT_TRUE(isStepAnnotationName("train_step#3", &n));
  EXPECT_TRUE(isStepAnnotationName("iteration_9", &n));
  EXPECT_FALSE(isStepAnnotationName("stepper", &n));
  EXPECT_FALSE(isStepAnnotationName("optimizer.step", &n));
  EXPECT_EQ(profilerStepNumber("ProfilerStep#42"), 42);
  EXPECT_FALSE(profilerStepNumber("ProfilerStep#x").has_value());
}

TEST(Steps, OverlappingNestedAndZeroLengthStepsAreRepairedAndReported) {
  TraceBuilder b;
  b.step(0, 100, 1);
  b.step(50, 100, 2);  // overlaps step 1: step 1 is cut at 50
  b.step(60, 10, 9);   // inside step 2
  b.step(300, 0, 3);   // zero length
  const StepReport r = stepsOf(b.build());
  ASSERT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.steps[0].host_end, us(50));
  EXPECT_EQ(r.steps[1].number, 2);
  EXPECT_EQ(r.notes.size(), 3u);
}

TEST(Steps, NoStepsIsSaidNotGuessed) {
  TraceBuilder b;
  b.range(0, 100, "forward", "user_annotation");
  b.launchKernel(10, 20, 5, "k");
  const StepReport r = stepsOf(b.build());
  EXPECT_EQ(r.source, StepSource::kNone);
  EXPECT_TRUE(r.steps.empty());
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes[0].find("no steps found"), std::string::npos);
}

TEST(Steps, ThroughputComesFromOptionsOrTheModelAnnotation) {
  TraceBuilder b;
  b.step(0, 100, 1);
  b.range(0, 0, R"({"model":"gpt2","params":124439808,"tokens_per_step":524288})", "nvtx_mark", 0,
          "damscope");
  const TraceTables t = b.build();
  StepReport r = stepsOf(t);
  EXPECT_DOUBLE_EQ(r.tokens_per_step, 524288);
  EXPECT_EQ(r.throughput_source, "model annotation");
  StepOptions options;
  options.tokens_per_step = 1000;
  r = stepsOf(t, options);
  EXPECT_DOUBLE_EQ(r.tokens_per_step, 1000);
  EXPECT_EQ(r.throughput_source, "options");
}

}  // namespace
}  // namespace damscope
