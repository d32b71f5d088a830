// A DocumentText that hands out its text as slowly as the contract allows:
// each through(n) gives exactly n + 1 bytes (or the whole text), so that a
// reader meets the end of what has arrived at every offset where it asks,
// as it may with a file still inflating (StreamingFile), without a thread.
// Bytes the reader releases are overwritten with '#' (until a rewind puts
// the text back), so that a reader that reads them again fails or differs.
// Used by the importer tests and the Kineto fuzz target.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

#include "analyzer/importers/io/document_text.h"

namespace damscope::testing {

class TrickleText final : public DocumentText {
 public:
  TrickleText(std::string& text, size_t padding)
      : original_(text), whole_(text, padding), text_(text) {}
  ~TrickleText() override { restore(); }

  Result<std::string_view> through(size_t n) override {
    if (n >= text_.size()) return whole_.through(n);
    ++calls_;
    return std::string_view(text_).substr(0, n + 1);
  }
  size_t expectedSize() const override { return text_.size(); }
  void release(size_t n) override {
    n = std::min(n, text_.size());
    if (n > released_) std::fill(text_.begin() + released_, text_.begin() + n, '#');
    released_ = std::max(released_, n);
  }
  Status rewind() override {
    restore();
    return okStatus();
  }
  // How many partial views were handed out.
  size_t calls() const { return calls_; }
  // The most the reader released since the last rewind.
  size_t released() const { return released_; }

 private:
  void restore() {
    std::copy(original_.begin(), original_.begin() + released_, text_.begin());
    released_ = 0;
  }

  const std::string original_;
  WholeText whole_;
  std::string& text_;
  size_t released_ = 0;
  size_t calls_ = 0;
};

}  // namespace damscope::testing
