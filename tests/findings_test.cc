// The findings rule engine: rules fire at their thresholds with the right
// severity, bound their gain, carry evidence, can be overridden, and stay
// silent on metrics a trace cannot give.
#include "analyzer/analyses/findings.h"

#include <gtest/gtest.h>

#include "tests/trace_builder.h"

namespace damscope {
namespace {

struct Golden {
  TraceTables tables = testing::goldenStepTrace();
  AnalysisInput input = AnalysisInput::build(tables);
  StepReport steps = computeSteps(input, {}).value();
  WindowReport window = computeWindow(input, steps, {}).value();
  GapReport gaps = computeGaps(input, steps, window, {}).value();
  KernelBreakdownReport kernels = computeKernelBreakdown(input, window, {}).value();
  LaunchStatisticsReport launches = computeLaunchStatistics(input, window, {}).value();
  GpuUtilizationReport utilization = computeGpuUtilization(input, steps, {}).value();
  ScorecardReport scorecard = computeScorecard(input, steps, window, gaps, {}).value();

  FindingsReport findings(const FindingsOptions& options = {}) const {
    const FindingInputs in{input, steps, window, gaps, kernels, launches, utilization, scorecard};
    return computeFindings(in, options).value();
  }
};

const Finding* byRule(const FindingsReport& r, const std::string& rule) {
  for (const Finding& f : r.findings) {
    if (f.rule == rule) return &f;
  }
  return nullptr;
}

TEST(Findings, GoldenStepFiresTheRulesItsScorecardCallsFor) {
  const Golden g;
  const FindingsReport r = g.findings();
  EXPECT_DOUBLE_EQ(r.metrics.at("data_stall_pct"), 30.0);
  const Finding* data = byRule(r, "data_loading");
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(data->severity, Severity::kHigh);  // 30 % >= 20 %
  EXPECT_DOUBLE_EQ(data->max_gain_pct, 30.0);
  EXPECT_EQ(data->title, "The GPU waits for input data 30.0 % of the step");
  ASSERT_EQ(data->evidence.gaps.size(), 1u);
  EXPECT_EQ(data->evidence.ranges.size(), 1u);
  EXPECT_EQ(data->evidence.json().substr(0, 8), "{\"gaps\":");

  const Finding* sync = byRule(r, "synchronization");
  ASSERT_NE(sync, nullptr);
  EXPECT_EQ(sync->severity, Severity::kHigh);  // 10 % >= 10 %
  ASSERT_NE(byRule(r, "launch_overhead"), nullptr);
  ASSERT_NE(byRule(r, "exposed_communication"), nullptr);
  EXPECT_EQ(byRule(r, "exposed_communication")->evidence.kernels.size(), 1u);
  EXPECT_EQ(byRule(r, "memory_capacity"), nullptr) << "no memory counters: cannot judge";
  EXPECT_EQ(byRule(r, "straggler"), nullptr) << "one rank: cannot judge";
  // High severity first, then the larger gain.
  EXPECT_EQ(r.findings.front().rule, "data_loading");
  for (size_t i = 1; i < r.findings.size(); ++i) {
    EXPECT_LE(r.findings[i - 1].severity, r.findings[i].severity);
  }
}

TEST(Findings, ThresholdsAreConfigurable) {
  const Golden g;
  FindingsOptions options;
  ASSERT_TRUE(overrideThreshold(options.rules, "data_loading=31").ok());
  EXPECT_EQ(byRule(g.findings(options), "data_loading"), nullptr);
  EXPECT_FALSE(overrideThreshold(options.rules, "no_such_rule=1").ok());
  EXPECT_FALSE(overrideThreshold(options.rules, "data_loading=abc").ok());
  EXPECT_FALSE(overrideThreshold(options.rules, "data_loading").ok());
}

TEST(Findings, RulesAreDataWithDocumentedSources) {
  for (const FindingRule& rule : defaultFindingRules()) {
    EXPECT_FALSE(rule.basis.empty()) << rule.id;
    EXPECT_FALSE(rule.recommendation.empty()) << rule.id;
    EXPECT_NE(rule.title.find("{value}"), std::string::npos) << rule.id;
  }
}

}  // namespace
}  // namespace damscope
