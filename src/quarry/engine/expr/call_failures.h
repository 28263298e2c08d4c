#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/expr/bound_expr.h"
#include "quarry/engine/expr/call_args.h"

/// The scalar functions that can fail for a row, and what a failure says. Where
/// ES|QL gives null with a warning, quarry gives the same null, and the
/// evaluator reports the row through the call's WarningSite (warnings.h):
///
///   to_integer, to_long, to_unsigned_long, to_double
///                   text that is no number ("Cannot parse number [abc]"), a
///                   value out of the target's range ("[3.0E10] out of [integer] range")
///   to_datetime, date_parse
///                   text that is no date ("failed to parse date field [x] with
///                   format [strict_date_optional_time]")
///   date_diff       a difference beyond int32 ("integer overflow")
///   to_ip           text that is no address ("'x' is not an IP string literal."),
///                   an integer outside [0, 2^32)
///   sqrt, log, log10, asin, acos, pow, sinh, cosh
///                   an argument outside the function's domain, a result that
///                   is not finite (math_functions.h)
///   abs             of the least integer, whose absolute value overflows
///                   ("integer overflow: abs(-2147483648)")
///   $single_value   a list of several values given to an operator or a
///                   single-value function ("single-value function encountered
///                   multi-value", mv_functions.h)
///
/// The operators fail too: `/` and `%` on a zero divisor ("/ by zero"), and
/// integer or decimal `+ - * /` and negation on a result that overflows its type
/// ("long overflow: 9223372036854775807 + 1", as Java's Math.addExact names it in
/// ES|QL's warnings).
namespace quarry::engine {

/// Whether the scalar function `name` (lower case) can give null for a row whose
/// arguments are not null.
bool callCanFail(const std::string& name);

/// Returns why `call` gave null at `row` of its arguments `args` (none null
/// there): ES|QL's message, without Java's class names, naming the value.
std::string describeCallFailure(const BoundExpr& call, const CallArgs& args, size_t row);

/// Returns why `left op right` (a binary arithmetic operator with result type
/// `type`) gave null at `leftRow` of `left` and `rightRow` of `right` (neither
/// null there): "/ by zero", or the overflow naming both values.
std::string describeArithmeticFailure(BinaryOp op, const Block& left, size_t leftRow,
                                      const Block& right, size_t rightRow, const DataType& type);

/// Returns why `-in` (result type `type`) gave null at `row`: its overflow.
std::string describeNegationFailure(const Block& in, size_t row, const DataType& type);

}  // namespace quarry::engine
