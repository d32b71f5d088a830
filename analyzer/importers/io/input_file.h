// Reading trace files from disk: checks that give one clear message per bad
// input (missing, a directory, a FIFO or a device, unreadable, empty; every
// open goes through base/input_fd.h), whole-file reads, and gzip
// decompression that tells a truncated stream from corrupt data. Both long
// operations report progress and stop when cancelled (base/progress.h).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "base/progress.h"
#include "base/result.h"

namespace damscope {

// Fails unless `path` is a readable, non-empty regular file; returns its size.
// Nothing is read: a FIFO or a device is refused before it can block.
Result<size_t> checkInputFile(const std::string& path);

// The first `n` bytes of the file (fewer if it is shorter).
Result<std::string> readFilePrefix(const std::string& path, size_t n);

// The most bytes readWholeFile reads and gunzip writes: 4 GiB - 1, the largest
// document simdjson parses (SIMDJSON_MAXSIZE_BYTES; kineto_importer.cc checks
// that they agree). More could not be parsed, so it is refused before it is
// allocated: a file's size and a gzip stream's length are untrusted input.
constexpr size_t kMaxInputBytes = 0xFFFFFFFF;

// How much a read or a decompression does between two progress reports and
// cancellation checks: about a millisecond of work, so that reports cost
// nothing and a cancel is seen at once.
constexpr size_t kProgressChunkBytes = 1 << 20;

// The whole file, at most kMaxInputBytes. `padding` extra bytes of capacity
// are reserved after the content (the JSON parser reads a little past the
// end). Reports the fraction of the file read to `progress` and returns
// cancelledError() when it is cancelled.
Result<std::string> readWholeFile(const std::string& path, size_t padding,
                                  const Progress& progress = {});

// True when `bytes` starts with the gzip magic number.
bool isGzip(std::string_view bytes);
// True when `bytes` starts with a SQLite database's header string.
bool isSqlite(std::string_view bytes);

// How far a gzip stream may inflate. A stream of zeros deflates about
// 1000:1, so a few MiB can claim gigabytes ("decompression bomb"); trace
// JSON deflates far less: 9:1 to 30:1 across ../shared/traces (30:1 for
// resnet50_workers0, the densest). The cap is checked as the stream
// inflates, before the memory is taken: at most `max_ratio` times the
// compressed size plus `allowance_bytes` (tiny files of repetitive JSON), and
// never more than `max_bytes`.
struct InflateLimits {
  size_t max_ratio = 100;              // over three times the densest real trace
  size_t allowance_bytes = 64u << 20;  // 64 MiB
  size_t max_bytes = kMaxInputBytes;

  // The most bytes a stream of `compressed_bytes` may inflate to.
  size_t capFor(size_t compressed_bytes) const;
};

// Decompresses a gzip stream (several concatenated members are allowed;
// anything else after the last member is an error) of at most
// limits.capFor(compressed.size()) bytes out. Errors name `path` and say
// whether the stream was truncated, corrupt, followed by other data or too
// large. Reports the fraction of `compressed` consumed to `progress` and
// returns cancelledError() when it is cancelled.
Result<std::string> gunzip(std::string_view compressed, const std::string& path, size_t padding,
                           const Progress& progress = {}, const InflateLimits& limits = {});

// As gunzip, reading the file as it inflates: memory is the output only, and
// a file that is not a gzip stream past its magic number fails after its
// first chunk, whatever its size. The cap is taken from the file's size.
Result<std::string> gunzipFile(const std::string& path, size_t padding,
                               const Progress& progress = {}, const InflateLimits& limits = {});

// Where a file's text goes as it is read or inflated: a string (readWholeFile,
// gunzip), or memory reserved once that another thread reads as it fills
// (StreamingFile).
class TextSink {
 public:
  virtual ~TextSink() = default;
  // Called once, before any text: the input's size (a .gz: compressed), the
  // size it announces for its text (a plain file: its size; a .gz: its
  // trailer's, RFC 1952 ISIZE, the last member's size modulo 2^32,
  // untrusted, 0 when there is none) and the most text it may give (a .gz:
  // InflateLimits::capFor).
  virtual Status begin(size_t input_bytes, size_t announced_bytes, size_t cap) = 0;
  // Room for the bytes after the first `produced`: at least one byte, and at
  // most `most` bytes in all (a .gz: the cap plus one, which tells a stream
  // that passes the cap).
  virtual std::span<char> room(size_t produced, size_t most) = 0;
  // The first `produced` bytes are final; called after every step of at most
  // kProgressChunkBytes. An error stops the read with it.
  virtual Status publish(size_t produced) = 0;
};

// As readWholeFile, into `sink`; returns the size read.
Result<size_t> readFile(const std::string& path, TextSink& sink, const Progress& progress);

// As gunzipFile, into `sink`; returns the decompressed size.
Result<size_t> gunzipFile(const std::string& path, TextSink& sink, const Progress& progress,
                          const InflateLimits& limits);

}  // namespace damscope
