#include "quarry/cli/filter_expression.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/orc/orc_schema.h"

namespace quarry::cli {

namespace {

using parquet::FilterPredicate;
using parquet::PredicateLiteral;
using Kind = parquet::LogicalType::Kind;

struct Token {
  enum class Type { kName, kNumber, kText, kSymbol, kEnd };
  Type type = Type::kEnd;
  std::string text;         // names unquoted, text literals unescaped
  size_t position = 0;      // 0-based offset in the expression
  bool quotedName = false;  // `name`: never a keyword
};

/// A literal as written, typed only once its column is known.
struct RawLiteral {
  Token token;
};

[[noreturn]] void syntaxError(const Token& at, std::string_view expected) {
  const std::string found =
      at.type == Token::Type::kEnd ? "the end of the expression" : "'" + at.text + "'";
  throw InvalidArgument("--filter: expected " + std::string(expected) + " at position " +
                        std::to_string(at.position + 1) + ", found " + found);
}

std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  size_t i = 0;
  const auto isNameStart = [](char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
  };
  const auto isNameChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  };
  while (i < text.size()) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Token token;
    token.position = i;
    if (isNameStart(c)) {
      size_t end = i;
      while (end < text.size() && isNameChar(text[end])) ++end;
      token.type = Token::Type::kName;
      token.text = text.substr(i, end - i);
      i = end;
    } else if (c == '`' || c == '\'' || c == '"') {
      // `name`, 'text' or "text"; the quote is doubled inside.
      std::string value;
      size_t j = i + 1;
      for (;;) {
        if (j >= text.size()) {
          throw InvalidArgument("--filter: the quote opened at position " + std::to_string(i + 1) +
                                " is not closed");
        }
        if (text[j] == c) {
          if (j + 1 < text.size() && text[j + 1] == c) {
            value += c;
            j += 2;
            continue;
          }
          break;
        }
        value += text[j++];
      }
      token.type = c == '`' ? Token::Type::kName : Token::Type::kText;
      token.quotedName = c == '`';
      token.text = std::move(value);
      i = j + 1;
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' ||
               (c == '.' && i + 1 < text.size() &&
                std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
      size_t end = i + 1;
      while (end < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '.' ||
              ((text[end] == '-' || text[end] == '+') &&
               (text[end - 1] == 'e' || text[end - 1] == 'E')))) {
        ++end;
      }
      token.type = Token::Type::kNumber;
      token.text = text.substr(i, end - i);
      i = end;
    } else {
      static constexpr std::string_view kTwo[] = {"<=", ">=", "!=", "<>"};
      token.type = Token::Type::kSymbol;
      token.text = std::string(1, c);
      for (std::string_view two : kTwo) {
        if (text.substr(i, 2) == two) token.text = two;
      }
      if (token.text.size() == 1 && std::string_view("=<>(),.").find(c) == std::string_view::npos) {
        throw InvalidArgument("--filter: unexpected character '" + token.text + "' at position " +
                              std::to_string(i + 1));
      }
      i += token.text.size();
    }
    tokens.push_back(std::move(token));
  }
  Token end;
  end.position = text.size();
  tokens.push_back(end);
  return tokens;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(a[i])) != b[i]) return false;
  }
  return true;
}

// --- typing a literal for its column ----------------------------------------

[[noreturn]] void literalError(const Token& token, const std::string& column,
                               std::string_view what) {
  throw InvalidArgument("--filter: the literal at position " + std::to_string(token.position + 1) +
                        " does not fit column '" + column + "': " + std::string(what) + ", found " +
                        (token.type == Token::Type::kText ? "'" + token.text + "'" : token.text));
}

template <typename Int>
std::optional<Int> parseInteger(const std::string& text) {
  Int value{};
  const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);
  const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<double> parseDouble(const std::string& text) {
  // strtod accepts forms a number token cannot hold (hex, inf); the token was checked.
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || text.empty()) return std::nullopt;
  return value;
}

/// Parses "[-]digits[.digits]" as a Decimal keeping the written scale.
std::optional<Decimal> parseDecimal(const std::string& text) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  __int128 unscaled = 0;
  int32_t scale = 0;
  bool digits = false;
  bool fraction = false;
  constexpr __int128 kLimit = static_cast<__int128>(1) << 120;
  for (; i < text.size(); ++i) {
    if (text[i] == '.' && !fraction) {
      fraction = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
    if (unscaled > kLimit / 10) return std::nullopt;
    unscaled = unscaled * 10 + (text[i] - '0');
    digits = true;
    if (fraction) ++scale;
  }
  if (!digits) return std::nullopt;
  if (negative) unscaled = -unscaled;
  Decimal decimal;
  decimal.scale = scale;
  decimal.unscaledBigEndian.resize(16);
  for (int b = 15; b >= 0; --b) {
    decimal.unscaledBigEndian[static_cast<size_t>(b)] = static_cast<uint8_t>(unscaled & 0xff);
    unscaled >>= 8;  // arithmetic: keeps the sign
  }
  return decimal;
}

/// Parses "YYYY-MM-DD[( |T)HH:MM:SS[.fraction]]" into days and nanoseconds of day.
std::optional<std::pair<Date, int64_t>> parseDateTime(const std::string& text, bool dateOnly) {
  unsigned year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%4u-%2u-%2u%n", &year, &month, &day, &consumed) != 3 ||
      month < 1 || month > 12 || day < 1 || day > 31) {
    return std::nullopt;
  }
  const Date date = Date::ofCivil(year, month, day);
  size_t i = static_cast<size_t>(consumed);
  if (i == text.size()) return std::make_pair(date, int64_t{0});
  if (dateOnly || (text[i] != ' ' && text[i] != 'T')) return std::nullopt;
  if (std::sscanf(text.c_str() + i + 1, "%2u:%2u:%2u%n", &hour, &minute, &second, &consumed) != 3 ||
      hour > 23 || minute > 59 || second > 59) {
    return std::nullopt;
  }
  i += 1 + static_cast<size_t>(consumed);
  int64_t nanos = 0;
  if (i < text.size() && text[i] == '.') {
    int64_t scale = 100'000'000;
    for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
      nanos += (text[i] - '0') * scale;
      scale /= 10;
    }
  }
  if (i < text.size() && text[i] == 'Z') ++i;
  if (i != text.size()) return std::nullopt;
  return std::make_pair(date,
                        ((hour * 60 + minute) * 60 + second) * int64_t{1'000'000'000} + nanos);
}

std::optional<Uuid> parseUuid(const std::string& text) {
  Uuid uuid;
  size_t n = 0;
  for (char c : text) {
    if (c == '-') continue;
    const int v = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                  : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
                  : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                              : -1;
    if (v < 0 || n >= 32) return std::nullopt;
    uuid.bytes[n / 2] = static_cast<uint8_t>(uuid.bytes[n / 2] | (n % 2 == 0 ? v << 4 : v));
    ++n;
  }
  if (n != 32) return std::nullopt;
  return uuid;
}

/// The literal a column without a usable schema leaf gets: its natural type
/// (binding then names what the column takes).
PredicateLiteral naturalLiteral(const Token& token) {
  if (token.type == Token::Type::kText) return token.text;
  if (auto i = parseInteger<int64_t>(token.text)) return *i;
  if (auto d = parseDouble(token.text)) return *d;
  throw InvalidArgument("--filter: '" + token.text + "' at position " +
                        std::to_string(token.position + 1) + " is not a number");
}

PredicateLiteral typedLiteral(const Token& token, const std::string& column,
                              const parquet::SchemaNode* leaf) {
  if (token.type == Token::Type::kName) {  // TRUE / FALSE
    return equalsIgnoreCase(token.text, "TRUE");
  }
  if (leaf == nullptr || !leaf->isLeaf()) return naturalLiteral(token);
  const Kind kind = leaf->logicalType.kind;
  const bool isText = token.type == Token::Type::kText;
  const bool isSigned = kind != Kind::INTEGER || leaf->logicalType.isSigned;
  if (kind == Kind::DECIMAL) {
    if (auto d = parseDecimal(token.text)) return *d;
    literalError(token, column, "expected a decimal number");
  }
  if (isText) {
    if (kind == Kind::DATE) {
      if (auto dt = parseDateTime(token.text, true)) return dt->first;
      literalError(token, column, "expected a date 'YYYY-MM-DD'");
    }
    if (kind == Kind::TIMESTAMP || leaf->physicalType == parquet::PhysicalType::INT96) {
      auto dt = parseDateTime(token.text, false);
      if (!dt) literalError(token, column, "expected a timestamp 'YYYY-MM-DD HH:MM:SS[.fraction]'");
      const int64_t seconds =
          int64_t{dt->first.daysSinceEpoch} * 86400 + dt->second / 1'000'000'000;
      const auto nanos = static_cast<int32_t>(dt->second % 1'000'000'000);
      if (kind == Kind::TIMESTAMP && !leaf->logicalType.isAdjustedToUTC) {
        return LocalDateTime{seconds, nanos};
      }
      return Instant{seconds, nanos};
    }
    if (kind == Kind::UUID) {
      if (auto u = parseUuid(token.text)) return *u;
      literalError(token, column, "expected a UUID");
    }
    return token.text;
  }
  switch (*leaf->physicalType) {
    case parquet::PhysicalType::INT32: {
      if (auto v = parseInteger<int32_t>(token.text)) return *v;
      if (auto u = parseInteger<uint32_t>(token.text); u && !isSigned)
        return static_cast<int32_t>(*u);
      literalError(token, column, "expected a 32-bit integer");
    }
    case parquet::PhysicalType::INT64: {
      if (auto v = parseInteger<int64_t>(token.text)) return *v;
      if (auto u = parseInteger<uint64_t>(token.text); u && !isSigned)
        return static_cast<int64_t>(*u);
      literalError(token, column, "expected a 64-bit integer");
    }
    case parquet::PhysicalType::FLOAT: {
      if (auto d = parseDouble(token.text)) return static_cast<float>(*d);
      literalError(token, column, "expected a number");
    }
    case parquet::PhysicalType::DOUBLE: {
      if (auto d = parseDouble(token.text)) return *d;
      literalError(token, column, "expected a number");
    }
    default:
      if (kind == Kind::FLOAT16) {
        if (auto d = parseDouble(token.text)) return static_cast<float>(*d);
      }
      return naturalLiteral(token);
  }
}

// --- the parser ----------------------------------------------------------------

/// Types a literal token for the column it is compared with: the one part of
/// the parser that depends on the file format.
using LiteralTyper = std::function<PredicateLiteral(const Token&, const std::string& column)>;

class Parser {
 public:
  Parser(std::string_view text, LiteralTyper typer)
      : tokens_(tokenize(text)), typer_(std::move(typer)) {}

  FilterPredicate parse() {
    if (peek().type == Token::Type::kEnd) syntaxError(peek(), "a condition");
    FilterPredicate result = parseOr();
    if (peek().type != Token::Type::kEnd) syntaxError(peek(), "AND, OR or the end");
    return result;
  }

 private:
  const Token& peek() const { return tokens_[next_]; }
  Token take() { return tokens_[next_ < tokens_.size() - 1 ? next_++ : next_]; }

  bool isKeyword(const Token& token, std::string_view keyword) const {
    return token.type == Token::Type::kName && !token.quotedName &&
           equalsIgnoreCase(token.text, keyword);
  }
  bool acceptKeyword(std::string_view keyword) {
    if (!isKeyword(peek(), keyword)) return false;
    ++next_;
    return true;
  }
  bool acceptSymbol(std::string_view symbol) {
    if (peek().type != Token::Type::kSymbol || peek().text != symbol) return false;
    ++next_;
    return true;
  }
  void expectSymbol(std::string_view symbol) {
    if (!acceptSymbol(symbol)) syntaxError(peek(), "'" + std::string(symbol) + "'");
  }

  FilterPredicate parseOr() {
    std::vector<FilterPredicate> children{parseAnd()};
    while (acceptKeyword("OR")) children.push_back(parseAnd());
    return children.size() == 1 ? children.front() : FilterPredicate::or_(std::move(children));
  }

  FilterPredicate parseAnd() {
    std::vector<FilterPredicate> children{parseUnary()};
    while (acceptKeyword("AND")) children.push_back(parseUnary());
    return children.size() == 1 ? children.front() : FilterPredicate::and_(std::move(children));
  }

  FilterPredicate parseUnary() {
    // NOT and parentheses recurse: a bound keeps a hostile expression off the stack's end.
    if (++depth_ > kMaxDepth) {
      throw InvalidArgument("--filter: NOT and parentheses nest deeper than " +
                            std::to_string(kMaxDepth) + " at position " +
                            std::to_string(peek().position + 1));
    }
    FilterPredicate result = [&] {
      if (acceptKeyword("NOT")) return FilterPredicate::not_(parseUnary());
      if (acceptSymbol("(")) {
        FilterPredicate inner = parseOr();
        expectSymbol(")");
        return inner;
      }
      return parseTerm();
    }();
    --depth_;
    return result;
  }

  std::string parseColumn() {
    const Token& first = peek();
    if (first.type != Token::Type::kName || isReserved(first)) {
      syntaxError(first, "a column name, NOT or '('");
    }
    std::string column = take().text;
    while (acceptSymbol(".")) {
      if (peek().type != Token::Type::kName) syntaxError(peek(), "a field name after '.'");
      column += '.' + take().text;
    }
    return column;
  }

  bool isReserved(const Token& token) const {
    for (std::string_view k : {"AND", "OR", "NOT", "IN", "IS", "NULL", "TRUE", "FALSE"}) {
      if (isKeyword(token, k)) return true;
    }
    return false;
  }

  Token parseLiteralToken() {
    const Token& token = peek();
    if (token.type == Token::Type::kNumber || token.type == Token::Type::kText ||
        isKeyword(token, "TRUE") || isKeyword(token, "FALSE")) {
      return take();
    }
    syntaxError(token, "a literal (a number, 'text', TRUE or FALSE)");
  }

  FilterPredicate parseTerm() {
    const std::string column = parseColumn();
    if (acceptKeyword("IS")) {
      const bool negated = acceptKeyword("NOT");
      if (!acceptKeyword("NULL")) syntaxError(peek(), negated ? "NULL" : "NULL or NOT NULL");
      return negated ? FilterPredicate::isNotNull(column) : FilterPredicate::isNull(column);
    }
    const bool notIn = acceptKeyword("NOT");
    if (notIn && !isKeyword(peek(), "IN")) syntaxError(peek(), "IN after NOT");
    if (acceptKeyword("IN")) {
      expectSymbol("(");
      std::vector<PredicateLiteral> values;
      do {
        values.push_back(typer_(parseLiteralToken(), column));
      } while (acceptSymbol(","));
      expectSymbol(")");
      FilterPredicate in = FilterPredicate::inLiterals(column, std::move(values));
      return notIn ? FilterPredicate::not_(std::move(in)) : in;
    }
    const Token op = peek();
    if (op.type != Token::Type::kSymbol) syntaxError(op, "an operator (= != < <= > >=), IN or IS");
    ++next_;
    const PredicateLiteral literal = typer_(parseLiteralToken(), column);
    return std::visit(
        [&](const auto& value) -> FilterPredicate {
          using T = std::decay_t<decltype(value)>;
          if (op.text == "=") return FilterPredicate::eq<T>(column, value);
          if (op.text == "!=" || op.text == "<>") return FilterPredicate::notEq<T>(column, value);
          if (op.text == "<") return FilterPredicate::lt<T>(column, value);
          if (op.text == "<=") return FilterPredicate::ltEq<T>(column, value);
          if (op.text == ">") return FilterPredicate::gt<T>(column, value);
          if (op.text == ">=") return FilterPredicate::gtEq<T>(column, value);
          syntaxError(op, "an operator (= != < <= > >=), IN or IS");
        },
        literal);
  }

  static constexpr int kMaxDepth = 200;

  std::vector<Token> tokens_;
  size_t next_ = 0;
  int depth_ = 0;
  LiteralTyper typer_;
};

/// The literal an ORC column takes (see orc_predicate.h's table): integers as
/// int64_t, floats as double, decimals as Decimal, text on a date or timestamp
/// column as a Date, LocalDateTime (timestamp) or Instant (with local time zone),
/// text on a binary column as its bytes.
PredicateLiteral orcTypedLiteral(const Token& token, const std::string& column,
                                 const orc::OrcType* type) {
  using orc::TypeKind;
  if (token.type == Token::Type::kName) {  // TRUE / FALSE
    return equalsIgnoreCase(token.text, "TRUE");
  }
  if (type == nullptr) return naturalLiteral(token);
  const bool isText = token.type == Token::Type::kText;
  switch (type->kind) {
    case TypeKind::kByte:
    case TypeKind::kShort:
    case TypeKind::kInt:
    case TypeKind::kLong:
      if (isText) break;
      if (auto v = parseInteger<int64_t>(token.text)) return *v;
      literalError(token, column, "expected an integer");
    case TypeKind::kFloat:
    case TypeKind::kDouble:
      if (isText) break;
      if (auto d = parseDouble(token.text)) return *d;
      literalError(token, column, "expected a number");
    case TypeKind::kDecimal:
      if (auto d = parseDecimal(token.text)) return *d;
      literalError(token, column, "expected a decimal number");
    case TypeKind::kDate:
      if (!isText) break;
      if (auto dt = parseDateTime(token.text, true)) return dt->first;
      literalError(token, column, "expected a date 'YYYY-MM-DD'");
    case TypeKind::kTimestamp:
    case TypeKind::kTimestampInstant: {
      if (!isText) break;
      auto dt = parseDateTime(token.text, false);
      if (!dt) literalError(token, column, "expected a timestamp 'YYYY-MM-DD HH:MM:SS[.fraction]'");
      const int64_t seconds =
          int64_t{dt->first.daysSinceEpoch} * 86400 + dt->second / 1'000'000'000;
      const auto nanos = static_cast<int32_t>(dt->second % 1'000'000'000);
      if (type->kind == TypeKind::kTimestamp) return LocalDateTime{seconds, nanos};
      return Instant{seconds, nanos};
    }
    case TypeKind::kBinary:
      if (isText) return Bytes(token.text.begin(), token.text.end());
      break;
    default:
      break;
  }
  return naturalLiteral(token);  // binding names what the column takes
}

}  // namespace

parquet::FilterPredicate parseFilterExpression(std::string_view text,
                                               const parquet::FileSchema& schema) {
  return Parser(text, [&schema](const Token& token, const std::string& column) {
           const parquet::SchemaNode* leaf = nullptr;
           try {
             leaf = schema.find(column);
           } catch (const InvalidArgument&) {
             // an ambiguous path: binding reports it
           }
           return typedLiteral(token, column, leaf);
         }).parse();
}

parquet::FilterPredicate parseOrcFilterExpression(std::string_view text,
                                                  const orc::OrcSchema& schema) {
  return Parser(text, [&schema](const Token& token, const std::string& column) {
           return orcTypedLiteral(token, column, schema.find(column));
         }).parse();
}

}  // namespace quarry::cli
