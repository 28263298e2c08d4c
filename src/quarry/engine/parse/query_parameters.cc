#include "quarry/engine/parse/query_parameters.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <string_view>

#include "quarry/common/error.h"
#include "quarry/common/name_hint.h"

namespace quarry::engine {

namespace {

Token tokenAt(const Token& placeholder, TokenKind kind, std::string text = {}) {
  Token token;
  token.kind = kind;
  token.position = placeholder.position;
  token.source = placeholder.source;
  token.text = std::move(text);
  return token;
}

Token keywordAt(const Token& placeholder, std::string keyword) {
  Token token = tokenAt(placeholder, TokenKind::kIdentifier);
  token.parts.push_back(std::move(keyword));
  return token;
}

/// Appends a number's tokens: `(-N)` when it is negative.
void appendNumber(const Token& placeholder, TokenKind kind, bool negative, std::string digits,
                  std::vector<Token>& out) {
  if (negative) {
    out.push_back(tokenAt(placeholder, TokenKind::kLeftParen));
    out.push_back(tokenAt(placeholder, TokenKind::kMinus));
  }
  out.push_back(tokenAt(placeholder, kind, std::move(digits)));
  if (negative) out.push_back(tokenAt(placeholder, TokenKind::kRightParen));
}

void appendValue(const Token& placeholder, const ParameterValue& value, std::vector<Token>& out) {
  if (std::holds_alternative<NullParameter>(value)) {
    out.push_back(keywordAt(placeholder, "NULL"));
  } else if (const bool* flag = std::get_if<bool>(&value)) {
    out.push_back(keywordAt(placeholder, *flag ? "TRUE" : "FALSE"));
  } else if (const int64_t* integer = std::get_if<int64_t>(&value)) {
    // The magnitude as unsigned: INT64_MIN has no positive int64_t.
    const uint64_t magnitude = *integer < 0 ? uint64_t{0} - static_cast<uint64_t>(*integer)
                                            : static_cast<uint64_t>(*integer);
    appendNumber(placeholder, TokenKind::kInteger, *integer < 0, std::to_string(magnitude), out);
  } else if (const double* number = std::get_if<double>(&value)) {
    if (!std::isfinite(*number)) {
      throw InvalidArgument("parameter ?" + placeholder.text + " is " + std::to_string(*number) +
                            ": a query literal is a finite double");
    }
    // Scientific notation always lexes as a double (1.5e+00), never as a decimal.
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof(buffer), std::fabs(*number),
                                      std::chars_format::scientific);
    appendNumber(placeholder, TokenKind::kDouble, std::signbit(*number),
                 std::string(buffer, result.ptr), out);
  } else {
    out.push_back(tokenAt(placeholder, TokenKind::kString, std::get<std::string>(value)));
  }
}

}  // namespace

namespace {

bool isPosition(std::string_view name) {
  return !name.empty() && name.find_first_not_of("0123456789") == std::string_view::npos;
}

/// Names each `?` by its position among them ("1", "2", ...); refuses a query
/// that also numbers its placeholders (`?1`), as ES|QL does. Returns whether any
/// placeholder is there.
bool numberAnonymous(std::vector<Token>& tokens) {
  const Token* numbered = nullptr;
  const Token* anonymous = nullptr;
  int count = 0;
  for (Token& token : tokens) {
    if (token.kind != TokenKind::kParameter) continue;
    if (token.text.empty()) {
      token.text = std::to_string(++count);
      if (anonymous == nullptr) anonymous = &token;
    } else if (isPosition(token.text) && numbered == nullptr) {
      numbered = &token;
    }
    if (anonymous != nullptr && numbered != nullptr) {
      const Token& later = anonymous->position.line > numbered->position.line ||
                                   (anonymous->position.line == numbered->position.line &&
                                    anonymous->position.column > numbered->position.column)
                               ? *anonymous
                               : *numbered;
      throw QueryError("a query takes `?` or numbered parameters (?1, ?2), not both",
                       later.position.line, later.position.column,
                       "number every positional parameter, or none");
    }
  }
  return std::any_of(tokens.begin(), tokens.end(),
                     [](const Token& t) { return t.kind == TokenKind::kParameter; });
}

/// "1st", "22nd", "113th": from the last two digits, so that a position of any length (the
/// fuzzer's ?29985630028918952133 overflowed std::stoi) is named, not thrown on.
std::string ordinal(const std::string& position) {
  const int n = std::stoi(position.size() > 2 ? position.substr(position.size() - 2) : position);
  const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                       : n % 10 == 1                    ? "st"
                       : n % 10 == 2                    ? "nd"
                       : n % 10 == 3                    ? "rd"
                                                        : "th";
  return position + suffix;
}

}  // namespace

void bindParameters(std::vector<Token>& tokens, const QueryParameters& parameters) {
  std::map<std::string_view, const ParameterValue*> byName;
  for (const QueryParameter& parameter : parameters) {
    if (!byName.emplace(parameter.name, &parameter.value).second)
      throw InvalidArgument("parameter ?" + parameter.name + " is given twice");
  }
  if (!numberAnonymous(tokens)) return;
  std::vector<Token> bound;
  bound.reserve(tokens.size());
  for (Token& token : tokens) {
    if (token.kind != TokenKind::kParameter) {
      bound.push_back(std::move(token));
      continue;
    }
    const auto found = byName.find(token.text);
    if (found == byName.end() && isPosition(token.text)) {
      throw QueryError("no value for the " + ordinal(token.text) + " positional parameter " +
                           std::string(token.source),
                       token.position.line, token.position.column,
                       "pass the values in order, one per positional parameter");
    }
    if (found == byName.end()) {
      std::vector<std::string> names;
      for (const QueryParameter& parameter : parameters) names.push_back(parameter.name);
      const std::string guess(closestName(token.text, names));
      throw QueryError(
          "no value for parameter ?" + token.text, token.position.line, token.position.column,
          guess.empty() ? "pass a value for it with the query" : "did you mean ?" + guess + "?");
    }
    appendValue(token, *found->second, bound);
  }
  tokens = std::move(bound);
}

}  // namespace quarry::engine
