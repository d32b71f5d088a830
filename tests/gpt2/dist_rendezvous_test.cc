// The TCP rendezvous on 127.0.0.1, ranks as threads: every rank gets rank 0's
// blob whichever starts first; a rank with no rank 0 to reach, and a rank 0
// that waits for ranks that never come, time out with the endpoint named;
// ranks that disagree on the world size, or claim the same rank, fail.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "reference_workloads/gpt2/dist/rendezvous.h"
#include "tests/gpt2/free_port.h"

namespace damscope::gpt2 {
namespace {

using std::chrono::milliseconds;

using test_support::freePort;

RankEnvironment rankOf(int rank, int world_size, int port) {
  RankEnvironment env;
  env.launcher = Launcher::kTorchrun;
  env.rank = rank;
  env.world_size = world_size;
  env.local_rank = rank;
  env.local_world_size = world_size;
  env.master_addr = "127.0.0.1";
  env.master_port = port;
  return env;
}

std::vector<uint8_t> uniqueIdLike() {
  std::vector<uint8_t> blob(128);
  for (size_t i = 0; i < blob.size(); ++i) blob[i] = static_cast<uint8_t>(i * 37 + 11);
  return blob;
}

// Runs ranks 0..envs.size()-1 as threads, rank 0 started after `delay`.
std::vector<Result<std::vector<uint8_t>>> runRanks(const std::vector<RankEnvironment>& envs,
                                                   milliseconds delay,
                                                   const RendezvousOptions& options) {
  std::vector<Result<std::vector<uint8_t>>> results(envs.size(), Error("not run"));
  std::vector<std::thread> threads;
  for (size_t r = 0; r < envs.size(); ++r) {
    threads.emplace_back([&, r] {
      const bool is_zero = envs[r].rank == 0;
      if (is_zero) std::this_thread::sleep_for(delay);
      // Only rank 0's blob counts; the others pass one that must not arrive.
      results[r] =
          shareFromRankZero(envs[r], is_zero ? uniqueIdLike() : std::vector<uint8_t>(7), options);
    });
  }
  for (std::thread& t : threads) t.join();
  return results;
}

TEST(Rendezvous, ThreeRanksGetRankZerosBlob) {
  const int port = freePort();
  const std::vector<RankEnvironment> envs = {rankOf(0, 3, port), rankOf(1, 3, port),
                                             rankOf(2, 3, port)};
  const auto results = runRanks(envs, milliseconds(0), {});
  for (size_t r = 0; r < results.size(); ++r) {
    ASSERT_TRUE(results[r].ok()) << "rank " << r << ": " << results[r].error().message();
    EXPECT_EQ(*results[r], uniqueIdLike()) << "rank " << r;
  }
}

TEST(Rendezvous, RanksRetryUntilRankZeroListens) {
  const int port = freePort();
  RendezvousOptions options;
  options.retry_interval = milliseconds(20);
  const std::vector<RankEnvironment> envs = {rankOf(0, 3, port), rankOf(1, 3, port),
                                             rankOf(2, 3, port)};
  const auto results = runRanks(envs, milliseconds(300), options);
  for (size_t r = 0; r < results.size(); ++r) {
    ASSERT_TRUE(results[r].ok()) << "rank " << r << ": " << results[r].error().message();
    EXPECT_EQ(*results[r], uniqueIdLike()) << "rank " << r;
  }
}

TEST(Rendezvous, OneRankNeedsNoNetwork) {
  // A port with a listener already on it: rank 0 could not listen there, so
  // success shows that one rank alone opened no socket.
  const int busy = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_ANY);
  ASSERT_EQ(bind(busy, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(listen(busy, 1), 0);
  socklen_t length = sizeof address;
  ASSERT_EQ(getsockname(busy, reinterpret_cast<sockaddr*>(&address), &length), 0);
  const Result<std::vector<uint8_t>> blob =
      shareFromRankZero(rankOf(0, 1, ntohs(address.sin_port)), uniqueIdLike());
  close(busy);
  ASSERT_TRUE(blob.ok()) << blob.error().message();
  EXPECT_EQ(*blob, uniqueIdLike());
}

TEST(Rendezvous, RankWithoutRankZeroTimesOutNamingTheEndpoint) {
  const int port = freePort();
  RendezvousOptions options;
  options.timeout = milliseconds(300);
  options.retry_interval = milliseconds(20);
  const auto start = std::chrono::steady_clock::now();
  const Result<std::vector<uint8_t>> blob = shareFromRankZero(rankOf(1, 2, port), {}, options);
  const auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(blob.ok());
  EXPECT_EQ(blob.error().message(),
            "rendezvous: rank 1: could not reach rank 0 at 127.0.0.1:" + std::to_string(port) +
                " within 0.3 s (Connection refused)");
  EXPECT_GE(waited, milliseconds(250));
  EXPECT_LT(waited, milliseconds(3000));
}

TEST(Rendezvous, RankZeroTimesOutCountingWhoCame) {
  const int port = freePort();
  RendezvousOptions options;
  options.timeout = milliseconds(500);
  options.retry_interval = milliseconds(20);
  // Ranks 0 and 1 of three: rank 2 never comes.
  const auto results = runRanks({rankOf(0, 3, port), rankOf(1, 3, port)}, milliseconds(0), options);
  ASSERT_TRUE(results[1].ok()) << results[1].error().message();
  ASSERT_FALSE(results[0].ok());
  EXPECT_EQ(results[0].error().message(), "rendezvous: rank 0 on port " + std::to_string(port) +
                                              ": 1 of 2 ranks connected within 0.5 s");
}

TEST(Rendezvous, WorldSizesDisagree) {
  const int port = freePort();
  RendezvousOptions options;
  options.timeout = milliseconds(2000);
  const auto results = runRanks({rankOf(0, 2, port), rankOf(1, 3, port)}, milliseconds(0), options);
  ASSERT_FALSE(results[0].ok());
  EXPECT_EQ(results[0].error().message(), "rendezvous: rank 0 on port " + std::to_string(port) +
                                              ": a rank says WORLD_SIZE=3, this one 2");
  ASSERT_FALSE(results[1].ok());
  EXPECT_EQ(results[1].error().message(),
            "rendezvous: rank 1: from rank 0 at 127.0.0.1:" + std::to_string(port) +
                ": rank 0 says WORLD_SIZE=2, this rank 3");
}

TEST(Rendezvous, TwoProcessesClaimTheSameRank) {
  const int port = freePort();
  RendezvousOptions options;
  options.timeout = milliseconds(2000);
  const auto results = runRanks({rankOf(0, 3, port), rankOf(1, 3, port), rankOf(1, 3, port)},
                                milliseconds(0), options);
  ASSERT_FALSE(results[0].ok());
  EXPECT_EQ(results[0].error().message(), "rendezvous: rank 0 on port " + std::to_string(port) +
                                              ": two processes say they are rank 1");
}

}  // namespace
}  // namespace damscope::gpt2
