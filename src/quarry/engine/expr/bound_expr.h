#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/data/data_type.h"
#include "quarry/engine/expr/like_matcher.h"
#include "quarry/engine/expr/warnings.h"
#include "quarry/engine/parse/ast.h"

/// A bound expression: the AST (parse/ast.h) resolved against an input schema,
/// every node typed. bindExpression (expression_binder.h) makes them, evaluate
/// (evaluator.h) runs them over a page. Operands of different types are not
/// wrapped in cast nodes: each operator knows its operands' types and converts
/// them while it evaluates (type_rules.h says how), so the tree stays as written.
namespace quarry::engine {

class RegexMatcher;
class RegexReplacer;
struct BoundExpr;
using BoundExprPtr = std::shared_ptr<const BoundExpr>;

struct BoundExpr {
  enum class Kind : uint8_t {
    kColumn,
    kLiteral,
    kUnary,
    kBinary,
    kIsNull,
    kIn,
    kLike,
    kRLike,
    kCase,
    kCall
  };
  Kind kind = Kind::kLiteral;
  DataType type;         // the result type
  int column = -1;       // kColumn: index in the input schema
  std::string name;      // kColumn: the column's name; kCall: function name (lower case)
  Scalar literal;        // kLiteral (monostate = NULL); storage type of `type`
  UnaryOp unaryOp{};     // kUnary
  BinaryOp binaryOp{};   // kBinary
  bool negated = false;  // kIsNull (IS NOT NULL), kIn (NOT IN), kLike / kRLike (NOT ...)
  std::string pattern;   // kLike, kRLike: as written
  /// kLike, kRLike: the pattern compiled once, by the binder (matching is
  /// const, so every thread evaluating the expression shares it).
  std::shared_ptr<const LikeMatcher> likeMatcher;
  std::shared_ptr<const RegexMatcher> regexMatcher;
  /// kCall of replace: its expression and replacement compiled once, by the binder.
  std::shared_ptr<const RegexReplacer> regexReplacer;
  /// kLiteral of a time span (DATE_TRUNC's and BUCKET's span, the right operand of
  /// $add_span): the span; `literal` holds its count as an int64.
  std::optional<TimeSpan> timeSpan;
  /// A call or a division that can fail for a row (null, with a warning, as in
  /// ES|QL; warnings.h): where it was written. Null for every other node.
  std::shared_ptr<const WarningSite> warningSite;
  std::vector<BoundExprPtr> children;  // operands; kIn: operand then list; kCase: c1,v1,...[,else]

  /// Returns the canonical text used by EXPLAIN: binary nodes fully
  /// parenthesized ("(l_quantity > 24)"), literals as the language writes them
  /// (strings double-quoted, DATE '...', TIMESTAMP '...'), columns by name
  /// (backquoted unless every dotted part is a bare word), calls as name(args).
  std::string toString() const;
};

/// Renders a literal value of `type` as the language writes it ("NULL" for monostate).
std::string literalToString(const Scalar& value, const DataType& type);

}  // namespace quarry::engine
