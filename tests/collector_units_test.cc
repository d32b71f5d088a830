// The collector's building blocks on their own: the CUPTI buffer pool and the
// NVTX ring (including under concurrent producers), text encoding, step
// names, settings from the environment, per-process output names, the attach
// protocol and its access checks, /proc parsing for the CPU sampler, the
// CUPTI holder guess, and the CUDA API name table.
#include <gtest/gtest.h>
#include <dlfcn.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <map>
#include <set>
#include <thread>

#include "collector/api_names.h"
#include "collector/buffer_pool.h"
#include "collector/collector_config.h"
#include "collector/control_channel.h"
#include "collector/cpu_sampler.h"
#include "collector/cupti_activity_decoder.h"
#include "collector/cupti_holder.h"
#include "collector/exit_order.h"
#include "collector/gpu_activity_rows.h"
#include "collector/nvtx_assembler.h"
#include "collector/nvtx_ring.h"
#include "collector/output_naming.h"
#include "collector/text_encoding.h"
#include "tests/test_support.h"
#include "base/json_text.h"

namespace damscope::collector {
namespace {

using damscope::testing::TempDir;

GetEnv envFrom(std::map<std::string, std::string> values) {
  auto shared = std::make_shared<std::map<std::string, std::string>>(std::move(values));
  return [shared](const char* name) -> const char* {
    auto it = shared->find(name);
    return it == shared->end() ? nullptr : it->second.c_str();
  };
}

// --- BufferPool ----------------------------------------------------------------

TEST(BufferPool, LendsEveryBufferOnceThenCountsExhaustion) {
  auto pool = BufferPool::create(4096, 3);
  ASSERT_TRUE(pool);
  std::set<uint8_t*> lent;
  for (int i = 0; i < 3; ++i) {
    uint8_t* b = pool->acquire();
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % 8, 0u);  // ACTIVITY_RECORD_ALIGNMENT
    lent.insert(b);
  }
  EXPECT_EQ(lent.size(), 3u);
  EXPECT_EQ(pool->acquire(), nullptr);
  EXPECT_EQ(pool->acquire(), nullptr);
  EXPECT_EQ(pool->exhaustedCount(), 2);
  EXPECT_EQ(pool->inUse(), 3u);
  EXPECT_EQ(pool->totalBytes(), 3u * 4096);
}

TEST(BufferPool, HandsFilledBuffersOverInCompletionOrder) {
  auto pool = BufferPool::create(1024, 4);
  uint8_t* a = pool->acquire();
  uint8_t* b = pool->acquire();
  uint8_t* c = pool->acquire();
  pool->complete(c, 30);
  pool->complete(a, 10);
  uint8_t foreign[64];
  pool->complete(foreign, 5);  // not the pool's: ignored
  pool->complete(a + 8, 5);    // not a buffer start: ignored
  pool->complete(b, 1 << 20);  // more than the buffer: clamped
  std::vector<BufferPool::Filled> filled;
  pool->takeCompleted(filled);
  ASSERT_EQ(filled.size(), 3u);
  EXPECT_EQ(filled[0].data, c);
  EXPECT_EQ(filled[0].valid_bytes, 30u);
  EXPECT_EQ(filled[1].data, a);
  EXPECT_EQ(filled[2].data, b);
  EXPECT_EQ(filled[2].valid_bytes, 1024u);
  filled.clear();
  pool->takeCompleted(filled);
  EXPECT_TRUE(filled.empty());  // taken once
  pool->release(a);
  std::set<uint8_t*> free_again;
  while (uint8_t* buffer = pool->acquire()) free_again.insert(buffer);
  EXPECT_EQ(free_again.size(), 2u);  // the released one and the never lent one
  EXPECT_TRUE(free_again.count(a));
}

TEST(BufferPool, ConcurrentLendersAndOneDrainLoseNothing) {
  auto pool = BufferPool::create(1024, 8);
  constexpr int kThreads = 4, kPerThread = 2000;
  std::atomic<int> done_threads{0};
  std::atomic<int64_t> sent_sum{0};
  std::vector<std::thread> lenders;
  lenders.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    lenders.emplace_back([&, t] {
      for (int i = 0; i < kPerThread;) {
        uint8_t* b = pool->acquire();
        if (!b) {
          std::this_thread::yield();
          continue;
        }
        const int64_t token = t * kPerThread + i + 1;
        std::memcpy(b, &token, sizeof(token));
        sent_sum += token;
        pool->complete(b, sizeof(token));
        ++i;
      }
      ++done_threads;
    });
  }
  int64_t received_sum = 0, received = 0;
  std::vector<BufferPool::Filled> filled;
  while (done_threads.load() < kThreads || pool->inUse() > 0) {
    filled.clear();
    pool->takeCompleted(filled);
    if (filled.empty()) std::this_thread::yield();
    for (const auto& f : filled) {
      int64_t token;
      std::memcpy(&token, f.data, sizeof(token));
      received_sum += token;
      ++received;
      pool->release(f.data);
    }
  }
  for (auto& t : lenders) t.join();
  EXPECT_EQ(received, kThreads * kPerThread);
  EXPECT_EQ(received_sum, sent_sum.load());
}

// --- RecentMap -----------------------------------------------------------------

TEST(RecentMap, KeepsTheLastSlotsIdsAndForgetsOlderOnes) {
  RecentMap<int64_t> map;
  EXPECT_TRUE(map.empty());
  EXPECT_EQ(map.find(7), nullptr);
  constexpr uint32_t kSlots = RecentMap<int64_t>::kSlots;
  for (uint32_t id = 1; id <= kSlots + 10; ++id) map.put(id, id * 2);
  EXPECT_FALSE(map.empty());
  ASSERT_NE(map.find(kSlots + 10), nullptr);
  EXPECT_EQ(*map.find(kSlots + 10), 2 * (kSlots + 10));
  ASSERT_NE(map.find(11), nullptr);  // exactly kSlots ids back: still there
  EXPECT_EQ(*map.find(11), 22);
  EXPECT_EQ(map.find(10), nullptr);  // overwritten by id kSlots + 10
  EXPECT_EQ(map.find(0xFFFFFFFF), nullptr);
}

// --- NvtxRing ------------------------------------------------------------------

NvtxEventHeader event(NvtxEventType type, int64_t ts, uint64_t id = 0) {
  NvtxEventHeader h;
  h.type = type;
  h.ts = ts;
  h.id = id;
  return h;
}

TEST(NvtxRing, MessagesSurviveWrappingAroundTheEnd) {
  NvtxRing ring(4096);
  std::vector<std::string> got;
  for (int round = 0; round < 200; ++round) {
    const std::string message = "message-" + std::to_string(round) + std::string(round % 97, '.');
    NvtxEventHeader h = event(NvtxEventType::kPush, round);
    h.message_kind = NvtxMessageKind::kAscii;
    ASSERT_TRUE(ring.push(h, message.data(), message.size()));
    ring.drain([&](const NvtxEventHeader& e, const uint8_t* m) {
      EXPECT_EQ(e.ts, round);
      got.emplace_back(reinterpret_cast<const char*>(m), e.message_bytes);
    });
    ASSERT_EQ(got.back(), message);
  }
  EXPECT_EQ(got.size(), 200u);
  EXPECT_EQ(ring.dropped(), 0);
}

TEST(NvtxRing, FullRingDropsAndCountsAndReservesRoom) {
  NvtxRing ring(4096);  // 64 headers
  int pushed = 0;
  while (ring.push(event(NvtxEventType::kPush, pushed), nullptr, 0)) ++pushed;
  EXPECT_EQ(pushed, 64);
  EXPECT_EQ(ring.dropped(), 1);
  size_t drained = ring.drain([](const NvtxEventHeader&, const uint8_t*) {});
  EXPECT_EQ(drained, 64u);
  // With room reserved for 10 pops, pushes stop 10 headers early; the pops fit.
  pushed = 0;
  while (ring.push(event(NvtxEventType::kPush, 0), nullptr, 0, 10 * sizeof(NvtxEventHeader))) {
    ++pushed;
  }
  EXPECT_EQ(pushed, 54);
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(ring.push(event(NvtxEventType::kPop, 0), nullptr, 0));
  EXPECT_FALSE(ring.push(event(NvtxEventType::kPop, 0), nullptr, 0));
}

TEST(NvtxRing, LongMessagesAreCutToAQuarterAndFlagged) {
  NvtxRing ring(16384);
  const std::string message(10000, 'm');
  NvtxEventHeader h = event(NvtxEventType::kMark, 1);
  h.message_kind = NvtxMessageKind::kAscii;
  ASSERT_TRUE(ring.push(h, message.data(), message.size()));
  ring.drain([&](const NvtxEventHeader& e, const uint8_t*) {
    EXPECT_EQ(e.message_bytes, 4096u);
    EXPECT_TRUE(e.flags & NvtxEventHeader::kTruncated);
  });
}

TEST(NvtxRing, OneProducerOneConsumerKeepOrderAndAccountForEveryEvent) {
  NvtxRing ring(8192);
  constexpr int kEvents = 300000;
  std::atomic<bool> done{false};
  std::thread producer([&] {
    for (int i = 0; i < kEvents; ++i) {
      const std::string message = std::to_string(i);
      NvtxEventHeader h = event(NvtxEventType::kMark, i);
      ring.push(h, message.data(), message.size());
    }
    done = true;
  });
  int64_t received = 0, last = -1;
  bool in_order = true, intact = true;
  auto consume = [&](const NvtxEventHeader& e, const uint8_t* m) {
    in_order &= e.ts > last;
    last = e.ts;
    intact &=
        std::string(reinterpret_cast<const char*>(m), e.message_bytes) == std::to_string(e.ts);
    ++received;
  };
  while (!done.load()) ring.drain(consume);
  ring.drain(consume);
  producer.join();
  EXPECT_TRUE(in_order);
  EXPECT_TRUE(intact);
  EXPECT_EQ(received + ring.dropped(), kEvents);
}

// --- Text ------------------------------------------------------------------------

TEST(TextEncoding, WideStringsBecomeUtf8) {
  const wchar_t text[] = {L'a', 0xE9, 0x2713, 0x1F680, 0xD800, 0x110000};
  EXPECT_EQ(utf8FromWide(text, 6), "a\xC3\xA9\xE2\x9C\x93\xF0\x9F\x9A\x80\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(TextEncoding, CutMultibyteSequenceIsDropped) {
  std::string cut = "ok \xE2\x9C";  // "✓" cut after two of three bytes
  trimPartialUtf8(cut);
  EXPECT_EQ(cut, "ok ");
  std::string whole = "ok \xE2\x9C\x93";
  trimPartialUtf8(whole);
  EXPECT_EQ(whole, "ok \xE2\x9C\x93");
  std::string ascii = "plain";
  trimPartialUtf8(ascii);
  EXPECT_EQ(ascii, "plain");
}

TEST(TextEncoding, JsonStringsAreEscaped) {
  std::string out;
  appendJsonString(out, "a\"b\\c\nd\x01");
  EXPECT_EQ(out, R"("a\"b\\c\nd\u0001")");
}

TEST(StepNames, RecognizesTrainingLoopStepRanges) {
  for (const char* yes :
       {"step", "Step", "STEP", "step 12", "step#3", "step_0", "step:7", "ProfilerStep#42"}) {
    EXPECT_TRUE(isStepRangeName(yes)) << yes;
  }
  for (const char* no : {"steps", "step ", "stepper", "step x", "ProfilerStep#", "ProfilerStep",
                         "optimizer.step", "train_step", "", "profilerstep#1"}) {
    EXPECT_FALSE(isStepRangeName(no)) << no;
  }
}

// --- Settings and names ------------------------------------------------------------

TEST(CollectorConfig, ReadsEveryVariableAndRoundTrips) {
  auto config = configFromEnvironment(envFrom({{"DAMSCOPE_OUTPUT", "/out/run.db"},
                                               {"DAMSCOPE_ON_DEMAND", "1"},
                                               {"DAMSCOPE_START_NS", "123"},
                                               {"DAMSCOPE_DELAY_S", "1.5"},
                                               {"DAMSCOPE_DURATION_S", "30"},
                                               {"DAMSCOPE_SAMPLE_HZ", "250"},
                                               {"DAMSCOPE_BUFFER_MB", "4"},
                                               {"DAMSCOPE_BUFFERS", "32"},
                                               {"DAMSCOPE_NVTX_RING_KB", "64"},
                                               {"DAMSCOPE_MAX_SIZE_MB", "100"},
                                               {"DAMSCOPE_CONTROL_DIR", "/ctl"},
                                               {"DAMSCOPE_CUPTI_PATH", "/lib/libcupti.so.13"}}));
  ASSERT_TRUE(config.ok()) << config.error().message();
  const CollectorConfig& c = config.value();
  EXPECT_EQ(c.output, "/out/run.db");
  EXPECT_TRUE(c.on_demand);
  EXPECT_EQ(c.start_ns, 123);
  EXPECT_EQ(c.delay_ns, 1'500'000'000);
  EXPECT_EQ(c.duration_ns, 30'000'000'000);
  EXPECT_EQ(c.sample_hz, 250);
  EXPECT_EQ(c.buffer_bytes, 4u << 20);
  EXPECT_EQ(c.buffer_count, 32u);
  EXPECT_EQ(c.nvtx_ring_bytes, 64u << 10);
  EXPECT_EQ(c.max_file_bytes, 100 << 20);
  EXPECT_EQ(c.control_dir, "/ctl");
  EXPECT_EQ(c.cupti_path, "/lib/libcupti.so.13");

  std::map<std::string, std::string> env;
  for (const auto& [k, v] : toEnvironment(c)) env[k] = v;
  auto again = configFromEnvironment(envFrom(env));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->delay_ns, c.delay_ns);
  EXPECT_EQ(again->duration_ns, c.duration_ns);
  EXPECT_EQ(again->sample_hz, c.sample_hz);
  EXPECT_EQ(again->max_file_bytes, c.max_file_bytes);
  EXPECT_EQ(again->on_demand, c.on_demand);
}

TEST(CollectorConfig, DefaultsWithoutVariablesAndErrorsNameTheVariable) {
  auto defaults = configFromEnvironment(envFrom({}));
  ASSERT_TRUE(defaults.ok());
  EXPECT_FALSE(defaults->on_demand);
  EXPECT_EQ(defaults->sample_hz, 100);
  EXPECT_EQ(defaults->buffer_bytes, 8u << 20);
  EXPECT_EQ(defaults->buffer_count, 16u);
  for (const auto& [name, value] :
       std::map<std::string, std::string>{{"DAMSCOPE_ON_DEMAND", "yes"},
                                          {"DAMSCOPE_DURATION_S", "-1"},
                                          {"DAMSCOPE_BUFFERS", "1"},
                                          {"DAMSCOPE_BUFFER_MB", "12MB"},
                                          {"DAMSCOPE_SAMPLE_HZ", "nan"}}) {
    auto bad = configFromEnvironment(envFrom({{name, value}}));
    ASSERT_FALSE(bad.ok()) << name;
    EXPECT_EQ(bad.error().message().rfind(name + "=" + value + ": expected", 0), 0u)
        << bad.error().message();
  }
}

TEST(OutputNaming, RankFromTheLaunchersVariablesInOrder) {
  EXPECT_EQ(rankFromEnvironment(envFrom({})).rank, -1);
  RankInfo torchrun =
      rankFromEnvironment(envFrom({{"RANK", "5"}, {"LOCAL_RANK", "1"}, {"WORLD_SIZE", "8"}}));
  EXPECT_EQ(torchrun.rank, 5);
  EXPECT_EQ(torchrun.global_rank, 5);
  EXPECT_EQ(torchrun.local_rank, 1);
  EXPECT_EQ(torchrun.world_size, 8);
  EXPECT_EQ(rankFromEnvironment(envFrom({{"LOCAL_RANK", "2"}})).rank, 2);
  RankInfo mpi = rankFromEnvironment(envFrom({{"OMPI_COMM_WORLD_RANK", "3"},
                                              {"OMPI_COMM_WORLD_LOCAL_RANK", "0"},
                                              {"OMPI_COMM_WORLD_SIZE", "4"}}));
  EXPECT_EQ(mpi.rank, 3);
  EXPECT_EQ(mpi.local_rank, 0);
  EXPECT_EQ(mpi.world_size, 4);
  EXPECT_EQ(rankFromEnvironment(envFrom({{"RANK", "x"}})).rank, -1);
  RankInfo srun = rankFromEnvironment(
      envFrom({{"SLURM_PROCID", "13"}, {"SLURM_LOCALID", "5"}, {"SLURM_NTASKS", "16"}}));
  EXPECT_EQ(srun.rank, 13);
  EXPECT_EQ(srun.global_rank, 13);
  EXPECT_EQ(srun.local_rank, 5);
  EXPECT_EQ(srun.world_size, 16);
  // torchrun inside a Slurm allocation: its variables win.
  EXPECT_EQ(rankFromEnvironment(envFrom({{"SLURM_PROCID", "1"}, {"RANK", "9"}})).rank, 9);
}

TEST(OutputNaming, CandidatesPerProcessAndWindow) {
  RankInfo none;
  RankInfo two;
  two.rank = 2;
  using V = std::vector<std::string>;
  EXPECT_EQ(runOutputCandidates("/d/run.db", none, 77), (V{"/d/run.db", "/d/run.pid77.db"}));
  EXPECT_EQ(runOutputCandidates("/d/run.db", two, 77),
            (V{"/d/run.rank2.db", "/d/run.rank2.pid77.db"}));
  EXPECT_EQ(runOutputCandidates("/d/trace", none, 1), (V{"/d/trace.db", "/d/trace.pid1.db"}));
  EXPECT_EQ(captureOutputCandidates("/d/run.db", none, 77, 3),
            (V{"/d/run.capture3.db", "/d/run.pid77.capture3.db"}));
  EXPECT_EQ(captureOutputCandidates("/d/run.db", two, 77, 1),
            (V{"/d/run.rank2.capture1.db", "/d/run.rank2.pid77.capture1.db"}));
  for (const char* yes : {"run.db", "run.rank0.db", "run.pid12.db", "run.rank3.pid9.db",
                          "run.capture2.db", "run.rank1.capture4.db", "run.pid5.capture1.db"}) {
    EXPECT_TRUE(isOutputOf("run", yes)) << yes;
  }
  for (const char* no : {"run.db-wal", "running.db", "run.other.db", "run..db", "run.rank.db",
                         "xrun.db", "run.rank1.db.bak"}) {
    EXPECT_FALSE(isOutputOf("run", no)) << no;
  }
  // A record that runs as rank 1 of a job owns rank 1's files only.
  for (const char* yes : {"run.rank1.db", "run.rank1.pid9.db", "run.rank1.capture2.db"}) {
    EXPECT_TRUE(isOutputOfRank("run", yes, 1)) << yes;
  }
  for (const char* no : {"run.db", "run.rank0.db", "run.rank10.db", "run.pid1.db",
                         "run.rank1.db-wal", "run.capture1.db"}) {
    EXPECT_FALSE(isOutputOfRank("run", no, 1)) << no;
  }
}

// --- Attach channel ------------------------------------------------------------------

TEST(ControlChannel, RequestsRoundTripAndBadOnesSayWhy) {
  CaptureRequest r;
  r.duration_ns = 2'500'000'000;
  r.steps = 0;
  r.output = "/tmp/dir with space/cap.db";
  auto parsed = parseCaptureRequest(formatCaptureRequest(r));
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(parsed->duration_ns, r.duration_ns);
  EXPECT_EQ(parsed->steps, 0);
  EXPECT_EQ(parsed->output, r.output);
  EXPECT_TRUE(parseCaptureRequest("capture duration_ns=0 steps=5 output=").ok());
  for (const char* bad :
       {"hello", "capture steps=5 output=", "capture duration_ns=1 output=",
        "capture duration_ns=-1 steps=0 output=", "capture duration_ns=1 steps=0 extra=1 output=",
        "capture duration_ns=1 steps=0 output=relative.db"}) {
    EXPECT_FALSE(parseCaptureRequest(bad).ok()) << bad;
  }
}

TEST(ControlChannel, DurationsThatWouldOverflowTheWindowEndAreRefused) {
  // INT64_MAX once closed the window at once (start + duration wrapped).
  for (const std::string& bad : {std::to_string(INT64_MAX), std::to_string(kMaxWindowNs + 1),
                                 std::string("99999999999999999999")}) {
    auto parsed = parseCaptureRequest("capture duration_ns=" + bad + " steps=0 output=");
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_NE(parsed.error().message().find("duration_ns"), std::string::npos);
  }
  auto longest = parseCaptureRequest("capture duration_ns=" + std::to_string(kMaxWindowNs) +
                                     " steps=0 output=");
  ASSERT_TRUE(longest.ok());
  EXPECT_EQ(longest->duration_ns, kMaxWindowNs);
}

TEST(CollectorConfig, WindowSecondsBecomeNanosecondsOrSayWhatIsWrong) {
  EXPECT_EQ(windowSecondsToNs("--duration", 0).value(), 0);
  EXPECT_EQ(windowSecondsToNs("--duration", 1e-9).value(), 1);
  EXPECT_EQ(windowSecondsToNs("--duration", 2.5).value(), 2'500'000'000);
  EXPECT_EQ(windowSecondsToNs("--duration", kMaxWindowSeconds).value(), kMaxWindowNs);
  const std::vector<std::pair<double, std::string>> bad = {
      {1e10, "at most 10000000 seconds"},
      {1e300, "at most"},
      {kMaxWindowSeconds * (1 + 1e-12), "at most"},
      {1e-12, "too small"},
      {-1e-300, ">= 0"},
      {-1, ">= 0"},
      {std::numeric_limits<double>::quiet_NaN(), "finite"},
      {std::numeric_limits<double>::infinity(), "finite"},
  };
  for (const auto& [seconds, why] : bad) {
    auto ns = windowSecondsToNs("--delay", seconds);
    ASSERT_FALSE(ns.ok()) << seconds;
    EXPECT_EQ(ns.error().message().rfind("--delay: ", 0), 0u) << ns.error().message();
    EXPECT_NE(ns.error().message().find(why), std::string::npos) << ns.error().message();
  }
  // The environment is held to the same rule.
  auto config = configFromEnvironment([](const char* name) -> const char* {
    return std::string_view(name) == "DAMSCOPE_DURATION_S" ? "1e-12" : nullptr;
  });
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.error().message().find("DAMSCOPE_DURATION_S"), std::string::npos);
}

TEST(ControlChannel, DirectoryMustBePrivateToItsOwner) {
  TempDir dir;
  const uid_t uid = getuid();
  const std::string ctl = dir.file("ctl");
  ASSERT_TRUE(ensurePrivateDirectory(ctl, uid).ok());
  struct stat st;
  ASSERT_EQ(stat(ctl.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  EXPECT_TRUE(ensurePrivateDirectory(ctl, uid).ok());  // again: fine

  chmod(ctl.c_str(), 0755);
  Status open = ensurePrivateDirectory(ctl, uid);
  ASSERT_FALSE(open.ok());
  EXPECT_NE(open.error().message().find("mode 755"), std::string::npos) << open.error().message();

  const std::string link = dir.file("link");
  const std::string target = dir.file("target");
  mkdir(target.c_str(), 0700);
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  EXPECT_FALSE(ensurePrivateDirectory(link, uid).ok());

  EXPECT_FALSE(ensurePrivateDirectory(target, uid + 1).ok());  // someone else's
  const std::string file = dir.file("file");
  damscope::testing::writeFile(file, "x");
  EXPECT_FALSE(ensurePrivateDirectory(file, uid).ok());
}

TEST(ControlChannel, PeerCredentialsDecideAccess) {
  int fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  const std::optional<uid_t> peer = peerUid(fds[0]);
  ASSERT_TRUE(peer.has_value());
  EXPECT_EQ(*peer, getuid());
  EXPECT_TRUE(peerAllowed(peer, getuid()));
  EXPECT_FALSE(peerAllowed(getuid() + 1, getuid()));
  EXPECT_FALSE(peerAllowed(std::nullopt, getuid()));
  EXPECT_FALSE(peerUid(-1).has_value());
  close(fds[0]), close(fds[1]);
}

TEST(ControlChannel, DirectoryFromTheEnvironment) {
  EXPECT_EQ(controlDirectory(envFrom({{"DAMSCOPE_CONTROL_DIR", "/x"}}), 5), "/x");
  EXPECT_EQ(controlDirectory(envFrom({}), 1234), "/tmp/damscope-1234");
  // XDG_RUNTIME_DIR is used only when it is a directory of that user.
  EXPECT_EQ(controlDirectory(envFrom({{"XDG_RUNTIME_DIR", "/nonexistent"}}), 7), "/tmp/damscope-7");
  TempDir dir;
  EXPECT_EQ(controlDirectory(envFrom({{"XDG_RUNTIME_DIR", dir.path()}}), getuid()),
            dir.path() + "/damscope");
}

// --- CPU sampler ---------------------------------------------------------------------

TEST(CpuSampler, ParsesProcStatEvenWithAwkwardCommandNames) {
  // Fields after "(comm)": state ppid pgrp session tty tpgid flags minflt
  // cminflt majflt cmajflt utime stime ...
  EXPECT_EQ(parseStatCpuTicks("1234 (python3) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20"),
            300);
  EXPECT_EQ(parseStatCpuTicks("99 (a b) (c)) R 1 2 3 4 5 6 7 8 9 10 11 12 0 0"), 23);
  EXPECT_FALSE(parseStatCpuTicks("garbage").has_value());
  EXPECT_FALSE(parseStatCpuTicks("1 (x) S 1 2").has_value());
  EXPECT_EQ(parseStatmResidentPages("12345 678 90 1 0 2 0\n"), 678);
  EXPECT_FALSE(parseStatmResidentPages("12345").has_value());
}

TEST(CpuSampler, UtilizationBetweenSnapshots) {
  CpuSnapshot before, after;
  before.ts = 1000, before.mono_ns = 0, before.process_cpu_ns = 0;
  after.ts = 2000, after.mono_ns = 10'000'000, after.process_cpu_ns = 15'000'000;
  before.threads = {{1, 100'000'000}, {2, 5}};
  after.threads = {{1, 110'000'000}, {2, 5}, {3, 2'500'000}};
  after.rss_bytes = 4096;
  const CpuSample s = utilizationBetween(before, after);
  EXPECT_EQ(s.ts, 1000);
  EXPECT_DOUBLE_EQ(s.process_pct, 150.0);
  EXPECT_EQ(s.rss_bytes, 4096);
  ASSERT_EQ(s.threads.size(), 3u);
  EXPECT_DOUBLE_EQ(s.threads[0].pct, 100.0);
  EXPECT_DOUBLE_EQ(s.threads[1].pct, 0.0);
  EXPECT_DOUBLE_EQ(s.threads[2].pct, 25.0);  // new thread: all its time is in the interval
}

TEST(CpuSampler, SeesABusyThreadOfThisProcess) {
  std::atomic<bool> stop{false};
  std::atomic<int64_t> busy_tid{0};
  std::thread busy([&] {
    busy_tid = gettid();
    volatile double x = 0;
    while (!stop.load()) x = x + 1;
  });
  while (busy_tid.load() == 0) std::this_thread::yield();
  // What the spinning thread really got, from its own CPU clock: on a loaded
  // machine it may be far below 100 %, and the sampler must say the same.
  clockid_t busy_clock;
  ASSERT_EQ(pthread_getcpuclockid(busy.native_handle(), &busy_clock), 0);
  auto seconds = [](clockid_t clock) {
    timespec ts{};
    clock_gettime(clock, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  };
  const double cpu0 = seconds(busy_clock), wall0 = seconds(CLOCK_MONOTONIC);
  const CpuSnapshot before = readCpuSnapshot();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const CpuSnapshot after = readCpuSnapshot();
  const double cpu1 = seconds(busy_clock), wall1 = seconds(CLOCK_MONOTONIC);
  stop = true;
  busy.join();
  const CpuSample s = utilizationBetween(before, after);
  double busy_pct = -1;
  for (const auto& t : s.threads) {
    if (t.tid == busy_tid.load()) busy_pct = t.pct;
  }
  const double got_pct = 100.0 * (cpu1 - cpu0) / (wall1 - wall0);
  ASSERT_GT(got_pct, 1.0) << "the spinning thread never ran";
  // /proc counts in clock ticks (10 ms at 100 Hz): a few ticks of slack.
  EXPECT_NEAR(busy_pct, got_pct, 10.0);
  EXPECT_GE(s.process_pct, busy_pct - 10.0);
  EXPECT_GT(after.rss_bytes, 0);
  EXPECT_EQ(threadCommName(gettid()), threadCommName(getpid()));
}

// --- CUPTI holder, API names, overhead names -----------------------------------------

TEST(CuptiHolder, NamesTheToolFromItsLibrary) {
  const std::string maps =
      "7f00-7f10 r-xp 0 08:01 1 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
      "7f20-7f30 r-xp 0 08:01 2 /opt/nvidia/nsight-systems/2024.1/target-linux-x64/"
      "libToolsInjection64.so\n";
  const GetEnv none = envFrom({});
  EXPECT_EQ(describeCuptiHolder(maps, none),
            "Nsight Systems (nsys) (libToolsInjection64.so is loaded)");
  EXPECT_EQ(describeCuptiHolder("7f 1 /x/site-packages/torch/lib/libtorch_cuda.so\n", none),
            "PyTorch's profiler (torch.profiler / Kineto), if a profiling session is active "
            "(libtorch_cuda.so is loaded)");
  EXPECT_NE(
      describeCuptiHolder("", envFrom({{"NSYS_PROFILING_SESSION_ID", "3"}})).find("Nsight Systems"),
      std::string::npos);
  EXPECT_NE(describeCuptiHolder("", none).find("another profiling tool"), std::string::npos);
}

TEST(ApiNames, ComeFromCuptisCallbackIds) {
  EXPECT_EQ(cudaApiName(false, 211), "cudaLaunchKernel");       // _v7000 removed
  EXPECT_EQ(cudaApiName(false, 214), "cudaLaunchKernel_ptsz");  // per-thread stream variant kept
  EXPECT_EQ(cudaApiName(false, 311), "cudaGraphLaunch");
  EXPECT_EQ(cudaApiName(false, 131), "cudaStreamSynchronize");
  EXPECT_EQ(cudaApiName(true, 307), "cuLaunchKernel");
  EXPECT_EQ(cudaApiName(true, 514), "cuGraphLaunch");
  EXPECT_EQ(cudaApiName(false, 0), "");  // INVALID
  EXPECT_EQ(cudaApiName(false, 1u << 30), "");
  EXPECT_EQ(std::string(overheadKindName(1 << 16)), "cupti_buffer_flush");
  EXPECT_EQ(overheadKindName(12345), nullptr);
  EXPECT_EQ(packedRecordSize(0), 0u);  // CUPTI_ACTIVITY_KIND_INVALID
}

}  // namespace

// --- ExitOrder -------------------------------------------------------------------

int g_exit_registrations = 0;
void countRegistration() {
  ++g_exit_registrations;
}

TEST(ExitOrder, RegistersAgainAfterALoadAndOnABackoffTimer) {
  g_exit_registrations = 0;
  ExitOrder order(&countRegistration);
  constexpr int64_t kSecond = 1'000'000'000;
  EXPECT_FALSE(order.update(10, 0));  // the first call only takes its bearings
  EXPECT_FALSE(order.update(10, kSecond / 2));
  EXPECT_TRUE(order.update(11, kSecond / 2));  // a library was loaded
  EXPECT_EQ(g_exit_registrations, 1);
  EXPECT_FALSE(order.update(11, kSecond));
  // Timer: 1 s after the last registration, then 2 s, then 4 s.
  EXPECT_TRUE(order.update(11, kSecond / 2 + kSecond));
  EXPECT_FALSE(order.update(11, kSecond / 2 + 2 * kSecond));
  EXPECT_TRUE(order.update(11, kSecond / 2 + 3 * kSecond));
  EXPECT_FALSE(order.update(11, kSecond / 2 + 6 * kSecond));
  EXPECT_TRUE(order.update(11, kSecond / 2 + 7 * kSecond));
  EXPECT_EQ(order.registrations(), 4);
  EXPECT_EQ(g_exit_registrations, 4);
}

TEST(ExitOrder, BackoffStopsGrowingAtAMinute) {
  g_exit_registrations = 0;
  ExitOrder order(&countRegistration);
  int64_t now = 0;
  order.update(0, now);
  for (int i = 0; i < 20; ++i) {
    now += 64'000'000'000;
    EXPECT_TRUE(order.update(0, now)) << i;
  }
  EXPECT_EQ(g_exit_registrations, 20);
}

TEST(ExitOrder, CountsSharedObjectsLoaded) {
  const uint64_t before = sharedObjectChanges();
  EXPECT_GT(before, 0u);  // the program and its libraries
  if (dlopen("libresolv.so.2", RTLD_NOW | RTLD_NOLOAD)) GTEST_SKIP() << "libresolv already loaded";
  void* lib = dlopen("libresolv.so.2", RTLD_NOW);
  if (!lib) GTEST_SKIP() << "libresolv.so.2 not found";
  EXPECT_GT(sharedObjectChanges(), before);
  dlclose(lib);
}

}  // namespace damscope::collector
