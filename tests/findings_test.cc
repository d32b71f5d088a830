// The findings rule engine: rules fire at their thresholds with the right
// severity, bound their gain, carry evidence with its times and names, can be
// overridden, stay silent on metrics a trace cannot give, and name only
// metrics something computes.
#include "analyzer/analyses/findings.h"

#include <gtest/gtest.h>

#include <set>

#include "analyzer/analyses/rank_analysis.h"
#include "tests/trace_builder.h"

namespace damscope {
namespace {

using testing::TraceBuilder;

FindingsReport findingsOf(const TraceTables& tables, const FindingsOptions& options = {}) {
  AnalysisOptions all;
  all.findings = options;
  return analyzeRank(tables, all).value().findings;
}

const Finding* byRule(const FindingsReport& r, const std::string& rule) {
  for (const Finding& f : r.findings) {
    if (f.rule == rule) return &f;
  }
  return nullptr;
}

std::vector<const EvidenceItem*> itemsOf(const Finding& f, EvidenceSource source) {
  std::vector<const EvidenceItem*> out;
  for (const EvidenceItem& e : f.evidence) {
    if (e.source == source) out.push_back(&e);
  }
  return out;
}

// The golden step plus memory counters near the device's capacity, and
// kernels that report a low occupancy.
TraceTables memoryTrace() {
  TraceTables t = testing::goldenStepTrace();
  for (double& occupancy : t.kernels.occupancy_pct) occupancy = 20;
  t.devices.memory_bytes[0] = 1000;
  const StringId reserved = t.strings.intern("memory_reserved_bytes");
  t.counters.append({testing::us(100), reserved, 500, 0, kNullInt});
  t.counters.append({testing::us(200), reserved, 950, 0, kNullInt});
  return t;
}

// The golden step recorded with losses: dropped records and repaired durations.
TraceTables lossyTrace() {
  TraceTables t = testing::goldenStepTrace();
  t.addStat("kineto.flow_events", 5000, "flow arrows, not stored by design");
  t.addStat("collector.dropped_records", 10, "lost while recording");
  t.addStat("kineto.bad_durations", 3, "stored with dur 0");
  return t;
}

// The golden step on an A100 (40 GB) training a model of `params` parameters,
// 1,024 tokens per 1 ms step, in bf16.
TraceTables modelTrace(double params) {
  TraceTables t = testing::goldenStepTrace();
  t.devices.name[0] = t.strings.intern("NVIDIA A100-SXM4-40GB");
  t.devices.memory_bytes[0] = int64_t{40} << 30;
  RangeTable::Row mark;
  mark.ts = 0, mark.dur = 0, mark.thread_id = 0, mark.depth = 0;
  mark.domain = t.strings.intern("damscope");
  // A small shape, so that the attention term (6 L d T per token) stays small.
  mark.name = t.strings.intern(R"({"model":"test","params":)" + std::to_string(params) +
                               R"(,"layers":2,"d_model":64,"heads":4,"seq_len":64,)"
                               R"("tokens_per_step":1024,"precision":"bf16"})");
  t.ranges.append(mark);
  return t;
}

TEST(Findings, GoldenStepFiresTheRulesItsScorecardCallsFor) {
  const TraceTables tables = testing::goldenStepTrace();
  const FindingsReport r = findingsOf(tables);
  EXPECT_DOUBLE_EQ(r.metrics.get(Metric::kDataStallPct).value(), 30.0);
  const Finding* data = byRule(r, "data_loading");
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(data->severity, Severity::kHigh);  // 30 % >= 20 %
  EXPECT_EQ(data->kind, FindingKind::kPerformance);
  EXPECT_DOUBLE_EQ(data->max_gain_pct.value(), 30.0);
  EXPECT_EQ(data->title, "The GPU waits for input data 30.0 % of the step");
  const auto gaps = itemsOf(*data, EvidenceSource::kGaps);
  ASSERT_EQ(gaps.size(), 1u);
  EXPECT_EQ(gaps[0]->dur, testing::us(320));  // step start to the first GEMM
  const auto ranges = itemsOf(*data, EvidenceSource::kRanges);
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0]->label, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
  EXPECT_EQ(ranges[0]->ts, 0);
  EXPECT_EQ(data->evidence.front().source, EvidenceSource::kGaps) << "grouped in source order";

  const Finding* sync = byRule(r, "synchronization");
  ASSERT_NE(sync, nullptr);
  EXPECT_EQ(sync->severity, Severity::kHigh);  // 10 % >= 10 %
  ASSERT_NE(byRule(r, "launch_overhead"), nullptr);
  const Finding* comm = byRule(r, "exposed_communication");
  ASSERT_NE(comm, nullptr);
  const auto kernels = itemsOf(*comm, EvidenceSource::kKernels);
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0]->label, "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)");
  EXPECT_EQ(kernels[0]->dur, testing::us(130));
  EXPECT_EQ(byRule(r, "memory_capacity"), nullptr) << "no memory counters: cannot judge";
  EXPECT_EQ(byRule(r, "straggler"), nullptr) << "one rank: cannot judge";
  EXPECT_EQ(byRule(r, "lost_events"), nullptr) << "nothing lost";
  // High severity first, then the larger gain.
  EXPECT_EQ(r.findings.front().rule, "data_loading");
  for (size_t i = 1; i < r.findings.size(); ++i) {
    EXPECT_LE(r.findings[i - 1].severity, r.findings[i].severity);
  }
}

TEST(Findings, ThresholdsAreConfigurableAndErrorsNameTheRule) {
  const TraceTables tables = testing::goldenStepTrace();
  FindingsOptions options;
  ASSERT_TRUE(overrideThreshold(options.rules, "data_loading=31").ok());
  EXPECT_EQ(byRule(findingsOf(tables, options), "data_loading"), nullptr);
  const Status unknown = overrideThreshold(options.rules, "no_such_rule=1");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message().rfind("no_such_rule: no such rule (rules: data_loading", 0),
            0u)
      << unknown.error().message();
  EXPECT_FALSE(overrideThreshold(options.rules, "data_loading=abc").ok());
  EXPECT_FALSE(overrideThreshold(options.rules, "data_loading").ok());
  for (const char* bad : {"no_such_rule=1", "data_loading=abc", "data_loading"}) {
    const std::string message = overrideThreshold(options.rules, bad).error().message();
    EXPECT_EQ(message.find("--"), std::string::npos) << "a flag name below cli/: " << message;
  }
}

TEST(Findings, RulesAreDataWithDocumentedSources) {
  std::set<std::string> ids;
  for (const FindingRule& rule : defaultFindingRules()) {
    EXPECT_TRUE(ids.insert(rule.id).second) << "two rules named " << rule.id;
    EXPECT_FALSE(rule.basis.empty()) << rule.id;
    EXPECT_FALSE(rule.recommendation.empty()) << rule.id;
    EXPECT_NE(rule.title.find("{value}"), std::string::npos) << rule.id;
    if (rule.kind == FindingKind::kTraceQuality) {
      EXPECT_FALSE(rule.gain_metric.has_value()) << rule.id << ": a trace warning promises no gain";
    }
  }
}

// A rule whose metric nothing computes would never fire, silently. Every
// rule's metric and gain metric must come out of the analyses on at least one
// of these traces (the cross-rank metric out of addCrossRankFindings).
// One step with an FP16 aten::mm whose shapes were recorded: what the
// tensor-core alignment lint reads.
TraceTables shapedGemmTrace() {
  TraceBuilder b;
  b.device(0, 108);
  b.step(0, 1000, 1);
  b.range(10, 20, "aten::mm");
  b.launchKernel(15, 100, 400, "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn");
  TraceTables t = b.build();
  for (size_t r = 0; r < t.ranges.size(); ++r) {
    if (t.strings.get(t.ranges.name[r]) != "aten::mm") continue;
    t.ranges.args[r] =
        R"({"Input Dims": [[8192, 768], [768, 50257]], "Input type": ["c10::Half", "c10::Half"]})";
  }
  return t;
}

// Six steps of one GEMM each, the fourth twice as long: a slow step.
TraceTables slowStepTrace() {
  TraceBuilder b;
  b.device(0, 80);
  for (int s = 0; s < 6; ++s) {
    const double dur = s == 3 ? 2000 : 1000;
    b.step(s * 3000, dur, s + 1);
    b.launchKernel(s * 3000 + 10, s * 3000 + 20, dur - 100, "ampere_sgemm_128x64_nn");
  }
  return b.build();
}

TEST(Findings, EveryRuleNamesAMetricSomethingProduces) {
  std::vector<Metrics> produced;
  for (const TraceTables& t : {testing::goldenStepTrace(), memoryTrace(), lossyTrace(),
                               modelTrace(7e9), modelTrace(1e3), shapedGemmTrace(),
                               slowStepTrace()}) {
    produced.push_back(findingsOf(t).metrics);
  }
  FindingsReport straggler = findingsOf(testing::goldenStepTrace());
  addCrossRankFindings(straggler, 20.0, 10.0, Framework::kPyTorch, {});
  produced.push_back(straggler.metrics);
  auto isProduced = [&](Metric m) {
    for (const Metrics& metrics : produced) {
      if (metrics.get(m)) return true;
    }
    return false;
  };
  for (const FindingRule& rule : defaultFindingRules()) {
    EXPECT_TRUE(isProduced(rule.metric))
        << rule.id << " reads " << toText(rule.metric) << ", which no analysis produced";
    if (rule.gain_metric) {
      EXPECT_TRUE(isProduced(*rule.gain_metric))
          << rule.id << " bounds its gain by " << toText(*rule.gain_metric)
          << ", which no analysis produced";
    }
  }
  // And the names round-trip, so stored metrics read back.
  for (size_t m = 0; m < kMetricCount; ++m) {
    EXPECT_EQ(metricFromText(toText(static_cast<Metric>(m))), static_cast<Metric>(m));
  }
}

TEST(Findings, FiredRulesCarryTheEvidenceTheyPromise) {
  for (const TraceTables& t : {testing::goldenStepTrace(), memoryTrace(), lossyTrace()}) {
    const FindingsReport r = findingsOf(t);
    for (const FindingRule& rule : defaultFindingRules()) {
      const Finding* f = byRule(r, rule.id);
      if (!f || rule.evidence == EvidenceKind::kNone) continue;
      EXPECT_FALSE(f->evidence.empty()) << rule.id << " fired without " << toText(rule.evidence);
      for (const EvidenceItem& e : f->evidence) {
        if (e.source != EvidenceSource::kStats && e.source != EvidenceSource::kCounters &&
            e.source != EvidenceSource::kMemcpys && e.source != EvidenceSource::kGaps) {
          EXPECT_FALSE(e.label.empty()) << rule.id << ": an event without its name";
        }
      }
    }
  }
}

TEST(Findings, CrossRankRulesNeedNoEventTables) {
  for (const FindingRule& rule : defaultFindingRules()) {
    if (isCrossRankMetric(rule.metric)) {
      EXPECT_EQ(rule.evidence, EvidenceKind::kNone)
          << rule.id << ": added after the events are gone, it cannot collect event evidence";
    }
  }
  FindingsReport r = findingsOf(testing::goldenStepTrace());
  const size_t before = r.findings.size();
  addCrossRankFindings(r, 20.0, 0.0, Framework::kPyTorch, {});
  ASSERT_EQ(r.findings.size(), before + 1);
  const Finding* straggler = byRule(r, "straggler");
  ASSERT_NE(straggler, nullptr);
  EXPECT_EQ(straggler->severity, Severity::kHigh);  // 20 % >= 15 %
  EXPECT_DOUBLE_EQ(straggler->max_gain_pct.value(), 20.0);
  for (size_t i = 1; i < r.findings.size(); ++i) {
    EXPECT_LE(r.findings[i - 1].severity, r.findings[i].severity) << "ranked again";
  }
}

TEST(Findings, LostEventsWarnAboutTheTraceNotTheRun) {
  const TraceTables t = lossyTrace();
  const FindingsReport r = findingsOf(t);
  const Finding* lost = byRule(r, "lost_events");
  ASSERT_NE(lost, nullptr);
  EXPECT_EQ(lost->kind, FindingKind::kTraceQuality);
  EXPECT_FALSE(lost->max_gain_pct.has_value());
  // 10 lost of the stored events + 10, high from 1 %.
  const double events = static_cast<double>(t.eventCount());
  EXPECT_DOUBLE_EQ(lost->value, 100.0 * 10 / (events + 10));
  EXPECT_EQ(lost->severity, Severity::kHigh);
  const auto stats = itemsOf(*lost, EvidenceSource::kStats);
  ASSERT_EQ(stats.size(), 2u) << "the loss stats, not the flow events";
  EXPECT_EQ(stats[0]->label, "collector.dropped_records");
  EXPECT_EQ(stats[1]->label, "kineto.bad_durations");
  ASSERT_NE(byRule(r, "repaired_events"), nullptr);
  EXPECT_DOUBLE_EQ(byRule(r, "repaired_events")->value, 100.0 * 3 / (events + 10));
}

TEST(Findings, MfuBelowThirtyPercentAndImpossibleMfuAreSaid) {
  // 1,000 parameters: a tiny share of an A100's 312 TFLOP/s.
  const FindingsReport slow = findingsOf(modelTrace(1e3));
  const Finding* low = byRule(slow, "low_mfu");
  ASSERT_NE(low, nullptr);
  EXPECT_EQ(low->severity, Severity::kHigh);  // under 10 %
  EXPECT_EQ(byRule(slow, "impossible_mfu"), nullptr);
  // 7e9 parameters in 1 ms: thousands of times the peak, so an input is wrong.
  const FindingsReport impossible = findingsOf(modelTrace(7e9));
  EXPECT_EQ(byRule(impossible, "low_mfu"), nullptr) << "no MFU figure from impossible inputs";
  const Finding* wrong = byRule(impossible, "impossible_mfu");
  ASSERT_NE(wrong, nullptr);
  EXPECT_EQ(wrong->kind, FindingKind::kTraceQuality);
  // And its training state alone (16 B x 7e9 = 112 GB) does not fit 40 GB.
  const Finding* memory = byRule(impossible, "memory_estimate");
  ASSERT_NE(memory, nullptr);
  EXPECT_EQ(memory->severity, Severity::kHigh);
}

// Two annotated bf16 kernels on an A100 (312 TFLOP/s dense bf16), both above
// the ridge: one at 10 % of its ceiling for 300 of the step's 1,000 µs, one
// at 90 % for 200 µs. Only the first is below the roof (Nsight Compute's 60 %).
TEST(Findings, KernelsFarBelowTheirRoofAreNamedWithTheirHeadroom) {
  TraceBuilder b;
  b.device(0, 108, int64_t{40} << 30);
  b.tables().devices.name[0] = b.tables().strings.intern("NVIDIA A100-SXM4-40GB");
  b.step(0, 1000, 1);
  auto annotated = [&](int64_t start, int64_t dur, double pct_of_peak, const char* kernel) {
    const double flops = pct_of_peak / 100 * 312e12 * static_cast<double>(dur) * 1e-6;
    b.range(start, dur + 20,
            "{\"op\":\"gemm\",\"flops\":" + std::to_string(flops) +
                ",\"bytes\":" + std::to_string(flops / 1e4) + "}",
            "nvtx", 0, "damscope");
    return b.kernel(start + 10, dur, kernel, b.call(start + 5, 2));
  };
  const int64_t slow = annotated(0, 300, 10, "ampere_bf16_s16816gemm_bf16_64x64_slow");
  annotated(400, 200, 90, "ampere_bf16_s16816gemm_bf16_256x128_fast");
  const FindingsReport r = findingsOf(b.build());
  ASSERT_TRUE(r.metrics.get(Metric::kBelowRoofPct));
  EXPECT_NEAR(*r.metrics.get(Metric::kBelowRoofPct), 30, 0.5);
  EXPECT_NEAR(*r.metrics.get(Metric::kBelowRoofGainPct), 27, 0.5);  // 300 µs x (1 - 0.1)
  const Finding* f = byRule(r, "kernels_below_roof");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kHigh);
  const auto kernels = itemsOf(*f, EvidenceSource::kKernels);
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0]->id, slow);
  EXPECT_EQ(kernels[0]->label, "ampere_bf16_s16816gemm_bf16_64x64_slow");
}

// "Which op or layer is it?": a kernel cited as evidence names the op that
// launched it and that op's module; one launched outside every op names none.
TEST(Findings, KernelEvidenceNamesTheOpAndModuleBehindIt) {
  TraceBuilder b = testing::gemmInModuleTrace();
  const int64_t in_op = 0;  // the trace's one kernel so far
  b.range(500, 300, R"({"op":"gemm","flops":1e9,"bytes":1e5})", "nvtx", 0, "damscope");
  const int64_t bare = b.kernel(510, 200, "ampere_bf16_s16816gemm_bf16_64x64_bare", b.call(505, 2));
  const FindingsReport r = findingsOf(b.build());
  const Finding* f = byRule(r, "kernels_below_roof");
  ASSERT_NE(f, nullptr);
  const auto kernels = itemsOf(*f, EvidenceSource::kKernels);
  ASSERT_EQ(kernels.size(), 2u);
  for (const EvidenceItem* k : kernels) {
    if (k->id == in_op) {
      EXPECT_EQ(k->op, "aten::mm");
      EXPECT_EQ(k->module, "Linear_0");
    } else {
      EXPECT_EQ(k->id, bare);
      EXPECT_EQ(k->op, "");
      EXPECT_EQ(k->module, "");
    }
  }
}

TEST(Findings, MemoryCapacityNamesThePeakCounter) {
  const FindingsReport r = findingsOf(memoryTrace());
  const Finding* memory = byRule(r, "memory_capacity");
  ASSERT_NE(memory, nullptr);
  EXPECT_DOUBLE_EQ(memory->value, 95.0);
  const auto counters = itemsOf(*memory, EvidenceSource::kCounters);
  ASSERT_EQ(counters.size(), 1u);
  EXPECT_EQ(counters[0]->ts, testing::us(200));
  EXPECT_EQ(counters[0]->label, "memory_reserved_bytes");
}

}  // namespace
}  // namespace damscope
