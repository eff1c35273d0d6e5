// Status: the result of an operation that may fail for reasons outside the
// program (I/O, corrupt bytes, a broker). Modelled on LevelDB's Status.
// Result<T> carries either a value or a non-OK Status.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "common/exception.hpp"

namespace lakestream {

class Status {
 public:
  enum class Code { kOk, kNotFound, kIOError, kCorruption, kInvalidArgument, kAlreadyExists, kNotSupported };

  Status() = default;
  static Status OK() { return Status(); }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }
  static Status IOError(std::string msg) { return Status(Code::kIOError, std::move(msg)); }
  static Status Corruption(std::string msg) { return Status(Code::kCorruption, std::move(msg)); }
  static Status InvalidArgument(std::string msg) { return Status(Code::kInvalidArgument, std::move(msg)); }
  // Put-if-absent lost the race: somebody else created the file first.
  static Status AlreadyExists(std::string msg) { return Status(Code::kAlreadyExists, std::move(msg)); }
  static Status NotSupported(std::string msg) { return Status(Code::kNotSupported, std::move(msg)); }

  bool ok() const { return code_ == Code::kOk; }
  bool IsNotFound() const { return code_ == Code::kNotFound; }
  bool IsIOError() const { return code_ == Code::kIOError; }
  bool IsCorruption() const { return code_ == Code::kCorruption; }
  bool IsAlreadyExists() const { return code_ == Code::kAlreadyExists; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  std::string ToString() const;

  // Converts a failed status into the matching typed exception of the SQL layer.
  [[noreturn]] void Throw() const;

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

template <class T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {}  // NOLINT
  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() { return *value_; }
  const T& value() const { return *value_; }
  T&& take() { return std::move(*value_); }
  // Returns the value or throws the status as an exception.
  T&& ValueOrThrow() {
    if (!ok()) status_.Throw();
    return std::move(*value_);
  }

 private:
  Status status_;
  std::optional<T> value_;
};

#define LS_RETURN_NOT_OK(expr)            \
  do {                                    \
    ::lakestream::Status _s = (expr);     \
    if (!_s.ok()) return _s;              \
  } while (0)

}  // namespace lakestream
