#pragma once

#include <string>

#include "quarry/common/error.h"
#include "quarry/engine/data/data_type.h"
#include "quarry/engine/expr/bound_expr.h"
#include "quarry/engine/parse/ast.h"

/// Resolves an AST expression against the columns of an input: names to
/// channels, literals to typed values, operators and functions to result types
/// (type_rules.h, scalar_functions.h).
///
/// Literals: an integer is int32 when it fits, else int64, else uint64, else
/// decimal(38,0); a unary minus folds into the literal it precedes, so
/// -2147483648 is an int32. `12.50` is decimal(4,2) (DuckDB's precision: at
/// least one integer digit); `1.5e3` a double. DATE '...' is a date. TIMESTAMP
/// '...' is a wall-clock timestamp in microseconds (nanoseconds when written
/// with more than 6 fraction digits), local; compared with (=, <, IN) a
/// UTC-adjusted timestamp it is read as a UTC instant, since queries have no
/// session time zone.
///
/// Column names are case-sensitive and dotted names are one field: `a.b` is the
/// field named "a.b" (struct leaves, `_file.path`).
namespace quarry::engine {

/// The QueryError of a name no column of the input has (the name as written,
/// dotted), so that a caller knowing more of the source can say more.
class UnknownColumnError : public QueryError {
 public:
  UnknownColumnError(std::string name, const std::string& message, int line, int column,
                     const std::string& hint)
      : QueryError(message, line, column, hint), name_(std::move(name)) {}
  const std::string& columnName() const { return name_; }

 private:
  std::string name_;
};

/// Binds `ast` against `input`; throws QueryError (line, column, hint) for an
/// unknown column or function, an aggregate outside STATS, or operand types
/// that do not go together.
BoundExprPtr bindExpression(const Expr& ast, const Schema& input);

/// Throws QueryError at `at` when `expr` is a list: `use` (e.g. "the operand of
/// +", "a SORT key") takes one value per row, and a list holds several. A list
/// column passes through KEEP, DROP, RENAME, `EVAL copy = list` and IS NULL;
/// everything else refuses it at plan time (never a wrong answer at run time).
void requireScalar(const BoundExpr& expr, const SourcePosition& at, const std::string& use);

}  // namespace quarry::engine
