// A trace file read or decompressed on a second thread while it is parsed
// (analyzer/importers/io/streaming_file.h): the text and the errors are
// readWholeFile's and gunzipFile's, a reader gets what it waits for as soon
// as it is out, what it releases gives its memory to the text to come, and
// cancelling or going away stops the thread.
#include "analyzer/importers/io/streaming_file.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "tests/test_support.h"

namespace damscope {
namespace {

using testing::TempDir;

// Lines of JSON-like text, `bytes` long, that compress about 10:1 as traces do.
std::string lines(size_t bytes) {
  std::string text;
  for (size_t i = 0; text.size() < bytes; ++i) {
    text += "{\"ph\": \"X\", \"ts\": " + std::to_string(i * 7919 % 100003) + "},\n";
  }
  text.resize(bytes);
  return text;
}

// The same text streamed from a plain file or from a .gz.
enum class Kind { kPlain, kGzip };

std::string writeTrace(const TempDir& dir, Kind kind, const std::string& content) {
  std::string path = dir.file(kind == Kind::kGzip ? "trace.json.gz" : "trace.json");
  kind == Kind::kGzip ? testing::writeGzip(path, content) : testing::writeFile(path, content);
  return path;
}

Result<std::unique_ptr<StreamingFile>> stream(Kind kind, const std::string& path, size_t padding) {
  return kind == Kind::kGzip ? StreamingFile::gunzip(path, padding, Progress())
                             : StreamingFile::read(path, padding, Progress());
}

TEST(StreamingFile, GivesTheTextGunzipGivesAsItArrives) {
  TempDir dir;
  const std::string content = lines(6u << 20);
  auto started = stream(Kind::kGzip, writeTrace(dir, Kind::kGzip, content), 64);
  ASSERT_TRUE(started.ok()) << started.error().message();
  StreamingFile& text = **started;
  ASSERT_TRUE(text.through(0).ok());
  // The trailer announces the size before the text is out.
  EXPECT_EQ(text.expectedSize(), content.size());
  for (size_t n : {size_t{0}, size_t{1000}, size_t{3} << 20, content.size() - 1}) {
    auto view = text.through(n);
    ASSERT_TRUE(view.ok()) << view.error().message();
    EXPECT_GT(view->size(), n);
    EXPECT_EQ(*view, std::string_view(content).substr(0, view->size()));
  }
  auto whole = text.whole();
  ASSERT_TRUE(whole.ok()) << whole.error().message();
  EXPECT_EQ(*whole, content);
  EXPECT_EQ(std::string_view(whole->data() + whole->size(), 64), std::string(64, '\0'));
  EXPECT_EQ(text.expectedSize(), content.size());
  EXPECT_EQ(*text.through(content.size()), content);  // asking past the end: all of it
  EXPECT_GT(text.threadSeconds(), 0);
}

// Every way a stream can be bad fails as gunzipFile fails, with its message,
// for every view a reader may ask for.
TEST(StreamingFile, ErrorsAreGunzipFilesErrors) {
  TempDir dir;
  const std::string good = dir.file("good.json.gz");
  testing::writeGzip(good, lines(3u << 20));
  const std::string member = testing::readFile(good);

  std::vector<std::pair<std::string, std::string>> files = {
      {"truncated.gz", member.substr(0, member.size() / 2)},
      {"trailing.gz", member + "garbage"},
      {"not_gzip_after_magic.gz", std::string("\x1f\x8b") + std::string(3u << 20, 'x')},
  };
  std::string corrupt = member;
  for (size_t i = member.size() / 3; i < member.size() / 3 + 64; ++i) corrupt[i] ^= 0x5a;
  files.push_back({"corrupt.gz", corrupt});
  for (const auto& [name, bytes] : files) {
    SCOPED_TRACE(name);
    const std::string path = dir.file(name);
    testing::writeFile(path, bytes);
    auto expected = gunzipFile(path, 0);
    ASSERT_FALSE(expected.ok());
    auto started = StreamingFile::gunzip(path, 0, Progress());
    ASSERT_TRUE(started.ok()) << started.error().message();
    auto whole = (*started)->whole();
    ASSERT_FALSE(whole.ok());
    EXPECT_EQ(whole.error().message(), expected.error().message());
    // Once failed, every call says so, however little it asks for.
    auto first = (*started)->through(0);
    ASSERT_FALSE(first.ok());
    EXPECT_EQ(first.error().message(), expected.error().message());
  }

  auto missing = StreamingFile::gunzip(dir.file("missing.gz"), 0, Progress());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message(), gunzipFile(dir.file("missing.gz"), 0).error().message());
}

// The cap of InflateLimits holds: a bomb stops at it, as in gunzipFile, and
// the memory reserved for the cap is not taken.
TEST(StreamingFile, StopsAtTheCap) {
  TempDir dir;
  const std::string path = dir.file("bomb.json.gz");
  testing::writeGzip(path, std::string(8u << 20, '\0'));
  InflateLimits limits;
  limits.allowance_bytes = 0;
  auto expected = gunzipFile(path, 0, {}, limits);
  ASSERT_FALSE(expected.ok());
  auto text = StreamingFile::gunzip(path, 0, Progress(), limits);
  ASSERT_TRUE(text.ok()) << text.error().message();
  auto whole = (*text)->whole();
  ASSERT_FALSE(whole.ok());
  EXPECT_EQ(whole.error().message(), expected.error().message());
}

TEST(StreamingFile, CancelledProgressStopsTheThread) {
  TempDir dir;
  const std::string path = dir.file("trace.json.gz");
  testing::writeGzip(path, lines(8u << 20));
  CancelToken token;
  token.cancel();
  auto text = StreamingFile::gunzip(path, 0, Progress(nullptr, &token));
  ASSERT_TRUE(text.ok()) << text.error().message();
  auto whole = (*text)->whole();
  ASSERT_FALSE(whole.ok());
  EXPECT_EQ(whole.error().code(), ErrorCode::kCancelled);
}

// A reader that stops early (a parse error, a cancel) destroys the text
// while it inflates: the thread stops at its next step and is waited for.
TEST(StreamingFile, GoingAwayStopsTheThread) {
  TempDir dir;
  const std::string path = dir.file("trace.json.gz");
  testing::writeGzip(path, lines(32u << 20));
  for (size_t n : {size_t{0}, size_t{100}, size_t{5} << 20}) {
    auto text = StreamingFile::gunzip(path, 0, Progress());
    ASSERT_TRUE(text.ok()) << text.error().message();
    auto view = (*text)->through(n);
    ASSERT_TRUE(view.ok()) << view.error().message();
    EXPECT_GT(view->size(), n);
  }
  EXPECT_TRUE(StreamingFile::gunzip(path, 0, Progress()).ok());  // never read
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
constexpr bool kSanitized = __has_feature(address_sanitizer) || __has_feature(thread_sanitizer);
#else
constexpr bool kSanitized = false;
#endif

// The resident memory of this process (/proc/self/status VmRSS).
size_t residentBytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoul(line.substr(6)) * 1024;
  }
  return 0;
}

// Whether every byte of [begin, end) lies in a mapping of this process
// (/proc/self/maps).
bool allMapped(const char* begin, const char* end) {
  std::ifstream maps("/proc/self/maps");
  auto at = reinterpret_cast<uintptr_t>(begin);
  const auto stop = reinterpret_cast<uintptr_t>(end);
  for (std::string line; at < stop && std::getline(maps, line);) {
    const uintptr_t first = std::stoull(line, nullptr, 16);
    const uintptr_t last = std::stoull(line.substr(line.find('-') + 1), nullptr, 16);
    if (first <= at && at < last) at = last;
  }
  return at >= stop;
}

class StreamingFileKinds : public ::testing::TestWithParam<Kind> {};

INSTANTIATE_TEST_SUITE_P(Sources, StreamingFileKinds, ::testing::Values(Kind::kPlain, Kind::kGzip),
                         [](const auto& info) {
                           return std::string(info.param == Kind::kGzip ? "Gzip" : "Plain");
                         });

// A reader that releases what it has read keeps a bounded part of the text
// in memory, however long the text: the thread waits for it and writes into
// the pages it released. The text is the same, and the padding after it
// zeros, even where it lands on reused pages.
TEST_P(StreamingFileKinds, ReleasedTextGivesItsMemoryToTheTextToCome) {
  TempDir dir;
  const std::string content = lines(96u << 20);
  const std::string path = writeTrace(dir, GetParam(), content);

  const size_t before = residentBytes();
  size_t most = before;
  auto started = stream(GetParam(), path, 64);
  ASSERT_TRUE(started.ok()) << started.error().message();
  StreamingFile& text = **started;
  constexpr size_t kStep = 1u << 20;
  std::string_view view;
  for (size_t read = 0; read < content.size(); read += kStep) {
    auto got = text.through(read + kStep - 1);
    ASSERT_TRUE(got.ok()) << got.error().message();
    view = *got;
    const size_t end = std::min(read + kStep, view.size());
    ASSERT_EQ(view.substr(read, end - read), std::string_view(content).substr(read, end - read))
        << "at " << read;
    text.release(end);
    most = std::max(most, residentBytes());
  }
  ASSERT_EQ(view.size(), content.size());
  EXPECT_EQ(std::string_view(view.data() + view.size(), 64), std::string(64, '\0'));
  // The released text's memory went elsewhere, but its addresses stay the
  // region's: a hole there could take another mapping, which the region's
  // munmap would take away (two ranks imported at once crashed so).
  EXPECT_TRUE(allMapped(view.data(), view.data() + view.size()));
  // 16 MiB ahead of the reader, in chunks of 2 MiB, against 96 MiB of text.
  // (A sanitizer's shadow memory grows with what the test compares.)
  if (!kSanitized) {
    EXPECT_LT(most - before, size_t{32} << 20);
  }
}

// A read that released bytes and must start again (the Kineto reader's
// retry) gets the text from its first byte: the file is read again.
TEST_P(StreamingFileKinds, RewindAfterAReleaseGivesTheTextAgain) {
  TempDir dir;
  const std::string content = lines(40u << 20);
  const std::string path = writeTrace(dir, GetParam(), content);
  auto started = stream(GetParam(), path, 16);
  ASSERT_TRUE(started.ok()) << started.error().message();
  StreamingFile& text = **started;
  ASSERT_TRUE(text.rewind().ok());  // nothing released: nothing to do
  ASSERT_TRUE(text.through(30u << 20).ok());
  text.release(30u << 20);
  ASSERT_TRUE(text.rewind().ok());
  auto whole = text.whole();
  ASSERT_TRUE(whole.ok()) << whole.error().message();
  EXPECT_EQ(*whole, content);
}

// A plain file gives readWholeFile's text, and fails as it fails.
TEST(StreamingFile, ReadsAPlainFileAsReadWholeFileDoes) {
  TempDir dir;
  const std::string content = lines(5u << 20);
  const std::string path = writeTrace(dir, Kind::kPlain, content);
  auto started = StreamingFile::read(path, 32, Progress());
  ASSERT_TRUE(started.ok()) << started.error().message();
  EXPECT_EQ((*started)->expectedSize(), content.size());
  auto whole = (*started)->whole();
  ASSERT_TRUE(whole.ok()) << whole.error().message();
  EXPECT_EQ(*whole, content);
  EXPECT_EQ(std::string_view(whole->data() + whole->size(), 32), std::string(32, '\0'));

  testing::writeFile(dir.file("empty.json"), "");
  for (const std::string& bad : {dir.file("missing.json"), dir.file("empty.json"), dir.path()}) {
    SCOPED_TRACE(bad);
    auto expected = readWholeFile(bad, 0);
    ASSERT_FALSE(expected.ok());
    auto streamed = StreamingFile::read(bad, 0, Progress());
    ASSERT_FALSE(streamed.ok());
    EXPECT_EQ(streamed.error().message(), expected.error().message());
  }
}

// A reader that releases nothing still gets all it asks for: the
// decompression runs ahead of the released bytes or up to what is waited for.
TEST(StreamingFile, AReaderThatReleasesNothingGetsWhatItWaitsFor) {
  TempDir dir;
  const std::string content = lines(40u << 20);
  auto started = stream(Kind::kGzip, writeTrace(dir, Kind::kGzip, content), 0);
  ASSERT_TRUE(started.ok()) << started.error().message();
  StreamingFile& text = **started;
  for (size_t n = 0; n < content.size(); n += 5u << 20) {
    auto view = text.through(n);
    ASSERT_TRUE(view.ok()) << view.error().message();
    ASSERT_GT(view->size(), n);
    EXPECT_EQ(*view, std::string_view(content).substr(0, view->size()));
  }
  EXPECT_EQ(*text.whole(), content);
}

}  // namespace
}  // namespace damscope
