// Where a streaming writer's bytes go: a file, a gzip file, or a string. The
// exports write documents too large to build in memory first (a Chrome trace
// of a few million events is a few hundred MB of JSON), so a writer appends
// text in chunks and hands each chunk to a sink.
//
// A sink owns no naming policy: the caller decides the path (usually a
// PendingFile's temporary path, base/pending_file.h, so that a failed or
// cancelled export leaves nothing) and whether it is compressed. Errors name
// the path the sink was opened on and say what the system said.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"

namespace damscope {

class OutputSink {
 public:
  virtual ~OutputSink() = default;
  virtual Status write(std::string_view bytes) = 0;
  // Flushes everything (the gzip trailer included) and closes the file. A
  // sink destroyed without close() drops what it buffered: the caller was
  // abandoning the output anyway.
  virtual Status close() = 0;
};

// Creates (truncates) `path`. With `gzip`, the bytes are compressed as one
// gzip member (RFC 1952) by zlib at `gzip_level` (1 fastest .. 9 smallest).
Result<std::unique_ptr<OutputSink>> openFileSink(const std::string& path, bool gzip,
                                                 int gzip_level = 1);

// Collects the bytes in memory: tests, and small documents.
class StringSink : public OutputSink {
 public:
  Status write(std::string_view bytes) override {
    text_.append(bytes);
    return okStatus();
  }
  Status close() override { return okStatus(); }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// True when `path` ends in ".gz": the exports compress such outputs.
bool hasGzipSuffix(std::string_view path);

}  // namespace damscope
