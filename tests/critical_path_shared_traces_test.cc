// Parity of the critical path with HTA on the shared traces: the path length
// of each ProfilerStep (and of one annotation instance of simple_add_a100)
// equals HTA's within 1 % (issue 29 §1). Skips when ../shared/traces is
// absent.
//
// The reference figures are HTA's own, run on these files
// (HolisticTraceAnalysis @f4d0062c, Debian 12's python3-pandas 1.5.3 and
// python3-networkx 2.8.8): TraceAnalysis(trace_dir).critical_path_analysis(
// rank, annotation, instance_id) for each instance, the path length being
// the sum of the weights of the edges between consecutive
// critical_path_nodes. HTA keeps only the ProfilerSteps before the last one
// (its trace window), so a trace with N steps gives N - 1 instances.
// CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE set or not gives the same
// lengths on these traces.
#include <gtest/gtest.h>

#include <vector>

#include "analyzer/analyses/analysis_input.h"
#include "analyzer/analyses/critical_path.h"
#include "analyzer/analyses/name_patterns.h"
#include "analyzer/importers/trace_import.h"
#include "tests/test_support.h"

namespace damscope {
namespace {

struct Window {
  int64_t start;
  int64_t end;
};

// The host ranges named `name` (or ProfilerSteps, for "ProfilerStep"), in
// time order.
std::vector<Window> instances(const TraceTables& t, std::string_view name) {
  std::vector<Window> found;
  const RangeTable& r = t.ranges;
  for (size_t i = 0; i < r.size(); ++i) {
    if (isNull(r.thread_id[i])) continue;
    const std::string_view n = t.strings.get(r.name[i]);
    if (name == "ProfilerStep" ? profilerStepNumber(n).has_value() : n == name) {
      found.push_back({r.ts[i], r.ts[i] + r.dur[i]});
    }
  }
  std::sort(found.begin(), found.end(),
            [](const Window& a, const Window& b) { return a.start < b.start; });
  return found;
}

void expectHtaLengths(const std::string& trace, std::string_view annotation,
                      const std::vector<int64_t>& hta_us) {
  auto tables = importTrace(testing::sharedTrace(trace));
  ASSERT_TRUE(tables.ok()) << tables.error().message();
  const AnalysisInput input = AnalysisInput::build(tables.value());
  const std::vector<Window> windows = instances(tables.value(), annotation);
  ASSERT_GE(windows.size(), hta_us.size()) << trace;
  for (size_t i = 0; i < hta_us.size(); ++i) {
    const CriticalPath path = computeCriticalPath(input, windows[i].start, windows[i].end);
    const double hta_ns = 1e3 * static_cast<double>(hta_us[i]);
    EXPECT_NEAR(static_cast<double>(path.length_ns), hta_ns, 0.01 * hta_ns)
        << trace << " instance " << i;
    int64_t split = 0;
    for (const int64_t ns : path.bound_ns) split += ns;
    EXPECT_EQ(split, path.length_ns) << trace << " instance " << i;
    for (const int64_t ns : path.without_ns) EXPECT_LE(ns, path.length_ns);
  }
}

TEST(CriticalPathHtaParity, SimpleAddA100) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  // HTA's own test reads instance 1 of this annotation (315 nodes on the path).
  expectHtaLengths("kineto/simple_add_a100.json.gz",
                   "[param|pytorch.model.alex_net|0|0|0|measure|forward]", {294'696, 241'724});
}

TEST(CriticalPathHtaParity, Nccl2RankA100) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  expectHtaLengths("kineto/nccl_2rank_a100.json.gz", "ProfilerStep", {190'909, 188'910});
}

TEST(CriticalPathHtaParity, NsResolutionV100) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  expectHtaLengths("kineto/ns_resolution_v100.json.gz", "ProfilerStep",
                   {97'518, 97'176, 115'270, 115'042});
}

TEST(CriticalPathHtaParity, V100Rank1) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  expectHtaLengths("kineto/v100_rank1.json.gz", "ProfilerStep",
                   {245'194, 259'417, 244'642, 245'388});
}

}  // namespace
}  // namespace damscope
