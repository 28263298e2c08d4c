#include "quarry/engine/parse/lexer.h"

#include <cstdint>
#include <string>

#include "quarry/common/error.h"
#include "quarry/common/utf8.h"

namespace quarry::engine {
namespace {

bool isIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isIdentifierChar(char c) {
  return isIdentifierStart(c) || (c >= '0' && c <= '9');
}
bool isDigit(char c) {
  return c >= '0' && c <= '9';
}

/// Quotes one character of the query for a message, printable or as \xNN.
std::string quoteChar(std::string_view text, size_t pos) {
  const auto byte = static_cast<unsigned char>(text[pos]);
  if (byte >= 0x20 && byte < 0x7F) return std::string("'") + text[pos] + "'";
  const size_t length = utf8SequenceLength(text, pos);
  if (length > 1) return "'" + std::string(text.substr(pos, length)) + "'";
  static constexpr char kHex[] = "0123456789abcdef";
  return std::string("byte 0x") + kHex[byte >> 4] + kHex[byte & 0xF];
}

void appendUtf8(uint32_t codePoint, std::string& out) {
  if (codePoint < 0x80) {
    out += static_cast<char>(codePoint);
  } else if (codePoint < 0x800) {
    out += static_cast<char>(0xC0 | (codePoint >> 6));
    out += static_cast<char>(0x80 | (codePoint & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (codePoint >> 12));
    out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (codePoint & 0x3F));
  }
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    while (true) {
      skipSpaceAndComments();
      Token token;
      token.position = position();
      const size_t start = pos_;
      if (atEnd()) {
        token.kind = TokenKind::kEnd;
        tokens.push_back(std::move(token));
        return tokens;
      }
      lexOne(token);
      token.source = text_.substr(start, pos_ - start);
      tokens.push_back(std::move(token));
    }
  }

 private:
  bool atEnd() const { return pos_ >= text_.size(); }
  char peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  SourcePosition position() const { return {line_, column_}; }

  /// Moves past one byte, keeping line and column: a column is one code point,
  /// so continuation bytes do not count.
  void advance() {
    const auto byte = static_cast<unsigned char>(text_[pos_++]);
    if (byte == '\n') {
      ++line_;
      column_ = 1;
    } else if ((byte & 0xC0) != 0x80) {
      ++column_;
    }
  }

  [[noreturn]] void fail(SourcePosition at, const std::string& message,
                         const std::string& hint = {}) const {
    throw QueryError(message, at.line, at.column, hint);
  }

  void skipSpaceAndComments() {
    while (!atEnd()) {
      const char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        advance();
      } else if (c == '/' && peek(1) == '/') {
        while (!atEnd() && peek() != '\n') advance();
      } else if (c == '/' && peek(1) == '*') {
        const SourcePosition start = position();
        advance();
        advance();
        while (!(peek() == '*' && peek(1) == '/')) {
          if (atEnd()) {
            fail(start, "unclosed comment: '/*' has no matching '*/'",
                 "close the comment with '*/'");
          }
          advance();
        }
        advance();
        advance();
      } else {
        return;
      }
    }
  }

  void lexOne(Token& token) {
    const char c = peek();
    if (isIdentifierStart(c) || c == '`') return lexIdentifier(token);
    if (isDigit(c) || (c == '.' && isDigit(peek(1)))) return lexNumber(token);
    if (c == '\'' || c == '"') return lexString(token);
    const SourcePosition at = position();
    auto single = [&](TokenKind kind) {
      token.kind = kind;
      advance();
    };
    auto twoChars = [&](TokenKind kind) {
      token.kind = kind;
      advance();
      advance();
    };
    switch (c) {
      case '|':
        return single(TokenKind::kPipe);
      case ',':
        return single(TokenKind::kComma);
      case '(':
        return single(TokenKind::kLeftParen);
      case ')':
        return single(TokenKind::kRightParen);
      case '{':
        return single(TokenKind::kLeftBrace);
      case '}':
        return single(TokenKind::kRightBrace);
      case ':':
        return peek(1) == ':' ? twoChars(TokenKind::kDoubleColon) : single(TokenKind::kColon);
      case '+':
        return single(TokenKind::kPlus);
      case '-':
        return single(TokenKind::kMinus);
      case '*':
        return single(TokenKind::kStar);
      case '/':
        return single(TokenKind::kSlash);
      case '%':
        return single(TokenKind::kPercent);
      case '=':
        return peek(1) == '=' ? twoChars(TokenKind::kEq) : single(TokenKind::kAssign);
      case '!':
        if (peek(1) == '=') return twoChars(TokenKind::kNe);
        fail(at, "unexpected '!'", "write NOT for negation and != for inequality");
      case '<':
        if (peek(1) == '=') return twoChars(TokenKind::kLe);
        if (peek(1) == '>') return twoChars(TokenKind::kNe);
        return single(TokenKind::kLt);
      case '>':
        return peek(1) == '=' ? twoChars(TokenKind::kGe) : single(TokenKind::kGt);
      case ';':
        fail(at, "unexpected ';'", "a query is one statement; remove the ';'");
      case '?':
        return lexParameter(token);
      default:
        break;
    }
    fail(at, "unexpected character " + quoteChar(text_, pos_),
         "identifiers with other characters go in backquotes: `my column`");
  }

  void lexIdentifier(Token& token) {
    token.kind = TokenKind::kIdentifier;
    while (true) {
      if (peek() == '`') {
        token.quoted = true;
        token.parts.push_back(lexBackquoted());
      } else {
        const size_t start = pos_;
        while (isIdentifierChar(peek())) advance();
        token.parts.emplace_back(text_.substr(start, pos_ - start));
      }
      // A dot joins parts only when a part follows at once: `a.b`, `_file.path`.
      if (peek() == '.' && (isIdentifierStart(peek(1)) || peek(1) == '`')) {
        advance();
        continue;
      }
      return;
    }
  }

  std::string lexBackquoted() {
    const SourcePosition start = position();
    advance();
    std::string part;
    while (true) {
      if (atEnd()) {
        fail(start, "unclosed quoted identifier: '`' has no matching '`'",
             "close the name with '`' (write `` for a backquote inside it)");
      }
      if (peek() == '`') {
        if (peek(1) != '`') break;
        advance();
      }
      part += peek();
      advance();
    }
    advance();
    if (part.empty())
      fail(start, "empty quoted identifier ``", "a column name has at least one character");
    if (!isValidUtf8(part)) fail(start, "quoted identifier is not valid UTF-8");
    return part;
  }

  /// A placeholder, its value bound before parsing: `?name`, `?1` (a position,
  /// from 1) or `?` alone (the next position; its text is empty).
  void lexParameter(Token& token) {
    advance();
    const size_t begin = pos_;
    if (isIdentifierStart(peek())) {
      while (isIdentifierChar(peek())) advance();
    } else {
      while (isDigit(peek())) advance();
    }
    token.kind = TokenKind::kParameter;
    token.text = std::string(text_.substr(begin, pos_ - begin));
  }

  void lexNumber(Token& token) {
    const SourcePosition start = position();
    const size_t begin = pos_;
    token.kind = TokenKind::kInteger;
    while (isDigit(peek())) advance();
    if (peek() == '.' && isDigit(peek(1))) {
      token.kind = TokenKind::kDecimal;
      advance();
      while (isDigit(peek())) advance();
    }
    if (peek() == 'e' || peek() == 'E') {
      const size_t digitsAt = (peek(1) == '+' || peek(1) == '-') ? 2 : 1;
      if (!isDigit(peek(digitsAt))) {
        fail(start, "malformed number '" + std::string(text_.substr(begin, pos_ - begin + 1)) + "'",
             "an exponent needs digits, as in 1.5e3");
      }
      token.kind = TokenKind::kDouble;
      for (size_t i = 0; i < digitsAt; ++i) advance();
      while (isDigit(peek())) advance();
    }
    if (isIdentifierChar(peek()) || peek() == '.') {
      size_t end = pos_;
      while (end < text_.size() && (isIdentifierChar(text_[end]) || text_[end] == '.')) ++end;
      fail(start, "malformed number '" + std::string(text_.substr(begin, end - begin)) + "'",
           "a name cannot start with a digit; quote it with backquotes: `1st`");
    }
    token.text = std::string(text_.substr(begin, pos_ - begin));
  }

  void lexString(Token& token) {
    token.kind = TokenKind::kString;
    const SourcePosition start = position();
    const char quote = peek();
    if (quote == '"' && peek(1) == '"' && peek(2) == '"') return lexRawString(token, start);
    advance();
    std::string value;
    while (true) {
      if (atEnd()) {
        fail(start,
             std::string("unclosed string: no closing ") + quote + " before the end of the query",
             std::string("close the string with ") + quote + " (write \\" + quote +
                 " for one inside it)");
      }
      const char c = peek();
      if (c == quote) break;
      if (c != '\\') {
        value += c;
        advance();
        continue;
      }
      const SourcePosition escapeAt = position();
      advance();
      if (atEnd()) continue;  // reported as unclosed on the next turn
      const char e = peek();
      advance();
      switch (e) {
        case '\\':
          value += '\\';
          break;
        case '\'':
          value += '\'';
          break;
        case '"':
          value += '"';
          break;
        case 'n':
          value += '\n';
          break;
        case 'r':
          value += '\r';
          break;
        case 't':
          value += '\t';
          break;
        case '0':
          value += '\0';
          break;
        case 'u':
          value += unicodeEscape(escapeAt);
          break;
        default:
          fail(escapeAt, "unknown escape '\\" + std::string(1, e) + "' in a string",
               "escapes are \\\\ \\' \\\" \\n \\r \\t \\0 \\uXXXX; write \\\\ for a backslash");
      }
    }
    advance();
    if (!isValidUtf8(value)) fail(start, "string is not valid UTF-8");
    token.text = std::move(value);
  }

  /// ES|QL's triple-quoted string: no escapes, so that a LIKE or RLIKE pattern
  /// is written as the pattern itself (`"""a\*b"""` is `"a\\*b"`). It ends at
  /// the first `"""`; up to two more quotes right after it belong to the text, as
  /// in ES|QL's grammar (`"""say "hi""""` is `say "hi"`).
  void lexRawString(Token& token, SourcePosition start) {
    for (int i = 0; i < 3; ++i) advance();
    const size_t begin = pos_;
    while (!(peek() == '"' && peek(1) == '"' && peek(2) == '"')) {
      if (atEnd()) {
        fail(start, "unclosed string: no closing \"\"\" before the end of the query",
             "close the string with \"\"\"");
      }
      advance();
    }
    size_t end = pos_;
    for (int i = 0; i < 3; ++i) advance();
    for (int i = 0; i < 2 && peek() == '"'; ++i) {
      advance();
      ++end;
    }
    std::string value(text_.substr(begin, end - begin));
    if (!isValidUtf8(value)) fail(start, "string is not valid UTF-8");
    token.text = std::move(value);
  }

  /// Reads the four hex digits after "\u" and returns the code point as UTF-8.
  std::string unicodeEscape(SourcePosition escapeAt) {
    uint32_t codePoint = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = peek();
      uint32_t digit = 0;
      if (h >= '0' && h <= '9') {
        digit = static_cast<uint32_t>(h - '0');
      } else if (h >= 'a' && h <= 'f') {
        digit = static_cast<uint32_t>(h - 'a' + 10);
      } else if (h >= 'A' && h <= 'F') {
        digit = static_cast<uint32_t>(h - 'A' + 10);
      } else {
        fail(escapeAt, "\\u needs four hex digits", "write e.g. \\u00e9");
      }
      codePoint = codePoint * 16 + digit;
      advance();
    }
    if (codePoint >= 0xD800 && codePoint <= 0xDFFF) {
      fail(escapeAt, "\\u escape names a surrogate code point",
           "write the character itself in UTF-8");
    }
    std::string out;
    appendUtf8(codePoint, out);
    return out;
  }

  std::string_view text_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
};

}  // namespace

std::vector<Token> tokenize(std::string_view text) {
  return Lexer(text).run();
}

}  // namespace quarry::engine
