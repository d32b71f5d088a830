// A trace file's text made on a second thread while the reader parses the
// text already there: a .json.gz decompressed, a plain .json read. Parsing
// takes longer than either (v100_rank1 on one core: 115 ms to parse 54 MB,
// about 65 ms to inflate it, 26 ms to read it from the page cache), so
// overlapped they take the parse's time instead of the sum.
//
// The text goes into address space reserved once for the most the file may
// give (InflateLimits::capFor for a .gz, the file's size for a plain file):
// the reader's views stay valid while it fills, and pages are only taken as
// they are written. The bytes the reader releases (DocumentText::release)
// give their pages to the text still to come, and the thread pauses while it
// is more than 16 MiB past them and past what the reader waits for: a reader
// that releases as it goes keeps about 16 MiB of the text in memory whatever
// its size (v100_rank1: 54 MB), on pages faulted in once and then reused.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "analyzer/importers/io/document_text.h"
#include "analyzer/importers/io/input_file.h"
#include "base/progress.h"

namespace damscope {

class StreamingFile final : public DocumentText {
 public:
  // Starts decompressing `path` (as gunzipFile, with its errors) on a second
  // thread, the text to be followed by `padding` zero bytes. The thread
  // stops when `progress` is cancelled; it reports nothing: the reader's
  // thread reports (Progress callbacks run on one thread). Fails, before any
  // thread starts, when the file cannot be opened or the address space for
  // its cap cannot be reserved (a limit on virtual memory, ulimit -v; then
  // ErrorCode::kFailure): gunzipFile, whose buffer grows with the text, may
  // still do.
  static Result<std::unique_ptr<StreamingFile>> gunzip(std::string path, size_t padding,
                                                       const Progress& progress,
                                                       const InflateLimits& limits = {});
  // As gunzip, for a plain file, read as readWholeFile reads it (which may
  // still do where this fails).
  static Result<std::unique_ptr<StreamingFile>> read(std::string path, size_t padding,
                                                     const Progress& progress);
  // Stops the thread and waits for it: views of the text end here.
  ~StreamingFile() override;
  StreamingFile(const StreamingFile&) = delete;
  StreamingFile& operator=(const StreamingFile&) = delete;

  Result<std::string_view> through(size_t n) override;
  void release(size_t n) override;
  // After a release, reads (or decompresses) the file again from its start.
  Status rewind() override;
  // Until the text is all out, the size it should have: a plain file's, or
  // the one a .gz's trailer announces (RFC 1952 ISIZE).
  size_t expectedSize() const override;
  // Seconds the thread worked, once it ended (after whole()), not counting
  // its waits for the reader.
  double threadSeconds() const;

 private:
  // The memory the text goes into, and what the two threads share.
  class Region;
  // What the thread makes the text from.
  enum class Source { kGzip, kPlain };
  StreamingFile(std::string path, Source source, size_t padding, const Progress& progress,
                const InflateLimits& limits, size_t cap);
  // Reserves a region and starts the thread that fills it.
  Status startRegion();
  // Stops the thread and frees its region.
  void stopRegion();

  const std::string path_;
  const Source source_;
  const size_t padding_;
  const Progress progress_;
  const InflateLimits limits_;
  const size_t cap_;
  std::unique_ptr<Region> region_;  // none once a restart failed
  std::optional<Error> restart_error_;
  std::thread thread_;
};

}  // namespace damscope
