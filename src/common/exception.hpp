// Typed errors of the SQL layer. Each ends one statement, never the process.
// Storage, log and Kafka code returns Status (status.hpp) instead; the layer
// above converts a failed Status into one of these.
//
// Contract for every user-facing message: name the object, say what was wrong,
// and say how to fix it.
#pragma once

#include <stdexcept>
#include <string>

namespace lakestream {

enum class ExceptionType {
  PARSER,
  BINDER,
  CATALOG,
  CONSTRAINT,
  CONFLICT,
  CONVERSION,  // invalid cast, overflow, bad literal
  IO,
  CORRUPTION,
  NOT_IMPLEMENTED,
  INVALID_INPUT,
  INTERNAL,
  INTERRUPT,   // Connection::Interrupt stopped the statement
  PERMISSION,  // a path or endpoint that enable_external_access forbids
};

const char* ExceptionTypeName(ExceptionType type);

class Exception : public std::runtime_error {
 public:
  Exception(ExceptionType type, const std::string& message);
  ExceptionType Type() const { return type_; }
  // The message without the "<Kind> Error: " prefix.
  const std::string& RawMessage() const { return raw_message_; }

 private:
  ExceptionType type_;
  std::string raw_message_;
};

#define LAKESTREAM_DEFINE_EXCEPTION(NAME, TYPE) \
  class NAME : public Exception { /* NOLINT(bugprone-macro-parentheses): a class name */ \
   public:                                      \
    explicit NAME(const std::string& msg) : Exception(ExceptionType::TYPE, msg) {} \
  };

LAKESTREAM_DEFINE_EXCEPTION(ParserError, PARSER)
LAKESTREAM_DEFINE_EXCEPTION(BinderError, BINDER)
LAKESTREAM_DEFINE_EXCEPTION(CatalogError, CATALOG)
LAKESTREAM_DEFINE_EXCEPTION(ConstraintError, CONSTRAINT)
LAKESTREAM_DEFINE_EXCEPTION(ConflictError, CONFLICT)
LAKESTREAM_DEFINE_EXCEPTION(ConversionError, CONVERSION)
LAKESTREAM_DEFINE_EXCEPTION(IOError, IO)
LAKESTREAM_DEFINE_EXCEPTION(CorruptionError, CORRUPTION)
LAKESTREAM_DEFINE_EXCEPTION(InvalidInputError, INVALID_INPUT)
LAKESTREAM_DEFINE_EXCEPTION(InternalError, INTERNAL)
LAKESTREAM_DEFINE_EXCEPTION(InterruptError, INTERRUPT)
LAKESTREAM_DEFINE_EXCEPTION(PermissionError, PERMISSION)

#undef LAKESTREAM_DEFINE_EXCEPTION

// A feature that is planned but not built yet. The message always reads
// "not supported yet: <feature>" so users and tests can recognise it.
class NotImplementedError : public Exception {
 public:
  explicit NotImplementedError(const std::string& feature)
      : Exception(ExceptionType::NOT_IMPLEMENTED, "not supported yet: " + feature) {}
};

}  // namespace lakestream
