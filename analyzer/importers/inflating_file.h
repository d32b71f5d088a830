// A .gz file decompressed on a second thread while the reader parses the
// text already out. Decompressing and parsing a Kineto trace take about as
// long as each other (v100_rank1 on one core: 88 ms to inflate 54 MB, 132 ms
// to parse it, bench/import_bench.cc), so overlapped they take the longer of
// the two instead of the sum.
//
// The text goes into memory reserved once for the most the stream may
// inflate to (InflateLimits::capFor): the reader's views stay valid while it
// fills, and the pages are only taken as they are written, so the resident
// memory is the text's size, as a growing string's would be.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <thread>

#include "analyzer/importers/document_text.h"
#include "analyzer/importers/input_file.h"
#include "trace/progress.h"

namespace damscope {

class InflatingFile final : public DocumentText {
 public:
  // Starts decompressing `path` (as gunzipFile, with its errors) on a second
  // thread, the text to be followed by `padding` zero bytes. The thread
  // stops when `progress` is cancelled; it reports nothing: the reader's
  // thread reports (Progress callbacks run on one thread). Fails, before any
  // thread starts, when the file cannot be opened or the address space for
  // its cap cannot be reserved (a limit on virtual memory, ulimit -v; then
  // ErrorCode::kFailure): gunzipFile, whose buffer grows with the text, may
  // still do.
  static Result<std::unique_ptr<InflatingFile>> start(std::string path, size_t padding,
                                                      const Progress& progress,
                                                      const InflateLimits& limits = {});
  // Stops the decompression and waits for its thread: views of the text end here.
  ~InflatingFile() override;
  InflatingFile(const InflatingFile&) = delete;
  InflatingFile& operator=(const InflatingFile&) = delete;

  Result<std::string_view> through(size_t n) override;
  // The trailer's announced size (RFC 1952 ISIZE) until the text is all out.
  size_t expectedSize() const override;
  // Seconds the decompression ran, once it ended (after whole()).
  double inflateSeconds() const;

 private:
  // The memory the text inflates into, and what the two threads share.
  class Region;
  InflatingFile(std::unique_ptr<Region> region, const InflateLimits& limits);
  std::unique_ptr<Region> region_;
  std::thread thread_;
};

}  // namespace damscope
