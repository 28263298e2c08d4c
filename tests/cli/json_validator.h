#pragma once

#include <cctype>
#include <string>
#include <string_view>

/// A strict RFC 8259 checker for the CLI tests: the CLI's JSON is written by
/// hand, so the tests hold it to the grammar rather than trusting the writer.
namespace quarry::cli {

class JsonValidator {
 public:
  explicit JsonValidator(std::string_view text) : text_(text) {}

  /// Returns true when the text is exactly one JSON value (with whitespace
  /// around it); otherwise sets `error` to what failed and where.
  bool validate(std::string* error) {
    skipSpace();
    const bool ok = value(0) && (skipSpace(), pos_ == text_.size());
    if (!ok && error != nullptr) {
      *error = (error_.empty() ? "trailing text" : error_) + " at offset " + std::to_string(pos_);
    }
    return ok;
  }

  /// Returns the raw text of member `key` of the top-level object, or "" when
  /// the document is not an object or has no such member.
  std::string member(std::string_view key) {
    skipSpace();
    if (!consume('{')) return "";
    skipSpace();
    if (consume('}')) return "";
    while (true) {
      skipSpace();
      const size_t keyStart = pos_;
      if (!string()) return "";
      const std::string_view name = text_.substr(keyStart + 1, pos_ - keyStart - 2);
      skipSpace();
      if (!consume(':')) return "";
      skipSpace();
      const size_t valueStart = pos_;
      if (!value(1)) return "";
      if (name == key) return std::string(text_.substr(valueStart, pos_ - valueStart));
      skipSpace();
      if (consume(',')) continue;
      return "";
    }
  }

 private:
  static constexpr int kMaxDepth = 512;

  bool fail(const char* what) {
    if (error_.empty()) error_ = what;
    return false;
  }
  bool consume(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\t'))
      ++pos_;
  }
  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return fail("bad literal");
    pos_ += word.size();
    return true;
  }
  bool digits() {
    const size_t start = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    return pos_ > start || fail("digit expected");
  }
  bool number() {
    consume('-');
    if (consume('0')) {
      if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
        return fail("leading zero");
    } else if (!digits()) {
      return false;
    }
    if (consume('.') && !digits()) return false;
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (!consume('+')) consume('-');
      if (!digits()) return false;
    }
    return true;
  }
  bool string() {
    if (!consume('"')) return fail("string expected");
    while (pos_ < text_.size()) {
      const auto c = static_cast<unsigned char>(text_[pos_++]);
      if (c == '"') return true;
      if (c < 0x20) return fail("raw control character in string");
      if (c == '\\') {
        if (pos_ >= text_.size()) break;
        const char e = text_[pos_++];
        if (e == 'u') {
          for (int i = 0; i < 4; ++i) {
            if (pos_ >= text_.size() || !std::isxdigit(static_cast<unsigned char>(text_[pos_])))
              return fail("bad \\u escape");
            ++pos_;
          }
        } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
          return fail("bad escape");
        }
      }
    }
    return fail("unterminated string");
  }
  bool value(int depth) {
    if (depth > kMaxDepth) return fail("too deep");
    if (pos_ >= text_.size()) return fail("value expected");
    switch (text_[pos_]) {
      case '{': {
        ++pos_;
        skipSpace();
        if (consume('}')) return true;
        while (true) {
          skipSpace();
          if (!string()) return false;
          skipSpace();
          if (!consume(':')) return fail("':' expected");
          skipSpace();
          if (!value(depth + 1)) return false;
          skipSpace();
          if (consume('}')) return true;
          if (!consume(',')) return fail("',' or '}' expected");
        }
      }
      case '[': {
        ++pos_;
        skipSpace();
        if (consume(']')) return true;
        while (true) {
          skipSpace();
          if (!value(depth + 1)) return false;
          skipSpace();
          if (consume(']')) return true;
          if (!consume(',')) return fail("',' or ']' expected");
        }
      }
      case '"':
        return string();
      case 't':
        return literal("true");
      case 'f':
        return literal("false");
      case 'n':
        return literal("null");
      default:
        return number();
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
};

inline bool isValidJson(std::string_view text, std::string* error = nullptr) {
  return JsonValidator(text).validate(error);
}

inline std::string topLevelMember(std::string_view text, std::string_view key) {
  return JsonValidator(text).member(key);
}

}  // namespace quarry::cli
