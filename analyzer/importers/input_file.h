// Reading trace files from disk: checks that give one clear message per bad
// input (missing, a directory, unreadable, empty), whole-file reads, and gzip
// decompression that tells a truncated stream from corrupt data. Both long
// operations report progress and stop when cancelled (trace/progress.h).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "trace/progress.h"
#include "trace/result.h"

namespace damscope {

// Fails unless `path` is a readable, non-empty regular file; returns its size.
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

// Decompresses a gzip stream (several concatenated members are allowed) of at
// most `max_bytes` in and out. Errors name `path` and say whether the stream
// was truncated, corrupt or too large. Reports the fraction of `compressed`
// consumed to `progress` and returns cancelledError() when it is cancelled.
Result<std::string> gunzip(std::string_view compressed, const std::string& path, size_t padding,
                           const Progress& progress = {}, size_t max_bytes = kMaxInputBytes);

}  // namespace damscope
