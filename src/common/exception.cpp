#include "common/exception.hpp"

namespace lakestream {

const char* ExceptionTypeName(ExceptionType type) {
  switch (type) {
    case ExceptionType::PARSER: return "Parser Error";
    case ExceptionType::BINDER: return "Binder Error";
    case ExceptionType::CATALOG: return "Catalog Error";
    case ExceptionType::CONSTRAINT: return "Constraint Error";
    case ExceptionType::CONFLICT: return "Conflict Error";
    case ExceptionType::CONVERSION: return "Conversion Error";
    case ExceptionType::IO: return "IO Error";
    case ExceptionType::CORRUPTION: return "Corruption Error";
    case ExceptionType::NOT_IMPLEMENTED: return "Not Implemented Error";
    case ExceptionType::INVALID_INPUT: return "Invalid Input Error";
    case ExceptionType::INTERNAL: return "Internal Error";
    case ExceptionType::INTERRUPT: return "Interrupt Error";
    case ExceptionType::PERMISSION: return "Permission Error";
  }
  return "Error";
}

Exception::Exception(ExceptionType type, const std::string& message)
    : std::runtime_error(std::string(ExceptionTypeName(type)) + ": " + message),
      type_(type),
      raw_message_(message) {}

}  // namespace lakestream
