// A .gz file decompressed on a second thread while the reader parses the
// text already out. Decompressing and parsing a Kineto trace take about as
// long as each other (v100_rank1 on one core: 88 ms to inflate 54 MB, 132 ms
// to parse it, bench/import_bench.cc), so overlapped they take the longer of
// the two instead of the sum.
//
// The text goes into address space reserved once for the most the stream
// may inflate to (InflateLimits::capFor): the reader's views stay valid
// while it fills, and pages are only taken as they are written. The bytes
// the reader releases (DocumentText::release) give their pages to the text
// still to come, and the decompression pauses while it is more than 16 MiB
// past them and past what the reader waits for: a reader that releases as it
// goes keeps about 16 MiB of the text in memory whatever its size
// (v100_rank1: 54 MB), on pages faulted in once and then reused.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
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
  void release(size_t n) override;
  // After a release, decompresses the file again from its start.
  Status rewind() override;
  // The trailer's announced size (RFC 1952 ISIZE) until the text is all out.
  size_t expectedSize() const override;
  // Seconds the decompression ran, once it ended (after whole()), not
  // counting its waits for the reader.
  double inflateSeconds() const;

 private:
  // The memory the text inflates into, and what the two threads share.
  class Region;
  InflatingFile(std::string path, size_t padding, const Progress& progress,
                const InflateLimits& limits, size_t cap);
  // Reserves a region and starts the thread that inflates into it.
  Status startRegion();
  // Stops the thread and frees its region.
  void stopRegion();

  const std::string path_;
  const size_t padding_;
  const Progress progress_;
  const InflateLimits limits_;
  const size_t cap_;
  std::unique_ptr<Region> region_;  // none once a restart failed
  std::optional<Error> restart_error_;
  std::thread thread_;
};

}  // namespace damscope
