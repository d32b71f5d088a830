// `damscope record` end to end, without a GPU: the NVTX test program
// (programs/nvtx_workload.cc) is recorded and every annotation it makes is
// checked in the trace; exit codes, signals, stdin/stdout pass through; the
// failure cases (no driver, no CUPTI, unwritable output, full disk, bad
// settings, fork, ring overflow) leave the program running with its own exit
// code and say so once.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "collector/record_launcher.h"
#include "tests/collector_test_support.h"
#include "trace/range_nesting.h"
#include "trace/sqlite_db.h"
#include "trace/trace_reader.h"

namespace damscope {
namespace {

using namespace damscope::testing;
namespace fs = std::filesystem;

int64_t realtimeNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::string text(const TraceTables& t, StringId id) {
  return std::string(t.strings.get(id));
}

// Ranges by name (and domain, when given).
std::vector<size_t> rangesNamed(const TraceTables& t, const std::string& name,
                                const std::string& category = "nvtx") {
  std::vector<size_t> rows;
  for (size_t i = 0; i < t.ranges.size(); ++i) {
    if (text(t, t.ranges.name[i]) == name && text(t, t.ranges.category[i]) == category) {
      rows.push_back(i);
    }
  }
  return rows;
}

std::string threadName(const TraceTables& t, int64_t thread_id) {
  return text(t, t.threads.name[static_cast<size_t>(thread_id)]);
}

class Record : public ::testing::Test {
 protected:
  std::string out(const std::string& name) const { return dir_.file(name); }
  // Runs `damscope record [options] -- nvtx_workload [args]`.
  ProcessResult record(const std::vector<std::string>& options,
                       const std::vector<std::string>& workload_args, const EnvChanges& env = {},
                       const std::string& stdin_text = "") {
    std::vector<std::string> argv = {damscopeBinary(), "record"};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.push_back("--");
    argv.push_back(nvtxWorkloadBinary());
    argv.insert(argv.end(), workload_args.begin(), workload_args.end());
    EnvChanges all = env;
    all.emplace("DAMSCOPE_CONTROL_DIR", dir_.file("ctl"));
    return runProcess(argv, all, dir_.path(), stdin_text);
  }
  // Runs the workload injected by hand (the environment record would set).
  ProcessResult injected(const std::vector<std::string>& workload_args, EnvChanges env) {
    env.emplace("NVTX_INJECTION64_PATH", injectLibraryPath());
    env.emplace("CUDA_INJECTION64_PATH", injectLibraryPath());
    env.emplace("DAMSCOPE_OUTPUT", out("run.db"));
    std::vector<std::string> argv = {nvtxWorkloadBinary()};
    argv.insert(argv.end(), workload_args.begin(), workload_args.end());
    return runProcess(argv, env, dir_.path());
  }
  TraceTables load(const std::string& name) {
    auto trace = readTrace(out(name));
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().message());
    return trace.ok() ? std::move(trace).value() : TraceTables();
  }

  TempDir dir_;
};

TEST_F(Record, RecordsEveryAnnotationOfAnNvtxProgram) {
  const int64_t before = realtimeNs();
  const ProcessResult r =
      record({"-o", out("run.db")},
             {"--steps", "3", "--busy", "--step-ms", "40", "--exit-code", "3", "--echo"}, {},
             "hello\nworld\n");
  const int64_t after = realtimeNs();
  // The program's exit code, stdin and stdout pass through.
  ASSERT_TRUE(r.exited) << r.err;
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.out.find("echo: hello\necho: world\nworkload done"), std::string::npos) << r.out;
  // No GPU here: said once, with the reason.
  EXPECT_EQ(countOccurrences(r.err, "GPU activity cannot be recorded"), 1u) << r.err;
  EXPECT_NE(r.err.find("no NVIDIA driver"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("wrote " + out("run.db")), std::string::npos) << r.err;

  const TraceTables t = load("run.db");
  EXPECT_EQ(t.getMeta("clock"), "realtime");
  EXPECT_EQ(t.getMeta("source_format"), "damscope-collector");
  EXPECT_EQ(t.getMeta("collector.finalized"), "1");
  EXPECT_EQ(t.getMeta("collector.end_reason"), "exit");
  {
    // Finalized: the schema's indexes exist (the library writes without them).
    auto db = Database::open(out("run.db"), Database::Mode::kReadOnly);
    ASSERT_TRUE(db.ok());
    auto stmt = db->prepare(
        "SELECT COUNT(*) FROM sqlite_master WHERE type='index' AND name IN "
        "('kernels_by_correlation','api_calls_by_correlation')");
    ASSERT_TRUE(stmt.ok());
    ASSERT_TRUE(stmt->step().value());
    EXPECT_EQ(stmt->columnInt(0), 2);
  }
  EXPECT_NE(t.getMeta("collector.gpu").find("no NVIDIA driver"), std::string::npos);
  EXPECT_EQ(t.getStat("collector.dropped_records"), 0);
  ASSERT_EQ(t.processes.size(), 1u);
  EXPECT_NE(t.processes.cmdline[0].find("nvtx_workload --steps 3"), std::string::npos);
  EXPECT_EQ(text(t, t.processes.name[0]), "nvtx_workload");

  // Steps: payload and color in args, in order, on the main thread.
  const auto steps = rangesNamed(t, "step");
  ASSERT_EQ(steps.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    const size_t s = steps[i];
    EXPECT_EQ(t.ranges.args[s], R"({"payload":)" + std::to_string(i) + R"(,"color":"#ff76b900"})");
    EXPECT_EQ(t.ranges.depth[s], 0);
    EXPECT_TRUE(isNull(t.ranges.parent_id[s]));
    EXPECT_TRUE(isNull(t.ranges.domain[s]));
    EXPECT_EQ(threadName(t, t.ranges.thread_id[s]), "trainer-main");
    EXPECT_GE(t.ranges.dur[s], 40'000'000);
    EXPECT_GT(t.ranges.ts[s], before);
    EXPECT_LT(t.ranges.ts[s] + t.ranges.dur[s], after);
  }
  // Data loading, the wide-string forward range and the annotated op nest
  // inside their step.
  const auto data = rangesNamed(t, "data");
  const auto forward = rangesNamed(t, "forward \u2713");
  const std::string op_json = R"({"op":"attn_fwd","flops":1073741824,"bytes":8388608})";
  const auto ops = rangesNamed(t, op_json);
  const auto registered = rangesNamed(t, "registered_op");
  ASSERT_EQ(data.size(), 3u);
  ASSERT_EQ(forward.size(), 3u);
  ASSERT_EQ(ops.size(), 3u);
  ASSERT_EQ(registered.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(t.ranges.parent_id[data[i]], static_cast<int64_t>(steps[i]));
    EXPECT_EQ(t.ranges.depth[data[i]], 1);
    EXPECT_EQ(t.ranges.parent_id[forward[i]], static_cast<int64_t>(steps[i]));
    EXPECT_EQ(t.ranges.parent_id[ops[i]], static_cast<int64_t>(forward[i]));
    EXPECT_EQ(t.ranges.depth[ops[i]], 2);
    EXPECT_EQ(text(t, t.ranges.domain[ops[i]]), "damscope");
    EXPECT_EQ(t.ranges.args[ops[i]], R"({"payload":0.5,"category":"forward-ops"})");
    EXPECT_EQ(t.ranges.parent_id[registered[i]], static_cast<int64_t>(forward[i]));
    EXPECT_EQ(t.ranges.args[registered[i]], R"({"payload":-3})");
  }
  // The model annotation arrives intact, as a mark in domain damscope.
  const auto model = std::find_if(t.ranges.name.begin(), t.ranges.name.end(), [&](StringId n) {
    return text(t, n).rfind(R"({"model":"gpt2","params":124439808)", 0) == 0;
  });
  ASSERT_NE(model, t.ranges.name.end());
  const size_t m = static_cast<size_t>(model - t.ranges.name.begin());
  EXPECT_EQ(text(t, t.ranges.category[m]), "nvtx_mark");
  EXPECT_EQ(text(t, t.ranges.domain[m]), "damscope");
  EXPECT_EQ(t.ranges.dur[m], 0);
  EXPECT_EQ(text(t, t.ranges.name[m]),
            R"({"model":"gpt2","params":124439808,"layers":12,"d_model":768,"heads":12,)"
            R"("seq_len":1024,"vocab":50257,"tokens_per_step":524288,"precision":"bf16"})");
  const auto checkpoint = rangesNamed(t, "checkpoint", "nvtx_mark");
  ASSERT_EQ(checkpoint.size(), 1u);
  EXPECT_EQ(t.ranges.parent_id[checkpoint[0]], static_cast<int64_t>(steps[1]));
  // A start/end range ended by another thread belongs to the thread that
  // started it; that thread's own range is on the named worker.
  const auto io = rangesNamed(t, "async_io");
  const auto io_wait = rangesNamed(t, "io_wait");
  ASSERT_EQ(io.size(), 1u);
  ASSERT_EQ(io_wait.size(), 1u);
  EXPECT_EQ(threadName(t, t.ranges.thread_id[io[0]]), "trainer-main");
  EXPECT_EQ(threadName(t, t.ranges.thread_id[io_wait[0]]), "io-worker");
  EXPECT_GE(t.ranges.dur[io[0]], t.ranges.dur[io_wait[0]]);

  // Stored in the store's order, with the nesting trace/range_nesting.h
  // computes from times alone.
  RangeTable recomputed = t.ranges;
  for (size_t i = 1; i < t.ranges.size(); ++i) {
    ASSERT_TRUE(t.ranges.ts[i - 1] < t.ranges.ts[i] ||
                (t.ranges.ts[i - 1] == t.ranges.ts[i] && t.ranges.dur[i - 1] >= t.ranges.dur[i]));
  }
  computeRangeNesting(recomputed);
  EXPECT_EQ(recomputed.depth, t.ranges.depth);
  EXPECT_EQ(recomputed.parent_id, t.ranges.parent_id);

  // CPU samples: the busy main thread, the process, its memory.
  std::map<std::string, int> counter_rows;
  double main_thread_max = 0;
  for (size_t i = 0; i < t.counters.size(); ++i) {
    const std::string n = text(t, t.counters.name[i]);
    ++counter_rows[n];
    if (n == "cpu_thread_utilization_pct" &&
        threadName(t, t.counters.thread_id[i]) == "trainer-main") {
      main_thread_max = std::max(main_thread_max, t.counters.value[i]);
    }
    if (n == "memory_rss_bytes") {
      EXPECT_GT(t.counters.value[i], 1e5);
    }
    EXPECT_TRUE(i == 0 || t.counters.ts[i - 1] <= t.counters.ts[i]);
  }
  EXPECT_GE(counter_rows["cpu_process_utilization_pct"], 5);
  EXPECT_GE(counter_rows["memory_rss_bytes"], 5);
  EXPECT_GT(main_thread_max, 50.0);
}

TEST_F(Record, LongJsonAnnotationArrivesIntact) {
  const ProcessResult r =
      record({"-o", out("run.db")}, {"--steps", "1", "--long-message", "20000"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const TraceTables t = load("run.db");
  const std::string expected = R"({"blob":")" + std::string(20000, 'x') + R"("})";
  EXPECT_EQ(rangesNamed(t, expected, "nvtx_mark").size(), 1u);
  EXPECT_EQ(t.getStat("collector.nvtx_truncated_messages"), 0);
}

TEST_F(Record, MessageLongerThanAQuarterRingIsTruncatedAndFlagged) {
  const ProcessResult r =
      injected({"--steps", "1", "--long-message", "10000"}, {{"DAMSCOPE_NVTX_RING_KB", "16"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const TraceTables t = load("run.db");
  EXPECT_EQ(t.getStat("collector.nvtx_truncated_messages"), 1);
  bool found = false;
  for (size_t i = 0; i < t.ranges.size(); ++i) {
    const std::string n = text(t, t.ranges.name[i]);
    if (n.rfind(R"({"blob":"xxx)", 0) == 0) {
      found = true;
      EXPECT_EQ(n.size(), 4096u);  // a quarter of the 16 KiB ring
      EXPECT_EQ(t.ranges.args[i], R"({"truncated":true})");
    }
  }
  EXPECT_TRUE(found);
}

TEST_F(Record, RingOverflowDropsWholeRangesAndCountsThem) {
  // A 16 KiB ring and a burst of 200,000 push/pop pairs: the writer cannot
  // keep up, some pairs are lost, none is half-recorded.
  const ProcessResult r =
      injected({"--steps", "0", "--burst", "200000"}, {{"DAMSCOPE_NVTX_RING_KB", "16"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const TraceTables t = load("run.db");
  const int64_t kept = static_cast<int64_t>(rangesNamed(t, "burst").size());
  const int64_t lost = t.getStat("collector.nvtx_ring_overflow");
  EXPECT_GT(lost, 0);
  EXPECT_GT(kept, 0);
  EXPECT_EQ(kept + lost, 200000);
  EXPECT_EQ(t.getStat("collector.dropped_records"), lost);
  EXPECT_EQ(t.getStat("collector.nvtx_unmatched_pops"), 0);
  for (size_t s : rangesNamed(t, "burst")) ASSERT_EQ(t.ranges.depth[s], 0);
  // Where: spans inside the window hold every lost pair, and they meet the
  // burst (the kept pairs' times bound it from the first one on).
  int64_t placed = 0;
  bool meets_burst = false;
  int64_t burst_start = INT64_MAX;
  for (size_t s : rangesNamed(t, "burst")) burst_start = std::min(burst_start, t.ranges.ts[s]);
  const int64_t window_start = std::stoll(t.getMeta("collector.window_start_ns"));
  const int64_t window_end = std::stoll(t.getMeta("collector.window_end_ns"));
  for (size_t i = 0; i < t.lost_spans.size(); ++i) {
    ASSERT_EQ(t.lost_spans.stat[i], "collector.nvtx_ring_overflow");
    placed += t.lost_spans.events[i];
    const int64_t end = t.lost_spans.ts[i] + t.lost_spans.dur[i];
    EXPECT_GE(t.lost_spans.ts[i], window_start);
    EXPECT_LE(end, window_end);
    meets_burst = meets_burst || end >= burst_start;
  }
  EXPECT_EQ(placed, lost);
  EXPECT_TRUE(meets_burst);
}

TEST_F(Record, SigtermFinishesTheTraceAndEndsTheProgramAsTheSignalWould) {
  const ProcessResult r = record({"-o", out("run.db")}, {"--steps", "2", "--signal", "TERM"});
  EXPECT_FALSE(r.exited);
  EXPECT_EQ(r.signal, SIGTERM) << r.err;
  EXPECT_EQ(r.err.find("still alive"), std::string::npos);
  const TraceTables t = load("run.db");
  EXPECT_EQ(t.getMeta("collector.end_reason"), "signal SIGTERM");
  EXPECT_EQ(rangesNamed(t, "step").size(), 2u);
  const auto dying = rangesNamed(t, "dying");
  ASSERT_EQ(dying.size(), 1u);
  EXPECT_EQ(t.ranges.args[dying[0]], R"({"open_at_end":true})");
  EXPECT_EQ(t.getStat("collector.nvtx_open_at_end"), 1);
}

TEST_F(Record, SigkillLeavesEverythingUpToTheLastCommit) {
  // 1.5 s of steps, then SIGKILL: nothing runs in the process after that, the
  // periodic commits (about once a second) hold the steps before it, and
  // record, which outlives the program, sorts the file.
  const ProcessResult r =
      record({"-o", out("run.db")}, {"--steps", "15", "--step-ms", "100", "--signal", "KILL"});
  EXPECT_EQ(r.signal, SIGKILL) << r.err;
  const TraceTables t = load("run.db");
  EXPECT_EQ(t.getMeta("collector.end_reason"), "");  // never closed
  EXPECT_EQ(t.getMeta("collector.finalized"), "1");
  const size_t steps = rangesNamed(t, "step").size();
  EXPECT_GE(steps, 5u);
  EXPECT_LE(steps, 15u);
  EXPECT_FALSE(t.counters.empty());
}

TEST_F(Record, ForkedChildIsNotRecordedAndDoesNotDisturbTheParent) {
  const ProcessResult r = record({"-o", out("run.db")}, {"--steps", "1", "--fork"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("child exited 0"), std::string::npos);
  const TraceTables t = load("run.db");
  EXPECT_TRUE(rangesNamed(t, "in_child").empty());
  EXPECT_EQ(rangesNamed(t, "step").size(), 1u);
  EXPECT_EQ(collector::listRunOutputs(out("run.db")).size(), 1u);
}

TEST_F(Record, EachProcessWritesItsOwnFileNamedByRankOrPid) {
  const std::string w = nvtxWorkloadBinary();
  std::vector<std::string> argv = {
      damscopeBinary(),
      "record",
      "-o",
      out("ranked.db"),
      "--",
      "/bin/sh",
      "-c",
      "RANK=0 WORLD_SIZE=2 " + w + " --steps 1 & RANK=1 WORLD_SIZE=2 " + w + " --steps 2; wait"};
  ProcessResult r = runProcess(argv, {{"DAMSCOPE_CONTROL_DIR", dir_.file("ctl")}}, dir_.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (int rank : {0, 1}) {
    const TraceTables t = load("ranked.rank" + std::to_string(rank) + ".db");
    ASSERT_EQ(t.processes.size(), 1u);
    EXPECT_EQ(t.processes.rank[0], rank);
    EXPECT_EQ(t.processes.world_size[0], 2);
    EXPECT_EQ(rangesNamed(t, "step").size(), static_cast<size_t>(rank + 1));
  }
  // Without a rank, the first process gets the name asked for, the others
  // their pid.
  argv = {damscopeBinary(),
          "record",
          "-o",
          out("plain.db"),
          "--",
          "/bin/sh",
          "-c",
          w + " --steps 1 --step-ms 200 & sleep 0.1; " + w + " --steps 1; wait"};
  r = runProcess(argv, {{"DAMSCOPE_CONTROL_DIR", dir_.file("ctl")}}, dir_.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto files = collector::listRunOutputs(out("plain.db"));
  ASSERT_EQ(files.size(), 2u) << r.err;
  EXPECT_EQ(files[0], out("plain.db"));
  EXPECT_EQ(fs::path(files[1]).filename().string().rfind("plain.pid", 0), 0u) << files[1];
  EXPECT_EQ(countOccurrences(r.err, "damscope: wrote "), 2u);
}

TEST_F(Record, AFileStillBeingWrittenIsNotFinalizedUnderItsWriter) {
  // The command's shell exits while its background child keeps recording.
  const std::string stop = out("stop");
  std::vector<std::string> argv = {damscopeBinary(),
                                   "record",
                                   "-o",
                                   out("run.db"),
                                   "--",
                                   "/bin/sh",
                                   "-c",
                                   nvtxWorkloadBinary() + " --until-file " + stop +
                                       " --step-ms 20 --pid-file " + out("pid") +
                                       " >/dev/null & sleep 0.5"};
  const ProcessResult r =
      runProcess(argv, {{"DAMSCOPE_CONTROL_DIR", dir_.file("ctl")}}, dir_.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find(out("run.db") + ": still being written by process"), std::string::npos)
      << r.err;
  // The background program is unharmed and finishes its file itself.
  writeFile(stop, "");
  // (It is not our child, and a container's init may not reap it: wait for
  // its file to say it is complete.)
  ASSERT_TRUE(waitFor([&] {
    auto trace = readTrace(out("run.db"));
    return trace.ok() && trace->getMeta("collector.end_reason") == "exit";
  }));
  const TraceTables t = load("run.db");
  EXPECT_EQ(t.getMeta("collector.end_reason"), "exit");
  EXPECT_EQ(t.getMeta("collector.finalized"), "0");
  EXPECT_GE(rangesNamed(t, "step").size(), 10u);
}

TEST_F(Record, DurationClosesTheWindowNotTheProgram) {
  const ProcessResult r =
      record({"-o", out("run.db"), "--duration", "0.4"}, {"--steps", "12", "--step-ms", "100"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("workload done"), std::string::npos);
  const TraceTables t = load("run.db");
  EXPECT_EQ(t.getMeta("collector.end_reason"), "duration");
  const size_t steps = rangesNamed(t, "step").size();
  EXPECT_GE(steps, 2u);
  EXPECT_LE(steps, 5u);
  const int64_t end = std::stoll(t.getMeta("collector.window_end_ns"));
  for (size_t i = 0; i < t.ranges.size(); ++i) EXPECT_LE(t.ranges.ts[i], end);
}

TEST_F(Record, DelayOpensTheWindowLater) {
  const ProcessResult r =
      record({"-o", out("run.db"), "--delay", "0.5"}, {"--steps", "12", "--step-ms", "100"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const TraceTables t = load("run.db");
  // The model mark and the first steps happened before the window.
  EXPECT_TRUE(rangesNamed(t, "async_io").empty());
  const size_t steps = rangesNamed(t, "step").size();
  EXPECT_GE(steps, 5u);
  EXPECT_LE(steps, 11u);
  const int64_t start = std::stoll(t.getMeta("collector.window_start_ns"));
  for (size_t i = 0; i < t.ranges.size(); ++i) EXPECT_GE(t.ranges.ts[i], start);
}

TEST_F(Record, ExistingOutputNeedsForce) {
  ASSERT_EQ(record({"-o", out("run.db")}, {"--steps", "1"}).exit_code, 0);
  const ProcessResult again = record({"-o", out("run.db")}, {"--steps", "1"});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_EQ(again.err,
            "damscope: " + out("run.db") + ": output exists (use --force to overwrite)\n");
  const ProcessResult forced = record({"-o", out("run.db"), "--force"}, {"--steps", "2"});
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_EQ(rangesNamed(load("run.db"), "step").size(), 2u);
}

TEST_F(Record, BadInputIsOneLineAndRunsNothing) {
  ProcessResult r = record({"-o", "/nonexistent-dir/run.db"}, {"--steps", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "damscope: /nonexistent-dir: output directory does not exist\n");
  EXPECT_TRUE(r.out.empty());
  r = record({"-o", out("run.db"), "--duration", "-1"}, {"--steps", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(countOccurrences(r.err, "\n"), 1u) << r.err;
  r = runProcess({damscopeBinary(), "record", "-o", out("run.db")}, {}, dir_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no command given"), std::string::npos) << r.err;
}

TEST_F(Record, OptionValuesBeyondTheirRangeAreOneLineNamingTheOptionAndStartNothing) {
  // Each of these once ran the program unrecorded (an overflowed window made
  // the library refuse its environment) or recorded until Ctrl-C (a window
  // that rounded to 0 ns, "no limit").
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"--duration", "1e10"},  {"--delay", "1e300"},   {"--duration", "1e-12"},
      {"--duration", "nan"},   {"--delay", "inf"},     {"--duration", "-1"},
      {"--sample-hz", "1e-5"}, {"--sample-hz", "nan"}, {"--max-size", "1099511627776"},
  };
  for (const auto& [option, value] : bad) {
    const ProcessResult r = record({"-o", out("run.db"), option, value},
                                   {"--steps", "1", "--pid-file", out("started")});
    EXPECT_EQ(r.exit_code, 2) << option << " " << value << ": " << r.err;
    EXPECT_EQ(r.err.rfind("damscope: " + option + ": ", 0), 0u) << r.err;
    EXPECT_EQ(countOccurrences(r.err, "\n"), 1u) << r.err;
    EXPECT_FALSE(fs::exists(out("started"))) << option << " " << value << " started the program";
    EXPECT_TRUE(collector::listRunOutputs(out("run.db")).empty());
  }
  // The bounds themselves are accepted.
  const ProcessResult r =
      record({"-o", out("run.db"), "--duration", "1e7", "--delay", "1e-9"}, {"--steps", "1"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(rangesNamed(load("run.db"), "step").size(), 1u);
}

TEST_F(Record, BadCountersAreOneLineNamingTheOptionAndStartNothing) {
  for (const std::string value : {"", "flop", "flops,", "flops,dram,flops", "dram,,flops"}) {
    const ProcessResult r = record({"-o", out("run.db"), "--counters", value},
                                   {"--steps", "1", "--pid-file", out("started")});
    EXPECT_EQ(r.exit_code, 2) << "'" << value << "': " << r.err;
    EXPECT_EQ(r.err.rfind("damscope: --counters: ", 0), 0u) << r.err;
    EXPECT_EQ(countOccurrences(r.err, "\n"), 1u) << r.err;
    EXPECT_FALSE(fs::exists(out("started"))) << "'" << value << "' started the program";
  }
}

TEST_F(Record, CountersWithoutAGpuSayWhyOnceAndTheProgramRunsWithItsExitCode) {
  const ProcessResult r = record({"-o", out("run.db"), "--counters", "dram,flops"},
                                 {"--steps", "2", "--exit-code", "6"});
  ASSERT_TRUE(r.exited) << r.err;
  EXPECT_EQ(r.exit_code, 6) << r.err;
  // The cost is said before the program starts, the outcome once after.
  EXPECT_EQ(countOccurrences(r.err, "--counters flops,dram: every kernel launch waits"), 1u)
      << r.err;
  EXPECT_EQ(countOccurrences(r.err,
                             "hardware counters (flops,dram) cannot be measured: no NVIDIA "
                             "driver"),
            1u)
      << r.err;
  EXPECT_EQ(countOccurrences(r.err, "hardware counters (flops,dram) not measured: "), 1u) << r.err;

  const TraceTables t = load("run.db");
  EXPECT_EQ(t.getMeta("collector.counters_requested"), "flops,dram");
  EXPECT_EQ(t.getMeta("collector.counters").rfind("not measured: no NVIDIA driver", 0), 0u)
      << t.getMeta("collector.counters");
  EXPECT_EQ(t.getStat("collector.counters_measured_launches"), 0);
  EXPECT_TRUE(t.kernel_metrics.empty());
  EXPECT_EQ(rangesNamed(t, "step").size(), 2u);  // everything else recorded as usual
}

TEST_F(Record, WithoutCountersNothingIsSaidOrWrittenAboutThem) {
  const ProcessResult r = record({"-o", out("run.db")}, {"--steps", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("counters"), std::string::npos) << r.err;
  const TraceTables t = load("run.db");
  EXPECT_EQ(t.getMeta("collector.counters"), "");
  EXPECT_EQ(t.getStat("collector.counters_measured_launches"), 0);
}

TEST_F(Record, ACommandThatNeverUsesCudaOrNvtxLeavesNoFileAndSaysWhy) {
  const ProcessResult r =
      runProcess({damscopeBinary(), "record", "-o", out("run.db"), "--", "/bin/sh", "-c", "exit 9"},
                 {}, dir_.path());
  EXPECT_EQ(r.exit_code, 9);
  EXPECT_NE(r.err.find("no trace was written: the collector starts at a process's first NVTX call "
                       "or CUDA initialization, and the command made neither"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(collector::listRunOutputs(out("run.db")).empty());
}

TEST_F(Record, CommandNotFoundExits127LikeAShell) {
  const ProcessResult r =
      runProcess({damscopeBinary(), "record", "-o", out("run.db"), "--", "/nonexistent/program"},
                 {}, dir_.path());
  EXPECT_EQ(r.exit_code, 127);
  EXPECT_NE(r.err.find("damscope: /nonexistent/program: No such file or directory"),
            std::string::npos)
      << r.err;
}

// --- The library never hurts the target --------------------------------------

TEST_F(Record, UnwritableOutputLeavesTheProgramRunningWithItsExitCode) {
  const ProcessResult r = injected({"--steps", "2", "--exit-code", "5"},
                                   {{"DAMSCOPE_OUTPUT", "/proc/damscope-cannot-write/run.db"}});
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_NE(r.out.find("workload done"), std::string::npos);
  EXPECT_EQ(countOccurrences(r.err, "damscope:"), 1u) << r.err;
  EXPECT_NE(r.err.find("/proc/damscope-cannot-write/run.db: cannot create trace file"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("not recording this process"), std::string::npos);
}

TEST_F(Record, SizeLimitStopsWritingCountsWhatFollowsAndTheProgramRunsOn) {
  // 1 MB; 200,000 ranges, paced so the writer keeps up, need far more. The
  // steps take 1.5 s, so periodic commits hold some of them before the burst
  // reaches the limit.
  const ProcessResult r =
      record({"-o", out("run.db"), "--max-size", "1"},
             {"--steps", "3", "--step-ms", "500", "--paced-burst", "200000", "--exit-code", "4"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.out.find("workload done"), std::string::npos);
  EXPECT_EQ(countOccurrences(r.err, "reached the size limit of 1 MB (--max-size)"), 1u) << r.err;
  const TraceTables t = load("run.db");  // a complete trace, closed as usual
  EXPECT_EQ(t.getMeta("collector.end_reason"), "exit");
  const size_t steps = rangesNamed(t, "step").size();
  EXPECT_GE(steps, 1u);
  EXPECT_LE(steps, 3u);
  EXPECT_LT(fs::file_size(out("run.db")), 1u << 20);
  // What was not written is counted: every paced range is in the file, was
  // dropped by its ring, or was counted after the limit (with CPU samples).
  const int64_t after = t.getStat("collector.dropped_after_max_size");
  EXPECT_GT(after, 0);
  EXPECT_GE(static_cast<int64_t>(rangesNamed(t, "paced").size()) + after +
                t.getStat("collector.nvtx_ring_overflow"),
            200000);
  // Where: from the commit that met the limit on, one span (consecutive
  // commits extend it), ending after every range that was written.
  int64_t last_written = 0;
  for (size_t i = 0; i < t.ranges.size(); ++i)
    last_written = std::max(last_written, t.ranges.ts[i]);
  std::vector<size_t> spans;
  for (size_t i = 0; i < t.lost_spans.size(); ++i) {
    if (t.lost_spans.stat[i] == "collector.dropped_after_max_size") spans.push_back(i);
  }
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(t.lost_spans.events[spans[0]], after);
  const int64_t end = t.lost_spans.ts[spans[0]] + t.lost_spans.dur[spans[0]];
  EXPECT_LE(end, std::stoll(t.getMeta("collector.window_end_ns")));
  EXPECT_GT(end, last_written);
}

TEST_F(Record, SizeLimitIs4GiBByDefaultAndCanBeLifted) {
  collector::RecordOptions options;
  options.output = out("run.db");
  options.command = {"true"};
  auto prepared = collector::prepareRecord(options);
  ASSERT_TRUE(prepared.ok()) << prepared.error().message();
  const auto& env = prepared->environment;
  EXPECT_NE(std::find(env.begin(), env.end(), "DAMSCOPE_MAX_SIZE_MB=4096"), env.end());
  const ProcessResult r =
      record({"-o", out("run.db"), "--max-size", "unlimited"}, {"--steps", "1"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(rangesNamed(load("run.db"), "step").size(), 1u);
}

TEST_F(Record, AnAlreadyFullDiskIsBlamedNotTheCommand) {
  // A real full file system: a small tmpfs, filled (needs mount rights).
  const std::string full = out("full");
  fs::create_directory(full);
  if (std::system(("mount -t tmpfs -o size=2m tmpfs " + full + " 2>/dev/null").c_str()) != 0) {
    GTEST_SKIP() << "cannot mount a tmpfs here";
  }
  std::system(("dd if=/dev/zero of=" + full + "/filler bs=64k 2>/dev/null").c_str());
  const ProcessResult r =
      record({"-o", full + "/run.db"}, {"--steps", "1", "--pid-file", out("started")});
  std::system(("umount " + full).c_str());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("damscope: " + full + ": the disk is full (", 0), 0u) << r.err;
  EXPECT_EQ(countOccurrences(r.err, "\n"), 1u) << r.err;
  EXPECT_EQ(r.err.find("the command made neither"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out("started")));
}

TEST_F(Record, MissingCuptiIsSaidOnceAndNvtxStillRecorded) {
  // --call-cuda-injection does what the CUDA driver does in cuInit.
  const ProcessResult r = injected({"--steps", "1", "--call-cuda-injection"},
                                   {{"DAMSCOPE_CUPTI_PATH", "/nonexistent/libcupti.so.13"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("InitializeInjection returned 1"), std::string::npos);
  EXPECT_EQ(countOccurrences(r.err, "CUPTI cannot be loaded"), 1u) << r.err;
  const TraceTables t = load("run.db");
  EXPECT_EQ(rangesNamed(t, "step").size(), 1u);
  EXPECT_NE(t.getMeta("collector.gpu").find("CUPTI cannot be loaded"), std::string::npos);
}

TEST_F(Record, CuptiWithoutAGpuSaysWhyAndNvtxStillRecorded) {
  const ProcessResult r = injected({"--steps", "1", "--call-cuda-injection"}, {});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const TraceTables t = load("run.db");
  EXPECT_EQ(rangesNamed(t, "step").size(), 1u);
  const std::string gpu = t.getMeta("collector.gpu");
  if (gpu.find("CUPTI cannot be loaded") != std::string::npos) {
    GTEST_SKIP() << "no libcupti on this machine: " << gpu;
  }
  // libcupti loads, but cuptiSubscribe fails without a driver.
  EXPECT_NE(gpu.find("cuptiSubscribe failed"), std::string::npos) << gpu;
  EXPECT_EQ(countOccurrences(r.err, "cuptiSubscribe failed"), 1u) << r.err;
}

TEST_F(Record, BadSettingsLeaveTheProgramAlone) {
  const ProcessResult r =
      injected({"--steps", "1", "--exit-code", "6"}, {{"DAMSCOPE_SAMPLE_HZ", "fast"}});
  EXPECT_EQ(r.exit_code, 6);
  EXPECT_EQ(r.err,
            "damscope: bad environment: DAMSCOPE_SAMPLE_HZ=fast: expected a number from "
            "0 to 10000; not recording this process\n");
  EXPECT_FALSE(fs::exists(out("run.db")));
}

}  // namespace
}  // namespace damscope
