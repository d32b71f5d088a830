// Pending files that their process left behind (issue 32 §7): a process
// killed by SIGKILL leaves its ".damscope-<pid>-<n>.tmp", which the next
// pending file created in that directory sweeps away once its writer is gone
// and it is old enough; and a second Ctrl-C, which ends the process, removes
// what the first one began to cancel. Both with real processes (fork).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/pending_file.h"
#include "cli/interrupt.h"

namespace damscope {
namespace {

namespace fs = std::filesystem;

class PendingLeftovers : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("pending_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Forks a child that creates a pending file in dir_, writes to it, reports
  // its path through a pipe and waits for signals (with the CLI's Ctrl-C
  // handler when `cancel_on_interrupt`). Returns the child's pid and the path.
  std::pair<pid_t, std::string> startWriter(bool cancel_on_interrupt) {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(fds[0]);
      std::optional<CancelOnInterrupt> handler;
      if (cancel_on_interrupt) handler.emplace();
      auto file = PendingFile::create((dir_ / "run.db").string(), false);
      if (!file) ::_exit(3);
      std::ofstream(file->tempPath()) << std::string(1 << 16, 'x');
      std::ofstream(file->tempPath() + "-wal") << "log";
      const std::string path = file->tempPath() + "\n";
      if (::write(fds[1], path.data(), path.size()) != static_cast<ssize_t>(path.size())) {
        ::_exit(4);
      }
      while (true) ::pause();
    }
    ::close(fds[1]);
    std::string path;
    char c = 0;
    while (::read(fds[0], &c, 1) == 1 && c != '\n') path += c;
    ::close(fds[0]);
    return {pid, path};
  }

  static void makeOld(const std::string& path) {
    const timespec old[2] = {{0, UTIME_OMIT}, {::time(nullptr) - kLeftoverAgeSeconds - 60, 0}};
    ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), old, 0), 0) << path;
  }

  fs::path dir_;
};

TEST_F(PendingLeftovers, SigkillLeftoverIsSweptByTheNextPendingFileOnceOld) {
  const auto [pid, path] = startWriter(false);
  ASSERT_FALSE(path.empty());
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  ASSERT_TRUE(fs::exists(path)) << "SIGKILL leaves the pending file";

  // Fresh: its writer might live on another host; kept.
  { auto next = PendingFile::create((dir_ / "other.db").string(), false); }
  EXPECT_TRUE(fs::exists(path));

  makeOld(path);
  makeOld(path + "-wal");
  EXPECT_EQ(sweepLeftoverPendingFiles(dir_.string()), 1);
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(path + "-wal"));
}

TEST_F(PendingLeftovers, CreatingAPendingFileSweepsItsDirectory) {
  const auto [pid, path] = startWriter(false);
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  makeOld(path);
  { auto next = PendingFile::create((dir_ / "other.db").string(), false); }
  EXPECT_FALSE(fs::exists(path));
}

TEST_F(PendingLeftovers, OnlyOldFilesOfTheExactPatternWhoseProcessIsGoneAreRemoved) {
  // A pid that is surely gone: a child already reaped.
  const pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  ::waitpid(gone, nullptr, 0);
  const std::string dead = std::to_string(gone);
  const std::vector<std::string> kept = {
      ".damscope-1-0.tmp",                 // pid 1 is alive
      ".damscope-" + dead + "-0.tmp.bak",  // not the pattern
      ".damscope-" + dead + "-x.tmp",      // not the pattern
      "damscope-" + dead + "-0.tmp",       // not hidden
      ".damscope-" + dead + "-0.tmpwal",   // not a database suffix
  };
  const std::string removed = ".damscope-" + dead + "-7.tmp";
  for (const std::string& name : kept) {
    std::ofstream(dir_ / name) << "x";
    makeOld((dir_ / name).string());
  }
  std::ofstream(dir_ / removed) << "x";
  makeOld((dir_ / removed).string());
  EXPECT_EQ(sweepLeftoverPendingFiles(dir_.string()), 1);
  EXPECT_FALSE(fs::exists(dir_ / removed));
  for (const std::string& name : kept) EXPECT_TRUE(fs::exists(dir_ / name)) << name;
}

TEST_F(PendingLeftovers, SecondSigintRemovesThePendingFilesAndEndsBySigint) {
  const auto [pid, path] = startWriter(true);
  ASSERT_FALSE(path.empty());
  ::kill(pid, SIGINT);  // the first cancels; this child does not stop
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, WNOHANG), 0) << "the first Ctrl-C only cancels";
  EXPECT_TRUE(fs::exists(path));
  ::kill(pid, SIGINT);
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGINT);
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(path + "-wal"));
}

}  // namespace
}  // namespace damscope
