// SQLite's record format and varints (sqlite.org/fileformat2.html §2.1 and
// §1.6), for trace/page_writer.h: inline, since every value of a written
// table passes through them.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace damscope {
namespace sqlite_record {

// §1.6 "varint": big-endian groups of 7 bits, the high bit set on all but the
// last; a ninth byte, if any, carries 8 bits.
inline size_t putVarint(uint8_t* p, uint64_t v) {
  if (v < 0x80) {
    p[0] = uint8_t(v);
    return 1;
  }
  if (v < 0x4000) {
    p[0] = uint8_t((v >> 7) | 0x80), p[1] = uint8_t(v & 0x7f);
    return 2;
  }
  if (v >> 56) {
    p[8] = uint8_t(v);
    v >>= 8;
    for (int i = 7; i >= 0; --i, v >>= 7) p[i] = uint8_t((v & 0x7f) | 0x80);
    return 9;
  }
  uint8_t reversed[9];
  size_t n = 0;
  do {
    reversed[n++] = uint8_t((v & 0x7f) | 0x80);
    v >>= 7;
  } while (v);
  reversed[0] &= 0x7f;
  for (size_t i = 0; i < n; ++i) p[i] = reversed[n - 1 - i];
  return n;
}

inline size_t varintLength(uint64_t v) {
  if (v >> 56) return 9;
  size_t n = 1;
  while (v >>= 7) ++n;
  return n;
}

// §2.1: the serial type of an integer (8 and 9 are 0 and 1, with no bytes),
// and the bytes each type takes.
inline uint64_t integerType(int64_t v) {
  if (v == 0) return 8;
  if (v == 1) return 9;
  const uint64_t u = v < 0 ? ~static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  if (u <= 0x7f) return 1;
  if (u <= 0x7fff) return 2;
  if (u <= 0x7fffff) return 3;
  if (u <= 0x7fffffff) return 4;
  if (u <= 0x7fffffffffff) return 5;
  return 6;
}
inline constexpr size_t kIntegerBytes[] = {0, 1, 2, 3, 4, 6, 8, 0, 0, 0};

// The low `bytes` bytes of `v`, most significant first.
inline void putBigEndian(uint8_t* p, uint64_t v, size_t bytes) {
  const uint64_t big = __builtin_bswap64(v);
  std::memcpy(p, reinterpret_cast<const uint8_t*>(&big) + 8 - bytes, bytes);
}

}  // namespace sqlite_record

// One row in SQLite's record format: a header of serial types, then the
// values. Reused from row to row; its buffers only grow.
class RecordEncoder {
 public:
  void clear() { header_size_ = body_size_ = 0, last_type_ = 1; }
  void addNull() { addType(0); }
  void addInt(int64_t v) {
    const uint64_t type = sqlite_record::integerType(v);
    addType(type);
    const size_t bytes = sqlite_record::kIntegerBytes[type];
    if (bytes) sqlite_record::putBigEndian(body(bytes), static_cast<uint64_t>(v), bytes);
  }
  void addReal(double v) {
    addType(7);
    sqlite_record::putBigEndian(body(8), std::bit_cast<uint64_t>(v), 8);
  }
  void addText(std::string_view v) {
    addType(2 * v.size() + 13);
    if (!v.empty()) std::memcpy(body(v.size()), v.data(), v.size());
  }
  bool lastIsNull() const { return last_type_ == 0; }

  // Appends the record (header, then body) to `out`.
  void appendTo(std::vector<uint8_t>& out) const {
    // The header's size counts its own varint.
    size_t header = header_size_ + 1;
    while (header_size_ + sqlite_record::varintLength(header) != header) {
      header = header_size_ + sqlite_record::varintLength(header);
    }
    const size_t at = out.size();
    out.resize(at + header + body_size_);
    uint8_t* p = out.data() + at;
    p += sqlite_record::putVarint(p, header);
    std::memcpy(p, header_.data(), header_size_);
    if (body_size_) std::memcpy(p + header_size_, body_.data(), body_size_);
  }

 private:
  void addType(uint64_t type) {
    if (header_size_ + 9 > header_.size()) header_.resize(2 * header_.size());
    header_size_ += sqlite_record::putVarint(header_.data() + header_size_, type);
    last_type_ = type;
  }
  uint8_t* body(size_t bytes) {
    if (body_size_ + bytes > body_.size()) {
      body_.resize(std::max(2 * body_.size(), body_size_ + bytes));
    }
    uint8_t* at = body_.data() + body_size_;
    body_size_ += bytes;
    return at;
  }

  std::vector<uint8_t> header_ = std::vector<uint8_t>(64);  // serial types, as varints
  std::vector<uint8_t> body_ = std::vector<uint8_t>(256);
  size_t header_size_ = 0;
  size_t body_size_ = 0;
  uint64_t last_type_ = 1;
};

}  // namespace damscope
