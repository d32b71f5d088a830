// The framework a trace was recorded with (analyzer/analyses/framework.h),
// and advice in its words (issue 29 §5): a CUDA program, a JAX program and
// the bundled trainer never get PyTorch's knobs, and every rule that names
// one has words for the others.
#include "analyzer/analyses/framework.h"

#include <gtest/gtest.h>

#include "analyzer/analyses/findings.h"
#include "analyzer/analyses/rank_analysis.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;

Framework frameworkOf(TraceBuilder& b) {
  const TraceTables t = b.build();
  return detectFramework(AnalysisInput::build(t)).framework;
}

// The words only PyTorch's advice uses.
bool speaksPyTorch(const std::string& text) {
  for (const char* word :
       {"torch", "DataLoader", "DDP", "FSDP", "autocast", "GradScaler", ".item()", "pin_memory",
        "non_blocking", "channels_last", "no_sync", "persistent_workers", "prefetch_factor"}) {
    if (text.find(word) != std::string::npos) return true;
  }
  return false;
}

// A CUDA program as nsys records it: runtime calls and what they ran, no
// framework ranges. Copies from pageable memory, a device-wide sync, and
// small kernels far apart.
TraceBuilder cudaProgram() {
  TraceBuilder b;
  b.device(0, 108);
  for (int i = 0; i < 20; ++i) {
    const double t = i * 1000.0;
    b.memcpy(t + 20, 300, b.call(t + 10, 320, "cudaMemcpy"), CopyKind::kHtoD,
             MemoryKind::kPageable);
    for (int k = 0; k < 5; ++k) b.launchKernel(t + 400 + k * 80, t + 410 + k * 80, 5, "saxpy");
    b.call(t + 800, 150, "cudaDeviceSynchronize");
  }
  return b;
}

TEST(Framework, IsReadFromWhatTheTraceHolds) {
  TraceBuilder cuda = cudaProgram();
  EXPECT_EQ(frameworkOf(cuda), Framework::kCuda);

  TraceBuilder pytorch;
  pytorch.device(0, 80);
  pytorch.range(0, 100, "aten::mm");
  pytorch.launchKernel(5, 10, 50, "volta_sgemm_128x64_nn");
  EXPECT_EQ(frameworkOf(pytorch), Framework::kPyTorch);

  TraceBuilder jax;
  jax.device(0, 80);
  jax.launchKernel(5, 10, 50, "loop_add_fusion");
  EXPECT_EQ(frameworkOf(jax), Framework::kJax);
  TraceBuilder module;
  module.device(0, 80);
  module.range(0, 100, "XlaModule:#hlo_module=jit_train_step#", "nvtx", 0, "");
  EXPECT_EQ(frameworkOf(module), Framework::kJax);

  TraceBuilder trainer;
  trainer.device(0, 80);
  trainer.range(0, 0,
                R"({"model":"gpt2","params":124000000,"layers":12,"d_model":768,"heads":12,)"
                R"("seq_len":1024,"tokens_per_step":8192,"device":{"kind":"gpu"}})",
                "nvtx_mark", 0, "damscope");
  EXPECT_EQ(frameworkOf(trainer), Framework::kTrainer);
}

TEST(Framework, EveryRuleThatNamesPyTorchKnobsHasWordsForTheOthers) {
  for (const FindingRule& rule : defaultFindingRules()) {
    for (Framework f : {Framework::kCuda, Framework::kJax, Framework::kTrainer}) {
      EXPECT_FALSE(speaksPyTorch(recommendationFor(rule, f, false)))
          << rule.id << " speaks PyTorch to " << toText(f) << ": "
          << recommendationFor(rule, f, false);
    }
    EXPECT_EQ(recommendationFor(rule, Framework::kPyTorch, false), rule.recommendation);
  }
  // Where a rule has its own words for JAX and the trainer, those are used;
  // a trainer rule without them falls back to plain CUDA practice.
  for (const FindingRule& rule : defaultFindingRules()) {
    if (rule.id == "fp32_matrix_math") {
      EXPECT_NE(recommendationFor(rule, Framework::kTrainer, false).find("--precision bf16"),
                std::string::npos);
      EXPECT_NE(
          recommendationFor(rule, Framework::kJax, false).find("jax_default_matmul_precision"),
          std::string::npos);
    }
    if (rule.id == "elementwise_fusion") {
      EXPECT_EQ(recommendationFor(rule, Framework::kTrainer, false), rule.cuda_recommendation);
    }
  }
}

TEST(Framework, ACudaProgramGetsNoPyTorchAdvice) {
  TraceBuilder b = cudaProgram();
  const RankAnalysis a = analyzeRank(b.build(), {}).value();
  EXPECT_EQ(a.framework.framework, Framework::kCuda);
  ASSERT_GE(a.findings.findings.size(), 2u);
  bool pageable = false;
  for (const Finding& f : a.findings.findings) {
    EXPECT_FALSE(speaksPyTorch(f.recommendation)) << f.rule << ": " << f.recommendation;
    if (f.rule == "pageable_copies") {
      pageable = true;
      EXPECT_NE(f.recommendation.find("cudaHostAlloc"), std::string::npos) << f.recommendation;
    }
  }
  EXPECT_TRUE(pageable);
}

}  // namespace
}  // namespace damscope
