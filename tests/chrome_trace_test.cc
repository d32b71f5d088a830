// The Chrome trace export (analyzer/report/chrome_trace.h): a small generated
// trace checked field by field (tracks and their names, a kernel's and a
// call's arguments, launch arrows, steps, gaps named by cause with their
// split); times exact to the ns on an epoch clock; hostile names and stored
// arguments that would break the JSON; the gzip sink; cancellation; an export
// read back by damscope's own Kineto importer; and the real NCCL trace.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "analyzer/importers/kineto/decimal.h"
#include "analyzer/importers/trace_import.h"
#include "analyzer/report/chrome_trace.h"
#include "analyzer/report/chrome_trace_tracks.h"
#include "tests/test_support.h"
#include "tests/trace_builder.h"
#include "base/pending_file.h"

namespace damscope {
namespace {

using nlohmann::json;
using testing::TraceBuilder;
using testing::us;

RankResult analyse(const TraceTables& tables) {
  auto analysis = analyzeRank(tables, {});
  EXPECT_TRUE(analysis.ok());
  return buildRankResult(analysis.value(), "test.json", {});
}

std::string exportText(const TraceTables& tables, const RankResult& result,
                       ChromeTraceStats* stats = nullptr) {
  StringSink sink;
  auto written = writeChromeTrace(tables, result, sink);
  EXPECT_TRUE(written.ok()) << written.error().message();
  if (stats && written.ok()) *stats = written.value();
  return sink.text();
}

// The events of a parsed export, by phase and category.
struct Events {
  json doc;
  std::vector<json> all;
  std::vector<json> of(std::string_view ph, std::string_view cat = {}) const {
    std::vector<json> out;
    for (const json& e : all) {
      if (e["ph"] == ph && (cat.empty() || (e.contains("cat") && e["cat"] == cat))) {
        out.push_back(e);
      }
    }
    return out;
  }
  // The (pid, tid) a thread_name metadata event gives `name`.
  std::pair<int64_t, int64_t> track(const std::string& name) const {
    for (const json& e : of("M")) {
      if (e["name"] == "thread_name" && e["args"]["name"] == name) return {e["pid"], e["tid"]};
    }
    ADD_FAILURE() << "no track named " << name;
    return {-1, -1};
  }
};

Events parse(const std::string& text) {
  Events ev;
  ev.doc = json::parse(text);  // throws (fails the test) on invalid JSON
  for (const json& e : ev.doc["traceEvents"]) ev.all.push_back(e);
  return ev;
}

std::pair<int64_t, int64_t> trackOf(const json& e) {
  return {e["pid"].get<int64_t>(), e["tid"].get<int64_t>()};
}

// Every "f" has exactly one "s" with its id, and every "s" at least one "f".
void expectFlowsPairUp(const Events& ev) {
  std::map<int64_t, int> starts, finishes;
  for (const json& s : ev.of("s")) ++starts[s["id"].get<int64_t>()];
  for (const json& f : ev.of("f")) {
    ++finishes[f["id"].get<int64_t>()];
    EXPECT_EQ(f["bp"], "e") << "an arrow ends on its enclosing slice";
  }
  for (const auto& [id, n] : starts) {
    EXPECT_EQ(n, 1) << "flow " << id;
    EXPECT_GT(finishes[id], 0) << "flow " << id << " starts and never ends";
  }
  for (const auto& [id, n] : finishes) EXPECT_EQ(starts[id], 1) << "flow " << id;
}

// On every track, slices come in (ts, -dur) order and nest: viewers drop or
// mis-draw slices that overlap without one containing the other.
void expectNestedOnEveryTrack(const Events& ev) {
  std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<int64_t, int64_t>>> tracks;
  auto ns = [](const json& v) { return std::llround(v.get<double>() * 1000.0); };
  for (const json& e : ev.of("X")) {
    tracks[trackOf(e)].push_back({ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])});
  }
  int64_t misnested = 0;
  for (const auto& [track, slices] : tracks) {
    std::vector<int64_t> open_ends;
    for (size_t i = 0; i < slices.size(); ++i) {
      const auto [start, end] = slices[i];
      if (i > 0) {
        const auto [prev_start, prev_end] = slices[i - 1];
        EXPECT_TRUE(prev_start < start || (prev_start == start && prev_end >= end))
            << "track " << track.first << "/" << track.second << " slice " << i;
      }
      while (!open_ends.empty() && open_ends.back() <= start) open_ends.pop_back();
      if (!open_ends.empty() && end > open_ends.back()) ++misnested;
      open_ends.push_back(end);
    }
  }
  EXPECT_EQ(misnested, 0);
}

// The exact "ts" and "dur" text of each event line with the given category,
// keyed by correlation id. Events are one per line.
std::map<int64_t, std::pair<std::string, std::string>> exactTimes(const std::string& text,
                                                                  const std::string& cat) {
  static const std::regex kTs(R"re("ts":(-?[0-9]+\.[0-9]{3}),"dur":([0-9]+\.[0-9]{3}))re");
  static const std::regex kCorrelation(R"re("correlation":([0-9]+))re");
  std::map<int64_t, std::pair<std::string, std::string>> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.find("\"cat\":\"" + cat + "\"") == std::string::npos) continue;
    std::smatch ts, correlation;
    EXPECT_TRUE(std::regex_search(line, ts, kTs)) << line;
    EXPECT_TRUE(std::regex_search(line, correlation, kCorrelation)) << line;
    out[std::stoll(correlation[1])] = {ts[1], ts[2]};
  }
  return out;
}

TEST(ChromeTrace, SmallTraceFieldByField) {
  const TraceTables tables = testing::goldenStepTrace();
  const RankResult result = analyse(tables);
  ChromeTraceStats stats;
  const std::string text = exportText(tables, result, &stats);
  const Events ev = parse(text);

  // Tracks: the host process and its threads, the GPU below it.
  std::map<std::string, int64_t> process_sort;
  std::map<int64_t, std::string> process_name;
  for (const json& m : ev.of("M")) {
    if (m["name"] == "process_name") process_name[m["pid"]] = m["args"]["name"];
  }
  for (const json& m : ev.of("M")) {
    if (m["name"] == "process_sort_index") {
      process_sort[process_name[m["pid"]]] = m["args"]["sort_index"];
    }
  }
  ASSERT_EQ(process_sort.size(), 2u);
  EXPECT_LT(process_sort["host (rank 0)"], process_sort["GPU 0 (Test GPU)"]);
  const auto main = ev.track("main");
  EXPECT_EQ(main, std::make_pair(int64_t{100}, int64_t{100})) << "the trace's own pid and tid";
  const auto stream7 = ev.track("GPU 0 stream 7");
  const auto stream8 = ev.track("GPU 0 stream 8");
  const auto gaps = ev.track("GPU 0 idle gaps");
  const auto steps = ev.track("steps");
  EXPECT_GE(stream7.first, ChromeTrackLayout::kSyntheticIdBase);
  EXPECT_EQ(stream7.first, gaps.first) << "gaps sit in their device's process";
  EXPECT_EQ(stream7.first, steps.first);
  EXPECT_NE(stream7.second, stream8.second);

  // The first GEMM: its times (µs, three decimals) and Kineto's arguments.
  const std::vector<json> kernels = ev.of("X", "kernel");
  ASSERT_EQ(kernels.size(), 6u);
  const json& gemm = kernels.front();
  EXPECT_EQ(gemm["name"], "volta_sgemm_128x64_nn");
  EXPECT_EQ(trackOf(gemm), stream7);
  EXPECT_DOUBLE_EQ(gemm["ts"].get<double>(), 320.0);
  EXPECT_DOUBLE_EQ(gemm["dur"].get<double>(), 80.0);
  EXPECT_EQ(gemm["args"]["device"], 0);
  EXPECT_EQ(gemm["args"]["stream"], 7);
  EXPECT_EQ(gemm["args"]["correlation"], 1);
  EXPECT_EQ(gemm["args"]["grid"], json::array({160, 1, 1}));
  EXPECT_EQ(gemm["args"]["block"], json::array({256, 1, 1}));
  EXPECT_NE(text.find(R"("ts":320.000,"dur":80.000)"), std::string::npos) << "exact decimals";
  const std::vector<json> nccl = ev.of("X", "kernel");
  EXPECT_EQ(
      std::count_if(nccl.begin(), nccl.end(), [&](const json& k) { return trackOf(k) == stream8; }),
      1);

  // Its launch call, on the main thread, and the arrow between them.
  std::vector<json> calls = ev.of("X", "cuda_runtime");
  ASSERT_EQ(calls.size(), 7u);
  EXPECT_EQ(calls.front()["name"], "cudaLaunchKernel");
  EXPECT_EQ(trackOf(calls.front()), main);
  EXPECT_EQ(calls.front()["args"]["correlation"], 1);
  const std::vector<json> starts = ev.of("s", "launch");
  const std::vector<json> ends = ev.of("f", "launch");
  ASSERT_EQ(starts.size(), 6u) << "one per launch of GPU work; not the synchronize";
  ASSERT_EQ(ends.size(), 6u);
  EXPECT_EQ(stats.flows, 6);
  EXPECT_EQ(starts.front()["id"], 1);
  EXPECT_EQ(trackOf(starts.front()), main);
  EXPECT_DOUBLE_EQ(starts.front()["ts"].get<double>(), 310.0);
  EXPECT_EQ(ends.front()["id"], 1);
  EXPECT_EQ(trackOf(ends.front()), stream7);
  EXPECT_DOUBLE_EQ(ends.front()["ts"].get<double>(), 320.0);
  expectFlowsPairUp(ev);
  // Each arrow follows the slice it binds to in the file (viewers bind in order).
  const size_t call_at = text.find(R"("name":"cudaLaunchKernel")");
  const size_t start_at = text.find(R"("ph":"s")");
  EXPECT_LT(call_at, start_at);

  // Ranges with their depth.
  const std::vector<json> ranges = ev.of("X", "cpu_op");
  ASSERT_FALSE(ranges.empty());
  EXPECT_TRUE(ranges.front()["args"].contains("depth"));

  // The step, with its verdict and D·A·M split (trace_builder.h: of 1000 µs,
  // data 300, host 110, sync 100, comm 130, memory 130, compute 170, other 60).
  const std::vector<json> step_events = ev.of("X", "damscope_step");
  ASSERT_EQ(step_events.size(), 1u);
  const json& step = step_events.front();
  EXPECT_EQ(step["name"], "ProfilerStep#1");
  EXPECT_EQ(trackOf(step), steps);
  EXPECT_EQ(step["args"]["verdict"], std::string(toText(result.verdict())));
  EXPECT_DOUBLE_EQ(step["args"]["data_stall_pct"].get<double>(), 30.0);
  EXPECT_DOUBLE_EQ(step["args"]["compute_bound_pct"].get<double>(), 17.0);

  // Gaps on their track, named by cause, the split in args.
  const std::vector<json> gap_events = ev.of("X", "damscope_gap");
  size_t device_gaps = 0;
  for (const GapResult& g : result.gaps) device_gaps += g.stream ? 0 : 1;
  ASSERT_EQ(gap_events.size(), device_gaps);
  const std::set<std::string> causes = {"data_loading", "host_launch", "synchronization",
                                        "communication_wait", "other"};
  for (const json& g : gap_events) {
    EXPECT_EQ(trackOf(g), gaps);
    EXPECT_TRUE(causes.count(g["name"])) << g["name"];
  }
  const json& first_gap = gap_events.front();  // [0, 320): data 300, other 10, launch 10
  EXPECT_EQ(first_gap["name"], "data_loading");
  EXPECT_DOUBLE_EQ(first_gap["dur"].get<double>(), 320.0);
  EXPECT_DOUBLE_EQ(first_gap["args"]["data_loading_us"].get<double>(), 300.0);
  EXPECT_DOUBLE_EQ(first_gap["args"]["host_launch_us"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(first_gap["args"]["other_us"].get<double>(), 10.0);
  EXPECT_EQ(first_gap["args"]["gap_id"], 0);
  EXPECT_EQ(first_gap["args"]["step"], "ProfilerStep#1");

  EXPECT_EQ(ev.doc["baseTimeNanoseconds"], 0);
  EXPECT_EQ(ev.doc["otherData"]["exporter"], "damscope");
  EXPECT_EQ(ev.doc["deviceProperties"][0]["numSms"], 80);
  EXPECT_EQ(stats.rows,
            tables.eventCount() + static_cast<int64_t>(result.steps.size() + result.gaps.size()));
  EXPECT_EQ(stats.skipped, 0);
}

// Counters: device memory on the GPU's process, host values on the host
// process, per-thread values named with their thread; unknown values left out.
TEST(ChromeTrace, CountersGoToTheirProcess) {
  TraceTables tables = testing::goldenStepTrace();
  auto counter = [&](double ts_us, const char* name, double value, int32_t device, int64_t thread) {
    CounterTable::Row c;
    c.ts = us(ts_us), c.name = tables.strings.intern(name), c.value = value;
    c.device = device, c.thread_id = thread;
    tables.counters.append(c);
  };
  counter(10, "memory_allocated_bytes", 1024, 0, kNullInt);
  counter(20, "cpu_thread_utilization_pct", 97.5, kNullInt32, 0);
  counter(30, "memory_rss_bytes", 4096, kNullInt32, kNullInt);
  counter(40, "memory_rss_bytes", std::nan(""), kNullInt32, kNullInt);
  const RankResult result = analyse(tables);
  ChromeTraceStats stats;
  const Events ev = parse(exportText(tables, result, &stats));
  const std::vector<json> counters = ev.of("C");
  ASSERT_EQ(counters.size(), 3u);
  EXPECT_EQ(stats.skipped, 1) << "the NaN sample";
  const int64_t gpu_pid = ev.track("GPU 0 stream 7").first;
  EXPECT_EQ(counters[0]["name"], "memory_allocated_bytes");
  EXPECT_EQ(counters[0]["pid"], gpu_pid);
  EXPECT_DOUBLE_EQ(counters[0]["ts"].get<double>(), 10.0);
  EXPECT_EQ(counters[0]["args"]["value"], 1024);
  EXPECT_EQ(counters[1]["name"], "cpu_thread_utilization_pct (main 100)");
  EXPECT_EQ(counters[1]["pid"], 100);
  EXPECT_DOUBLE_EQ(counters[1]["args"]["value"].get<double>(), 97.5);
  EXPECT_EQ(counters[2]["name"], "memory_rss_bytes");
  EXPECT_EQ(counters[2]["pid"], 100);
}

// An export cancelled halfway, written as `damscope export` writes it (to a
// PendingFile's temporary name), leaves no file.
TEST(ChromeTrace, CancelledHalfwayLeavesNoFile) {
  testing::TempDir dir;
  TraceBuilder b;
  b.device(0, 80);
  for (int i = 0; i < 40'000; ++i)
    b.kernel(10.0 * i + 5, 4, "volta_sgemm_128x64_nn", b.call(10.0 * i, 2));
  const TraceTables tables = b.build();
  const RankResult result = analyse(tables);
  CancelToken cancel;
  double reported = 0;
  const Progress progress(
      [&](const ProgressUpdate& u) {
        reported = u.fraction;
        cancel.cancel();  // at the first report: 65,536 rows written
      },
      &cancel);
  {
    auto file = PendingFile::create(dir.file("out.json"), false);
    ASSERT_TRUE(file.ok());
    auto sink = openFileSink(file->tempPath(), false);
    ASSERT_TRUE(sink.ok());
    auto written = writeChromeTrace(tables, result, *sink.value(), progress);
    ASSERT_FALSE(written.ok());
    EXPECT_EQ(written.error().code(), ErrorCode::kCancelled);
    EXPECT_GT(reported, 0.0);
    EXPECT_LT(reported, 1.0) << "cancelled halfway, not at the end";
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// Times on the epoch clock are 19 digits: written as text from the integer
// and read back exactly (decimal.h, as damscope's importer reads Chrome traces).
TEST(ChromeTrace, TimestampsRoundTripToTheNanosecond) {
  TraceTables tables = testing::goldenStepTrace();
  constexpr int64_t kEpoch = 1'712'345'678'901'234'567;
  for (auto* ts : {&tables.kernels.ts, &tables.api_calls.ts, &tables.ranges.ts}) {
    for (size_t i = 0; i < ts->size(); ++i) (*ts)[i] += kEpoch + static_cast<int64_t>(i * 7);
  }
  const RankResult result = analyse(tables);
  ChromeTraceStats stats;
  const std::string text = exportText(tables, result, &stats);
  EXPECT_EQ(stats.base_time_ns, kEpoch) << "the earliest event, the step's range";
  EXPECT_EQ(parse(text).doc["baseTimeNanoseconds"].get<int64_t>(), kEpoch);
  const auto times = exactTimes(text, "kernel");
  ASSERT_EQ(times.size(), tables.kernels.size());
  for (size_t i = 0; i < tables.kernels.size(); ++i) {
    const auto& [ts, dur] = times.at(tables.kernels.correlation_id[i]);
    EXPECT_EQ(*microsToNanos(ts) + stats.base_time_ns, tables.kernels.ts[i]) << ts;
    EXPECT_EQ(*microsToNanos(dur), tables.kernels.dur[i]) << dur;
  }
  EXPECT_NE(text.find(R"("ts":510.007,"dur":90.000)"), std::string::npos);
}

TEST(ChromeTrace, HostileNamesStayValidJson) {
  TraceBuilder b;
  b.device(0, 80);
  b.step(0, 100, 1);
  const std::string nasty = "\"</script><b>\n\t\x01\\ \xc3\xa9";
  b.kernel(10, 5, nasty, b.call(1, 2, nasty));
  b.range(0, 1, nasty, nasty);
  TraceTables tables = b.build();
  const Events ev = parse(exportText(tables, analyse(tables)));
  ASSERT_EQ(ev.of("X", "kernel").size(), 1u);
  EXPECT_EQ(ev.of("X", "kernel").front()["name"], nasty);
  EXPECT_EQ(ev.of("X", "cuda_runtime").front()["name"], nasty);
  EXPECT_EQ(ev.of("X", nasty).front()["name"], nasty);
}

TEST(ChromeTrace, StoredArgumentsAreMergedOnlyWhenTheyAreJson) {
  TraceBuilder b;
  b.device(0, 80);
  b.kernel(10, 5, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", b.call(1, 2));
  b.kernel(20, 5, "broken", b.call(11, 2));
  b.kernel(30, 5, "not an object", b.call(21, 2));
  TraceTables tables = b.build();
  tables.kernels.args[0] = R"({"Collective name": "allreduce", "In msg nelems": 1024})";
  tables.kernels.args[1] = R"({"oops": )";
  tables.kernels.args[2] = R"([1, 2])";
  const Events ev = parse(exportText(tables, analyse(tables)));
  const std::vector<json> kernels = ev.of("X", "kernel");
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[0]["args"]["Collective name"], "allreduce");
  EXPECT_EQ(kernels[0]["args"]["In msg nelems"], 1024);
  EXPECT_EQ(kernels[0]["args"]["correlation"], 1);
  EXPECT_FALSE(kernels[1]["args"].contains("oops"));
  EXPECT_EQ(kernels[1]["args"]["correlation"], 2);
  EXPECT_EQ(kernels[2]["args"]["correlation"], 3);
}

TEST(ChromeTrace, RowsWithoutTimeAreLeftOutAndCounted) {
  TraceTables tables = testing::goldenStepTrace();
  const RankResult result = analyse(tables);
  for (size_t i = 0; i < tables.api_calls.size(); ++i) {
    if (tables.strings.get(tables.api_calls.name[i]) == "cudaDeviceSynchronize") {
      tables.api_calls.ts[i] = kNullInt;  // it launched nothing: no arrow is lost
    }
  }
  ChromeTraceStats stats;
  const Events ev = parse(exportText(tables, result, &stats));
  EXPECT_EQ(stats.skipped, 1);
  EXPECT_EQ(ev.of("X", "cuda_runtime").size(), tables.api_calls.size() - 1);
}

TEST(ChromeTrace, GzipSinkWritesTheSameDocument) {
  testing::TempDir dir;
  const TraceTables tables = testing::goldenStepTrace();
  const RankResult result = analyse(tables);
  const std::string plain = exportText(tables, result);
  auto sink = openFileSink(dir.file("t.json.gz"), /*gzip=*/true);
  ASSERT_TRUE(sink.ok());
  ASSERT_TRUE(writeChromeTrace(tables, result, *sink.value()).ok());
  ASSERT_TRUE(sink.value()->close().ok());
  gzFile in = gzopen(dir.file("t.json.gz").c_str(), "rb");
  ASSERT_NE(in, nullptr);
  std::string unpacked;
  char buf[4096];
  for (int n; (n = gzread(in, buf, sizeof(buf))) > 0;) unpacked.append(buf, static_cast<size_t>(n));
  gzclose(in);
  EXPECT_EQ(unpacked, plain);
  EXPECT_TRUE(hasGzipSuffix("a.json.gz"));
  EXPECT_FALSE(hasGzipSuffix("a.json"));
}

TEST(ChromeTrace, CancelledExportStops) {
  const TraceTables tables = testing::goldenStepTrace();
  const RankResult result = analyse(tables);
  CancelToken cancel;
  cancel.cancel();
  StringSink sink;
  // The trace is smaller than one progress interval: the check before the
  // document is finished still sees the cancel.
  auto written = writeChromeTrace(tables, result, sink, Progress({}, &cancel));
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().code(), ErrorCode::kCancelled);
}

// The export uses Kineto's names, so damscope's own importer reads it back
// into the same kernels, calls and copies.
TEST(ChromeTrace, ReadsBackThroughTheKinetoImporter) {
  testing::TempDir dir;
  TraceBuilder b;
  b.device(0, 80);
  b.step(0, 1000, 1);
  b.memcpy(5, 10, b.call(1, 20, "cudaMemcpyAsync"), CopyKind::kHtoD, MemoryKind::kPageable);
  b.kernel(320, 80.123, "volta_sgemm_128x64_nn", b.call(310, 5));
  b.kernel(500, 30, "ncclKernel_AllReduce_RING_LL_Sum_float", b.call(400, 5), 8);
  TraceTables tables = b.build();
  for (auto* ts :
       {&tables.kernels.ts, &tables.api_calls.ts, &tables.ranges.ts, &tables.memcpys.ts}) {
    for (int64_t& v : *ts) v += 1'700'000'000'000'000'001;
  }
  const std::string path = dir.file("export.json");
  testing::writeFile(path, exportText(tables, analyse(tables)));
  auto back = importTrace(path);
  ASSERT_TRUE(back.ok()) << back.error().message();
  ASSERT_EQ(back->kernels.size(), tables.kernels.size());
  for (size_t i = 0; i < tables.kernels.size(); ++i) {
    EXPECT_EQ(back->kernels.ts[i], tables.kernels.ts[i]);
    EXPECT_EQ(back->kernels.dur[i], tables.kernels.dur[i]);
    EXPECT_EQ(back->kernels.stream[i], tables.kernels.stream[i]);
    EXPECT_EQ(back->kernels.correlation_id[i], tables.kernels.correlation_id[i]);
    EXPECT_EQ(back->kernels.grid_x[i], tables.kernels.grid_x[i]);
    EXPECT_EQ(back->strings.get(back->kernels.name[i]), tables.strings.get(tables.kernels.name[i]));
  }
  ASSERT_EQ(back->api_calls.size(), tables.api_calls.size());
  EXPECT_EQ(back->api_calls.ts, tables.api_calls.ts);
  ASSERT_EQ(back->memcpys.size(), 1u);
  EXPECT_EQ(back->memcpys.copy_kind[0], CopyKind::kHtoD);
  EXPECT_EQ(back->memcpys.src_kind[0], MemoryKind::kPageable);
  EXPECT_EQ(back->devices.sm_count[0], 80);
}

// The real two-rank NCCL trace (rank 0): its collectives, arrows, gaps and
// times survive the export.
TEST(ChromeTrace, SharedNcclTrace) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  auto tables = importTrace(testing::sharedTrace("kineto/nccl_2rank_a100.json.gz"));
  ASSERT_TRUE(tables.ok()) << tables.error().message();
  const RankResult result = analyse(tables.value());
  ChromeTraceStats stats;
  const std::string text = exportText(tables.value(), result, &stats);
  const Events ev = parse(text);

  std::vector<json> nccl;
  for (const json& k : ev.of("X", "kernel")) {
    const std::string name = k["name"];
    if (name.rfind("ncclKernel", 0) == 0 || name.rfind("ncclDevKernel", 0) == 0) nccl.push_back(k);
  }
  ASSERT_FALSE(nccl.empty());
  EXPECT_TRUE(nccl.front()["args"].contains("Collective name")) << nccl.front().dump();
  EXPECT_EQ(ev.of("X", "kernel").size(), tables->kernels.size());

  expectFlowsPairUp(ev);
  EXPECT_GT(stats.flows, 3000);
  expectNestedOnEveryTrack(ev);

  const auto gap_track = ev.track("GPU 0 idle gaps");
  const std::vector<json> gaps = ev.of("X", "damscope_gap");
  ASSERT_FALSE(gaps.empty());
  std::set<std::string> names;
  for (const json& g : gaps) {
    EXPECT_EQ(trackOf(g), gap_track);
    names.insert(g["name"]);
  }
  for (const std::string& n : names) {
    EXPECT_TRUE(n == "data_loading" || n == "host_launch" || n == "synchronization" ||
                n == "communication_wait" || n == "other")
        << n;
  }

  const auto times = exactTimes(text, "kernel");
  ASSERT_EQ(times.size(), tables->kernels.size());
  for (size_t i = 0; i < tables->kernels.size(); ++i) {
    const auto& [ts, dur] = times.at(tables->kernels.correlation_id[i]);
    ASSERT_EQ(*microsToNanos(ts) + stats.base_time_ns, tables->kernels.ts[i]) << ts;
    ASSERT_EQ(*microsToNanos(dur), tables->kernels.dur[i]) << dur;
  }
  EXPECT_EQ(ev.doc["distributedInfo"]["rank"], 0);
}

}  // namespace
}  // namespace damscope
