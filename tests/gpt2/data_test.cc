// Token sources, batches and the loader: determinism for any worker count
// and prefetch depth, resumption, the per-batch cost, and bad files.
#include <gtest/gtest.h>
#include <time.h>

#include <cstdio>
#include <fstream>
#include <set>

#include "reference_workloads/gpt2/data/loader.h"
#include "reference_workloads/gpt2/data/token_source.h"

namespace damscope::gpt2 {
namespace {

BatchSpec spec(uint64_t seed = 5) {
  BatchSpec s;
  s.batch = 3;
  s.seq = 16;
  s.seed = seed;
  return s;
}

std::vector<Batch> load(const TokenSource& source, BatchSpec s, LoaderOptions o, int64_t first,
                        int count) {
  Loader loader(source, s, o, first, nullptr);
  std::vector<Batch> out(count);
  for (Batch& b : out) loader.next(b);
  return out;
}

void expectSame(const std::vector<Batch>& a, const std::vector<Batch>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].index, b[i].index);
    EXPECT_EQ(a[i].inputs, b[i].inputs) << "batch " << i;
    EXPECT_EQ(a[i].targets, b[i].targets) << "batch " << i;
  }
}

TEST(DataTest, BatchesAreTheSameForAnyWorkerCountAndPrefetch) {
  const TokenSource source = TokenSource::synthetic(5);
  const auto inline_batches = load(source, spec(), {0, 0}, 0, 8);
  expectSame(inline_batches, load(source, spec(), {1, 0}, 0, 8));
  expectSame(inline_batches, load(source, spec(), {1, 3}, 0, 8));
  expectSame(inline_batches, load(source, spec(), {4, 2}, 0, 8));
  expectSame(inline_batches, load(source, spec(), {3, 0}, 0, 8));
}

TEST(DataTest, ALoaderStartedAtBatchKContinuesTheStream) {
  const TokenSource source = TokenSource::synthetic(5);
  const auto all = load(source, spec(), {2, 2}, 0, 6);
  const auto tail = load(source, spec(), {2, 2}, 3, 3);
  expectSame(std::vector<Batch>(all.begin() + 3, all.end()), tail);
}

TEST(DataTest, TargetsAreTheInputsShiftedByOne) {
  const TokenSource source = TokenSource::synthetic(5);
  Batch b;
  makeBatch(source, spec(), 0, b);
  for (int s = 0; s < 3; ++s) {
    for (int t = 0; t + 1 < 16; ++t) EXPECT_EQ(b.targets[s * 16 + t], b.inputs[s * 16 + t + 1]);
  }
}

TEST(DataTest, SeedsAndBatchIndicesChangeTheData) {
  const TokenSource a = TokenSource::synthetic(5), b = TokenSource::synthetic(6);
  Batch x, y, z;
  makeBatch(a, spec(5), 0, x);
  makeBatch(b, spec(6), 0, y);
  makeBatch(a, spec(5), 1, z);
  EXPECT_NE(x.inputs, y.inputs);
  EXPECT_NE(x.inputs, z.inputs);
}

TEST(DataTest, SyntheticStreamIsWordsAndSpaces) {
  const TokenSource source = TokenSource::synthetic(5);
  Batch b;
  makeBatch(source, spec(), 2, b);
  std::set<int32_t> seen(b.inputs.begin(), b.inputs.end());
  for (int32_t t : seen) EXPECT_TRUE(t == ' ' || (t >= 'a' && t <= 'z')) << t;
  EXPECT_GT(seen.count(' '), 0u);
}

std::string writeFile(const std::string& name, const std::string& content) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

TEST(DataTest, FileSourceCutsWindowsOfTheFile) {
  std::string text;
  for (int i = 0; i < 200; ++i) text += static_cast<char>('A' + i % 26);
  const std::string path = writeFile("gpt2_alphabet.txt", text);
  auto source = TokenSource::fromFile(path, 17);
  ASSERT_TRUE(source.ok());
  EXPECT_EQ(source->description(), "gpt2_alphabet.txt (200 bytes)");
  Batch b;
  makeBatch(*source, spec(), 0, b);
  for (int s = 0; s < 3; ++s) {
    for (int t = 0; t + 1 < 16; ++t) {
      const int a = b.inputs[s * 16 + t], n = b.inputs[s * 16 + t + 1];
      EXPECT_EQ(n, 'A' + (a - 'A' + 1) % 26);  // consecutive bytes of the file
    }
  }
}

TEST(DataTest, FileSourceRejectsMissingEmptyAndShortFiles) {
  auto missing = TokenSource::fromFile(::testing::TempDir() + "gpt2_no_such_file", 17);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message().find("cannot open"), std::string::npos);
  auto empty = TokenSource::fromFile(writeFile("gpt2_empty.txt", ""), 17);
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().message().find("empty"), std::string::npos);
  auto shorter = TokenSource::fromFile(writeFile("gpt2_short.txt", "0123456789"), 17);
  ASSERT_FALSE(shorter.ok());
  EXPECT_NE(shorter.error().message().find("has 10 bytes; one sequence needs 17"),
            std::string::npos);
}

double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

TEST(DataTest, BatchCostBurnsCpuTimeNotSleep) {
  const TokenSource source = TokenSource::synthetic(5);
  BatchSpec s = spec();
  s.cost_ms = 30;
  Batch plain, costly;
  makeBatch(source, spec(), 0, plain);
  const double cpu_before = threadCpuMs();
  makeBatch(source, s, 0, costly);
  const double cpu_ms = threadCpuMs() - cpu_before;
  // The thread was computing, not sleeping: a sleep of 30 ms costs a few
  // microseconds of CPU time. A spin gets most of the 30 ms on an idle core,
  // but on a shared one it loses time slices (a CI run of ctest -j 2 on two
  // cores measured 5.8 ms), so the bar is 1 ms.
  EXPECT_GT(cpu_ms, 1.0);
  EXPECT_NE(costly.work_digest, 0u);
  EXPECT_EQ(costly.inputs, plain.inputs);  // the work does not change the batch
}

}  // namespace
}  // namespace damscope::gpt2
