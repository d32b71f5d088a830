// Interned strings. Kernel and op names repeat tens of thousands of times in a
// trace; event rows hold a StringId and the text is stored once (the `strings`
// table). Ids are dense and start at 0, in insertion order. Every stored
// string is valid UTF-8 (base/utf8.h): text that is not is stored with its
// invalid bytes replaced, and the original text finds that same id.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace damscope {

// A strong type so that a string reference never mixes with a numeric column.
struct StringId {
  int32_t value = -1;
  bool valid() const { return value >= 0; }
  friend bool operator==(StringId a, StringId b) { return a.value == b.value; }
};

constexpr StringId kNoString{};

class StringPool {
 public:
  StringPool() = default;
  StringPool(StringPool&&) = default;
  StringPool& operator=(StringPool&&) = default;
  StringPool(const StringPool&) = delete;
  StringPool& operator=(const StringPool&) = delete;

  // Returns the id of `text`, adding it on first sight (made valid UTF-8).
  StringId intern(std::string_view text);

  // Returns the id of `text` if it is already in the pool.
  StringId find(std::string_view text) const;

  // The text of a valid id; "" for kNoString.
  std::string_view get(StringId id) const {
    return id.valid() ? std::string_view(values_[static_cast<size_t>(id.value)])
                      : std::string_view();
  }

  size_t size() const { return values_.size(); }

 private:
  // A deque keeps each std::string's address stable, so the index can key on
  // views into the stored strings.
  std::deque<std::string> values_;
  std::unordered_map<std::string_view, int32_t> index_;
  // Text that was not valid UTF-8 -> the id of its repaired form. Rare: it
  // only exists so that the same bad text always gets the same id.
  std::unordered_map<std::string, int32_t> repaired_;
};

}  // namespace damscope
