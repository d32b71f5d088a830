// Errors as values. Every fallible function in damscope returns Result<T> (or
// Status, which is Result<void>) instead of throwing across a module boundary.
// A message names the input it is about and quotes the context, so that the
// CLI can print it as one line: "damscope: <message>".
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace damscope {

// What kind of failure an error is, so that a front end can answer it (the
// CLI's exit code, the GUI's dialog) without reading the message.
enum class ErrorCode : uint8_t {
  kBadInput,      // the input is missing, malformed or not what was asked for
  kOutputExists,  // the output file exists and was not to be replaced
  kFailure,       // the work could not be done (a write failed, an internal limit)
  kCancelled,     // the caller cancelled the work (base/progress.h)
};

class Error {
 public:
  explicit Error(std::string message, ErrorCode code = ErrorCode::kBadInput)
      : message_(std::move(message)), code_(code) {}
  const std::string& message() const { return message_; }
  ErrorCode code() const { return code_; }

  // Prefixes context, e.g. the file name: Error("bad gzip").withContext("a.gz")
  // reads "a.gz: bad gzip". The code is kept.
  Error withContext(const std::string& context) const {
    return Error(context + ": " + message_, code_);
  }

 private:
  std::string message_;
  ErrorCode code_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}
  Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), ok_(false) {}

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_{""};
  bool ok_ = true;
};

using Status = Result<void>;

inline Status okStatus() {
  return Status();
}

}  // namespace damscope

#define DAMSCOPE_CONCAT_INNER(a, b) a##b
#define DAMSCOPE_CONCAT(a, b) DAMSCOPE_CONCAT_INNER(a, b)

// Returns the error of a Status/Result expression from the enclosing function.
// Bound by reference: a named Status is not copied, a temporary lives on.
#define DAMSCOPE_RETURN_IF_ERROR(expr)                           \
  do {                                                           \
    auto&& damscope_status_ = (expr);                            \
    if (!damscope_status_.ok()) return damscope_status_.error(); \
  } while (0)

// `DAMSCOPE_ASSIGN_OR_RETURN(auto x, makeX());` binds the value or returns the error.
#define DAMSCOPE_ASSIGN_OR_RETURN(lhs, expr)                    \
  auto DAMSCOPE_CONCAT(damscope_result_, __LINE__) = (expr);    \
  if (!DAMSCOPE_CONCAT(damscope_result_, __LINE__).ok())        \
    return DAMSCOPE_CONCAT(damscope_result_, __LINE__).error(); \
  lhs = std::move(DAMSCOPE_CONCAT(damscope_result_, __LINE__)).value()
