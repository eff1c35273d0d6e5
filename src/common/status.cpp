#include "common/status.hpp"

namespace lakestream {

std::string Status::ToString() const {
  switch (code_) {
    case Code::kOk: return "OK";
    case Code::kNotFound: return "NotFound: " + message_;
    case Code::kIOError: return "IO error: " + message_;
    case Code::kCorruption: return "Corruption: " + message_;
    case Code::kInvalidArgument: return "Invalid argument: " + message_;
    case Code::kAlreadyExists: return "Already exists: " + message_;
    case Code::kNotSupported: return "Not supported: " + message_;
  }
  return message_;
}

void Status::Throw() const {
  switch (code_) {
    case Code::kCorruption: throw CorruptionError(message_);
    case Code::kInvalidArgument: throw InvalidInputError(message_);
    case Code::kNotSupported: throw NotImplementedError(message_);
    case Code::kAlreadyExists: throw ConflictError(message_);
    case Code::kOk: throw InternalError("Status::Throw called on OK status");
    default: throw ::lakestream::IOError(message_);  // qualified: Status::IOError is the factory
  }
}

}  // namespace lakestream
