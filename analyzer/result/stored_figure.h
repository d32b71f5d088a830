// How one declared figure (analysis_tables.h) moves between the result model
// and its column, and where the JSON shows it: the pieces an entry's `figure`
// and `json` are made of, and the generic store and load that
// result_rows.cc runs for every entry.
//
// A figure is one of:
// - a field of the model, any of T, std::optional<T>, bool (stored 0/1), an
//   enum (stored by its toText name, read back only if it is one of them);
//   `T` must be the column's type;
// - FigureIn: a member of an optional part (RankResult::memory,
//   MfuReport::model). NULL while the part is absent; read back only into a
//   part that is there. Its `creates` flavour (DAMSCOPE_KEY_OF) is the member
//   whose non-NULL value makes the part be there;
// - Presence: 1 when the part is there, and reading 1 makes it be there;
// - Derived: a value computed from the model, written only;
// - kByCode: the table's code maps the column.
// Reading runs in two passes over a row, parts first (Presence and the
// creating FigureIn), so a part's other members find it whatever the column
// order.
//
// An entry's `null` is its column rule: the SQL constraint, kNotNull or
// kNullable, alone (any value of the type, a double finite) or wrapped in the
// range the figure may hold (percent(kNullable): 0..100). The range sits in the
// `null` argument rather than in an argument of its own because the two are
// one statement about the column (what a reader may find in it), and the
// trace store's machinery, which reads only the constraint, stays as it is
// (FigureRange converts to its ColumnNull). A stored value outside its range
// makes the reader refuse the stored results (RowReader::inRange): a run.db
// is a file anyone can edit, and a figure out of its range is a wrong figure
// shown (issue 32).
#pragma once

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "analyzer/result/analysis_result.h"
#include "base/result.h"
#include "trace/tables.h"

namespace damscope {

// --- The figure forms ---------------------------------------------------------

template <typename Part, typename Member>
struct FigureIn {
  Part& part;  // a std::optional, const when writing
  Member member;
  bool creates = false;
};
template <typename Part, typename Member>
FigureIn<Part, Member> figureIn(Part& part, Member member, bool creates = false) {
  return {part, member, creates};
}
#define DAMSCOPE_IN(part, member) \
  ::damscope::figureIn(           \
      part, [](auto& p) -> auto& { return p.member; })
#define DAMSCOPE_KEY_OF(part, member) \
  ::damscope::figureIn(               \
      part, [](auto& p) -> auto& { return p.member; }, true)

template <typename Part>
struct Presence {
  Part& part;
};
template <typename Part>
Presence<Part> presenceOf(Part& part) {
  return {part};
}

// Computed only when the figure is written or shown: a row read back from a
// file holds whatever the file held, from which a derived value (an end minus
// a start) need not even be computable.
template <typename Compute>
struct Derived {
  Compute compute;
};
template <typename Compute>
Derived<Compute> derivedBy(Compute compute) {
  return {std::move(compute)};
}
#define DAMSCOPE_DERIVED(...) ::damscope::derivedBy([&] { return (__VA_ARGS__); })

struct ByCode {};
inline constexpr ByCode kByCode{};

// --- The range of a figure ----------------------------------------------------

struct FigureRange {
  ColumnNull null = kNullable;
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  const char* name = "a finite value";                    // for the error
  constexpr operator ColumnNull() const { return null; }  // NOLINT(google-explicit-constructor)
};

// Percentages of a whole: 0..100. Computed as 100 * part / whole in double,
// where the part is at most the whole, so 100 is reached exactly; the slack
// of one part in 10^9 only spares a sum of rounded shares.
constexpr FigureRange percent(ColumnNull null) {
  return {null, 0, 100 * (1 + 1e-9), "0..100"};
}
// Durations, counts, sizes, FLOPs, rates and shares that may pass 100 (the
// model's memory of the device's, a rank's time of the window with several
// streams or threads): >= 0.
constexpr FigureRange nonNegative(ColumnNull null) {
  return {null, 0, std::numeric_limits<double>::infinity(), ">= 0"};
}
// 0/1 flags.
constexpr FigureRange flag(ColumnNull null) {
  return {null, 0, 1, "0 or 1"};
}
// A column declared with its constraint alone holds any value of its type
// (a time, an id, a signed share), a double only a finite one: no figure is
// an infinity, and one would print as "inf %".
constexpr FigureRange rangeOf(ColumnNull null) {
  return {null};
}
constexpr FigureRange rangeOf(FigureRange range) {
  return range;
}

// --- Where the JSON shows a figure -------------------------------------------

// How a value is written into the JSON document (analyzer/report/result_json.cc).
enum class JsonForm : uint8_t {
  kValue,         // as it is: text, number (null when not finite), bool; empty optional: null
  kTextOrNull,    // text; empty text: null
  kPct,           // a percentage rounded to 2 decimals; null when unknown
  kMicroseconds,  // ns / 1000
  kPositive,      // an integer; null when not above 0 (0 says unknown)
};

// A key path of one to three object keys, and optionally an index into an
// array at the last key.
struct JsonPlace {
  std::array<std::string_view, 3> keys{};
  size_t depth = 0;
  JsonForm form = JsonForm::kValue;
  int index = -1;
};
constexpr JsonPlace inJson(std::string_view key, JsonForm form = JsonForm::kValue) {
  return {{key}, 1, form};
}
constexpr JsonPlace inJson(std::string_view object, std::string_view key,
                           JsonForm form = JsonForm::kValue) {
  return {{object, key}, 2, form};
}
constexpr JsonPlace inJson(std::string_view object, std::string_view inner, std::string_view key,
                           JsonForm form = JsonForm::kValue) {
  return {{object, inner, key}, 3, form};
}
constexpr JsonPlace inJsonArray(std::string_view object, std::string_view key, int index) {
  return {{object, key}, 2, JsonForm::kValue, index};
}
struct NoJson {};
inline constexpr NoJson kNoJson{};

// --- Reading rows back ---------------------------------------------------------

// Sizes of the closed vocabularies read back by name (their toText lists).
template <typename E>
constexpr size_t vocabularySize() {
  if constexpr (std::is_same_v<E, GapCause>) return kGapCauseCount;
  if constexpr (std::is_same_v<E, HtaIdleCategory>) return kHtaIdleCategoryCount;
  if constexpr (std::is_same_v<E, EvidenceTable>) return kEvidenceTableCount;
  if constexpr (std::is_same_v<E, KernelCategory>) return kKernelCategoryCount;
  if constexpr (std::is_same_v<E, Axis>) return kAxisCount;
  if constexpr (std::is_same_v<E, Verdict>) return kVerdictCount;
  if constexpr (std::is_same_v<E, Severity>) return kSeverityCount;
  if constexpr (std::is_same_v<E, FindingKind>) return kFindingKindCount;
  if constexpr (std::is_same_v<E, Metric>) return kMetricCount;
  if constexpr (std::is_same_v<E, EvidenceSource>) return kEvidenceSourceCount;
  if constexpr (std::is_same_v<E, LossKind>) return kLossKindCount;
  if constexpr (std::is_same_v<E, WindowMode>) return kWindowModeCount;
  if constexpr (std::is_same_v<E, StepSource>) return kStepSourceCount;
  if constexpr (std::is_same_v<E, FlopsSource>) return kFlopsSourceCount;
  if constexpr (std::is_same_v<E, PrecisionSource>) return kPrecisionSourceCount;
  if constexpr (std::is_same_v<E, PeakSource>) return kPeakSourceCount;
  if constexpr (std::is_same_v<E, Precision>) return kPrecisionCount;
  if constexpr (std::is_same_v<E, MetricSource>) return 3;
  if constexpr (std::is_same_v<E, Remedy>) return kRemedyCount;
  if constexpr (std::is_same_v<E, DeviceKind>) return 2;
  if constexpr (std::is_same_v<E, Framework>) return kFrameworkCount;
}

// Reads rows back, keeping the first thing that is wrong with them: the
// error names the store, the table and the row.
class RowReader {
 public:
  explicit RowReader(std::string store) : store_(std::move(store)) {}

  void fail(std::string_view table, size_t row, const std::string& what) {
    if (!error_) {
      error_ = Error(store_ + ": stored analysis is corrupt: " + std::string(table) + " row " +
                     std::to_string(row) + ": " + what);
    }
  }
  bool failed() const { return error_.has_value(); }
  const Error& error() const { return *error_; }

  // A closed vocabulary's value from its stored name.
  template <typename E>
  E word(std::string_view table, size_t row, std::string_view column, const std::string& text) {
    for (size_t i = 0; i < vocabularySize<E>(); ++i) {
      if (toText(static_cast<E>(i)) == text) return static_cast<E>(i);
    }
    fail(table, row, std::string(column) + " \"" + text + "\" is not a known value");
    return E{};
  }

  // A row index into a table of `size` rows; an error when it names none.
  std::optional<int64_t> index(std::string_view table, size_t row, std::string_view column,
                               int64_t v, size_t size) {
    if (isNull(v)) return std::nullopt;
    if (v < 0 || static_cast<uint64_t>(v) >= size) {
      fail(table, row, std::string(column) + " " + std::to_string(v) + " names no row");
      return std::nullopt;
    }
    return v;
  }

  // A stored figure against its declared range (NULL is the constraint's
  // business, text has no range).
  template <typename S>
  void inRange(std::string_view table, size_t row, std::string_view column, const S& v,
               const FigureRange& range) {
    if constexpr (std::is_arithmetic_v<S>) {
      if (isNull(v)) return;
      const double d = static_cast<double>(v);
      if (std::isfinite(d) && d >= range.min && d <= range.max) return;
      fail(table, row,
           std::string(column) + " " + describe(v) + " is outside its range (" + range.name + ")");
    }
  }

  // ts + dur, which a damaged file can make overflow.
  int64_t end(std::string_view table, size_t row, int64_t ts, int64_t dur) {
    int64_t out = 0;
    if (isNull(ts) || isNull(dur) || __builtin_add_overflow(ts, dur, &out)) {
      fail(table, row, "ts + dur is not a time");
      return 0;
    }
    return out;
  }

 private:
  template <typename S>
  static std::string describe(const S& v) {
    if constexpr (std::is_floating_point_v<S>) {
      char text[32];
      std::snprintf(text, sizeof text, "%.6g", v);
      return text;
    } else {
      return std::to_string(v);
    }
  }

  std::string store_;
  std::optional<Error> error_;
};

// One cell being read: where it is, for the error.
struct Cell {
  RowReader& in;
  std::string_view table;
  size_t row;
  std::string_view column;
};

namespace figure {

template <typename T>
inline constexpr bool kIsOptional = false;
template <typename T>
inline constexpr bool kIsOptional<std::optional<T>> = true;

// The stored value of a model value.
template <typename S, typename M>
S toStored(const M& v) {
  if constexpr (kIsOptional<M>) {
    return v ? toStored<S>(*v) : nullValue<S>();
  } else if constexpr (std::is_same_v<M, bool>) {
    static_assert(std::is_same_v<S, int32_t>, "a bool is stored as an int32_t column");
    return v ? 1 : 0;
  } else if constexpr (std::is_enum_v<M>) {
    static_assert(std::is_same_v<S, std::string>, "an enum is stored as a text column");
    return std::string(toText(v));
  } else {
    static_assert(std::is_same_v<S, M>, "the figure's type must be the column's");
    return v;
  }
}

// The model value of a stored value.
template <typename M, typename S>
void fromStored(const S& s, M& out, const Cell& at) {
  if constexpr (kIsOptional<M>) {
    if (isNull(s)) {
      out.reset();
    } else {
      typename M::value_type v{};
      fromStored(s, v, at);
      out = std::move(v);
    }
  } else if constexpr (std::is_same_v<M, bool>) {
    out = s != 0;
  } else if constexpr (std::is_enum_v<M>) {
    out = at.in.word<M>(at.table, at.row, at.column, s);
  } else {
    out = s;
  }
}

template <typename T>
inline constexpr bool kIsFigureIn = false;
template <typename P, typename M>
inline constexpr bool kIsFigureIn<FigureIn<P, M>> = true;
template <typename T>
inline constexpr bool kIsPresence = false;
template <typename P>
inline constexpr bool kIsPresence<Presence<P>> = true;
template <typename T>
inline constexpr bool kIsDerived = false;
template <typename V>
inline constexpr bool kIsDerived<Derived<V>> = true;

}  // namespace figure

// Appends the figure's stored value to its column (kByCode: the code does).
template <typename S, typename F>
void storeFigure(std::vector<S>& column, const F& figure) {
  using namespace figure;
  if constexpr (std::is_same_v<F, ByCode>) {
    return;
  } else if constexpr (kIsDerived<F>) {
    column.push_back(toStored<S>(figure.compute()));
  } else if constexpr (kIsFigureIn<F>) {
    column.push_back(figure.part ? toStored<S>(figure.member(*figure.part)) : nullValue<S>());
  } else if constexpr (kIsPresence<F>) {
    column.push_back(toStored<S>(figure.part.has_value()));
  } else {
    column.push_back(toStored<S>(figure));
  }
}

// Sets the figure from its stored value; `pass` 0 reads what makes optional
// parts be there, pass 1 the rest.
template <typename S, typename F>
void loadFigure(const S& stored, F&& figure, const Cell& at, int pass) {
  using namespace figure;
  using Form = std::decay_t<F>;
  if constexpr (std::is_same_v<Form, ByCode> || kIsDerived<Form>) {
    return;
  } else if constexpr (kIsPresence<Form>) {
    if (pass != 0) return;
    if (!isNull(stored) && stored != 0) {
      figure.part.emplace();
    } else {
      figure.part.reset();
    }
  } else if constexpr (kIsFigureIn<Form>) {
    if (pass != (figure.creates ? 0 : 1)) return;
    if (figure.creates && !isNull(stored) && !figure.part) figure.part.emplace();
    if (figure.part) fromStored(stored, figure.member(*figure.part), at);
  } else {
    if (pass == 1) fromStored(stored, figure, at);
  }
}

}  // namespace damscope
