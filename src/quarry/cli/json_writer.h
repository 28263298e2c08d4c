#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "quarry/common/json_text.h"

/// A streaming JSON writer for the CLI's `--json` output. It produces one
/// well-formed document from bytes that may not be: strings are escaped so that
/// control characters and ill-formed UTF-8 cannot break a consumer's parser.
namespace quarry::cli {

class JsonWriter {
 public:
  /// Appends the document to `out`, indented by two spaces per level.
  explicit JsonWriter(std::string& out) : out_(out) {}

  /// Opens an object. An inline object (or array) is written on one line, as is
  /// everything nested in it; use it for short records such as {offset, length}.
  void beginObject(bool isInline = false);
  void endObject();
  void beginArray(bool isInline = false);
  void endArray();

  /// Writes the key of the next member of the current object.
  JsonWriter& key(std::string_view name);

  /// Writes `text` as a JSON string. Well-formed UTF-8 is copied as is; quotes,
  /// backslashes and control characters are escaped; each byte that is not
  /// part of well-formed UTF-8 is written as \u00XX (its Latin-1 reading), so
  /// the output is always valid UTF-8.
  void value(std::string_view text);
  void value(const char* text) { value(std::string_view(text)); }
  void value(const std::string& text) { value(std::string_view(text)); }
  void value(bool flag);
  void value(double number);
  template <std::integral T>
  requires(!std::same_as<T, bool>) void value(T number) {
    if constexpr (std::is_signed_v<T>) {
      writeInteger(static_cast<int64_t>(number));
    } else {
      writeUnsigned(static_cast<uint64_t>(number));
    }
  }
  /// Writes an absent optional as null.
  template <typename T>
  void value(const std::optional<T>& maybe) {
    if (maybe.has_value()) {
      value(*maybe);
    } else {
      null();
    }
  }
  void null();
  /// Writes text that the caller guarantees is a valid JSON number.
  void rawNumber(std::string_view number);

  /// Writes `key: value` in one call.
  template <typename T>
  void field(std::string_view name, const T& v) {
    key(name);
    value(v);
  }

  /// Returns true when every opened container has been closed.
  bool complete() const { return stack_.empty() && wroteRoot_; }

 private:
  struct Frame {
    bool isObject = false;
    bool isInline = false;
    size_t count = 0;
  };

  void beforeValue();
  void open(char bracket, bool isObject, bool isInline);
  void close(char bracket, bool isObject);
  void newline();
  void writeInteger(int64_t number);
  void writeUnsigned(uint64_t number);

  std::string& out_;
  std::vector<Frame> stack_;
  bool afterKey_ = false;
  bool wroteRoot_ = false;
};

/// Appends `text` to `out` as a quoted, escaped JSON string (common/json_text.h).
using quarry::appendJsonString;

}  // namespace quarry::cli
