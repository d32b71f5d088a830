// `damscope record --on-demand` and `damscope attach` end to end: a running
// NVTX test program is left dormant, then captured in windows of a duration,
// of a number of steps and until interrupted, each into its own file; what
// attach refuses (no process, no socket, a second window, an unsafe control
// directory) it refuses with one line; a vanished attach closes its window.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "tests/collector_test_support.h"
#include "trace/trace_reader.h"

namespace damscope {
namespace {

using namespace damscope::testing;
namespace fs = std::filesystem;

size_t countRanges(const TraceTables& t, const std::string& name, bool complete_only) {
  size_t n = 0;
  for (size_t i = 0; i < t.ranges.size(); ++i) {
    if (t.strings.get(t.ranges.name[i]) != name) continue;
    if (complete_only && t.ranges.args[i].find("open_at_end") != std::string::npos) continue;
    ++n;
  }
  return n;
}

// A workload recorded --on-demand that steps every 20 ms until told to stop.
class Attach : public ::testing::Test {
 protected:
  void SetUp() override { env_ = {{"DAMSCOPE_CONTROL_DIR", dir_.file("ctl")}}; }
  void startWorkload(const std::vector<std::string>& extra = {}) {
    std::vector<std::string> argv = {damscopeBinary(), "record", "--on-demand", "-o",
                                     dir_.file("base.db")};
    argv.insert(argv.end(), extra.begin(), extra.end());
    for (const std::string& a :
         {std::string("--"), nvtxWorkloadBinary(), std::string("--until-file"), dir_.file("stop"),
          std::string("--step-ms"), std::string("20"), std::string("--pid-file"),
          dir_.file("pid")}) {
      argv.push_back(a);
    }
    workload_ = std::make_unique<Process>(argv, env_, dir_.path());
    ASSERT_TRUE(waitFor([&] { return fs::exists(dir_.file("pid")); })) << workload_->errSoFar();
    pid_ = std::to_string(std::stoi(readFile(dir_.file("pid"))));
  }
  bool socketReady() { return fs::exists(dir_.file("ctl/" + pid_ + ".sock")); }
  ProcessResult attach(const std::vector<std::string>& options) {
    std::vector<std::string> argv = {damscopeBinary(), "attach", pid_};
    argv.insert(argv.end(), options.begin(), options.end());
    return runProcess(argv, env_, dir_.path());
  }
  ProcessResult stopWorkload() {
    writeFile(dir_.file("stop"), "");
    return workload_->wait();
  }
  TraceTables load(const std::string& path) {
    auto trace = readTrace(path);
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().message());
    return trace.ok() ? std::move(trace).value() : TraceTables();
  }

  TempDir dir_;
  EnvChanges env_;
  std::unique_ptr<Process> workload_;
  std::string pid_;
};

TEST(AttachOptions, WindowsBeyondTheirRangeAreOneLineNamingTheOption) {
  // --duration 1e10 once sent INT64_MIN; 1e-12 rounded to "until Ctrl-C".
  TempDir dir;
  const std::string self = std::to_string(getpid());
  for (const char* value : {"1e10", "1e-12", "nan", "-3"}) {
    const ProcessResult r =
        runProcess({damscopeBinary(), "attach", self, "--duration", value}, {}, dir.path());
    EXPECT_EQ(r.exit_code, 2) << value << ": " << r.err;
    EXPECT_EQ(r.err.rfind("damscope: --duration: ", 0), 0u) << r.err;
    EXPECT_EQ(countOccurrences(r.err, "\n"), 1u) << r.err;
  }
}

TEST_F(Attach, WindowsOfADurationAndOfStepsEachInTheirOwnFile) {
  startWorkload();
  ASSERT_TRUE(waitFor([&] { return socketReady(); })) << workload_->errSoFar();
  // Dormant so far: nothing written.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(fs::exists(dir_.file("base.db")));
  EXPECT_FALSE(fs::exists(dir_.file("base.capture1.db")));

  ProcessResult r = attach({"--duration", "0.5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string first = dir_.file("base.capture1.db");
  EXPECT_EQ(r.out.rfind(first + ": ranges=", 0), 0u) << r.out;
  EXPECT_NE(r.err.find("recording process " + pid_ + " into " + first + " for 0.5 s"),
            std::string::npos)
      << r.err;
  TraceTables t = load(first);
  EXPECT_EQ(t.getMeta("collector.trigger"), "attach");
  EXPECT_EQ(t.getMeta("collector.end_reason"), "duration");
  EXPECT_EQ(t.getMeta("collector.finalized"), "1");
  const int64_t window = std::stoll(t.getMeta("collector.window_end_ns")) -
                         std::stoll(t.getMeta("collector.window_start_ns"));
  EXPECT_GE(window, 500'000'000);
  EXPECT_LT(window, 1'500'000'000);
  const size_t steps = countRanges(t, "step", true);
  EXPECT_GE(steps, 8u);  // 20 ms steps in 0.5 s, on a busy machine
  EXPECT_LE(steps, 26u);
  EXPECT_FALSE(t.counters.empty());
  EXPECT_EQ(t.processes.pid[0], std::stoll(pid_));

  r = attach({"--steps", "3", "-o", dir_.file("three.db")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  t = load(dir_.file("three.db"));
  EXPECT_EQ(t.getMeta("collector.end_reason"), "steps");
  EXPECT_EQ(t.getMeta("collector.capture"), "2");
  // Three steps that began inside the window; the step under way when it
  // opened is there too, from its first event in the window.
  EXPECT_GE(countRanges(t, "step", true), 3u);
  EXPECT_LE(countRanges(t, "step", true), 4u);

  // Back to dormant, the program keeps running; it exits with its own code.
  const ProcessResult done = stopWorkload();
  EXPECT_EQ(done.exit_code, 0) << done.err;
  EXPECT_NE(done.out.find("workload done"), std::string::npos);
  EXPECT_NE(done.err.find("damscope: wrote " + first), std::string::npos) << done.err;
  EXPECT_FALSE(fs::exists(dir_.file("ctl/" + pid_ + ".sock")));  // removed at exit
}

TEST_F(Attach, InterruptClosesTheWindowAndACrashedAttachDoesToo) {
  startWorkload();
  ASSERT_TRUE(waitFor([&] { return socketReady(); }));
  // No limit: until Ctrl-C.
  Process interrupted({damscopeBinary(), "attach", pid_, "-o", dir_.file("ctrl_c.db")}, env_,
                      dir_.path());
  ASSERT_TRUE(waitFor([&] { return fs::exists(dir_.file("ctrl_c.db")); }));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  interrupted.signal(SIGINT);
  ProcessResult r = interrupted.wait();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("until Ctrl-C"), std::string::npos);
  TraceTables t = load(dir_.file("ctrl_c.db"));
  EXPECT_EQ(t.getMeta("collector.end_reason"), "stop requested");
  EXPECT_GE(countRanges(t, "step", true), 3u);

  // An attach killed outright: the process notices the closed connection,
  // closes the window, and is ready for the next one.
  Process killed({damscopeBinary(), "attach", pid_, "-o", dir_.file("killed.db")}, env_,
                 dir_.path());
  ASSERT_TRUE(waitFor([&] { return fs::exists(dir_.file("killed.db")); }));
  killed.signal(SIGKILL);
  killed.wait();
  ProcessResult next;
  ASSERT_TRUE(waitFor([&] {
    next = attach({"--duration", "0.1", "-o", dir_.file("next.db")});
    return next.exit_code == 0;
  })) << next.err;
  // The killed attach never sorted its file; the process finished it all the same.
  auto killed_trace = readTrace(dir_.file("killed.db"));
  ASSERT_TRUE(killed_trace.ok());
  EXPECT_EQ(killed_trace->getMeta("collector.end_reason"), "stop requested");
  // Every window went where attach -o put it: record has nothing to say
  // about windows (it once said none was recorded).
  const ProcessResult done = stopWorkload();
  EXPECT_EQ(done.exit_code, 0);
  EXPECT_EQ(done.err.find("no capture window"), std::string::npos) << done.err;
}

TEST_F(Attach, OneWindowAtATime) {
  startWorkload();
  ASSERT_TRUE(waitFor([&] { return socketReady(); }));
  Process first({damscopeBinary(), "attach", pid_, "--duration", "2", "-o", dir_.file("a.db")},
                env_, dir_.path());
  ASSERT_TRUE(waitFor([&] { return fs::exists(dir_.file("a.db")); }));
  const ProcessResult second = attach({"--duration", "1", "-o", dir_.file("b.db")});
  EXPECT_EQ(second.exit_code, 1);
  EXPECT_EQ(second.err,
            "damscope: " + pid_ + ": a capture window is already open in this process\n");
  EXPECT_FALSE(fs::exists(dir_.file("b.db")));
  EXPECT_EQ(first.wait().exit_code, 0);
  EXPECT_EQ(stopWorkload().exit_code, 0);
}

TEST_F(Attach, IdleConnectionsDoNotKeepARealAttachWaiting) {
  // Connections that never send a request (a stuck client, a port scanner
  // of the same user) once took every serving slot for 5 s each.
  startWorkload();
  ASSERT_TRUE(waitFor([&] { return socketReady(); }));
  std::vector<int> idle;
  for (int i = 0; i < 8; ++i) {
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string path = dir_.file("ctl/" + pid_ + ".sock");
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
    idle.push_back(fd);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // all accepted
  const auto before = std::chrono::steady_clock::now();
  const ProcessResult r = attach({"--duration", "0.2", "-o", dir_.file("real.db")});
  const auto took = std::chrono::steady_clock::now() - before;
  for (int fd : idle) close(fd);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(took, std::chrono::milliseconds(2500));
  EXPECT_EQ(stopWorkload().exit_code, 0);
}

TEST_F(Attach, RefusalsAreOneLine) {
  ProcessResult r = runProcess({damscopeBinary(), "attach", "999999999"}, env_, dir_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "damscope: 999999999: no such process\n");

  // A live process without damscope: the test runner itself.
  const std::string self = std::to_string(getpid());
  r = runProcess({damscopeBinary(), "attach", self}, env_, dir_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("damscope: " + self + ": no damscope control socket", 0), 0u) << r.err;

  r = runProcess({damscopeBinary(), "attach", self, "--duration", "1", "--steps", "2"}, env_,
                 dir_.path());
  EXPECT_EQ(r.exit_code, 2);

  startWorkload();
  ASSERT_TRUE(waitFor([&] { return socketReady(); }));
  writeFile(dir_.file("exists.db"), "x");
  r = attach({"-o", dir_.file("exists.db")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "damscope: " + dir_.file("exists.db") + ": output exists\n");
  // An output the process cannot create: it says why and stays dormant.
  r = attach({"--duration", "0.1", "-o", "/proc/cannot/create.db"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/proc/cannot/create.db: cannot create trace file"), std::string::npos)
      << r.err;
  EXPECT_EQ(attach({"--duration", "0.1", "-o", dir_.file("ok.db")}).exit_code, 0);
  EXPECT_EQ(stopWorkload().exit_code, 0);
}

TEST_F(Attach, UnsafeControlDirectoryIsRefusedByBothSides) {
  mkdir(dir_.file("ctl").c_str(), 0755);  // readable by others: not private
  chmod(dir_.file("ctl").c_str(), 0755);
  startWorkload();
  ASSERT_TRUE(waitFor([&] {
    return workload_->errSoFar().find("`damscope attach` cannot reach this process") !=
           std::string::npos;
  })) << workload_->errSoFar();
  EXPECT_NE(workload_->errSoFar().find("mode 755"), std::string::npos);
  EXPECT_FALSE(socketReady());
  const ProcessResult r = attach({"--duration", "0.1"});
  EXPECT_EQ(r.exit_code, 2);
  // The program itself is unaffected.
  const ProcessResult done = stopWorkload();
  EXPECT_EQ(done.exit_code, 0);
  EXPECT_NE(done.out.find("workload done"), std::string::npos);
  // The collector said why itself; record adds nothing about windows.
  EXPECT_EQ(done.err.find("no capture window"), std::string::npos) << done.err;
}

TEST_F(Attach, AnotherUsersProcessIsPermissionDeniedNotNoSocket) {
  pid_t other = 0;
  if (getuid() == 0) {
    // Root can make one: a child that becomes nobody (65534).
    other = fork();
    ASSERT_GE(other, 0);
    if (other == 0) {
      if (setgid(65534) != 0 || setuid(65534) != 0) _exit(1);
      execl("/bin/sleep", "sleep", "20", static_cast<char*>(nullptr));
      _exit(1);
    }
    ASSERT_TRUE(waitFor([&] {
      struct stat st;
      return stat(("/proc/" + std::to_string(other)).c_str(), &st) == 0 && st.st_uid == 65534;
    }));
  } else {
    struct stat init;
    if (stat("/proc/1", &init) != 0 || init.st_uid == getuid()) {
      GTEST_SKIP() << "no process of another user to attach to";
    }
    other = 1;
  }
  const ProcessResult r =
      runProcess({damscopeBinary(), "attach", std::to_string(other)}, env_, dir_.path());
  if (other != 1) {
    kill(other, SIGKILL);
    waitpid(other, nullptr, 0);
  }
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("damscope: " + std::to_string(other) + ": permission denied: ", 0), 0u)
      << r.err;
  EXPECT_EQ(countOccurrences(r.err, "\n"), 1u) << r.err;
}

}  // namespace
}  // namespace damscope
