// A DocumentText that hands out its text as slowly as the contract allows:
// each through(n) gives exactly n + 1 bytes (or the whole text), so that a
// reader meets the end of what has arrived at every offset where it asks,
// as it may with a file still inflating (InflatingFile), without a thread.
// Used by the importer tests and the Kineto fuzz target.
#pragma once

#include <string>
#include <string_view>

#include "analyzer/importers/document_text.h"

namespace damscope::testing {

class TrickleText final : public DocumentText {
 public:
  TrickleText(std::string& text, size_t padding) : whole_(text, padding), text_(text) {}

  Result<std::string_view> through(size_t n) override {
    if (n >= text_.size()) return whole_.through(n);
    ++calls_;
    return std::string_view(text_).substr(0, n + 1);
  }
  size_t expectedSize() const override { return text_.size(); }
  // How many partial views were handed out.
  size_t calls() const { return calls_; }

 private:
  WholeText whole_;
  const std::string& text_;
  size_t calls_ = 0;
};

}  // namespace damscope::testing
