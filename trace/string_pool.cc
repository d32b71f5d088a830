// Interned strings: see string_pool.h.
#include "trace/string_pool.h"

#include "base/utf8.h"

namespace damscope {

StringId StringPool::intern(std::string_view text) {
  auto it = index_.find(text);
  if (it != index_.end()) return StringId{it->second};
  if (!isValidUtf8(text)) {
    std::string key(text);
    if (auto repaired = repaired_.find(key); repaired != repaired_.end()) {
      return StringId{repaired->second};
    }
    const StringId id = intern(toValidUtf8(text));
    repaired_.emplace(std::move(key), id.value);
    return id;
  }
  const auto id = static_cast<int32_t>(values_.size());
  values_.emplace_back(text);
  index_.emplace(std::string_view(values_.back()), id);
  return StringId{id};
}

StringId StringPool::find(std::string_view text) const {
  auto it = index_.find(text);
  if (it != index_.end()) return StringId{it->second};
  if (repaired_.empty()) return kNoString;
  auto repaired = repaired_.find(std::string(text));
  return repaired == repaired_.end() ? kNoString : StringId{repaired->second};
}

}  // namespace damscope
