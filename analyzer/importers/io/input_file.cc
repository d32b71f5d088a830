// Reading trace files from disk: see input_file.h.
#include "analyzer/importers/io/input_file.h"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <vector>

#include "base/input_fd.h"

namespace damscope {
namespace {

// An input file opened through the one door (base/input_fd.h), which refuses
// what is not a regular file before reading, and checked not to be empty.
Result<InputFd> openNonEmpty(const std::string& path) {
  DAMSCOPE_ASSIGN_OR_RETURN(InputFd file, InputFd::open(path));
  if (file.sizeBytes() == 0) return Error(path + ": empty file");
  return file;
}

}  // namespace

Result<size_t> checkInputFile(const std::string& path) {
  DAMSCOPE_ASSIGN_OR_RETURN(InputFd file, openNonEmpty(path));
  return file.sizeBytes();
}

Result<std::string> readFilePrefix(const std::string& path, size_t n) {
  DAMSCOPE_ASSIGN_OR_RETURN(InputFd file, InputFd::open(path));
  std::string bytes(n, '\0');
  DAMSCOPE_ASSIGN_OR_RETURN(size_t got, file.read(bytes.data(), n));
  bytes.resize(got);
  return bytes;
}

bool isGzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

bool isSqlite(std::string_view bytes) {
  // The 16-byte header string, NUL included (sqlite.org/fileformat.html, 1.3).
  constexpr std::string_view kMagic("SQLite format 3\0", 16);
  return bytes.substr(0, kMagic.size()) == kMagic;
}

size_t InflateLimits::capFor(size_t compressed_bytes) const {
  size_t cap = 0;
  if (__builtin_mul_overflow(compressed_bytes, max_ratio, &cap) ||
      __builtin_add_overflow(cap, allowance_bytes, &cap)) {
    cap = SIZE_MAX;
  }
  return std::min({cap, max_bytes, kMaxInputBytes});
}

namespace {

// Supplies compressed bytes: fills up to `n` bytes at `into` and returns how
// many, 0 at the end of the input.
using ReadInput = std::function<Result<size_t>(char* into, size_t n)>;

// The gzip trailer's ISIZE, the uncompressed size modulo 2^32 of the last
// member (RFC 1952); 0 when `tail` is not the last 4 bytes of a stream.
size_t trailerSize(std::string_view tail, size_t compressed_bytes) {
  if (compressed_bytes < 18 || tail.size() != 4) return 0;
  const auto* t = reinterpret_cast<const unsigned char*>(tail.data());
  return t[0] | (t[1] << 8) | (t[2] << 16) | (size_t(t[3]) << 24);
}

// Inflates a gzip stream of `compressed_bytes` into `sink`; returns the
// decompressed size. See gunzip for the errors.
Result<size_t> inflateGzip(const ReadInput& read, size_t compressed_bytes, std::string_view tail,
                           const std::string& path, TextSink& sink, const Progress& progress,
                           const InflateLimits& limits) {
  const size_t cap = limits.capFor(compressed_bytes);
  DAMSCOPE_RETURN_IF_ERROR(sink.begin(compressed_bytes, trailerSize(tail, compressed_bytes), cap));
  auto too_large = [&] {
    return Error(path + ": gzip content larger than " + std::to_string(cap) +
                 " bytes, the limit for a " + std::to_string(compressed_bytes) + "-byte file (" +
                 std::to_string(limits.max_ratio) + " times its size plus " +
                 std::to_string(limits.allowance_bytes >> 20) + " MiB, at most " +
                 std::to_string(limits.max_bytes) + ")");
  };
  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) return Error(path + ": cannot start gzip decoder");
  struct InflateEnd {
    z_stream* zs;
    ~InflateEnd() { inflateEnd(zs); }
  } end_inflate{&zs};
  std::vector<char> in(std::min(kProgressChunkBytes, std::max<size_t>(compressed_bytes, 2)));
  zs.next_in = reinterpret_cast<Bytef*>(in.data());
  zs.avail_in = 0;
  bool input_ended = false;
  bool member_ended = false;  // between two members, or after the last one
  size_t consumed = 0, produced = 0;
  // Moves what is left of the chunk to the front and reads after it.
  auto refill = [&]() -> Status {
    std::memmove(in.data(), zs.next_in, zs.avail_in);
    DAMSCOPE_ASSIGN_OR_RETURN(size_t got, read(in.data() + zs.avail_in, in.size() - zs.avail_in));
    input_ended = got == 0;
    zs.next_in = reinterpret_cast<Bytef*>(in.data());
    zs.avail_in += static_cast<uInt>(got);
    return okStatus();
  };
  while (true) {
    if (member_ended) {
      // The next two bytes decide: another member (gzip -c a b > ab.gz), the
      // end of the file, or trailing data, which gzip(1) too reports.
      if (zs.avail_in < 2 && !input_ended) {
        DAMSCOPE_RETURN_IF_ERROR(refill());
        continue;
      }
      if (zs.avail_in == 0) break;
      if (!isGzip(std::string_view(reinterpret_cast<char*>(zs.next_in), zs.avail_in))) {
        return Error(path + ": unexpected data after the end of the gzip stream (at byte " +
                     std::to_string(consumed) + " of " + std::to_string(compressed_bytes) + ")");
      }
      inflateReset(&zs);
      member_ended = false;
    }
    if (zs.avail_in == 0 && !input_ended) DAMSCOPE_RETURN_IF_ERROR(refill());
    // Room up to one byte past the cap, which tells a stream that exceeds it.
    if (produced > cap) return too_large();
    const std::span<char> room = sink.room(produced, cap + 1);
    // A window of kProgressChunkBytes brings control back between reports.
    zs.next_out = reinterpret_cast<Bytef*>(room.data());
    zs.avail_out = static_cast<uInt>(std::min(room.size(), kProgressChunkBytes));
    const uInt out_before = zs.avail_out, in_before = zs.avail_in;
    const int rc = inflate(&zs, Z_NO_FLUSH);
    produced += out_before - zs.avail_out;
    consumed += in_before - zs.avail_in;
    progress.report(static_cast<double>(consumed) /
                    static_cast<double>(std::max<size_t>(compressed_bytes, 1)));
    DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
    DAMSCOPE_RETURN_IF_ERROR(sink.publish(std::min(produced, cap)));
    if (rc == Z_STREAM_END) {
      member_ended = true;
      continue;
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR && zs.avail_in == 0 && input_ended) {
      return Error(path + ": truncated gzip stream (ends after " + std::to_string(produced) +
                   " decompressed bytes)");
    }
    if (rc == Z_BUF_ERROR) continue;  // Needs more input or output space: the loop gets it.
    const std::string reason = zs.msg ? zs.msg : "error " + std::to_string(rc);
    return Error(path + ": corrupt gzip data (" + reason + ") after " + std::to_string(produced) +
                 " decompressed bytes");
  }
  if (produced > cap) return too_large();
  return produced;
}

// Inflates into a std::string that grows as the stream proves to need it.
// Its first size comes from the trailer: exact when the file is intact. But
// the file's end is untrusted, and so is its size (a sparse file of 2 GiB
// costs nothing to make): the string is filled with zeros when it is sized,
// so it starts at most at kMaxFirstBuffer and grows by doubling. 64 MiB holds
// the largest trace in ../shared/traces (54 MB of JSON) in one piece; a
// larger one is copied a few times, at memory speed.
//
// A plain file's text is sized once, to the file's size (`exact`).
class StringSink final : public TextSink {
 public:
  StringSink(size_t padding, bool exact = false) : padding_(padding), exact_(exact) {}

  Status begin(size_t input_bytes, size_t announced_bytes, size_t cap) override {
    if (exact_) {
      out_.reserve(cap + padding_);
      out_.resize(cap);
      return okStatus();
    }
    constexpr size_t kMaxFirstBuffer = 64u << 20;
    const size_t guess = announced_bytes >= input_bytes ? announced_bytes : input_bytes * 4;
    // Slack so that the decoder can report the end of the stream without a
    // final reallocation when the guess is exact.
    const size_t first = std::min({guess, cap, kMaxFirstBuffer}) + (64u << 10);
    out_.reserve(first + padding_);
    out_.resize(first);
    return okStatus();
  }
  std::span<char> room(size_t produced, size_t most) override {
    if (out_.size() == produced) out_.resize(std::min(out_.size() * 2, most));
    return std::span<char>(out_.data() + produced, out_.size() - produced);
  }
  Status publish(size_t) override { return okStatus(); }

  // The text, with `padding` bytes of spare capacity after it.
  std::string take(size_t produced) {
    out_.resize(produced);
    if (out_.capacity() < produced + padding_) out_.reserve(produced + padding_);
    return std::move(out_);
  }

 private:
  std::string out_;
  size_t padding_;
  bool exact_;
};

}  // namespace

Result<size_t> readFile(const std::string& path, TextSink& sink, const Progress& progress) {
  DAMSCOPE_ASSIGN_OR_RETURN(InputFd file, openNonEmpty(path));
  const size_t size = file.sizeBytes();
  if (size > kMaxInputBytes) {
    return Error(path + ": file too large (" + std::to_string(size) +
                 " bytes; a trace can have at most " + std::to_string(kMaxInputBytes) + ")");
  }
  DAMSCOPE_RETURN_IF_ERROR(sink.begin(size, size, size));
  size_t got = 0;
  while (got < size) {
    const std::span<char> room = sink.room(got, size);
    DAMSCOPE_ASSIGN_OR_RETURN(size_t r,
                              file.read(room.data(), std::min(room.size(), kProgressChunkBytes)));
    if (r == 0) break;  // The file shrank while we read it.
    got += r;
    DAMSCOPE_RETURN_IF_ERROR(sink.publish(got));
    progress.report(static_cast<double>(got) / static_cast<double>(size));
    DAMSCOPE_RETURN_IF_ERROR(progress.checkCancelled());
  }
  return got;
}

Result<std::string> readWholeFile(const std::string& path, size_t padding,
                                  const Progress& progress) {
  StringSink sink(padding, /*exact=*/true);
  DAMSCOPE_ASSIGN_OR_RETURN(size_t size, readFile(path, sink, progress));
  return sink.take(size);
}

Result<std::string> gunzip(std::string_view compressed, const std::string& path, size_t padding,
                           const Progress& progress, const InflateLimits& limits) {
  size_t offset = 0;
  auto read = [&](char* into, size_t n) -> Result<size_t> {
    n = std::min(n, compressed.size() - offset);
    std::memcpy(into, compressed.data() + offset, n);
    offset += n;
    return n;
  };
  const std::string_view tail =
      compressed.size() >= 4 ? compressed.substr(compressed.size() - 4) : std::string_view();
  StringSink sink(padding);
  DAMSCOPE_ASSIGN_OR_RETURN(
      size_t produced, inflateGzip(read, compressed.size(), tail, path, sink, progress, limits));
  return sink.take(produced);
}

Result<size_t> gunzipFile(const std::string& path, TextSink& sink, const Progress& progress,
                          const InflateLimits& limits) {
  DAMSCOPE_ASSIGN_OR_RETURN(InputFd file, openNonEmpty(path));
  const size_t size = file.sizeBytes();
  char tail[4];
  std::string_view tail_bytes;
  if (size >= 4 && ::pread(file.fd(), tail, 4, static_cast<off_t>(size - 4)) == 4) {
    tail_bytes = std::string_view(tail, 4);
  }
  auto read = [&](char* into, size_t n) { return file.read(into, n); };
  return inflateGzip(read, size, tail_bytes, path, sink, progress, limits);
}

Result<std::string> gunzipFile(const std::string& path, size_t padding, const Progress& progress,
                               const InflateLimits& limits) {
  StringSink sink(padding);
  DAMSCOPE_ASSIGN_OR_RETURN(size_t produced, gunzipFile(path, sink, progress, limits));
  return sink.take(produced);
}

}  // namespace damscope
