// Reading and decompressing trace files (analyzer/importers/io/input_file.h)
// when the sizes come from hostile input: a file larger than the JSON parser
// can take is refused before anything is allocated, and a gzip stream that
// decompresses past the limit (a "zip bomb") stops at the limit.
#include "analyzer/importers/io/input_file.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>

#include "tests/test_support.h"
#include "trace/sqlite_db.h"

namespace damscope {
namespace {

using testing::TempDir;

TEST(InputFile, FileLargerThanTheParserCanTakeIsRefusedUnread) {
  TempDir dir;
  const std::string path = dir.file("huge.json");
  testing::writeFile(path, "{");
  // Sparse: takes no disk space, but reading it would need 5 GiB of memory.
  std::filesystem::resize_file(path, 5ull << 30);
  auto bytes = readWholeFile(path, 64);
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.error().message().rfind(path + ": file too large (5368709120 bytes", 0), 0u)
      << bytes.error().message();
}

TEST(InputFile, GzipStreamStopsAtTheOutputLimit) {
  TempDir dir;
  const std::string path = dir.file("zeros.json.gz");
  // 4 MiB of one byte compresses about 1000:1, as a zip bomb does.
  testing::writeGzip(path, std::string(4u << 20, ' '));
  auto compressed = readWholeFile(path, 0);
  ASSERT_TRUE(compressed.ok()) << compressed.error().message();
  ASSERT_LT(compressed->size(), 16u << 10);

  InflateLimits limits;
  limits.max_bytes = 1u << 20;
  auto limited = gunzip(compressed.value(), path, 0, {}, limits);
  ASSERT_FALSE(limited.ok());
  EXPECT_EQ(limited.error().message().rfind(path + ": gzip content larger than 1048576 bytes", 0),
            0u)
      << limited.error().message();

  limits.max_bytes = 4u << 20;
  auto exact = gunzip(compressed.value(), path, 0, {}, limits);
  ASSERT_TRUE(exact.ok()) << exact.error().message();
  EXPECT_EQ(exact->size(), 4u << 20);
}

// The cap follows the compressed size: 4 MiB of zeros in a few KiB is a
// ratio of about 1000, far past what any trace reaches, and stops as soon as
// the cap is passed, never inflating the rest.
TEST(InputFile, GzipStreamStopsAtItsRatioCap) {
  TempDir dir;
  const std::string path = dir.file("bomb.json.gz");
  testing::writeGzip(path, std::string(4u << 20, '\0'));
  const size_t compressed = std::filesystem::file_size(path);
  InflateLimits limits;
  limits.allowance_bytes = 0;
  EXPECT_EQ(limits.capFor(compressed), 100 * compressed);
  auto bomb = gunzipFile(path, 0, {}, limits);
  ASSERT_FALSE(bomb.ok());
  EXPECT_EQ(bomb.error().message().rfind(
                path + ": gzip content larger than " + std::to_string(100 * compressed) +
                    " bytes, the limit for a " + std::to_string(compressed) + "-byte file",
                0),
            0u)
      << bomb.error().message();
  // With the default allowance the same file is small enough.
  auto ok = gunzipFile(path, 0);
  ASSERT_TRUE(ok.ok()) << ok.error().message();
  EXPECT_EQ(ok->size(), 4u << 20);
}

TEST(InputFile, GzipCapSaturatesAndNeverPassesTheParserLimit) {
  InflateLimits limits;
  EXPECT_EQ(limits.capFor(0), 64u << 20);
  EXPECT_EQ(limits.capFor(SIZE_MAX / 2), kMaxInputBytes);
  limits.max_ratio = SIZE_MAX;
  EXPECT_EQ(limits.capFor(3), kMaxInputBytes);
}

// gzip(1) warns of "trailing garbage"; a trace with data after its stream is
// damaged or not what it seems, so it is refused. Another gzip member is not
// garbage (gzip -c a b > ab.gz), nor is it when it straddles two reads.
TEST(InputFile, DataAfterTheGzipStreamIsRefused) {
  TempDir dir;
  const std::string path = dir.file("trailing.json.gz");
  testing::writeGzip(path, "{\"traceEvents\":[]}");
  const std::string member = testing::readFile(path);
  testing::writeFile(path, member + "garbage");
  auto garbage = gunzipFile(path, 0);
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.error().message(),
            path + ": unexpected data after the end of the gzip stream (at byte " +
                std::to_string(member.size()) + " of " + std::to_string(member.size() + 7) + ")");
  // One stray byte is trailing data too.
  testing::writeFile(path, member + "\x1f");
  EXPECT_FALSE(gunzipFile(path, 0).ok());

  testing::writeFile(path, member + member);
  auto twice = gunzipFile(path, 0);
  ASSERT_TRUE(twice.ok()) << twice.error().message();
  EXPECT_EQ(twice.value(), "{\"traceEvents\":[]}{\"traceEvents\":[]}");
  // A second member whose magic number is split across two reads: the first
  // member ends one byte before the end of the first chunk read, its length
  // made up by a header comment (RFC 1952, FCOMMENT).
  ASSERT_EQ(member[3], 0) << "writeGzip sets no header flags";
  const size_t comment = kProgressChunkBytes - 1 - member.size() - 1;
  std::string padded = member.substr(0, 10) + std::string(comment, 'c') + '\0' + member.substr(10);
  padded[3] = 0x10;
  ASSERT_EQ(padded.size(), kProgressChunkBytes - 1);
  testing::writeFile(path, padded + member);
  auto split = gunzipFile(path, 0);
  ASSERT_TRUE(split.ok()) << split.error().message();
  EXPECT_EQ(split.value(), "{\"traceEvents\":[]}{\"traceEvents\":[]}");
}

}  // namespace
}  // namespace damscope

namespace damscope {
namespace {

// Issue 32 §3: what is not a regular file is refused before a byte is read,
// by every reader of input_file.h and by the SQLite opener, so a FIFO that
// no one writes cannot block them (the test would hang) and /dev/zero cannot
// feed them forever.
TEST(InputFile, FifosAndDevicesAreRefusedBeforeReading) {
  testing::TempDir dir;
  const std::string fifo = dir.file("trace.json");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {fifo, std::string("/dev/zero")}) {
    const std::string expected = path + ": is not a regular file";
    auto size = checkInputFile(path);
    ASSERT_FALSE(size.ok()) << path;
    EXPECT_EQ(size.error().message().rfind(expected, 0), 0u) << size.error().message();
    auto prefix = readFilePrefix(path, 64);
    ASSERT_FALSE(prefix.ok()) << path;
    EXPECT_EQ(prefix.error().message().rfind(expected, 0), 0u) << prefix.error().message();
    auto whole = readWholeFile(path, 64);
    ASSERT_FALSE(whole.ok()) << path;
    EXPECT_EQ(whole.error().message().rfind(expected, 0), 0u) << whole.error().message();
    auto inflated = gunzipFile(path, 64);
    ASSERT_FALSE(inflated.ok()) << path;
    EXPECT_EQ(inflated.error().message().rfind(expected, 0), 0u) << inflated.error().message();
    for (auto mode : {Database::Mode::kReadOnly, Database::Mode::kReadWriteCreate}) {
      auto db = Database::open(path, mode);
      ASSERT_FALSE(db.ok()) << path;
      EXPECT_EQ(db.error().message().rfind(expected, 0), 0u) << db.error().message();
    }
  }
  auto dir_db = Database::open(dir.path(), Database::Mode::kReadOnly);
  ASSERT_FALSE(dir_db.ok());
  EXPECT_EQ(dir_db.error().message(), dir.path() + ": is a directory");
}

}  // namespace
}  // namespace damscope
