// gpt2-train end to end, as a user runs it: --help, bad input (exit 2, one
// line), checkpoint resumption, determinism across processes, learning on a
// real text file, every scenario, --print-ops, and the NVTX annotations as
// an injected recorder sees them (nvtx_recorder.cc).
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

struct RunResult {
  int status = -1;
  std::string out, err;
};

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs gpt2-train with args (and environment assignments before it).
// Per process: ctest runs the cases of this binary in parallel processes.
std::string tempPath(const std::string& name) {
  return ::testing::TempDir() + std::to_string(getpid()) + "_" + name;
}

RunResult run(const std::vector<std::string>& args, const std::string& env = "") {
  const std::string out = tempPath("gpt2_cli_out.txt"), err = tempPath("gpt2_cli_err.txt");
  std::string cmd = env + " " + quote(GPT2_TRAIN_PATH);
  for (const std::string& a : args) cmd += " " + quote(a);
  cmd += " > " + quote(out) + " 2> " + quote(err);
  const int raw = std::system(cmd.c_str());
  RunResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = readFile(out);
  r.err = readFile(err);
  return r;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The loss of each step of a --log-json file, as written (9 significant
// digits: a float survives the round trip, so equal text is equal bits).
std::map<int, std::string> lossesOf(const std::string& log_path) {
  std::map<int, std::string> out;
  for (const std::string& l : lines(readFile(log_path))) {
    const json j = json::parse(l);
    const size_t at = l.find("\"loss\":") + 7;
    out[j["step"].get<int>()] = l.substr(at, l.find(',', at) - at);
  }
  return out;
}

int availableCpus() {
  cpu_set_t set;
  return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
}

// A short tiny run: fast enough for a dozen of them in a test.
std::vector<std::string> tinyRun(int steps) {
  return {"--config",  "tiny", "--batch", "2", "--seq", "32", "--steps", std::to_string(steps),
          "--threads", "2"};
}

std::vector<std::string> plus(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(TrainerCliTest, HelpListsEveryFlagScenarioAndConfigWithDefaults) {
  const RunResult r = run({"--help"});
  EXPECT_EQ(r.status, 0);
  for (const char* flag : {"--device",        "--config",   "--steps",          "--batch",
                           "--seq",           "--lr ",      "--warmup",         "--lr-schedule",
                           "--seed",          "--data",     "--loader-workers", "--prefetch",
                           "--batch-cost-ms", "--scenario", "--log-json",       "--save",
                           "--load",          "--threads",  "--pad-vocab",      "--print-ops",
                           "--help"}) {
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
  }
  for (const char* text : {"balanced:", "data-bound:", "compute-bound:", "memory-bound:", "tiny ",
                           "small ", "124m ", "1.5b ", "[20]", "[small]", "[1337]"}) {
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
  }
}

struct BadInput {
  std::string name;  // the test case's name
  std::vector<std::string> args;
  std::string expected;  // part of the one error line
};

class TrainerBadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(TrainerBadInputTest, ExitsTwoWithOneLine) {
  const RunResult r = run(GetParam().args);
  EXPECT_EQ(r.status, 2);
  const auto err = lines(r.err);
  ASSERT_EQ(err.size(), 1u) << r.err;
  EXPECT_EQ(err[0].rfind("gpt2-train: ", 0), 0u) << err[0];
  EXPECT_NE(err[0].find(GetParam().expected), std::string::npos) << err[0];
  EXPECT_EQ(r.out.find("step "), std::string::npos) << "no training after an error";
}

std::string emptyFile() {
  std::string path = tempPath("gpt2_cli_empty.txt");
  std::ofstream(path).close();
  return path;
}

// A FIFO that no one writes: a reader that opens it waits forever.
std::string fifo() {
  std::string path = tempPath("gpt2_cli_fifo");
  ::unlink(path.c_str());
  if (::mkfifo(path.c_str(), 0600) != 0) ADD_FAILURE() << "mkfifo " << path;
  return path;
}

std::string garbageFile() {
  std::string path = tempPath("gpt2_cli_garbage.bin");
  std::ofstream(path) << "not a checkpoint at all";
  return path;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, TrainerBadInputTest,
    ::testing::Values(
        BadInput{"MissingDataFile",
                 {"--data", "/nonexistent/gpt2-data.txt"},
                 "gpt2-data.txt: cannot open: No such file or directory"},
        BadInput{"EmptyDataFile", {"--data", emptyFile()}, "the data file is empty"},
        BadInput{
            "ZeroSteps", {"--steps", "0"}, "--steps: '0' is not a whole number from 1 to 10000000"},
        BadInput{"StepsNotANumber", {"--steps", "ten"}, "--steps: 'ten' is not a whole number"},
        BadInput{"StepsWithTrailingText", {"--steps", "3x"}, "--steps: '3x' is not a whole number"},
        BadInput{"LrNotANumber", {"--lr", "fast"}, "--lr: 'fast' is not a number"},
        BadInput{"FlagWithoutValue", {"--steps"}, "--steps needs a value"},
        BadInput{"UnknownScenario", {"--scenario", "fast"}, "unknown scenario 'fast'"},
        BadInput{"UnknownConfig", {"--config", "huge"}, "unknown config 'huge'"},
        BadInput{"UnknownFlag", {"--bogus"}, "unknown flag --bogus"},
        BadInput{"StrayArgument", {"stray"}, "unexpected argument 'stray'"},
        BadInput{"CudaDeviceWithoutOne", {"--device", "cuda"}, "--device cuda: "},
        BadInput{"UnknownDevice", {"--device", "tpu"}, "unknown device 'tpu'"},
        BadInput{"Bf16OnTheCpu", {"--precision", "bf16"}, "the CPU backend computes in fp32 only"},
        BadInput{"FusedAttentionOnTheCpu",
                 {"--attention", "fused"},
                 "the CPU backend has naive attention only"},
        BadInput{"CudaGraphOnTheCpu", {"--cuda-graph"}, "--cuda-graph needs --device cuda"},
        BadInput{"GpuScenarioOnTheCpu",
                 {"--scenario", "launch-bound"},
                 "scenario launch-bound is for --device cuda"},
        BadInput{"DataParallelScenarioAlone",
                 {"--scenario", "communication-bound"},
                 "needs at least 2 data-parallel ranks"},
        BadInput{"StragglerBeyondTheRanks",
                 {"--straggler-rank", "1"},
                 "--straggler-rank 1 is not a rank of this 1-rank job"},
        BadInput{"ZeroBucket",
                 {"--bucket-mb", "0"},
                 "--bucket-mb: '0' is not a number from 0.001 to 1000"},
        BadInput{"UnknownLrSchedule",
                 {"--lr-schedule", "linear"},
                 "unknown learning-rate schedule 'linear'"},
        BadInput{"SeqBeyondContext",
                 {"--seq", "4096"},
                 "--seq 4096 exceeds config small's context of 128"},
        BadInput{"ZeroThreads",
                 {"--threads", "0"},
                 "--threads: '0' is not a whole number from 1 to 1024"},
        // Issue 32 §3, §4: sizes and durations past their documented ranges.
        BadInput{"HundredThousandThreads",
                 {"--threads", "100000"},
                 "--threads: '100000' is not a whole number from 1 to 1024"},
        BadInput{"HundredThousandLoaderWorkers",
                 {"--loader-workers", "100000"},
                 "--loader-workers: '100000' is not a whole number from 0 to 1024"},
        BadInput{"BatchCostOf1e308Ms",
                 {"--batch-cost-ms", "1e308"},
                 "--batch-cost-ms: '1e308' is not a number from 0 to 60000"},
        BadInput{"StepsPastInt", {"--steps", "99999999999"}, "is not a whole number from 1 to"},
        BadInput{"NegativeStragglerMs", {"--straggler-ms", "-1"}, "is not a number from 0 to"},
        BadInput{"NanLr", {"--lr", "nan"}, "--lr: 'nan' is not a number"},
        BadInput{"InfiniteBucket", {"--bucket-mb", "inf"}, "is not a number from 0.001 to 1000"},
        // Issue 32 §3, §4: data and checkpoints that are not regular files.
        BadInput{"DataIsADirectory", {"--data", "/"}, "/: is a directory"},
        BadInput{"DataIsDevZero", {"--data", "/dev/zero"}, "/dev/zero: is not a regular file"},
        BadInput{"DataIsAFifo", {"--data", fifo()}, "is not a regular file"},
        BadInput{"CheckpointIsADirectory", {"--load", "/"}, "/: is a directory"},
        BadInput{"CheckpointIsAFifo", {"--load", fifo()}, "is not a regular file"},
        BadInput{
            "ConfigTooBigForMemory", {"--config", "1.5b", "--batch", "512"}, "needs an estimated"},
        BadInput{"MissingCheckpoint",
                 {"--load", "/nonexistent/ckpt.bin"},
                 "ckpt.bin: cannot open: No such file or directory"},
        BadInput{"NotACheckpoint", {"--load", garbageFile()}, "not a gpt2-train checkpoint"},
        BadInput{"SaveIntoMissingDirectory",
                 {"--save", "/nonexistent/dir/ckpt.bin"},
                 "is not writable"}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return info.param.name; });

TEST(TrainerCliTest, TooBigAConfigIsRefusedWithTheEstimateBeforeAllocating) {
  const RunResult r = run({"--config", "1.5b", "--batch", "512"});
  EXPECT_EQ(r.status, 2);
  for (const char* part : {"parameters", "AdamW moments", "activations", "MemAvailable"}) {
    EXPECT_NE(r.err.find(part), std::string::npos) << r.err;
  }
}

TEST(TrainerCliTest, CheckpointResumesWithTheUninterruptedRunsLosses) {
  const std::string whole = tempPath("gpt2_whole.jsonl"), resumed = tempPath("gpt2_resumed.jsonl"),
                    checkpoint = tempPath("gpt2_ckpt.bin");
  ASSERT_EQ(run(plus(tinyRun(6), {"--log-json", whole})).status, 0);
  const RunResult first = run(plus(tinyRun(3), {"--save", checkpoint}));
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_NE(first.out.find("saved " + checkpoint + " at step 3"), std::string::npos);
  // Resume with no shape flags: the checkpoint supplies config, batch, seq, seed.
  const RunResult second =
      run({"--load", checkpoint, "--steps", "6", "--threads", "2", "--log-json", resumed});
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_NE(second.out.find("resumed at step 3"), std::string::npos);
  const auto a = lossesOf(whole), b = lossesOf(resumed);
  ASSERT_EQ(b.size(), 3u);
  for (int step = 4; step <= 6; ++step) EXPECT_EQ(a.at(step), b.at(step)) << "step " << step;
  // A checkpoint at the end of the run leaves nothing to do.
  const RunResult done = run({"--load", checkpoint, "--steps", "3"});
  EXPECT_EQ(done.status, 2);
  EXPECT_NE(done.err.find("leaves nothing to run"), std::string::npos) << done.err;
  // An explicit, different shape cannot resume it exactly.
  const RunResult other = run({"--load", checkpoint, "--steps", "6", "--batch", "3"});
  EXPECT_EQ(other.status, 2);
  EXPECT_NE(other.err.find("written with --batch 2"), std::string::npos) << other.err;
}

// Issue 32 §4: a data-source length byte of 0xff pointed into the tensors,
// whose bytes were printed as the "data source". The lengths are checked
// against the config and the file's size.
TEST(TrainerCliTest, CheckpointWithADamagedLengthIsRefused) {
  const std::string checkpoint = tempPath("gpt2_cli_damaged.ckpt");
  ASSERT_EQ(run(plus(tinyRun(1), {"--save", checkpoint})).status, 0);
  std::string bytes = readFile(checkpoint);
  // Magic, version and six i32 (36 bytes), the config name (u32 length and
  // text), steps, seed, batch, seq and next batch (32 bytes): then the data
  // description's u32 length.
  ASSERT_GT(bytes.size(), 40u);
  uint32_t name_bytes = 0;
  std::memcpy(&name_bytes, bytes.data() + 36, 4);
  const size_t data_length_at = 36 + 4 + static_cast<size_t>(name_bytes) + 32;
  ASSERT_LT(data_length_at, bytes.size());
  bytes[data_length_at] = static_cast<char>(0xff);
  std::ofstream(checkpoint, std::ios::binary | std::ios::trunc) << bytes;
  const RunResult r = run(plus(tinyRun(2), {"--load", checkpoint}));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("damaged checkpoint header"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("step "), std::string::npos) << r.out;
  std::remove(checkpoint.c_str());
}

// A checkpoint cut short or grown is refused before training starts.
TEST(TrainerCliTest, CheckpointOfTheWrongSizeIsRefused) {
  const std::string checkpoint = tempPath("gpt2_cli_resized.ckpt");
  ASSERT_EQ(run(plus(tinyRun(1), {"--save", checkpoint})).status, 0);
  const std::string bytes = readFile(checkpoint);
  for (const std::string& changed : {bytes.substr(0, bytes.size() - 4), bytes + "tail"}) {
    std::ofstream(checkpoint, std::ios::binary | std::ios::trunc) << changed;
    const RunResult r = run(plus(tinyRun(2), {"--load", checkpoint}));
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("bytes of tensors, its header announces"), std::string::npos) << r.err;
  }
  std::remove(checkpoint.c_str());
}

TEST(TrainerCliTest, SameSeedGivesBitIdenticalLossesAcrossProcesses) {
  const std::string a = tempPath("gpt2_seed_a.jsonl"), b = tempPath("gpt2_seed_b.jsonl"),
                    c = tempPath("gpt2_seed_c.jsonl");
  ASSERT_EQ(run(plus(tinyRun(3), {"--log-json", a, "--loader-workers", "0"})).status, 0);
  ASSERT_EQ(run(plus(tinyRun(3), {"--log-json", b, "--loader-workers", "3"})).status, 0);
  ASSERT_EQ(run(plus(tinyRun(3), {"--log-json", c, "--seed", "7"})).status, 0);
  EXPECT_EQ(lossesOf(a), lossesOf(b));  // any number of loader threads
  EXPECT_NE(lossesOf(a), lossesOf(c));
}

TEST(TrainerCliTest, StepLinesAndJsonLog) {
  const std::string log = tempPath("gpt2_log.jsonl");
  const RunResult r = run(plus(tinyRun(2), {"--log-json", log}));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("step    2/2 | loss "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" tok/s | MFU "), std::string::npos);
  EXPECT_NE(r.out.find("peak "), std::string::npos);
  const auto log_lines = lines(readFile(log));
  ASSERT_EQ(log_lines.size(), 2u);
  const json j = json::parse(log_lines[1]);
  for (const char* key : {"step", "loss", "step_ms", "tokens_per_s", "mfu_pct", "lr", "grad_norm"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["step"], 2);
  EXPECT_GT(j["step_ms"].get<double>(), 0);
}

TEST(TrainerCliTest, LossFallsOnARealTextFile) {
  const std::string text = "/usr/share/common-licenses/GPL-3";
  if (!std::ifstream(text)) GTEST_SKIP() << text << " is absent";
  const std::string log = tempPath("gpt2_gpl.jsonl");
  const RunResult r = run({"--config", "tiny", "--data", text, "--steps", "40", "--lr", "3e-3",
                           "--threads", "2", "--log-json", log});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto losses = lossesOf(log);
  const double first = std::stod(losses.at(1)), last = std::stod(losses.at(40));
  EXPECT_NEAR(first, std::log(256.0), 0.1);
  EXPECT_LT(last, first - 2.0) << "first " << first << ", last " << last;
}

TEST(TrainerCliTest, EveryScenarioRuns) {
  // One step each (two for data-bound, whose second step shows the stall),
  // to keep the suite short; bench/gpt2_bench.sh runs them for real.
  for (const std::string scenario : {"balanced", "data-bound", "compute-bound", "memory-bound"}) {
    const std::string log = tempPath("gpt2_scenario.jsonl");
    const int steps = scenario == "data-bound" ? 2 : 1;
    const RunResult r =
        run({"--scenario", scenario, "--steps", std::to_string(steps), "--log-json", log});
    ASSERT_EQ(r.status, 0) << scenario << ": " << r.err;
    EXPECT_NE(r.out.find("scenario " + scenario), std::string::npos);
    const auto log_lines = lines(readFile(log));
    ASSERT_EQ(log_lines.size(), size_t(steps)) << scenario;
    if (scenario == "data-bound") {
      // No prefetch: every step waits for a whole batch's production.
      EXPECT_GE(json::parse(log_lines[1])["step_ms"].get<double>(), 290.0);
    }
  }
}

// Per op kind of a --print-ops listing: FLOPs, bytes.
std::map<std::string, std::pair<double, double>> opTotals(const std::string& listing) {
  std::map<std::string, std::pair<double, double>> totals;
  for (const std::string& l : lines(listing)) {
    const json j = json::parse(l);
    auto& t = totals[j["op"].get<std::string>()];
    t.first += j["flops"].get<double>();
    t.second += j["bytes"].get<double>();
  }
  return totals;
}

TEST(TrainerCliTest, PrintOpsListsOneStepsAnnotations) {
  const RunResult r = run({"--config", "small", "--print-ops"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto ops = lines(r.out);
  EXPECT_EQ(ops.size(), 20u * 4 + 10);  // 10 per block forward and backward, 10 outside
  const json qkv = json::parse(ops[2]);
  EXPECT_EQ(qkv["op"], "matmul_fwd");
  EXPECT_EQ(qkv["name"], "qkv");
  EXPECT_EQ(qkv["layer"], 0);
  // 2 * rows * C * 3C + rows * 3C with rows = 4 * 128, C = 256
  EXPECT_EQ(qkv["flops"].get<int64_t>(), 2LL * 512 * 256 * 768 + 512 * 768);
}

TEST(TrainerCliTest, MemoryBoundScenariosOpsSitFarBelowAnyCpuRidge) {
  // A CPU's ridge point (peak FLOP/s over bandwidth) is about 5-20 FLOP/B;
  // the memory-bound scenario's attention and elementwise ops must stay
  // well under it by their annotated counts.
  const RunResult r = run({"--scenario", "memory-bound", "--print-ops"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto totals = opTotals(r.out);
  for (const char* op : {"attention_fwd", "attention_bwd", "gelu_fwd", "gelu_bwd", "layernorm_fwd",
                         "layernorm_bwd", "residual_fwd", "crossentropy_fwd", "adamw"}) {
    const auto& t = totals.at(op);
    EXPECT_LT(t.first / t.second, 2.0) << op;
  }
}

#ifdef GPT2_NVTX_RECORDER_PATH
struct NvtxEvent {
  std::string kind, tid, domain, message, payload;
};

std::vector<NvtxEvent> recordedRun(const std::vector<std::string>& args) {
  const std::string log = tempPath("gpt2_nvtx.tsv");
  std::remove(log.c_str());
  const RunResult r = run(args, "NVTX_INJECTION64_PATH=" + quote(GPT2_NVTX_RECORDER_PATH) +
                                    " GPT2_NVTX_LOG=" + quote(log));
  EXPECT_EQ(r.status, 0) << r.err;
  std::vector<NvtxEvent> events;
  for (const std::string& l : lines(readFile(log))) {
    NvtxEvent e;
    std::istringstream fields(l);
    std::getline(fields, e.kind, '\t');
    std::getline(fields, e.tid, '\t');
    std::getline(fields, e.domain, '\t');
    std::getline(fields, e.message, '\t');
    std::getline(fields, e.payload, '\t');
    events.push_back(e);
  }
  return events;
}

TEST(TrainerCliTest, NvtxAnnotationsAsARecorderSeesThem) {
  const auto events = recordedRun(plus(tinyRun(2), {"--loader-workers", "2"}));
  ASSERT_FALSE(events.empty());
  std::map<std::string, std::string> thread_names;  // tid -> name
  for (const NvtxEvent& e : events) {
    if (e.kind == "name") thread_names[e.tid] = e.domain;  // the name is the third field
  }
  std::string train_tid;
  for (const auto& [tid, name] : thread_names) {
    if (name == "train") train_tid = tid;
  }
  ASSERT_FALSE(train_tid.empty());
  int loaders = 0;
  for (const auto& [tid, name] : thread_names) loaders += name.rfind("loader-", 0) == 0;
  EXPECT_EQ(loaders, 2);

  // The model mark: every key the analyzer reads.
  int marks = 0;
  for (const NvtxEvent& e : events) {
    if (e.kind != "mark") continue;
    ++marks;
    EXPECT_EQ(e.domain, "damscope");
    const json j = json::parse(e.message);
    EXPECT_EQ(j["model"], "gpt2");
    EXPECT_EQ(j["config"], "tiny");
    EXPECT_EQ(j["params"], 437760);
    EXPECT_EQ(j["layers"], 2);
    EXPECT_EQ(j["d_model"], 128);
    EXPECT_EQ(j["heads"], 4);
    EXPECT_EQ(j["seq_len"], 32);
    EXPECT_EQ(j["vocab"], 256);
    EXPECT_EQ(j["batch"], 2);
    EXPECT_EQ(j["tokens_per_step"], 64);
    EXPECT_EQ(j["precision"], "fp32");
    EXPECT_EQ(j["device"]["kind"], "cpu");
    EXPECT_EQ(j["device"]["cores"], std::min(2, availableCpus()));  // --threads 2
    EXPECT_GT(j["device"]["peak_tflops"].get<double>(), 0);
    EXPECT_GT(j["device"]["bandwidth_gbs"].get<double>(), 0);
    EXPECT_TRUE(j["device"]["name"].is_string());
  }
  EXPECT_EQ(marks, 1);

  // Ranges: all in domain damscope, balanced per thread; on the training
  // thread two steps, each holding data, forward, backward, optimizer and
  // the op ranges; load_batch on the loader threads.
  std::map<std::string, std::vector<std::string>> stacks;
  std::map<std::string, int> top_level, ops_by_name;
  int steps = 0, op_ranges = 0, load_batches = 0;
  double matmul_flops = 0;
  for (const NvtxEvent& e : events) {
    if (e.kind != "push" && e.kind != "pop") continue;
    EXPECT_EQ(e.domain, "damscope");
    auto& stack = stacks[e.tid];
    if (e.kind == "pop") {
      ASSERT_FALSE(stack.empty());
      stack.pop_back();
      continue;
    }
    if (e.tid != train_tid) {
      EXPECT_EQ(e.message, "load_batch");
      EXPECT_TRUE(stack.empty());
      ++load_batches;
    } else if (stack.empty()) {
      EXPECT_EQ(e.message, "step");
      EXPECT_EQ(e.payload, std::to_string(steps));
      ++steps;
    } else if (stack.size() == 1) {
      ++top_level[e.message];
    } else {
      EXPECT_EQ(stack.size(), 2u) << "op ranges sit inside a phase and do not nest";
      const json j = json::parse(e.message);
      ++op_ranges;
      ++ops_by_name[j["op"].get<std::string>() +
                    (j.contains("name") ? ":" + j["name"].get<std::string>() : "")];
      EXPECT_GE(j["bytes"].get<double>(), 0);
      if (j["op"].get<std::string>().rfind("matmul", 0) == 0)
        matmul_flops += j["flops"].get<double>();
    }
    stack.push_back(e.message);
  }
  for (const auto& [tid, stack] : stacks) EXPECT_TRUE(stack.empty()) << tid;
  EXPECT_EQ(steps, 2);
  for (const char* phase : {"data", "forward", "backward", "optimizer"}) {
    EXPECT_EQ(top_level[phase], 2) << phase;
  }
  EXPECT_EQ(op_ranges, 2 * (20 * 2 + 10));
  EXPECT_GE(load_batches, 2);
  EXPECT_EQ(ops_by_name["matmul_fwd:qkv"], 4);
  EXPECT_EQ(ops_by_name["matmul_bwd:lm_head"], 2);
  EXPECT_EQ(ops_by_name["attention_bwd"], 4);
  EXPECT_EQ(ops_by_name["adamw"], 2);
  EXPECT_EQ(ops_by_name["grad_norm"], 2);
  // The matmuls' annotated FLOPs against 6 N per token (tiny: N = 437,760,
  // 64 tokens a step, two steps).
  EXPECT_NEAR(matmul_flops / (2 * 6.0 * 437760 * 64), 1.0, 0.05);
}
#endif

}  // namespace
