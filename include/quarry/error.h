#pragma once

#include <string>

/// The exceptions the library throws, all from std::exception: InvalidArgument
/// (a caller's mistake), QueryError (line, column, hint), IoError, CorruptFile,
/// Unsupported (quarry/common/error.h), and Cancelled.
#include "quarry/common/error.h"

namespace quarry {

/// Signals that the caller cancelled a query's result (Result::cancel) before its end.
class Cancelled : public Error {
 public:
  explicit Cancelled(const std::string& message) : Error(message) {}
};

}  // namespace quarry
