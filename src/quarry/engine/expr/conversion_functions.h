#pragma once

#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/expr/bound_expr.h"
#include "quarry/engine/expr/call_args.h"

/// ES|QL's type conversion functions (and the `::` casts, which the parser
/// writes as calls of them: `x::long` is to_long(x)). A null gives null. Where
/// ES|QL gives null with a warning (a string that is no number, a value out of
/// the target's range) quarry does too (call_failures.h, warnings.h).
///
///   to_string(x)          string: true / false; integers in decimal; a double
///                         as Java's Double.toString (1.0, 0.001, 1.0E7, 1.0E-4,
///                         NaN, Infinity, -0.0); a decimal in plain notation
///                         (DuckDB's 12.50); a date or a UTC timestamp as ES|QL's
///                         ISO text 2024-06-01T12:00:00.000Z (a micro- or
///                         nanosecond timestamp with up to 9 fraction digits, as
///                         ES|QL's date_nanos; a local one without the Z); a uuid
///                         in 8-4-4-4-12 hex; a string unchanged
///   to_integer(x)         int32 \  booleans 1 / 0; integers when in range; doubles
///   to_long(x)            int64 /  and decimals rounded half up (Java's Math.round:
///                                  2.5 -> 3, -2.5 -> -2); strings as Java's
///                         parseInt / parseLong, else as a double then rounded
///                         ("12", "-7", "1.5e3", " 4.5 "); dates and timestamps as
///                         milliseconds since 1970-01-01; null when out of range,
///                         for NaN and for text that is no number
///   to_unsigned_long(x)   uint64: as to_long, but doubles, decimals and strings
///                         are truncated toward zero (ES|QL's BigDecimal path;
///                         "-0.5" is 0) and strings take no spaces; null when
///                         the integer is below 0 or from 2^64
///   to_double(x)          double: booleans 1.0 / 0.0; numbers (uint64 and
///                         decimals to the nearest double); strings as Java's
///                         parseDouble, null when not finite; dates and
///                         timestamps as milliseconds
///   to_boolean(x)         boolean: a string is true when it is "true" in any
///                         case, else false ("", "yes", "1" too); a number is
///                         true when it is not 0 (NaN is true, -0.0 false)
///
/// Example: to_integer("2.5") is 3, to_integer(3e9) is null, to_string(1e7) is
/// "1.0E7", to_boolean("TRUE") is true, 255::string is "255".
namespace quarry::engine {

/// Whether `name` (lower case) is one of the functions above.
bool isConversionFunction(const std::string& name);

/// Checks the argument of the call `call` (kind kCall, name and children set)
/// and returns its result type; throws QueryError at `line`, `column` for a
/// type the function does not convert.
DataType bindConversionFunction(const BoundExpr& call, int line, int column);

/// Evaluates the bound call over its argument's block (n positions).
Block evaluateConversionFunction(const BoundExpr& call, const CallArgs& args, size_t n);

/// Returns the value at position `i` of `in` (not null) as to_string writes it.
std::string valueText(const Block& in, size_t i);

/// Returns Java's Double.toString of `value` (ES|QL's text of a double).
std::string javaDoubleText(double value);

}  // namespace quarry::engine
