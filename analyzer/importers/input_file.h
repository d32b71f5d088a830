// Reading trace files from disk: checks that give one clear message per bad
// input (missing, a directory, unreadable, empty), whole-file reads, and gzip
// decompression that tells a truncated stream from corrupt data.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "trace/result.h"

namespace damscope {

// Fails unless `path` is a readable, non-empty regular file; returns its size.
Result<size_t> checkInputFile(const std::string& path);

// The first `n` bytes of the file (fewer if it is shorter).
Result<std::string> readFilePrefix(const std::string& path, size_t n);

// The whole file. `padding` extra bytes of capacity are reserved after the
// content (the JSON parser reads a little past the end).
Result<std::string> readWholeFile(const std::string& path, size_t padding);

// True when `bytes` starts with the gzip magic number.
bool isGzip(std::string_view bytes);

// Decompresses a gzip stream (several concatenated members are allowed).
// Errors name `path` and say whether the stream was truncated or corrupt.
Result<std::string> gunzip(std::string_view compressed, const std::string& path, size_t padding);

}  // namespace damscope
