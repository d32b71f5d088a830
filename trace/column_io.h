// Binding and reading one value of a table column to and from SQLite, for the
// generic table writers and readers (the trace writer and reader and the
// analysis store use them; they follow
// the conventions of trace/tables.h: null values become SQL NULL, enums are
// stored as their text names, strings as TEXT, string ids as integers).
#pragma once

#include <type_traits>

#include "trace/sqlite_db.h"
#include "trace/tables.h"
#include "base/utf8.h"

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
// Text columns are stored as valid UTF-8 (base/utf8.h), whatever a writer
// was handed.
inline void bindValue(Statement& s, int i, const std::string& v) {
  if (v.empty()) {
    s.bindNull(i);
  } else if (isValidUtf8(v)) {
    s.bindText(i, v);
  } else {
    s.bindTextCopy(i, toValidUtf8(v));
  }
}
template <typename E>
requires std::is_enum_v<E>
void bindValue(Statement& s, int i, E v) {
  s.bindText(i, toText(v));
}

inline void readValue(const Statement& s, int c, int64_t& out) {
  out = s.isNull(c) ? nullValue<int64_t>() : s.columnInt(c);
}
// A value beyond int32 in an int32 column (a damaged file) reads as NULL, not
// as its truncation.
inline void readValue(const Statement& s, int c, int32_t& out) {
  const int64_t v = s.isNull(c) ? kNullInt : s.columnInt(c);
  out = v < INT32_MIN || v > INT32_MAX ? nullValue<int32_t>() : static_cast<int32_t>(v);
}
inline void readValue(const Statement& s, int c, double& out) {
  out = s.isNull(c) ? nullValue<double>() : s.columnReal(c);
}
inline void readValue(const Statement& s, int c, StringId& out) {
  // Out of int32 range: an id no pool holds (INT32_MIN), which the reader refuses.
  const int64_t v = s.isNull(c) ? -1 : s.columnInt(c);
  out = StringId{v < -1 || v > INT32_MAX ? INT32_MIN : static_cast<int32_t>(v)};
}
// A file written by anything else may hold invalid text: it is repaired on read.
inline void readValue(const Statement& s, int c, std::string& out) {
  const std::string_view text = s.columnText(c);
  out = isValidUtf8(text) ? std::string(text) : toValidUtf8(text);
}
template <typename E>
requires std::is_enum_v<E>
void readValue(const Statement& s, int c, E& out) {
  out = enumFromText<E>(s.columnText(c)).value_or(E{});
}

}  // namespace damscope::column_io
