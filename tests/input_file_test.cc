// Reading and decompressing trace files (analyzer/importers/input_file.h)
// when the sizes come from hostile input: a file larger than the JSON parser
// can take is refused before anything is allocated, and a gzip stream that
// decompresses past the limit (a "zip bomb") stops at the limit.
#include "analyzer/importers/input_file.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/test_support.h"

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

  auto limited = gunzip(compressed.value(), path, 0, {}, 1u << 20);
  ASSERT_FALSE(limited.ok());
  EXPECT_EQ(limited.error().message(),
            path + ": gzip content too large (a trace can have at most 1048576 bytes)");

  auto exact = gunzip(compressed.value(), path, 0, {}, 4u << 20);
  ASSERT_TRUE(exact.ok()) << exact.error().message();
  EXPECT_EQ(exact->size(), 4u << 20);
}

}  // namespace
}  // namespace damscope
