// The text of a document being imported: whole in memory, or still arriving
// (a file read or decompressed on another thread, streaming_file.h), so that a
// reader parses what is there while the rest comes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace damscope {

class DocumentText {
 public:
  virtual ~DocumentText() = default;

  // The text so far, once it holds more than `n` bytes or is all there: a
  // view of `n` bytes or fewer is the whole text. Waits for the bytes. An
  // error when they cannot come (the decompression failed or was cancelled):
  // from then on every call returns it.
  virtual Result<std::string_view> through(size_t n) = 0;

  // The whole text, followed by as many readable bytes as its maker was
  // asked to pad it with (the JSON parser reads a little past the end).
  Result<std::string_view> whole() { return through(SIZE_MAX); }

  // For progress: the text's size once it is known, else an estimate.
  virtual size_t expectedSize() const = 0;

  // The reader will read no byte before `n` again, until rewind(): their
  // memory may go to the bytes still to come, and views of them dangle.
  virtual void release(size_t) {}
  // The next read starts again at byte 0: bytes released before are given
  // again. An error when they cannot be (the decompression failed).
  virtual Status rewind() { return okStatus(); }
};

// A text already in memory (a plain .json file, a test's string).
class WholeText final : public DocumentText {
 public:
  // Reserves `padding` bytes of spare capacity after the text if missing.
  WholeText(std::string& text, size_t padding) : text_(text) {
    if (text_.capacity() < text_.size() + padding) text_.reserve(text_.size() + padding);
  }
  Result<std::string_view> through(size_t) override { return std::string_view(text_); }
  size_t expectedSize() const override { return text_.size(); }

 private:
  std::string& text_;
};

}  // namespace damscope
