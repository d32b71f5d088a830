// Reading trace files from disk: see input_file.h.
#include "analyzer/importers/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace damscope {
namespace {

std::string errnoText() {
  return std::strerror(errno);
}

// Closes a file descriptor on scope exit.
struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd >= 0) ::close(fd);
  }
};

Result<int> openForReading(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error(path + ": cannot open: " + errnoText());
  return fd;
}

}  // namespace

Result<size_t> checkInputFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return Error(path + ": cannot open: " + errnoText());
  if (S_ISDIR(st.st_mode)) return Error(path + ": is a directory, not a trace file");
  if (!S_ISREG(st.st_mode)) return Error(path + ": not a regular file");
  DAMSCOPE_ASSIGN_OR_RETURN(int fd, openForReading(path));
  ::close(fd);
  if (st.st_size == 0) return Error(path + ": empty file");
  return static_cast<size_t>(st.st_size);
}

Result<std::string> readFilePrefix(const std::string& path, size_t n) {
  DAMSCOPE_ASSIGN_OR_RETURN(int fd, openForReading(path));
  FdCloser closer{fd};
  std::string bytes(n, '\0');
  size_t got = 0;
  while (got < n) {
    const ssize_t r = ::read(fd, bytes.data() + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return Error(path + ": read error: " + errnoText());
    if (r == 0) break;
    got += static_cast<size_t>(r);
  }
  bytes.resize(got);
  return bytes;
}

Result<std::string> readWholeFile(const std::string& path, size_t padding,
                                  const Progress& progress) {
  DAMSCOPE_ASSIGN_OR_RETURN(size_t size, checkInputFile(path));
  if (size > kMaxInputBytes) {
    return Error(path + ": file too large (" + std::to_string(size) +
                 " bytes; a trace can have at most " + std::to_string(kMaxInputBytes) + ")");
  }
  DAMSCOPE_ASSIGN_OR_RETURN(int fd, openForReading(path));
  FdCloser closer{fd};
  std::string bytes;
  bytes.reserve(size + padding);
  bytes.resize(size);
  size_t got = 0;
  while (got < size) {
    const ssize_t r = ::read(fd, bytes.data() + got, std::min(size - got, kProgressChunkBytes));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return Error(path + ": read error: " + errnoText());
    if (r == 0) break;  // The file shrank while we read it.
    got += static_cast<size_t>(r);
    progress.report(static_cast<double>(got) / static_cast<double>(size));
    DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
  }
  bytes.resize(got);
  return bytes;
}

bool isGzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

Result<std::string> gunzip(std::string_view compressed, const std::string& path, size_t padding,
                           const Progress& progress, size_t max_bytes) {
  auto too_large = [&] {
    return Error(path + ": gzip content too large (a trace can have at most " +
                 std::to_string(max_bytes) + " bytes)");
  };
  // zlib counts input in 32-bit uInt.
  max_bytes = std::min(max_bytes, kMaxInputBytes);
  if (compressed.size() > max_bytes) return too_large();
  std::string out;
  // A gzip member ends with its uncompressed size modulo 2^32 (RFC 1952,
  // ISIZE): a good first guess for the output buffer when the file is intact.
  // A truncated file ends with arbitrary bytes, so the guess is capped at a
  // ratio far above what trace JSON reaches (about 20:1), and at the limit.
  constexpr size_t kMaxRatio = 100;
  size_t guess = compressed.size() * 4;
  if (compressed.size() >= 18) {
    const auto* tail =
        reinterpret_cast<const unsigned char*>(compressed.data() + compressed.size() - 4);
    const size_t isize = tail[0] | (tail[1] << 8) | (tail[2] << 16) | (size_t(tail[3]) << 24);
    if (isize >= compressed.size()) guess = std::min(isize, compressed.size() * kMaxRatio);
  }
  guess = std::min(guess, max_bytes);
  // Slack so that the decoder can report the end of the stream without a
  // final reallocation when the guess is exact.
  out.reserve(guess + (64u << 10) + padding);
  out.resize(guess + (64u << 10));

  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) return Error(path + ": cannot start gzip decoder");
  struct InflateEnd {
    z_stream* zs;
    ~InflateEnd() { inflateEnd(zs); }
  } end_inflate{&zs};
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  zs.avail_in = static_cast<uInt>(compressed.size());
  size_t produced = 0;
  while (true) {
    if (out.size() == produced) {
      // Full: grow, up to one byte past the limit, which tells a stream that exceeds it.
      if (produced > max_bytes) return too_large();
      out.resize(std::min(out.size() * 2, max_bytes + 1));
    }
    // A window of kProgressChunkBytes brings control back between reports.
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    zs.avail_out = static_cast<uInt>(std::min(out.size() - produced, kProgressChunkBytes));
    const uInt before = zs.avail_out;
    const int rc = inflate(&zs, Z_NO_FLUSH);
    produced += before - zs.avail_out;
    const auto consumed = reinterpret_cast<const char*>(zs.next_in) - compressed.data();
    progress.report(static_cast<double>(consumed) / static_cast<double>(compressed.size()));
    DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
    if (rc == Z_STREAM_END) {
      // Concatenated gzip members decode as one stream (gzip -c a b > ab.gz).
      if (zs.avail_in > 0 &&
          isGzip(std::string_view(reinterpret_cast<char*>(zs.next_in), zs.avail_in))) {
        inflateReset(&zs);
        continue;
      }
      break;
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
      return Error(path + ": truncated gzip stream (ends after " + std::to_string(produced) +
                   " decompressed bytes)");
    }
    if (rc == Z_BUF_ERROR) continue;  // Needs more output space: loop grows it.
    const std::string reason = zs.msg ? zs.msg : "error " + std::to_string(rc);
    return Error(path + ": corrupt gzip data (" + reason + ") after " + std::to_string(produced) +
                 " decompressed bytes");
  }
  if (produced > max_bytes) return too_large();
  out.resize(produced);
  if (out.capacity() < produced + padding) out.reserve(produced + padding);
  return out;
}

}  // namespace damscope
