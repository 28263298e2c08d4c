#pragma once

#include <string_view>

#include "quarry/engine/parse/ast.h"
#include "quarry/engine/parse/token_cursor.h"

namespace quarry::engine {

/// Reads expressions by recursive descent, one function per precedence level,
/// loosest first (ES|QL's and SQL's order):
///
///   OR < AND < NOT < comparison, IS [NOT] NULL, [NOT] IN, [NOT] LIKE, [NOT] RLIKE
///      < + - < * / % < unary - < :: (ES|QL's inline cast, on a primary)
///
/// `x::type` is a call of the conversion function of ES|QL's type name (any
/// case): boolean / bool -> to_boolean, integer / int -> to_integer, long ->
/// to_long, unsigned_long -> to_unsigned_long, double -> to_double, keyword /
/// text / string -> to_string, datetime / date -> to_datetime. So `-x::long` is
/// -(to_long(x)), `x::long::string` is to_string(to_long(x)), and the tree (and
/// the printed query) holds the call: `x::long` prints as to_long(x).
///
/// Binary operators associate to the left (`a - b - c` is `(a - b) - c`);
/// comparisons do not chain (`a < b < c` is an error asking for AND).
///
/// Reserved words, which a column name must backquote: AND OR NOT IS NULL IN
/// LIKE RLIKE CASE WHEN THEN ELSE END TRUE FALSE. Other keywords (BY, ASC, DATE, ...)
/// are keywords only where the grammar expects them.
class ExpressionParser {
 public:
  /// Deepest expression tree accepted: the printer, equality and destruction
  /// of an Expr recurse once per level.
  static constexpr int kMaxHeight = 1000;
  /// Deepest nesting of parentheses, calls, CASE, NOT and unary minus.
  static constexpr int kMaxNesting = 200;

  explicit ExpressionParser(TokenCursor& cursor) : cursor_(cursor) {}

  /// Reads one expression.
  Expr parseExpression();
  /// Reads a column name; `what` names it in an error ("a column name to KEEP").
  Identifier parseIdentifier(std::string_view what);
  /// Returns true when `token` is a reserved word.
  static bool isReserved(const Token& token);
  /// Returns true when `word` (any case) is a reserved word.
  static bool isReservedWord(std::string_view word);

 private:
  struct Parsed {
    Expr expr;
    int height = 1;
  };
  class NestingGuard;

  Parsed parseOr();
  Parsed parseAnd();
  Parsed parseNot();
  Parsed parsePredicate();
  Parsed parseAdditive();
  Parsed parseMultiplicative();
  Parsed parseUnary();
  Parsed parseCast();
  Parsed parsePrimary();
  Parsed parseCall(const Token& name);
  Parsed parseCase(const Token& keyword);
  Parsed parseCaseCall(const Token& keyword);
  Parsed parseTypedLiteral(const Token& keyword, const Token& text);
  Parsed parseNumber(const Token& token);

  /// Builds a node one level above children of height `childHeight`.
  Parsed node(ExprNode value, SourcePosition position, int childHeight, const Token& at) const;

  TokenCursor& cursor_;
  int nesting_ = 0;
};

}  // namespace quarry::engine
