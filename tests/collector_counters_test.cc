// Hardware counters (`damscope record --counters`), without a GPU: the
// --counters list, the FLOP and byte arithmetic on fabricated metric values
// (a SAXPY of N elements is 2N FLOPs), measured values joined to their
// kernels whichever arrives first and renumbered with them by the
// finalizer, and the host half of the range profiler (metric names, config
// image) against this machine's libcupti, which needs no device for it.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <map>

#include "collector/capture_writer.h"
#include "collector/collector_config.h"
#include "collector/counter_metrics.h"
#include "collector/counter_session.h"
#include "collector/cupti_activity_decoder.h"
#include "collector/gpu_activity_rows.h"
#include "collector/measured_kernel_rows.h"
#include "collector/trace_finalizer.h"
#include "tests/fabricated_cupti.h"
#include "tests/test_support.h"
#include "trace/trace_reader.h"

#ifndef DAMSCOPE_CUPTI_LIBRARY
#define DAMSCOPE_CUPTI_LIBRARY ""
#endif

namespace damscope::collector {
namespace {

using damscope::testing::PackedBuffer;
using damscope::testing::TempDir;

constexpr CounterSelection kBoth{true, true};
constexpr CounterSelection kFlopsOnly{true, false};
constexpr CounterSelection kDramOnly{false, true};

// Every metric of `selection` measured as 0, then `set`.
MetricValues measured(const CounterSelection& selection,
                      std::initializer_list<std::pair<Metric, double>> set) {
  MetricValues v = noMetricValues();
  for (size_t i = 0; i < kMetricCount; ++i) {
    if (metricWanted(selection, static_cast<Metric>(i))) v[i] = 0;
  }
  for (const auto& [m, x] : set) v[static_cast<size_t>(m)] = x;
  return v;
}

TEST(CounterList, AcceptsEachGroupOnceInAnyOrder) {
  EXPECT_EQ(parseCounterList("flops").value(), kFlopsOnly);
  EXPECT_EQ(parseCounterList("dram").value(), kDramOnly);
  EXPECT_EQ(parseCounterList("flops,dram").value(), kBoth);
  EXPECT_EQ(parseCounterList("dram,flops").value(), kBoth);
  EXPECT_EQ(counterListText(parseCounterList("dram,flops").value()), "flops,dram");
  EXPECT_EQ(counterListText(CounterSelection{}), "");
}

TEST(CounterList, RejectsEmptyUnknownDuplicateAndEmptyItems) {
  for (const char* bad : {"", "flop", "FLOPS", "flops,", ",dram", "flops,,dram", "dram,dram",
                          "flops dram", "flops,dram,flops"}) {
    const auto parsed = parseCounterList(bad);
    EXPECT_FALSE(parsed.ok()) << "'" << bad << "'";
  }
  EXPECT_EQ(parseCounterList("flops,tensor").error().message(),
            "unknown counter group \"tensor\": expected a comma-separated list of flops, dram");
  EXPECT_EQ(parseCounterList("dram,dram").error().message(), "\"dram\" is listed twice");
}

TEST(CounterList, TravelsThroughTheEnvironmentAndABadValueNamesTheVariable) {
  CollectorConfig config;
  config.counters = kBoth;
  std::map<std::string, std::string> env;
  for (const auto& [name, value] : toEnvironment(config)) env[name] = value;
  EXPECT_EQ(env["DAMSCOPE_COUNTERS"], "flops,dram");
  auto get = [&](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  EXPECT_EQ(configFromEnvironment(get).value().counters, kBoth);
  env["DAMSCOPE_COUNTERS"] = "";
  EXPECT_FALSE(configFromEnvironment(get).value().counters.any());
  env["DAMSCOPE_COUNTERS"] = "flops,ipc";
  const auto bad = configFromEnvironment(get);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message().rfind("DAMSCOPE_COUNTERS=flops,ipc: unknown counter group", 0),
            0u)
      << bad.error().message();
}

TEST(CounterMetrics, EachSelectionAsksForItsMetricsOnly) {
  for (size_t i = 0; i < kMetricCount; ++i) {
    const auto m = static_cast<Metric>(i);
    const bool dram = m == Metric::kDramRead || m == Metric::kDramWrite;
    EXPECT_EQ(metricWanted(kDramOnly, m), dram) << metricName(m);
    EXPECT_EQ(metricWanted(kFlopsOnly, m), !dram) << metricName(m);
    EXPECT_TRUE(metricWanted(kBoth, m)) << metricName(m);
  }
  EXPECT_STREQ(metricName(Metric::kFfma), "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum");
  EXPECT_STREQ(metricName(Metric::kDramWrite), "dram__bytes_write.sum");
}

TEST(CounterMetrics, SaxpyOfNElementsIsTwoNFlopsAndThreeNFloatsOfDram) {
  // y = a*x + y over N floats: one FFMA per element, x and y read, y written.
  const double n = 1 << 20;
  const KernelCounts c = kernelCounts(kBoth, measured(kBoth, {{Metric::kFfma, n},
                                                              {Metric::kDramRead, 8 * n},
                                                              {Metric::kDramWrite, 4 * n}}));
  ASSERT_TRUE(c.flops);
  EXPECT_DOUBLE_EQ(*c.flops, 2 * n);
  ASSERT_TRUE(c.dram_bytes);
  EXPECT_DOUBLE_EQ(*c.dram_bytes, 12 * n);
  EXPECT_FALSE(c.used_tensor_cores);
}

TEST(CounterMetrics, FmaCountsTwiceAddAndMulOnceInEveryPrecision) {
  const KernelCounts c = kernelCounts(kFlopsOnly, measured(kFlopsOnly, {{Metric::kDadd, 1},
                                                                        {Metric::kDmul, 10},
                                                                        {Metric::kDfma, 100},
                                                                        {Metric::kFadd, 1000},
                                                                        {Metric::kFmul, 10000},
                                                                        {Metric::kFfma, 100000},
                                                                        {Metric::kHadd, 1e6},
                                                                        {Metric::kHmul, 1e7},
                                                                        {Metric::kHfma, 1e8}}));
  ASSERT_TRUE(c.flops);
  EXPECT_DOUBLE_EQ(*c.flops, 1 + 10 + 200 + 1000 + 10000 + 200000 + 1e6 + 1e7 + 2e8);
  EXPECT_FALSE(c.dram_bytes);  // not asked for
}

TEST(CounterMetrics, TensorCoreKernelsGetNoFlopsButKeepTheirBytes) {
  const KernelCounts c = kernelCounts(kBoth, measured(kBoth, {{Metric::kFfma, 5},
                                                              {Metric::kTensorInstructions, 1},
                                                              {Metric::kDramRead, 64}}));
  EXPECT_FALSE(c.flops);
  EXPECT_TRUE(c.used_tensor_cores);
  ASSERT_TRUE(c.dram_bytes);
  EXPECT_DOUBLE_EQ(*c.dram_bytes, 64);
}

TEST(CounterMetrics, AMetricTheChipLacksLeavesItsFigureUnmeasured) {
  // No tensor count: tensor-core work cannot be ruled out.
  MetricValues v = measured(kBoth, {{Metric::kFfma, 5}, {Metric::kDramRead, 64}});
  v[static_cast<size_t>(Metric::kTensorInstructions)] = NAN;
  EXPECT_FALSE(kernelCounts(kBoth, v).flops);
  EXPECT_TRUE(kernelCounts(kBoth, v).dram_bytes);
  // GB202 knows no dram__bytes_read.sum.
  v = measured(kBoth, {{Metric::kFfma, 5}});
  v[static_cast<size_t>(Metric::kDramRead)] = NAN;
  EXPECT_FALSE(kernelCounts(kBoth, v).dram_bytes);
  EXPECT_DOUBLE_EQ(kernelCounts(kBoth, v).flops.value_or(-1), 10);
  EXPECT_FALSE(kernelCounts(kBoth, noMetricValues()).flops);
  EXPECT_FALSE(kernelCounts(kBoth, noMetricValues()).dram_bytes);
}

// --- Measured values joined to kernels, through a capture file -----------------

constexpr uint64_t kT0 = 1'700'000'000'000'000'000ull;

class MeasuredToStore : public ::testing::Test {
 protected:
  void SetUp() override {
    CaptureFileOptions options;
    options.path = dir_.file("run.db");
    options.process.pid = 4242;
    auto capture = CaptureWriter::create(options);
    ASSERT_TRUE(capture.ok()) << capture.error().message();
    capture_ = std::move(capture).value();
    capture_->setMeta("collector.finalized", "0");
    gpu_ = std::make_unique<GpuActivityRows>(*capture_, 0);
    measured_ = std::make_unique<MeasuredKernelRows>(*capture_, kBoth);
    gpu_->setKernelObserver(
        [this](uint32_t correlation, int64_t row) { measured_->onKernel(correlation, row); });
  }
  void kernels(std::initializer_list<std::pair<uint32_t, uint64_t>> correlation_and_start) {
    PackedBuffer b;
    for (const auto& [correlation, start] : correlation_and_start) {
      // CUPTI's kernel names outlive their records (GpuActivityRows keys them by pointer).
      const std::string& name = names_.emplace_back("k" + std::to_string(correlation));
      damscope::testing::addKernel(b, name.c_str(), correlation, kT0 + start, kT0 + start + 100);
    }
    size_t unreadable = 0;
    decodePackedBuffer(b.data(), b.size(), *gpu_, &unreadable);
  }
  void commit(bool final_commit = false) {
    gpu_->resolvePending(final_commit);
    measured_->resolvePending(final_commit);
    ASSERT_TRUE(capture_->commit().ok());
  }
  // Finalized and read back: FLOPs of each kernel by name.
  std::map<std::string, double> flopsByKernel() {
    EXPECT_TRUE(capture_->finish().ok());
    EXPECT_TRUE(finalizeTraceFile(dir_.file("run.db")).ok());
    auto trace = readTrace(dir_.file("run.db"));
    EXPECT_TRUE(trace.ok());
    std::map<std::string, double> out;
    const TraceTables& t = trace.value();
    for (size_t i = 0; i < t.kernel_metrics.size(); ++i) {
      EXPECT_EQ(t.kernel_metrics.source[i], MetricSource::kMeasured);
      EXPECT_TRUE(isNull(t.kernel_metrics.range_id[i]));
      const auto k = static_cast<size_t>(t.kernel_metrics.kernel_id[i]);
      EXPECT_LT(k, t.kernels.size());
      out[std::string(t.strings.get(t.kernels.name[k]))] = t.kernel_metrics.flops[i];
    }
    return out;
  }
  static MetricValues ffma(double n) { return measured(kBoth, {{Metric::kFfma, n}}); }

  TempDir dir_;
  std::deque<std::string> names_;
  std::unique_ptr<CaptureWriter> capture_;
  std::unique_ptr<GpuActivityRows> gpu_;
  std::unique_ptr<MeasuredKernelRows> measured_;
};

TEST_F(MeasuredToStore, ValuesMeetTheirKernelWhicheverArrivesFirstAndFollowItWhenSorted) {
  measured_->onMeasured(11, ffma(1));  // before its kernel, as usual
  // Delivered out of time order: the finalizer renumbers the kernels.
  kernels({{12, 5000}, {11, 9000}, {13, 1000}});
  measured_->onMeasured(12, ffma(2));  // after its kernel (a buffer completed early)
  commit();
  measured_->onMeasured(13, ffma(3));  // a commit later
  commit(true);
  EXPECT_EQ(measured_->rows(), 3);
  EXPECT_EQ(measured_->unmatched(), 0);
  EXPECT_EQ(flopsByKernel(), (std::map<std::string, double>{{"k11", 2}, {"k12", 4}, {"k13", 6}}));
}

TEST_F(MeasuredToStore, ValuesWhoseKernelNeverCameAreCountedNotWritten) {
  measured_->onMeasured(21, ffma(1));
  commit();
  commit();
  kernels({{22, 100}});
  commit();  // 21 gave up after two commits
  kernels({{21, 200}});
  measured_->onMeasured(23, ffma(1));
  commit(true);  // the final commit gives up 23 too
  EXPECT_EQ(measured_->unmatched(), 2);
  EXPECT_EQ(measured_->rows(), 0);
  EXPECT_TRUE(flopsByKernel().empty());
}

TEST_F(MeasuredToStore, ATensorCoreKernelKeepsItsBytesWithUnknownFlops) {
  kernels({{31, 100}});
  measured_->onMeasured(31, measured(kBoth, {{Metric::kTensorInstructions, 8},
                                             {Metric::kDramRead, 4096},
                                             {Metric::kDramWrite, 1024}}));
  commit(true);
  EXPECT_EQ(measured_->tensorKernels(), 1);
  ASSERT_TRUE(capture_->finish().ok());
  ASSERT_TRUE(finalizeTraceFile(dir_.file("run.db")).ok());
  const TraceTables t = readTrace(dir_.file("run.db")).value();
  ASSERT_EQ(t.kernel_metrics.size(), 1u);
  EXPECT_TRUE(isNull(t.kernel_metrics.flops[0]));
  EXPECT_DOUBLE_EQ(t.kernel_metrics.dram_bytes[0], 5120);
}

// --- The host half against the real libcupti ------------------------------------

class CounterHostOnThisCupti : public ::testing::Test {
 protected:
  void SetUp() override {
    library_ =
        *DAMSCOPE_CUPTI_LIBRARY ? dlopen(DAMSCOPE_CUPTI_LIBRARY, RTLD_NOW | RTLD_LOCAL) : nullptr;
    if (!library_) GTEST_SKIP() << "no libcupti at build time: " << DAMSCOPE_CUPTI_LIBRARY;
    auto api = resolveCounterApi(library_, DAMSCOPE_CUPTI_LIBRARY);
    ASSERT_TRUE(api.ok()) << api.error().message();
    api_ = api.value();
  }
  void* library_ = nullptr;
  std::shared_ptr<const CounterApi> api_;
};

TEST_F(CounterHostOnThisCupti, EveryMetricIsKnownToTheDataCenterChipsAndMakesAConfigImage) {
  for (const char* chip : {"GA100", "GH100", "GB100"}) {
    auto host = CounterHost::create(api_, chip, {}, kBoth);
    ASSERT_TRUE(host.ok()) << chip << ": " << host.error().message();
    EXPECT_EQ(host.value()->names().size(), kMetricCount) << chip;
    EXPECT_TRUE(host.value()->missing().empty()) << chip << ": " << host.value()->missing()[0];
    EXPECT_FALSE(host.value()->configImage().empty()) << chip;
  }
}

TEST_F(CounterHostOnThisCupti, AChipWithoutDramBytesLeavesThemOutAndSaysWhich) {
  auto host = CounterHost::create(api_, "GB202", {}, kBoth);
  ASSERT_TRUE(host.ok()) << host.error().message();
  EXPECT_EQ(host.value()->missing(),
            (std::vector<std::string>{"dram__bytes_read.sum", "dram__bytes_write.sum"}));
  EXPECT_EQ(host.value()->names().size(), kMetricCount - 2);
  // dram alone is then nothing to measure.
  auto dram = CounterHost::create(api_, "GB202", {}, kDramOnly);
  ASSERT_FALSE(dram.ok());
  EXPECT_EQ(dram.error().message(), "chip GB202 knows none of the metrics of --counters dram");
}

TEST_F(CounterHostOnThisCupti, AnUnknownChipIsAnErrorNamingIt) {
  auto host = CounterHost::create(api_, "XY999", {}, kBoth);
  ASSERT_FALSE(host.ok());
  EXPECT_NE(host.error().message().find("chip XY999"), std::string::npos) << host.error().message();
}

TEST_F(CounterHostOnThisCupti, ASessionResolvesWithoutADeviceAndMeasuresNothingUntilCalled) {
  auto session = CounterSession::create(library_, DAMSCOPE_CUPTI_LIBRARY, kBoth);
  ASSERT_TRUE(session.ok()) << session.error().message();
  std::vector<MeasuredLaunch> launches;
  session.value()->take(launches);
  EXPECT_TRUE(launches.empty());
  EXPECT_EQ(session.value()->failure(), "");
  EXPECT_EQ(CounterSession::launchCallbacks().size(), 12u);
}

TEST(CounterApi, ALibraryWithoutTheRangeProfilerIsAnErrorNamingTheMissingFunction) {
  void* self = dlopen(nullptr, RTLD_NOW);  // this test binary: no CUPTI in it
  const auto api = resolveCounterApi(self, "the test binary");
  ASSERT_FALSE(api.ok());
  EXPECT_EQ(api.error().message().rfind("CUPTI at the test binary lacks cupti", 0), 0u)
      << api.error().message();
  EXPECT_NE(api.error().message().find("CUPTI 12.6 or later"), std::string::npos);
}

}  // namespace
}  // namespace damscope::collector
