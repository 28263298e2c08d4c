#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/expr/bound_expr.h"
#include "quarry/engine/expr/call_args.h"

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
///   date_format([pattern, ]t) string: t written by a Java DateTimeFormatter
///                             pattern (a string literal; date_pattern.h lists the
///                             letters), in UTC; without one, ES|QL's ISO text
///                             2024-06-01T12:00:00.000Z (as TO_STRING writes it)
///   date_parse([pattern, ]s)  a UTC timestamp(ms): s read by the pattern (a
///                             string literal), null when it does not match or
///                             names no real date; without one, as to_datetime
///   date_diff(unit, a, b)     int32: b - a in whole units (a string literal),
///                             counted as Java's ChronoUnit.between counts them,
///                             as ES|QL does: a unit is counted once it has fully
///                             elapsed (2024-01-31 to 2024-02-29 is 0 months; 23:59
///                             is 0 days), toward zero when b is before a; null
///                             outside int32. Units and their abbreviations:
///                             year (years yy yyyy), quarter (quarters qq q), month
///                             (months mm m), week (weeks wk ww), day (days dd d),
///                             dayofyear (dy y) and weekday (weekdays dw) are days,
///                             hour (hours hh), minute (minutes mi n), second
///                             (seconds ss s), millisecond (milliseconds ms),
///                             microsecond (microseconds mcs), nanosecond
///                             (nanoseconds ns)
///   now()                     a UTC timestamp(ms): the query's start, one instant
///                             for the whole query on every node (QueryClock)
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

/// Sets the instant NOW() binds to, on this thread, while it lives: the query's
/// start, which prepareQuery takes once (QueryOptions::nowMillis, else the wall
/// clock) and sends to the data nodes, whose planFragment opens a clock with it.
/// Every NOW() of a query is therefore the same literal on every split and node.
/// Binding NOW() without a clock is a QueryError. Clocks nest.
class QueryClock {
 public:
  explicit QueryClock(int64_t nowMillis);
  ~QueryClock();
  QueryClock(const QueryClock&) = delete;
  QueryClock& operator=(const QueryClock&) = delete;

  /// The instant of the innermost clock of this thread, if any.
  static std::optional<int64_t> now();
  /// The wall clock's milliseconds since 1970-01-01 UTC.
  static int64_t wallClockMillis();

 private:
  std::optional<int64_t> previous_;
};

/// Whether `name` (lower case) is one of the functions above.
bool isTemporalFunction(const std::string& name);
/// Whether argument `index` (0-based) of the function `name` may be a time span.
bool takesTimeSpan(const std::string& name, size_t index);
/// Checks the call's arguments (kind kCall, name and children set), normalizes
/// DATE_TRUNC's unit name to a span and DATE_EXTRACT's part names, and returns
/// its result type; throws QueryError at `line`, `column`.
DataType bindTemporalFunction(BoundExpr& call, int line, int column);
/// Evaluates a bound call over its arguments' blocks (n positions each).
Block evaluateTemporalFunction(const BoundExpr& call, const CallArgs& args, size_t n);

}  // namespace quarry::engine
