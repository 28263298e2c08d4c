#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/expr/bound_expr.h"

/// The date and time functions of the language. A span is a time span literal
/// (parse/time_span.h: `1 day`, `15 minutes`) or, for DATE_TRUNC, the name of a
/// unit as a string ("minute" is `1 minute`).
///
///   date_trunc(span, t)       t rounded down to the span, as ES|QL's DATE_TRUNC:
///                             1 week starts on Monday; 1 day, 1 month, 1 quarter,
///                             1 year at their calendar start; n months and n years
///                             at multiples of n counted from year 0 (3 months are
///                             quarters, 10 years decades); any other span (ms to
///                             hours, n days, n weeks) at multiples of its length
///                             since 1970-01-01. A date gives a date, a timestamp
///                             its own type. The span is positive.
///   bucket(t, span)           date_trunc(span, t) (ES|QL's BUCKET with a span)
///   date_extract(part, t)     int64; part a string literal: year, quarter, month,
///                             day, hour, minute, second, dow (Sunday = 0), doy, and
///                             ES|QL's names: month_of_year, day_of_month,
///                             hour_of_day, minute_of_hour, second_of_minute,
///                             day_of_year, day_of_week (Monday = 1), minute_of_day,
///                             second_of_day, epoch_day
///   to_datetime(x)            a UTC timestamp(ms) from an integer or a double
///                             (milliseconds since 1970-01-01, a double truncated),
///                             a string (YYYY-MM-DD[( |T)HH:MM[:SS[.f]]][Z], else
///                             null) or a date; a timestamp stays as it is
///
/// One function the binder builds for `t + span`, `span + t` and `t - span`:
///   $add_span(t, span)        t moved by the span (back when negated): fixed
///                             lengths for ms to weeks, the calendar for months,
///                             quarters and years (a day past the month's end
///                             becomes its last day, as Java's plusMonths); a date
///                             plus days to years stays a date, plus a shorter span
///                             becomes a local timestamp(us); overflow is an error
///
/// Timestamps are read on their wall clock; UTC-adjusted ones in UTC.
namespace quarry::engine {

/// Whether `name` (lower case) is one of the functions above.
bool isTemporalFunction(const std::string& name);
/// Whether argument `index` (0-based) of the function `name` may be a time span.
bool takesTimeSpan(const std::string& name, size_t index);
/// Checks the call's arguments (kind kCall, name and children set), normalizes
/// DATE_TRUNC's unit name to a span and DATE_EXTRACT's part names, and returns
/// its result type; throws QueryError at `line`, `column`.
DataType bindTemporalFunction(BoundExpr& call, int line, int column);
/// Evaluates a bound call over its arguments' blocks (n positions each).
Block evaluateTemporalFunction(const BoundExpr& call, const std::vector<Block>& args, size_t n);

}  // namespace quarry::engine
