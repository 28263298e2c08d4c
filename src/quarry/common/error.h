#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

/// The exceptions quarry throws. Every user-facing failure is one of these, and
/// each message names what failed (the file, the column, the value) with the
/// runtime values at the end.
namespace quarry {

/// Base of quarry's runtime failures (the bytes, the storage, the query).
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

/// Signals a caller's mistake: a bad argument, an impossible predicate.
class InvalidArgument : public std::invalid_argument {
 public:
  explicit InvalidArgument(const std::string& message) : std::invalid_argument(message) {}
};

/// Signals that a file's bytes are not what its format promises.
class CorruptFile : public Error {
 public:
  explicit CorruptFile(const std::string& message) : Error(message) {}
};

/// Signals that storage failed: a file missing, a read cut short, a server error.
class IoError : public Error {
 public:
  explicit IoError(const std::string& message) : Error(message) {}
};

/// Signals a valid feature quarry does not implement (encryption, LZO, ...).
class Unsupported : public Error {
 public:
  explicit Unsupported(const std::string& message) : Error(message) {}
};

/// Signals a query that cannot be parsed or planned: where (line and column,
/// both 1-based, the column counted in code points), what went wrong, and a hint
/// saying how to fix it when there is one. what() reads
/// "MESSAGE at line L, column C; hint: HINT".
class QueryError : public Error {
 public:
  QueryError(const std::string& message, int line, int column, const std::string& hint = {})
      : Error(message + " at line " + std::to_string(line) + ", column " + std::to_string(column) +
              (hint.empty() ? std::string() : "; hint: " + hint)),
        message_(message),
        hint_(hint),
        line_(line),
        column_(column) {}
  int line() const { return line_; }
  int column() const { return column_; }
  /// Returns the message alone, without position or hint.
  const std::string& message() const { return message_; }
  /// Returns how to fix the query, or an empty string.
  const std::string& hint() const { return hint_; }

 private:
  std::string message_;
  std::string hint_;
  int line_;
  int column_;
};

}  // namespace quarry
