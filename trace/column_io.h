// Binding and reading one value of a table column to and from SQLite, for the
// generic table writers and readers (the trace writer and reader and the
// analysis store use them; they follow
// the conventions of trace/tables.h: null values become SQL NULL, enums are
// stored as their text names, strings as TEXT, string ids as integers).
#pragma once

#include <type_traits>

#include "trace/sqlite_db.h"
#include "trace/tables.h"

namespace damscope::column_io {

inline void bindValue(Statement& s, int i, int64_t v) {
  isNull(v) ? s.bindNull(i) : s.bindInt(i, v);
}
inline void bindValue(Statement& s, int i, int32_t v) {
  isNull(v) ? s.bindNull(i) : s.bindInt(i, v);
}
// NaN and infinities are stored as NULL: no analysis result is ever a NaN.
inline void bindValue(Statement& s, int i, double v) {
  std::isfinite(v) ? s.bindReal(i, v) : s.bindNull(i);
}
inline void bindValue(Statement& s, int i, StringId v) {
  v.valid() ? s.bindInt(i, v.value) : s.bindNull(i);
}
inline void bindValue(Statement& s, int i, const std::string& v) {
  v.empty() ? s.bindNull(i) : s.bindText(i, v);
}
template <typename E>
requires std::is_enum_v<E>
void bindValue(Statement& s, int i, E v) {
  s.bindText(i, toText(v));
}

inline void readValue(const Statement& s, int c, int64_t& out) {
  out = s.isNull(c) ? nullValue<int64_t>() : s.columnInt(c);
}
inline void readValue(const Statement& s, int c, int32_t& out) {
  out = s.isNull(c) ? nullValue<int32_t>() : static_cast<int32_t>(s.columnInt(c));
}
inline void readValue(const Statement& s, int c, double& out) {
  out = s.isNull(c) ? nullValue<double>() : s.columnReal(c);
}
inline void readValue(const Statement& s, int c, StringId& out) {
  out = s.isNull(c) ? kNoString : StringId{static_cast<int32_t>(s.columnInt(c))};
}
inline void readValue(const Statement& s, int c, std::string& out) {
  out = std::string(s.columnText(c));
}
template <typename E>
requires std::is_enum_v<E>
void readValue(const Statement& s, int c, E& out) {
  out = enumFromText<E>(s.columnText(c)).value_or(E{});
}

}  // namespace damscope::column_io
