#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/expr/bound_expr.h"
#include "quarry/engine/expr/call_args.h"

/// The scalar functions of the language: their types (checked when bound) and
/// their vectorized evaluation.
///
///   abs(n)                    same type (integer overflow is an error)
///   round(n[, digits])        half away from zero; digits an integer literal;
///                             integer -> same type; double -> double;
///                             decimal(p,s) -> decimal(p, min(s, max(digits,0))) (DuckDB)
///   length(s)                 int64, UTF-8 characters
///   to_lower(s), to_upper(s)  ASCII, Latin-1, Greek and Cyrillic letters (simple
///                             one-to-one case mapping; other characters unchanged)
///   substring(s, start[, n])  1-based in characters, DuckDB's rules: start 0 is
///                             before the first character, negative counts from
///                             the end; a negative n is an error
///   starts_with(s, prefix)    boolean
///   replace(s, regex, r)      every match of regex (RE2, a string literal) replaced
///                             by r (a string literal, Java's $n for group n), as
///                             ES|QL's REPLACE (regex_matcher.h's RegexReplacer)
///   coalesce(a, ...)          first non-null, the arguments' common type
///   date_trunc, bucket, date_extract, to_datetime, date_format, date_parse,
///   date_diff, now            dates and times (temporal_functions.h)
///   to_string, to_integer, to_long, to_unsigned_long, to_double, to_boolean
///                             ES|QL's type conversions (conversion_functions.h),
///                             which the `::` casts call
///   concat, trim, ltrim, rtrim, ends_with, left, right, reverse, repeat, locate,
///   space, bit_length, byte_length, split, md5, sha1, sha256
///                             ES|QL's other string functions (string_functions.h)
///   to_ip, cidr_match         IP addresses as their canonical text (ip_functions.h)
///   mv_count, mv_min, mv_max, mv_sum, mv_avg, mv_first, mv_last (list)
///                             a list to one value per row (mv_functions.h)
///   pow, sqrt, cbrt, exp, log10, log, floor, ceil, signum, pi, e, tau, sin, cos,
///   tan, asin, acos, atan, atan2, sinh, cosh, tanh, greatest, least
///                             ES|QL's math functions (math_functions.h)
///
/// One function the planner builds and no query names (its `$` is no name's):
///   $sum_offset(SUM(e), COUNT(e), MIN(e), MAX(e), c, item)
///                             SUM(e + c) of an int32 e (SUM(e - c) when negated)
///                             from the aggregates of e: null when COUNT(e) is 0,
///                             else SUM(e) + c * COUNT(e); an error when MIN(e) + c
///                             or MAX(e) + c overflows int32, whose rows the per-row
///                             e + c would leave out as null (planner.cc's SumOffset)
///
/// Timestamps are read on their wall clock; UTC-adjusted ones in UTC.
namespace quarry::engine {

/// Throws the QueryError of a call whose arguments do not fit: "name: message" at
/// `line`, `column`, with `hint`. Every family of functions reports through it.
[[noreturn]] void failCall(const BoundExpr& call, const std::string& message,
                           const std::string& hint, int line, int column);

/// Returns the names of the scalar functions, for hints.
std::span<const std::string_view> scalarFunctionNames();

/// Returns the names of the aggregates (allowed only in STATS).
std::span<const std::string_view> aggregateFunctionNames();

/// Checks the arguments of the call `call` (kind kCall, name and children
/// set) and returns its result type; throws QueryError at `line`, `column`.
DataType bindScalarFunction(BoundExpr& call, int line, int column);

/// Evaluates a bound call over its arguments' blocks (n positions each).
Block evaluateCall(const BoundExpr& call, const CallArgs& args, size_t n);

}  // namespace quarry::engine
