#include "quarry/engine/parse/expression_parser.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>
#include <string>

#include "quarry/engine/parse/temporal_literal.h"

namespace quarry::engine {
namespace {

constexpr int kMaxDecimalPrecision = 38;

constexpr std::array<std::string_view, 15> kReservedWords = {
    "AND",  "OR",   "NOT",  "IS",   "NULL", "IN",   "LIKE", "RLIKE",
    "CASE", "WHEN", "THEN", "ELSE", "END",  "TRUE", "FALSE"};

/// Whether `token` starts the operator of an IN, LIKE or RLIKE (NOT included).
bool isListOrPatternKeyword(const Token& token) {
  return token.isKeyword("IN") || token.isKeyword("LIKE") || token.isKeyword("RLIKE");
}

std::string at(SourcePosition position) {
  return "line " + std::to_string(position.line) + ", column " + std::to_string(position.column);
}

bool isComparison(TokenKind kind) {
  switch (kind) {
    case TokenKind::kAssign:
    case TokenKind::kEq:
    case TokenKind::kNe:
    case TokenKind::kLt:
    case TokenKind::kLe:
    case TokenKind::kGt:
    case TokenKind::kGe:
      return true;
    default:
      return false;
  }
}

BinaryOp comparisonOp(TokenKind kind) {
  switch (kind) {
    case TokenKind::kNe:
      return BinaryOp::kNe;
    case TokenKind::kLt:
      return BinaryOp::kLt;
    case TokenKind::kLe:
      return BinaryOp::kLe;
    case TokenKind::kGt:
      return BinaryOp::kGt;
    case TokenKind::kGe:
      return BinaryOp::kGe;
    default:
      return BinaryOp::kEq;
  }
}

std::string lowerAscii(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

struct CastType {
  std::string_view name;
  std::string_view function;
};

// ES|QL's type names and aliases (DataType.fromNameOrAlias) that quarry converts to.
constexpr std::array<CastType, 13> kCastTypes = {{
    {"boolean", "to_boolean"},
    {"bool", "to_boolean"},
    {"integer", "to_integer"},
    {"int", "to_integer"},
    {"long", "to_long"},
    {"unsigned_long", "to_unsigned_long"},
    {"double", "to_double"},
    {"keyword", "to_string"},
    {"text", "to_string"},
    {"string", "to_string"},
    {"datetime", "to_datetime"},
    {"date", "to_datetime"},
    {"ip", "to_ip"},
}};

std::string stripLeadingZeros(std::string_view digits) {
  const size_t first = digits.find_first_not_of('0');
  return first == std::string_view::npos ? "0" : std::string(digits.substr(first));
}

}  // namespace

/// Counts one level of recursion for the duration of a scope.
class ExpressionParser::NestingGuard {
 public:
  NestingGuard(ExpressionParser& parser, const Token& at) : parser_(parser) {
    if (++parser_.nesting_ > kMaxNesting) {
      TokenCursor::fail(
          at, "expression nested too deeply (more than " + std::to_string(kMaxNesting) + " levels)",
          "split the expression with EVAL");
    }
  }
  ~NestingGuard() { --parser_.nesting_; }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;

 private:
  ExpressionParser& parser_;
};

bool ExpressionParser::isReservedWord(std::string_view word) {
  std::string upper(word);
  for (char& c : upper) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return std::find(kReservedWords.begin(), kReservedWords.end(), upper) != kReservedWords.end();
}

bool ExpressionParser::isReserved(const Token& token) {
  return token.kind == TokenKind::kIdentifier && !token.quoted && token.parts.size() == 1 &&
         isReservedWord(token.parts[0]);
}

Expr ExpressionParser::parseExpression() {
  return parseOr().expr;
}

Identifier ExpressionParser::parseIdentifier(std::string_view what) {
  const Token& token = cursor_.peek();
  if (token.kind != TokenKind::kIdentifier) cursor_.failExpected(what);
  if (isReserved(token)) {
    TokenCursor::fail(token,
                      "expected " + std::string(what) + ", found reserved word " + token.describe(),
                      "quote a column of that name with backquotes: `" + token.parts[0] + "`");
  }
  cursor_.next();
  return Identifier{token.parts, token.position};
}

ExpressionParser::Parsed ExpressionParser::node(ExprNode value, SourcePosition position,
                                                int childHeight, const Token& at) const {
  if (childHeight + 1 > kMaxHeight) {
    TokenCursor::fail(
        at,
        "expression too deep (more than " + std::to_string(kMaxHeight) + " levels of operators)",
        "split the expression with EVAL, or use IN (...) for long OR chains");
  }
  return Parsed{Expr{std::move(value), position}, childHeight + 1};
}

ExpressionParser::Parsed ExpressionParser::parseOr() {
  Parsed left = parseAnd();
  while (cursor_.atKeyword("OR")) {
    const Token& op = cursor_.next();
    Parsed right = parseAnd();
    const int height = std::max(left.height, right.height);
    left = node(BinaryExpr{BinaryOp::kOr, std::move(left.expr), std::move(right.expr)}, op.position,
                height, op);
  }
  return left;
}

ExpressionParser::Parsed ExpressionParser::parseAnd() {
  Parsed left = parseNot();
  while (cursor_.atKeyword("AND")) {
    const Token& op = cursor_.next();
    Parsed right = parseNot();
    const int height = std::max(left.height, right.height);
    left = node(BinaryExpr{BinaryOp::kAnd, std::move(left.expr), std::move(right.expr)},
                op.position, height, op);
  }
  return left;
}

ExpressionParser::Parsed ExpressionParser::parseNot() {
  if (!cursor_.atKeyword("NOT")) return parsePredicate();
  const Token& op = cursor_.next();
  NestingGuard guard(*this, op);
  Parsed operand = parseNot();
  return node(UnaryExpr{UnaryOp::kNot, std::move(operand.expr)}, op.position, operand.height, op);
}

ExpressionParser::Parsed ExpressionParser::parsePredicate() {
  Parsed left = parseAdditive();
  const Token& op = cursor_.peek();
  Parsed result;
  if (isComparison(op.kind)) {
    cursor_.next();
    Parsed right = parseAdditive();
    result = node(BinaryExpr{comparisonOp(op.kind), std::move(left.expr), std::move(right.expr)},
                  op.position, std::max(left.height, right.height), op);
  } else if (op.isKeyword("IS")) {
    cursor_.next();
    const bool negated = cursor_.acceptKeyword("NOT");
    cursor_.expectKeyword("NULL", "after IS", "write IS NULL or IS NOT NULL");
    result = node(IsNullExpr{std::move(left.expr), negated}, op.position, left.height, op);
  } else if (isListOrPatternKeyword(op) ||
             (op.isKeyword("NOT") && isListOrPatternKeyword(cursor_.peek(1)))) {
    cursor_.next();
    const bool negated = op.isKeyword("NOT");
    const Token& keyword = negated ? cursor_.next() : op;
    if ((keyword.isKeyword("LIKE") || keyword.isKeyword("RLIKE")) && cursor_.at(TokenKind::kLeftParen)) {
      // A list of patterns, `x LIKE ("a*", "b*")`: true when any matches, the LIKEs
      // joined by OR (NOT LIKE (...) when none does).
      const bool regex = keyword.isKeyword("RLIKE");
      const std::string name = regex ? "RLIKE" : "LIKE";
      const Token& open = cursor_.next();
      NestingGuard guard(*this, open);
      std::optional<Parsed> any;
      do {
        const Token& pattern = cursor_.expect(TokenKind::kString, "a string pattern", "in the " + name + " list",
                                              name + " takes quoted patterns: name " + name +
                                                  (regex ? " (\"a.*\", \"b.*\")" : " (\"a*\", \"b*\")"));
        Parsed like = node(LikeExpr{left.expr, pattern.text, false, regex}, op.position, left.height, pattern);
        if (!any) {
          any = std::move(like);
          continue;
        }
        const int height = std::max(any->height, like.height);
        any = node(BinaryExpr{BinaryOp::kOr, std::move(any->expr), std::move(like.expr)}, op.position, height,
                   pattern);
      } while (cursor_.accept(TokenKind::kComma));
      cursor_.expect(TokenKind::kRightParen, "',' or ')'", "to close the " + name + " list at " + at(open.position),
                     "add ')' after the last pattern");
      result = negated ? node(UnaryExpr{UnaryOp::kNot, std::move(any->expr)}, op.position, any->height, op)
                       : std::move(*any);
    } else if (keyword.isKeyword("LIKE")) {
      const Token& pattern = cursor_.expect(
          TokenKind::kString, "a string pattern", "after LIKE",
          "LIKE takes a quoted pattern: name LIKE \"a*\" (* any run, ? one character)");
      result =
          node(LikeExpr{std::move(left.expr), pattern.text, negated}, op.position, left.height, op);
    } else if (keyword.isKeyword("RLIKE")) {
      const Token& pattern = cursor_.expect(TokenKind::kString, "a string pattern", "after RLIKE",
                                            "RLIKE takes a quoted regular expression: name RLIKE "
                                            "\"a.*\" (it matches the whole value)");
      result = node(LikeExpr{std::move(left.expr), pattern.text, negated, true}, op.position,
                    left.height, op);
    } else {
      const Token& open = cursor_.expect(TokenKind::kLeftParen, "'('", "after IN",
                                         "IN takes a parenthesized list: x IN (1, 2, 3)");
      NestingGuard guard(*this, open);
      std::vector<Expr> list;
      int height = left.height;
      do {
        Parsed item = parseOr();
        height = std::max(height, item.height);
        list.push_back(std::move(item.expr));
      } while (cursor_.accept(TokenKind::kComma));
      cursor_.expect(TokenKind::kRightParen, "',' or ')'",
                     "to close the IN list at " + at(open.position),
                     "add ')' after the last value");
      result =
          node(InExpr{std::move(left.expr), std::move(list), negated}, op.position, height, op);
    }
  } else {
    return left;
  }
  const Token& after = cursor_.peek();
  if (isComparison(after.kind) || after.isKeyword("IS") || isListOrPatternKeyword(after) ||
      (after.isKeyword("NOT") && isListOrPatternKeyword(cursor_.peek(1)))) {
    TokenCursor::fail(after,
                      "comparisons do not chain: found " + after.describe() +
                          " after the comparison at " + at(op.position),
                      "combine them with AND (a < b AND b < c), or add parentheses");
  }
  return result;
}

ExpressionParser::Parsed ExpressionParser::parseAdditive() {
  Parsed left = parseMultiplicative();
  while (cursor_.at(TokenKind::kPlus) || cursor_.at(TokenKind::kMinus)) {
    const Token& op = cursor_.next();
    Parsed right = parseMultiplicative();
    const BinaryOp kind = op.kind == TokenKind::kPlus ? BinaryOp::kAdd : BinaryOp::kSubtract;
    const int height = std::max(left.height, right.height);
    left = node(BinaryExpr{kind, std::move(left.expr), std::move(right.expr)}, op.position, height,
                op);
  }
  return left;
}

ExpressionParser::Parsed ExpressionParser::parseMultiplicative() {
  Parsed left = parseUnary();
  while (cursor_.at(TokenKind::kStar) || cursor_.at(TokenKind::kSlash) ||
         cursor_.at(TokenKind::kPercent)) {
    const Token& op = cursor_.next();
    Parsed right = parseUnary();
    const BinaryOp kind = op.kind == TokenKind::kStar    ? BinaryOp::kMultiply
                          : op.kind == TokenKind::kSlash ? BinaryOp::kDivide
                                                         : BinaryOp::kModulo;
    const int height = std::max(left.height, right.height);
    left = node(BinaryExpr{kind, std::move(left.expr), std::move(right.expr)}, op.position, height,
                op);
  }
  return left;
}

ExpressionParser::Parsed ExpressionParser::parseUnary() {
  if (!cursor_.at(TokenKind::kMinus)) return parseCast();
  const Token& op = cursor_.next();
  NestingGuard guard(*this, op);
  Parsed operand = parseUnary();
  return node(UnaryExpr{UnaryOp::kNegate, std::move(operand.expr)}, op.position, operand.height,
              op);
}

ExpressionParser::Parsed ExpressionParser::parseCast() {
  Parsed operand = parsePrimary();
  while (cursor_.at(TokenKind::kDoubleColon)) {
    const Token& op = cursor_.next();
    std::string list;
    for (const CastType& t : kCastTypes) list += (list.empty() ? "" : ", ") + std::string(t.name);
    const Token& type = cursor_.peek();
    if (type.kind != TokenKind::kIdentifier || type.quoted || type.parts.size() != 1) {
      cursor_.failExpected("a type name after '::'", "write x::long; the types are " + list);
    }
    const std::string name = lowerAscii(type.parts[0]);
    const auto known = std::find_if(kCastTypes.begin(), kCastTypes.end(),
                                    [&](const CastType& t) { return t.name == name; });
    if (known == kCastTypes.end()) {
      TokenCursor::fail(
          type, "cannot cast to " + type.describe() + ": quarry has no conversion to that type",
          "the types are " + list);
    }
    cursor_.next();
    std::vector<Expr> args;
    args.push_back(std::move(operand.expr));
    operand = node(CallExpr{std::string(known->function), std::move(args)}, op.position,
                   operand.height, op);
  }
  return operand;
}

ExpressionParser::Parsed ExpressionParser::parsePrimary() {
  const Token& token = cursor_.peek();
  switch (token.kind) {
    case TokenKind::kLeftParen: {
      cursor_.next();
      NestingGuard guard(*this, token);
      Parsed inner = parseOr();
      cursor_.expect(TokenKind::kRightParen, "')'", "to close '(' at " + at(token.position),
                     "add the missing ')' or remove the extra '('");
      return inner;
    }
    case TokenKind::kInteger: {
      Parsed number = parseNumber(cursor_.next());
      const Token& unit = cursor_.peek();
      if (unit.kind != TokenKind::kIdentifier || unit.quoted || unit.parts.size() != 1)
        return number;
      const std::optional<TimeSpanUnit> span = timeSpanUnit(unit.parts[0]);
      const auto* count = std::get_if<IntegerLiteral>(&number.expr.as<Literal>());
      if (!span || count == nullptr) return number;
      cursor_.next();
      return Parsed{Expr{Literal{TimeSpanLiteral{count->value, *span}}, token.position}};
    }
    case TokenKind::kDecimal:
    case TokenKind::kDouble:
      return parseNumber(cursor_.next());
    case TokenKind::kString:
      cursor_.next();
      return Parsed{Expr{Literal{StringLiteral{token.text}}, token.position}};
    case TokenKind::kIdentifier:
      break;
    default:
      cursor_.failExpected("an expression");
  }
  const Token& next = cursor_.peek(1);
  if (token.isKeyword("NULL")) {
    cursor_.next();
    return Parsed{Expr{Literal{NullLiteral{}}, token.position}};
  }
  if (token.isKeyword("TRUE") || token.isKeyword("FALSE")) {
    cursor_.next();
    return Parsed{Expr{Literal{BooleanLiteral{token.isKeyword("TRUE")}}, token.position}};
  }
  if (token.isKeyword("CASE")) {
    cursor_.next();
    return next.kind == TokenKind::kLeftParen ? parseCaseCall(token) : parseCase(token);
  }
  if ((token.isKeyword("DATE") || token.isKeyword("TIMESTAMP")) &&
      next.kind == TokenKind::kString) {
    cursor_.next();
    cursor_.next();
    return parseTypedLiteral(token, next);
  }
  if (next.kind == TokenKind::kLeftParen) {
    cursor_.next();
    return parseCall(token);
  }
  if (isReserved(token)) {
    const std::string hint =
        token.isKeyword("NOT")
            ? "NOT binds looser than comparisons; put NOT ... in parentheses"
            : "quote a column of that name with backquotes: `" + token.parts[0] + "`";
    TokenCursor::fail(token, "expected an expression, found reserved word " + token.describe(),
                      hint);
  }
  cursor_.next();
  return Parsed{Expr{ColumnRef{Identifier{token.parts, token.position}}, token.position}};
}

ExpressionParser::Parsed ExpressionParser::parseCall(const Token& name) {
  if (name.quoted || name.parts.size() != 1) {
    TokenCursor::fail(name, name.describe() + " is not a function name",
                      "function names are plain words: round(x, 2)");
  }
  const std::string function = lowerAscii(name.parts[0]);
  const Token& open = cursor_.next();  // '('
  NestingGuard guard(*this, open);
  const std::string closing = "to close the call of " + function + " at " + at(open.position);
  std::vector<Expr> args;
  int height = 0;
  if (cursor_.at(TokenKind::kStar) && cursor_.peek(1).kind == TokenKind::kRightParen) {
    args.push_back(Expr{Star{}, cursor_.next().position});
  } else if (!cursor_.at(TokenKind::kRightParen)) {
    do {
      if (cursor_.at(TokenKind::kStar)) {
        TokenCursor::fail(cursor_.peek(), "'*' is an argument only alone, as in count(*)");
      }
      Parsed arg = parseOr();
      height = std::max(height, arg.height);
      args.push_back(std::move(arg.expr));
    } while (cursor_.accept(TokenKind::kComma));
  }
  cursor_.expect(TokenKind::kRightParen, args.empty() ? "an argument or ')'" : "',' or ')'",
                 closing, "separate arguments with ',' and end the call with ')'");
  return node(CallExpr{function, std::move(args)}, name.position, height, name);
}

ExpressionParser::Parsed ExpressionParser::parseCase(const Token& keyword) {
  NestingGuard guard(*this, keyword);
  if (!cursor_.atKeyword("WHEN")) {
    cursor_.failExpected("WHEN after CASE",
                         "write CASE WHEN condition THEN value [ELSE value] END, or "
                         "case(condition, value, ..., else_value)");
  }
  CaseExpr result;
  int height = 0;
  while (cursor_.acceptKeyword("WHEN")) {
    Parsed condition = parseOr();
    cursor_.expectKeyword("THEN", "after the WHEN condition");
    Parsed value = parseOr();
    height = std::max({height, condition.height, value.height});
    result.whens.push_back(WhenClause{std::move(condition.expr), std::move(value.expr)});
  }
  if (cursor_.acceptKeyword("ELSE")) {
    Parsed otherwise = parseOr();
    height = std::max(height, otherwise.height);
    result.otherwise = Box<Expr>(std::move(otherwise.expr));
  }
  cursor_.expectKeyword("END", "to close the CASE at " + at(keyword.position),
                        "every CASE ends with END");
  return node(std::move(result), keyword.position, height, keyword);
}

ExpressionParser::Parsed ExpressionParser::parseCaseCall(const Token& keyword) {
  // case(c1, v1, c2, v2, ..., [else]): pairs, then an optional last value.
  Parsed call = parseCall(keyword);
  auto& args = std::get<CallExpr>(call.expr.node).args;
  if (args.size() < 2 || args[0].is<Star>()) {
    TokenCursor::fail(keyword, "case(...) needs a condition and a value",
                      "write case(condition, value, ..., else_value)");
  }
  CaseExpr result;
  size_t i = 0;
  for (; i + 1 < args.size(); i += 2) {
    result.whens.push_back(WhenClause{std::move(args[i]), std::move(args[i + 1])});
  }
  if (i < args.size()) result.otherwise = Box<Expr>(std::move(args[i]));
  return Parsed{Expr{std::move(result), keyword.position}, call.height};
}

ExpressionParser::Parsed ExpressionParser::parseTypedLiteral(const Token& keyword,
                                                             const Token& text) {
  if (keyword.isKeyword("DATE")) {
    const auto date = parseDateLiteral(text.text);
    if (!date) {
      TokenCursor::fail(text, "invalid DATE literal " + text.describe(),
                        "write DATE 'YYYY-MM-DD' with a real day, e.g. DATE '1995-06-17'");
    }
    return Parsed{Expr{Literal{DateLiteral{*date}}, keyword.position}};
  }
  const auto timestamp = parseTimestampLiteral(text.text);
  if (!timestamp) {
    TokenCursor::fail(text, "invalid TIMESTAMP literal " + text.describe(),
                      "write TIMESTAMP 'YYYY-MM-DD HH:MM:SS[.fraction]', e.g. "
                      "TIMESTAMP '1995-06-17 10:00:00'");
  }
  return Parsed{Expr{Literal{TimestampLiteral{*timestamp}}, keyword.position}};
}

ExpressionParser::Parsed ExpressionParser::parseNumber(const Token& token) {
  const std::string& text = token.text;
  if (token.kind == TokenKind::kDouble) {
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) {
      TokenCursor::fail(token, "number " + text + " is out of the range of a double",
                        "doubles reach about 1.8e308 and down to about 2.2e-308");
    }
    return Parsed{Expr{Literal{DoubleLiteral{value}}, token.position}};
  }
  if (token.kind == TokenKind::kInteger) {
    uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc() && end == text.data() + text.size()) {
      return Parsed{Expr{Literal{IntegerLiteral{value}}, token.position}};
    }
  }
  // A decimal, or an integer past uint64: exact digits and a scale.
  const size_t dot = text.find('.');
  const std::string_view whole = std::string_view(text).substr(0, dot);
  const std::string_view fraction =
      dot == std::string::npos ? std::string_view() : std::string_view(text).substr(dot + 1);
  DecimalLiteral decimal;
  decimal.unscaled = stripLeadingZeros(std::string(whole) + std::string(fraction));
  decimal.scale = static_cast<int32_t>(fraction.size());
  const size_t precision = std::max(decimal.unscaled.size(), fraction.size());
  if (precision > static_cast<size_t>(kMaxDecimalPrecision)) {
    TokenCursor::fail(
        token,
        "number " + text + " has more than " + std::to_string(kMaxDecimalPrecision) + " digits",
        "exact numbers hold up to 38 digits; write a double with an exponent, "
        "e.g. 1.5e40");
  }
  return Parsed{Expr{Literal{std::move(decimal)}, token.position}};
}

}  // namespace quarry::engine
