// Interned strings: see string_pool.h.
#include "trace/string_pool.h"

namespace damscope {

StringId StringPool::intern(std::string_view text) {
  auto it = index_.find(text);
  if (it != index_.end()) return StringId{it->second};
  const auto id = static_cast<int32_t>(values_.size());
  values_.emplace_back(text);
  index_.emplace(std::string_view(values_.back()), id);
  return StringId{id};
}

StringId StringPool::find(std::string_view text) const {
  auto it = index_.find(text);
  return it == index_.end() ? kNoString : StringId{it->second};
}

}  // namespace damscope
