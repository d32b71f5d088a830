// File and gzip sinks: see output_sink.h.
#include "analyzer/report/output_sink.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace damscope {
namespace {

// Writes whole buffers to a file descriptor, retrying short writes and EINTR.
class FileSink : public OutputSink {
 public:
  FileSink(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  ~FileSink() override {
    if (fd_ >= 0) ::close(fd_);
  }

  Status write(std::string_view bytes) override {
    while (!bytes.empty()) {
      const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return failure("cannot write");
      }
      bytes.remove_prefix(static_cast<size_t>(n));
    }
    return okStatus();
  }

  Status close() override {
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) return failure("cannot close");
    return okStatus();
  }

 private:
  Status failure(const char* what) const {
    return Error(path_ + ": " + what + ": " + std::strerror(errno), ErrorCode::kFailure);
  }

  std::string path_;
  int fd_;
};

// Compresses into a fixed buffer and passes full buffers to a FileSink.
class GzipSink : public OutputSink {
 public:
  static constexpr size_t kOutBytes = 256 * 1024;

  GzipSink(std::string path, std::unique_ptr<FileSink> file)
      : path_(std::move(path)), file_(std::move(file)), out_(kOutBytes) {}
  ~GzipSink() override {
    if (open_) deflateEnd(&z_);
  }

  Status init(int level) {
    // windowBits 15 + 16: a gzip header and trailer instead of zlib's (zlib
    // manual, deflateInit2).
    if (deflateInit2(&z_, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      return Error(path_ + ": cannot start gzip compression", ErrorCode::kFailure);
    }
    open_ = true;
    return okStatus();
  }

  Status write(std::string_view bytes) override { return deflateAll(bytes, Z_NO_FLUSH); }

  Status close() override {
    DAMSCOPE_RETURN_IF_ERROR(deflateAll({}, Z_FINISH));
    deflateEnd(&z_);
    open_ = false;
    return file_->close();
  }

 private:
  Status deflateAll(std::string_view bytes, int flush) {
    // zlib takes a non-const pointer but does not write through next_in.
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z_.avail_in = static_cast<uInt>(bytes.size());
    for (;;) {
      z_.next_out = out_.data();
      z_.avail_out = static_cast<uInt>(out_.size());
      const int rc = deflate(&z_, flush);
      if (rc == Z_STREAM_ERROR) {
        return Error(path_ + ": gzip compression failed", ErrorCode::kFailure);
      }
      const size_t produced = out_.size() - z_.avail_out;
      if (produced > 0) {
        DAMSCOPE_RETURN_IF_ERROR(
            file_->write({reinterpret_cast<const char*>(out_.data()), produced}));
      }
      // Done when the input is consumed and deflate had room to spare
      // (Z_NO_FLUSH), or the stream is finished (Z_FINISH).
      if (flush == Z_FINISH ? rc == Z_STREAM_END : z_.avail_in == 0 && z_.avail_out != 0) {
        return okStatus();
      }
    }
  }

  std::string path_;
  std::unique_ptr<FileSink> file_;
  std::vector<Bytef> out_;
  z_stream z_ = {};
  bool open_ = false;
};

}  // namespace

Result<std::unique_ptr<OutputSink>> openFileSink(const std::string& path, bool gzip,
                                                 int gzip_level) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    // The path is the caller's: a missing folder or a read-only one is bad input.
    return Error(path + ": cannot create: " + std::strerror(errno), ErrorCode::kBadInput);
  }
  auto file = std::make_unique<FileSink>(path, fd);
  if (!gzip) return std::unique_ptr<OutputSink>(std::move(file));
  auto sink = std::make_unique<GzipSink>(path, std::move(file));
  DAMSCOPE_RETURN_IF_ERROR(sink->init(gzip_level));
  return std::unique_ptr<OutputSink>(std::move(sink));
}

bool hasGzipSuffix(std::string_view path) {
  constexpr std::string_view kSuffix = ".gz";
  return path.size() > kSuffix.size() &&
         path.compare(path.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0;
}

}  // namespace damscope
