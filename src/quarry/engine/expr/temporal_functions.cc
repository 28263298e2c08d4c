#include "quarry/engine/expr/temporal_functions.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "quarry/common/error.h"
#include "quarry/engine/expr/civil_calendar.h"
#include "quarry/engine/expr/decimal_arithmetic.h"
#include "quarry/engine/expr/date_pattern.h"
#include "quarry/engine/expr/scalar_functions.h"
#include "quarry/engine/expr/type_rules.h"
#include "quarry/engine/expr/vector_kernels.h"
#include "quarry/engine/parse/temporal_literal.h"

namespace quarry::engine {

namespace {

constexpr std::array<std::string_view, 9> kNames = {"date_trunc",  "bucket",      "date_extract",
                                                    "to_datetime", "date_format", "date_parse",
                                                    "date_diff",   "now",         "$add_span"};

enum class Part : uint8_t {
  kYear,
  kQuarter,
  kMonth,
  kDay,
  kHour,
  kMinute,
  kSecond,
  kDow,
  kDoy,
  kIsoDow,
  kMinuteOfDay,
  kSecondOfDay,
  kEpochDay,
};

struct PartName {
  std::string_view name;
  Part part;
};

constexpr std::array<PartName, 19> kPartNames = {{
    {"year", Part::kYear},
    {"quarter", Part::kQuarter},
    {"month", Part::kMonth},
    {"day", Part::kDay},
    {"hour", Part::kHour},
    {"minute", Part::kMinute},
    {"second", Part::kSecond},
    {"dow", Part::kDow},
    {"doy", Part::kDoy},
    {"month_of_year", Part::kMonth},
    {"day_of_month", Part::kDay},
    {"hour_of_day", Part::kHour},
    {"minute_of_hour", Part::kMinute},
    {"second_of_minute", Part::kSecond},
    {"day_of_year", Part::kDoy},
    {"day_of_week", Part::kIsoDow},
    {"minute_of_day", Part::kMinuteOfDay},
    {"second_of_day", Part::kSecondOfDay},
    {"epoch_day", Part::kEpochDay},
}};

std::optional<Part> partNamed(std::string_view name) {
  for (const PartName& p : kPartNames) {
    if (p.name == name) return p.part;
  }
  return std::nullopt;
}

bool isInstantOrNull(const DataType& t) {
  return t.kind == TypeKind::kDate || t.kind == TypeKind::kTimestamp || t.kind == TypeKind::kNull;
}

std::string lowerAscii(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// ---- spans ------------------------------------------------------------------------

/// a * b, or the error naming what overflowed.
int64_t multiplied(int64_t a, int64_t b, const char* what) {
  int64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out))
    throw InvalidArgument(std::string(what) + " is out of range");
  return out;
}

int64_t added(int64_t a, int64_t b, const char* what) {
  int64_t out = 0;
  if (__builtin_add_overflow(a, b, &out))
    throw InvalidArgument(std::string(what) + " is out of range");
  return out;
}

/// The length of a fixed span (ms to weeks) in `perSecond` units.
int64_t fixedLength(const TimeSpan& span, int64_t perSecond, const char* what) {
  const TimeSpan days = span.unit == TimeSpanUnit::kWeek
                            ? TimeSpan{multiplied(span.count, 7, what), TimeSpanUnit::kDay}
                            : span;
  const std::optional<int64_t> length = days.fixedLength(perSecond);
  if (!length) throw InvalidArgument(std::string(what) + " is out of range");
  return *length;
}

/// The months of a month, quarter or year span.
int64_t monthsOf(const TimeSpan& span, const char* what) {
  switch (span.unit) {
    case TimeSpanUnit::kMonth:
      return span.count;
    case TimeSpanUnit::kQuarter:
      return multiplied(span.count, 3, what);
    default:
      return multiplied(span.count, 12, what);
  }
}

bool isMonthly(const TimeSpan& span) {
  return span.unit >= TimeSpanUnit::kMonth;
}

/// The start of `value`'s day in `perSecond` units.
int64_t dayStart(int64_t days, int64_t perSecond, const char* what) {
  return multiplied(days, perSecond * 86'400, what);
}

/// `value` (in `perSecond` units since the epoch) rounded down to `span` (count > 0).
int64_t truncateInstant(const TimeSpan& span, int64_t value, int64_t perSecond) {
  constexpr const char* kWhat = "date_trunc: the truncated instant";
  const int64_t perDay = perSecond * 86'400;
  if (span.count == 1 && span.unit == TimeSpanUnit::kWeek) {
    const int64_t days = floorDiv(value, perDay);
    return dayStart(days - floorMod(days + 3, 7), perSecond, kWhat);  // 1970-01-01 was a Thursday
  }
  if (isMonthly(span)) {
    const Civil c = civilFromDays(floorDiv(value, perDay));
    if (span.unit == TimeSpanUnit::kYear) {
      return dayStart(daysFromCivil(floorDiv(c.year, span.count) * span.count, 1, 1), perSecond,
                      kWhat);
    }
    const int64_t months = monthsOf(span, kWhat);
    const int64_t total = floorDiv(c.year * 12 + (c.month - 1), months) * months;
    return dayStart(
        daysFromCivil(floorDiv(total, 12), static_cast<unsigned>(floorMod(total, 12)) + 1, 1),
        perSecond, kWhat);
  }
  const int64_t length = fixedLength(span, perSecond, "date_trunc: the span");
  return multiplied(floorDiv(value, length), length, kWhat);
}

/// `days` moved by `months` calendar months, the day clamped to the month's last.
int64_t addMonths(int64_t days, int64_t months, const char* what) {
  const Civil c = civilFromDays(days);
  const int64_t total = added(c.year * 12 + (c.month - 1), months, what);
  const int64_t year = floorDiv(total, 12);
  const auto month = static_cast<unsigned>(floorMod(total, 12)) + 1;
  return daysFromCivil(year, month, std::min(c.day, daysInMonth(year, month)));
}

int64_t extractPart(Part part, int64_t value, int64_t perSecond) {
  const int64_t perDay = perSecond * 86'400;
  const int64_t days = floorDiv(value, perDay);
  const int64_t secondOfDay = (value - days * perDay) / perSecond;
  switch (part) {
    case Part::kHour:
      return secondOfDay / 3600;
    case Part::kMinute:
      return secondOfDay / 60 % 60;
    case Part::kSecond:
      return secondOfDay % 60;
    case Part::kMinuteOfDay:
      return secondOfDay / 60;
    case Part::kSecondOfDay:
      return secondOfDay;
    case Part::kDow:
      return floorMod(days + 4, 7);  // Sunday = 0
    case Part::kIsoDow:
      return floorMod(days + 3, 7) + 1;  // Monday = 1
    case Part::kEpochDay:
      return days;
    default:
      break;
  }
  const Civil c = civilFromDays(days);
  switch (part) {
    case Part::kYear:
      return c.year;
    case Part::kMonth:
      return c.month;
    case Part::kDay:
      return c.day;
    case Part::kQuarter:
      return (c.month - 1) / 3 + 1;
    default:
      return days - daysFromCivil(c.year, 1, 1) + 1;  // doy
  }
}

// ---- binding ----------------------------------------------------------------------

/// A span node (bound_expr.h's timeSpan) for `span`.
BoundExprPtr spanNode(const TimeSpan& span) {
  auto node = std::make_shared<BoundExpr>();
  node->kind = BoundExpr::Kind::kLiteral;
  node->type = DataType::int64();
  node->literal = span.count;
  node->timeSpan = span;
  return node;
}

/// Checks that argument `k` of `call` is a positive span; a unit named by a
/// string literal (DATE_TRUNC's older form) becomes a span of one.
void requireSpan(BoundExpr& call, size_t k, int line, int column) {
  const BoundExpr& arg = *call.children[k];
  const std::string example =
      call.name == "bucket" ? "bucket(ts, 1 hour)" : "date_trunc(1 hour, ts)";
  if (arg.timeSpan) {
    if (arg.timeSpan->count <= 0) {
      failCall(call, "the span " + arg.timeSpan->toString() + " is not positive",
               "round to a positive span: " + example, line, column);
    }
    return;
  }
  if (call.name == "date_trunc" && arg.kind == BoundExpr::Kind::kLiteral &&
      arg.type.kind == TypeKind::kString) {
    const std::string word = lowerAscii(std::get<std::string>(arg.literal));
    if (const std::optional<TimeSpanUnit> unit = timeSpanUnit(word)) {
      call.children[k] = spanNode(TimeSpan{1, *unit});
      return;
    }
    failCall(
        call, "unknown unit \"" + word + "\"",
        "write a time span such as 1 year, 1 quarter, 1 month, 1 week, 1 day, 1 hour, 15 minutes, "
        "1 second, 100 milliseconds",
        line, column);
  }
  failCall(call,
           "argument " + std::to_string(k + 1) + " must be a time span, got " + arg.toString(),
           "write an integer and a unit: " + example, line, column);
}

/// A number literal's value as a double; nullopt for anything else.
std::optional<double> numberLiteral(const BoundExpr& arg) {
  if (arg.kind != BoundExpr::Kind::kLiteral || arg.timeSpan) return std::nullopt;
  if (const auto* i = std::get_if<int64_t>(&arg.literal)) return static_cast<double>(*i);
  if (const auto* i32 = std::get_if<int32_t>(&arg.literal)) return *i32;
  if (const auto* u64 = std::get_if<uint64_t>(&arg.literal)) return static_cast<double>(*u64);
  if (const auto* d = std::get_if<double>(&arg.literal)) return *d;
  if (const auto* u = std::get_if<Int128>(&arg.literal); u && arg.type.kind == TypeKind::kDecimal) {
    return decimalToDouble(*u, arg.type.scale);
  }
  return std::nullopt;
}

/// The width of BUCKET's numeric form: its second argument, a positive finite
/// number literal, as a double; nullopt for anything else.
std::optional<double> numericBucketWidth(const BoundExpr& arg) {
  const std::optional<double> width = numberLiteral(arg);
  if (!width || !(*width > 0) || !std::isfinite(*width)) return std::nullopt;
  return width;
}

// ---- BUCKET's target-count form ---------------------------------------------------
//
// ES|QL's BUCKET(field, buckets, from, to) picks the bucket size itself, "to
// generate the target number of buckets or fewer" over [from, to). Numbers: the
// exact width (to - from) / buckets raised to the next power of ten, or to half
// of it when that is enough (ES|QL: precise < nextPowerOfTen / 2 ? half : next).
// Dates and timestamps: the finest of 1 day, 12 h, 3 h, 1 h, 30, 10, 5, 1
// minutes, 30, 10, 5, 1 seconds, 100, 50, 10, 1 milliseconds whose buckets
// starting at from's reach to within `buckets` steps; when even a day gives too
// many, the first of 1 week, 1 month, 1 year that does, else 1 year.

std::optional<int64_t> parseDatetime(std::string_view text);

/// Steps from `from` rounded down to `span` until a bucket starts at or after
/// `to` (at least one), as ES|QL's roundingIsOk counts them; times in ms.
Int128 bucketSteps(const TimeSpan& span, int64_t from, int64_t to) {
  const int64_t start = truncateInstant(span, from, 1000);
  if (isMonthly(span)) {
    const int64_t perDay = 86'400'000;
    const Civil a = civilFromDays(floorDiv(start, perDay));
    const Civil b = civilFromDays(floorDiv(to, perDay));
    const int64_t months = monthsOf(span, "bucket: the span");
    // The bucket holding `to` starts `whole` spans after start; one more when `to` is inside it.
    const int64_t whole = ((b.year * 12 + (b.month - 1)) - (a.year * 12 + (a.month - 1))) / months;
    const bool inside = truncateInstant(span, to, 1000) < to;
    return std::max<Int128>(1, Int128{whole} + (inside ? 1 : 0));
  }
  const int64_t length = fixedLength(span, 1000, "bucket: the span");
  const Int128 distance = Int128{to} - start;
  if (distance <= 0) return 1;
  return (distance + length - 1) / length;
}

TimeSpan pickDateSpan(int64_t buckets, int64_t from, int64_t to) {
  static constexpr TimeSpan kPrimary[] = {
      {1, TimeSpanUnit::kDay},           {12, TimeSpanUnit::kHour},
      {3, TimeSpanUnit::kHour},          {1, TimeSpanUnit::kHour},
      {30, TimeSpanUnit::kMinute},       {10, TimeSpanUnit::kMinute},
      {5, TimeSpanUnit::kMinute},        {1, TimeSpanUnit::kMinute},
      {30, TimeSpanUnit::kSecond},       {10, TimeSpanUnit::kSecond},
      {5, TimeSpanUnit::kSecond},        {1, TimeSpanUnit::kSecond},
      {100, TimeSpanUnit::kMillisecond}, {50, TimeSpanUnit::kMillisecond},
      {10, TimeSpanUnit::kMillisecond},  {1, TimeSpanUnit::kMillisecond}};
  static constexpr TimeSpan kSecondary[] = {
      {1, TimeSpanUnit::kWeek}, {1, TimeSpanUnit::kMonth}, {1, TimeSpanUnit::kYear}};
  const auto fits = [&](const TimeSpan& span) { return bucketSteps(span, from, to) <= buckets; };
  std::optional<TimeSpan> finest;
  for (const TimeSpan& span : kPrimary) {
    if (fits(span)) finest = span;
  }
  if (finest) return *finest;
  for (const TimeSpan& span : kSecondary) {
    if (fits(span)) return span;
  }
  return kSecondary[2];
}

/// A date or timestamp literal, or a string literal as TO_DATETIME reads it, in
/// milliseconds since the epoch; nullopt for anything else.
std::optional<int64_t> instantLiteral(const BoundExpr& arg) {
  if (arg.kind != BoundExpr::Kind::kLiteral) return std::nullopt;
  if (arg.type.kind == TypeKind::kString) {
    return parseDatetime(std::get<std::string>(arg.literal));
  }
  if (arg.type.kind == TypeKind::kDate) {
    return int64_t{std::get<int32_t>(arg.literal)} * 86'400'000;
  }
  if (arg.type.kind == TypeKind::kTimestamp) {
    return floorDiv(std::get<int64_t>(arg.literal), unitsPerSecond(arg.type.unit) / 1000);
  }
  return std::nullopt;
}

/// Rewrites BUCKET(field, buckets, from, to) into BUCKET(field, size) with the
/// size picked as above (EXPLAIN shows it).
void bindBucketTarget(BoundExpr& call, int line, int column) {
  std::vector<BoundExprPtr>& args = call.children;
  const std::string usage =
      "bucket(number, 20, 0, 1000) or bucket(timestamp, 20, \"2024-01-01\", \"2025-01-01\")";
  const BoundExpr& count = *args[1];
  const bool integerCount =
      count.kind == BoundExpr::Kind::kLiteral && (std::holds_alternative<int32_t>(count.literal) ||
                                                  std::holds_alternative<int64_t>(count.literal));
  const int64_t buckets = !integerCount ? 0
                          : std::holds_alternative<int32_t>(count.literal)
                              ? std::get<int32_t>(count.literal)
                              : std::get<int64_t>(count.literal);
  if (buckets <= 0) {
    failCall(
        call,
        "the target number of buckets must be a positive integer literal, got " + count.toString(),
        "call it as " + usage, line, column);
  }
  if (args[0]->type.isNumeric()) {
    const std::optional<double> from = numberLiteral(*args[2]);
    const std::optional<double> to = numberLiteral(*args[3]);
    if (!from || !to) {
      failCall(call,
               "the range must be two number literals, got " + args[2]->toString() + " and " +
                   args[3]->toString(),
               "call it as " + usage, line, column);
    }
    const double precise = (*to - *from) / static_cast<double>(buckets);
    const double nextPowerOfTen = std::pow(10.0, std::ceil(std::log10(precise)));
    const double half = nextPowerOfTen / 2;
    const double width = precise < half ? half : nextPowerOfTen;
    if (!(width > 0) || !std::isfinite(width)) {
      failCall(call,
               "the range " + args[2]->toString() + " to " + args[3]->toString() +
                   " gives no positive bucket width",
               "write the range from its least to its greatest value", line, column);
    }
    auto literal = std::make_shared<BoundExpr>();
    literal->kind = BoundExpr::Kind::kLiteral;
    literal->type = DataType::float64();
    literal->literal = width;
    args = {args[0], std::move(literal)};
    return;
  }
  const std::optional<int64_t> from = instantLiteral(*args[2]);
  const std::optional<int64_t> to = instantLiteral(*args[3]);
  if (!from || !to) {
    failCall(call,
             "the range must be two dates, timestamps or date strings, got " + args[2]->toString() +
                 " and " + args[3]->toString(),
             "call it as " + usage, line, column);
  }
  args = {args[0], spanNode(pickDateSpan(buckets, *from, *to))};
}

/// BUCKET(x, width) of numbers: x rounded down to a multiple of width, a double
/// (ES|QL: Math.floor(x / width) * width); null where x is.
Block bucketNumbers(const Block& in, double width, size_t n) {
  const Block values = castBlock(in, DataType::float64());
  const std::span<const double> x = values.values<double>();
  std::vector<double> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = std::floor(x[i] / width) * width;
  const std::span<const uint8_t> valid = values.validity();
  return Block::fromValues(DataType::float64(), std::move(out), std::vector<uint8_t>(valid.begin(), valid.end()));
}

/// The part named by DATE_EXTRACT's first argument (a string literal).
Part partArgument(const BoundExpr& call, int line, int column) {
  std::string list;
  for (const PartName& p : kPartNames) list += (list.empty() ? "" : ", ") + std::string(p.name);
  const BoundExpr& arg = *call.children[0];
  if (arg.kind != BoundExpr::Kind::kLiteral || arg.type.kind != TypeKind::kString) {
    failCall(call, "the first argument must be a string literal", "one of " + list, line, column);
  }
  const std::string name = lowerAscii(std::get<std::string>(arg.literal));
  const std::optional<Part> part = partNamed(name);
  if (!part) failCall(call, "unknown part \"" + name + "\"", "one of " + list, line, column);
  return *part;
}

Part partOf(const BoundExpr& call) {
  return *partNamed(lowerAscii(std::get<std::string>(call.children[0]->literal)));
}

// ---- evaluation ------------------------------------------------------------------

/// The argument's instants as a timestamp block (dates at midnight, in microseconds).
Block instantsOf(const Block& arg) {
  if (arg.type().kind == TypeKind::kTimestamp) return arg;
  return castBlock(arg, DataType::timestamp(TimeUnit::kMicros, false));
}

std::vector<uint8_t> validityOf(const Block& b) {
  return {b.validity().begin(), b.validity().end()};
}

/// date_trunc and bucket: `t` rounded down to `span`.
Block truncateBlock(const DataType& type, const TimeSpan& span, const Block& t, size_t n) {
  const Block instants = instantsOf(t);
  const int64_t perSecond = unitsPerSecond(instants.type().unit);
  const std::span<const int64_t> v = instants.values<int64_t>();
  if (type.kind == TypeKind::kDate) {
    const int64_t perDay = perSecond * 86'400;
    std::vector<int32_t> days(n);
    for (size_t i = 0; i < n; ++i) {
      if (!instants.isNull(i))
        days[i] = static_cast<int32_t>(floorDiv(truncateInstant(span, v[i], perSecond), perDay));
    }
    return Block::fromValues(type, std::move(days), validityOf(instants));
  }
  std::vector<int64_t> out(n);
  if (!isMonthly(span) && !(span.unit == TimeSpanUnit::kWeek && span.count == 1)) {
    // A fixed length: one division per value.
    const int64_t length = fixedLength(span, perSecond, "date_trunc: the span");
    for (size_t i = 0; i < n; ++i) {
      if (!instants.isNull(i))
        out[i] = multiplied(floorDiv(v[i], length), length, "date_trunc: the truncated instant");
    }
  } else {
    for (size_t i = 0; i < n; ++i) {
      if (!instants.isNull(i)) out[i] = truncateInstant(span, v[i], perSecond);
    }
  }
  return Block::fromValues(type, std::move(out), validityOf(instants));
}

Block extractBlock(const BoundExpr& call, const Block& t, size_t n) {
  const Part part = partOf(call);
  const Block instants = instantsOf(t);
  const int64_t perSecond = unitsPerSecond(instants.type().unit);
  const std::span<const int64_t> v = instants.values<int64_t>();
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    if (!instants.isNull(i)) out[i] = extractPart(part, v[i], perSecond);
  }
  return Block::fromValues(call.type, std::move(out), validityOf(instants));
}

/// $add_span: `t` moved by the span (back when the call is negated).
Block addSpanBlock(const BoundExpr& call, const Block& t, size_t n) {
  constexpr const char* kWhat = "the date plus the time span";
  TimeSpan span = *call.children[1]->timeSpan;
  if (call.negated) span.count = -span.count;
  const DataType& type = call.type;
  if (type.kind == TypeKind::kDate) {
    const std::span<const int32_t> d = t.values<int32_t>();
    std::vector<int32_t> out(n);
    const int64_t days =
        isMonthly(span)
            ? 0
            : (span.unit == TimeSpanUnit::kWeek ? multiplied(span.count, 7, kWhat) : span.count);
    for (size_t i = 0; i < n; ++i) {
      if (t.isNull(i)) continue;
      const int64_t moved = isMonthly(span) ? addMonths(d[i], monthsOf(span, kWhat), kWhat)
                                            : added(d[i], days, kWhat);
      if (moved < std::numeric_limits<int32_t>::min() ||
          moved > std::numeric_limits<int32_t>::max()) {
        throw InvalidArgument(std::string(kWhat) + " is out of range: " + Date{d[i]}.toString() +
                              " + " + span.toString());
      }
      out[i] = static_cast<int32_t>(moved);
    }
    return Block::fromValues(type, std::move(out), validityOf(t));
  }
  const Block instants = castBlock(t, type);
  const int64_t perSecond = unitsPerSecond(type.unit);
  const int64_t perDay = perSecond * 86'400;
  const std::span<const int64_t> v = instants.values<int64_t>();
  std::vector<int64_t> out(n);
  if (isMonthly(span)) {
    const int64_t months = monthsOf(span, kWhat);
    for (size_t i = 0; i < n; ++i) {
      if (instants.isNull(i)) continue;
      const int64_t days = floorDiv(v[i], perDay);
      out[i] = added(dayStart(addMonths(days, months, kWhat), perSecond, kWhat),
                     v[i] - days * perDay, kWhat);
    }
  } else {
    const int64_t length = fixedLength(span, perSecond, kWhat);
    for (size_t i = 0; i < n; ++i) {
      if (!instants.isNull(i)) out[i] = added(v[i], length, kWhat);
    }
  }
  return Block::fromValues(type, std::move(out), validityOf(instants));
}

/// "YYYY-MM-DD[( |T)HH:MM[:SS[.f]]][Z]" as milliseconds since the epoch, or nullopt.
std::optional<int64_t> parseDatetime(std::string_view text) {
  if (text.size() > 10 && text.back() == 'Z') text.remove_suffix(1);
  if (text.size() == 10) {
    const std::optional<Date> date = parseDateLiteral(text);
    if (!date) return std::nullopt;
    return int64_t{date->daysSinceEpoch} * 86'400'000;
  }
  const std::optional<LocalDateTime> t = parseTimestampLiteral(text);
  if (!t) return std::nullopt;
  return t->epochSeconds * 1000 + t->nanos / 1'000'000;
}

Block toDatetimeBlock(const DataType& type, const Block& x, size_t n) {
  const DataType& from = x.type();
  if (from.kind == TypeKind::kTimestamp) return x;
  std::vector<int64_t> out(n);
  std::vector<uint8_t> valid = validityOf(x);
  if (from.kind == TypeKind::kDate) {
    const std::span<const int32_t> days = x.values<int32_t>();
    for (size_t i = 0; i < n; ++i) out[i] = int64_t{days[i]} * 86'400'000;
  } else if (from.kind == TypeKind::kString) {
    for (size_t i = 0; i < n; ++i) {
      if (x.isNull(i)) continue;
      const std::optional<int64_t> millis = parseDatetime(x.bytes(i));
      if (millis) {
        out[i] = *millis;
      } else {
        if (valid.empty()) valid.assign(n, 1);  // empty: no position was null
        valid[i] = 0;
      }
    }
  } else if (from.kind == TypeKind::kDouble) {
    const std::span<const double> v = x.values<double>();
    for (size_t i = 0; i < n; ++i) {
      if (x.isNull(i)) continue;
      // 2^63 as a double: the first value past int64.
      if (!std::isfinite(v[i]) || v[i] >= 9223372036854775808.0 || v[i] < -9223372036854775808.0) {
        throw InvalidArgument("to_datetime: " + std::to_string(v[i]) +
                              " milliseconds are out of the range of a timestamp");
      }
      out[i] = static_cast<int64_t>(v[i]);
    }
  } else {
    const Block millis = castBlock(x, DataType::int64());
    const std::span<const int64_t> v = millis.values<int64_t>();
    std::copy(v.begin(), v.end(), out.begin());
  }
  return Block::fromValues(type, std::move(out), std::move(valid));
}

// ---- date_format, date_parse, date_diff ------------------------------------------

/// The instant at position `i` of a date or timestamp block (not null).
DayAndNanos instantAt(const Block& t, size_t i) {
  if (t.type().kind == TypeKind::kDate) return DayAndNanos{t.values<int32_t>()[i], 0};
  return splitInstant(t.values<int64_t>()[i], unitsPerSecond(t.type().unit));
}

/// DATE_FORMAT's or DATE_PARSE's pattern (a string literal), compiled; throws
/// QueryError when quarry cannot take it.
DatePattern patternArgument(const BoundExpr& call, int line, int column) {
  const BoundExpr& arg = *call.children[0];
  const std::string example = call.name == "date_format" ? "date_format(\"yyyy-MM-dd\", t)"
                                                         : "date_parse(\"yyyy-MM-dd\", s)";
  if (arg.kind != BoundExpr::Kind::kLiteral || arg.type.kind != TypeKind::kString) {
    failCall(call, "the pattern must be a string literal, got " + arg.toString(),
             "write " + example, line, column);
  }
  try {
    return DatePattern(std::get<std::string>(arg.literal));
  } catch (const InvalidArgument& e) {
    failCall(call, e.what(), "Java's DateTimeFormatter letters, e.g. " + example, line, column);
  }
}

Block formatBlock(const BoundExpr& call, const CallArgs& args, size_t n) {
  const Block& t = args.back();
  std::optional<DatePattern> pattern;
  if (args.size() == 2) pattern.emplace(std::get<std::string>(call.children[0]->literal));
  const bool nanos = t.type().kind == TypeKind::kTimestamp && t.type().unit != TimeUnit::kMillis;
  const bool zulu = t.type().kind != TypeKind::kTimestamp || t.type().utcAdjusted;
  Block out(DataType::string());
  out.reserve(n);
  std::string text;
  for (size_t i = 0; i < n; ++i) {
    if (t.isNull(i)) {
      out.appendNull();
      continue;
    }
    if (pattern) {
      text.clear();
      pattern->format(instantAt(t, i), text);
    } else {
      text = isoDatetimeText(instantAt(t, i), nanos, zulu);
    }
    out.appendBytes(text);
  }
  return out;
}

Block parseBlock(const BoundExpr& call, const CallArgs& args, size_t n) {
  const DatePattern pattern(std::get<std::string>(call.children[0]->literal));
  const Block& s = args[1];
  std::vector<int64_t> out(n);
  std::vector<uint8_t> valid(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (s.isNull(i)) continue;
    if (const std::optional<int64_t> millis = pattern.parseMillis(s.bytes(i))) {
      out[i] = *millis;
      valid[i] = 1;
    }
  }
  return Block::fromValues(call.type, std::move(out), std::move(valid));
}

enum class DiffUnit : uint8_t {
  kYear,
  kQuarter,
  kMonth,
  kWeek,
  kDay,
  kHour,
  kMinute,
  kSecond,
  kMilli,
  kMicro,
  kNano
};

struct DiffUnitName {
  std::string_view name;
  DiffUnit unit;
};

// ES|QL's DATE_DIFF units and abbreviations (dayofyear and weekday count days, as ES|QL's do).
constexpr DiffUnitName kDiffUnits[] = {
    {"year", DiffUnit::kYear},
    {"years", DiffUnit::kYear},
    {"yy", DiffUnit::kYear},
    {"yyyy", DiffUnit::kYear},
    {"quarter", DiffUnit::kQuarter},
    {"quarters", DiffUnit::kQuarter},
    {"qq", DiffUnit::kQuarter},
    {"q", DiffUnit::kQuarter},
    {"month", DiffUnit::kMonth},
    {"months", DiffUnit::kMonth},
    {"mm", DiffUnit::kMonth},
    {"m", DiffUnit::kMonth},
    {"dayofyear", DiffUnit::kDay},
    {"dy", DiffUnit::kDay},
    {"y", DiffUnit::kDay},
    {"day", DiffUnit::kDay},
    {"days", DiffUnit::kDay},
    {"dd", DiffUnit::kDay},
    {"d", DiffUnit::kDay},
    {"week", DiffUnit::kWeek},
    {"weeks", DiffUnit::kWeek},
    {"wk", DiffUnit::kWeek},
    {"ww", DiffUnit::kWeek},
    {"weekday", DiffUnit::kDay},
    {"weekdays", DiffUnit::kDay},
    {"dw", DiffUnit::kDay},
    {"hour", DiffUnit::kHour},
    {"hours", DiffUnit::kHour},
    {"hh", DiffUnit::kHour},
    {"minute", DiffUnit::kMinute},
    {"minutes", DiffUnit::kMinute},
    {"mi", DiffUnit::kMinute},
    {"n", DiffUnit::kMinute},
    {"second", DiffUnit::kSecond},
    {"seconds", DiffUnit::kSecond},
    {"ss", DiffUnit::kSecond},
    {"s", DiffUnit::kSecond},
    {"millisecond", DiffUnit::kMilli},
    {"milliseconds", DiffUnit::kMilli},
    {"ms", DiffUnit::kMilli},
    {"microsecond", DiffUnit::kMicro},
    {"microseconds", DiffUnit::kMicro},
    {"mcs", DiffUnit::kMicro},
    {"nanosecond", DiffUnit::kNano},
    {"nanoseconds", DiffUnit::kNano},
    {"ns", DiffUnit::kNano},
};

std::optional<DiffUnit> diffUnitNamed(std::string_view name) {
  for (const DiffUnitName& u : kDiffUnits) {
    if (u.name == name) return u.unit;
  }
  return std::nullopt;
}

DiffUnit diffUnitArgument(const BoundExpr& call, int line, int column) {
  const BoundExpr& arg = *call.children[0];
  const std::string units =
      "year, quarter, month, week, day, hour, minute, second, millisecond, microsecond, nanosecond "
      "(or an "
      "abbreviation: yy, q, mm, wk, dd, hh, mi, ss, ms, mcs, ns)";
  if (arg.kind != BoundExpr::Kind::kLiteral || arg.type.kind != TypeKind::kString) {
    failCall(call, "the unit must be a string literal, got " + arg.toString(), "one of " + units,
             line, column);
  }
  const std::string name = lowerAscii(std::get<std::string>(arg.literal));
  const std::optional<DiffUnit> unit = diffUnitNamed(name);
  if (!unit) failCall(call, "unknown unit \"" + name + "\"", "one of " + units, line, column);
  return *unit;
}

int64_t nanosOf(DiffUnit unit) {
  switch (unit) {
    case DiffUnit::kWeek:
      return 7 * 86'400'000'000'000;
    case DiffUnit::kDay:
      return 86'400'000'000'000;
    case DiffUnit::kHour:
      return 3'600'000'000'000;
    case DiffUnit::kMinute:
      return 60'000'000'000;
    case DiffUnit::kSecond:
      return 1'000'000'000;
    case DiffUnit::kMilli:
      return 1'000'000;
    case DiffUnit::kMicro:
      return 1'000;
    default:
      return 1;
  }
}

/// Whole months from `a` to `b`, as Java's LocalDateTime.until(b, MONTHS): b's
/// date moves a day toward a when its time of day has not reached a's, then
/// LocalDate's (packed month * 32 + day) difference / 32, truncated.
int64_t monthsBetween(const DayAndNanos& a, const DayAndNanos& b) {
  int64_t endDay = b.day;
  if (endDay > a.day && b.nanosOfDay < a.nanosOfDay) {
    --endDay;
  } else if (endDay < a.day && b.nanosOfDay > a.nanosOfDay) {
    ++endDay;
  }
  const Civil from = civilFromDays(a.day);
  const Civil to = civilFromDays(endDay);
  const int64_t packedFrom = (from.year * 12 + from.month - 1) * 32 + from.day;
  const int64_t packedTo = (to.year * 12 + to.month - 1) * 32 + to.day;
  return (packedTo - packedFrom) / 32;
}

Block diffBlock(const BoundExpr& call, const CallArgs& args, size_t n) {
  const DiffUnit unit =
      *diffUnitNamed(lowerAscii(std::get<std::string>(call.children[0]->literal)));
  const Block& a = args[1];
  const Block& b = args[2];
  std::vector<int32_t> out(n);
  std::vector<uint8_t> valid(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (a.isNull(i) || b.isNull(i)) continue;
    const DayAndNanos from = instantAt(a, i);
    const DayAndNanos to = instantAt(b, i);
    Int128 diff = 0;
    if (unit == DiffUnit::kYear || unit == DiffUnit::kQuarter || unit == DiffUnit::kMonth) {
      const int64_t months = monthsBetween(from, to);
      diff = unit == DiffUnit::kMonth ? months : months / (unit == DiffUnit::kYear ? 12 : 3);
    } else {
      const Int128 nanos =
          Int128{to.day - from.day} * 86'400'000'000'000 + (to.nanosOfDay - from.nanosOfDay);
      diff = nanos / nanosOf(unit);  // toward zero, as ChronoUnit.between
    }
    if (diff < std::numeric_limits<int32_t>::min() || diff > std::numeric_limits<int32_t>::max())
      continue;
    out[i] = static_cast<int32_t>(diff);
    valid[i] = 1;
  }
  return Block::fromValues(call.type, std::move(out), std::move(valid));
}

thread_local std::optional<int64_t> tQueryNow;

}  // namespace

QueryClock::QueryClock(int64_t nowMillis) : previous_(tQueryNow) {
  tQueryNow = nowMillis;
}

QueryClock::~QueryClock() {
  tQueryNow = previous_;
}

std::optional<int64_t> QueryClock::now() {
  return tQueryNow;
}

int64_t QueryClock::wallClockMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool isTemporalFunction(const std::string& name) {
  return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

bool takesTimeSpan(const std::string& name, size_t index) {
  return (name == "date_trunc" && index == 0) || (name == "bucket" && index == 1);
}

DataType bindTemporalFunction(BoundExpr& call, int line, int column) {
  const std::string& name = call.name;
  std::vector<BoundExprPtr>& args = call.children;
  const auto arity = [&](size_t count, const std::string& usage) {
    if (args.size() != count) {
      failCall(call,
               "expected " + std::to_string(count) + " argument" + (count == 1 ? "" : "s") +
                   ", got " + std::to_string(args.size()),
               "call it as " + usage, line, column);
    }
  };
  const auto oneOrTwo = [&](const std::string& usage) {
    failCall(call, "expected 1 or 2 arguments, got " + std::to_string(args.size()),
             "call it as " + usage, line, column);
  };
  const auto expectInstant = [&](size_t k) {
    if (!isInstantOrNull(args[k]->type)) {
      failCall(call,
               "argument " + std::to_string(k + 1) + " must be a date or a timestamp, got " +
                   args[k]->type.toString(),
               "pass a date or a timestamp; TO_DATETIME reads milliseconds since 1970 and strings",
               line, column);
    }
  };
  // A date truncates to a date (ES|QL keeps the argument's type), a timestamp to a timestamp.
  const auto truncatedType = [](const DataType& t) {
    return t.kind == TypeKind::kTimestamp ? t : DataType::date();
  };
  if (name == "date_trunc") {
    arity(2, "date_trunc(1 hour, date_or_timestamp)");
    requireSpan(call, 0, line, column);
    expectInstant(1);
    return truncatedType(args[1]->type);
  }
  if (name == "bucket") {
    if (args.size() == 4 && (args[0]->type.isNumeric() || isInstantOrNull(args[0]->type))) {
      bindBucketTarget(call, line, column);
    }
    arity(2,
          "bucket(date_or_timestamp, 1 hour), bucket(number, width) or bucket(field, "
          "buckets, from, to)");
    if (args[0]->type.isNumeric()) {
      // ES|QL's numeric form: BUCKET(salary, 5000.) rounds down to a multiple of 5000.
      if (!numericBucketWidth(*args[1])) {
        failCall(call, "the width must be a positive number literal, got " + args[1]->toString(),
                 "bucket(number, 5000) rounds down to multiples of 5000", line, column);
      }
      return DataType::float64();
    }
    expectInstant(0);
    requireSpan(call, 1, line, column);
    return truncatedType(args[0]->type);
  }
  if (name == "date_extract") {
    arity(2, "date_extract(\"part\", date_or_timestamp)");
    partArgument(call, line, column);
    expectInstant(1);
    return DataType::int64();
  }
  if (name == "to_datetime") {
    arity(1, "to_datetime(milliseconds_or_string)");
    const DataType& t = args[0]->type;
    if (t.kind == TypeKind::kTimestamp) return t;
    if (!isInteger(t) && t.kind != TypeKind::kDouble && t.kind != TypeKind::kString &&
        t.kind != TypeKind::kDate && t.kind != TypeKind::kNull) {
      failCall(call, "cannot convert " + t.toString() + " to a timestamp",
               "pass milliseconds since 1970-01-01 (an integer), a string such as "
               "\"2024-06-01T12:00:00Z\", or a date",
               line, column);
    }
    return DataType::timestamp(TimeUnit::kMillis, true);
  }
  if (name == "date_format") {
    if (args.size() != 1 && args.size() != 2)
      oneOrTwo("date_format([\"pattern\", ]date_or_timestamp)");
    if (args.size() == 2) patternArgument(call, line, column);
    expectInstant(args.size() - 1);
    return DataType::string();
  }
  if (name == "date_parse") {
    if (args.size() != 1 && args.size() != 2) oneOrTwo("date_parse([\"pattern\", ]string)");
    if (args.size() == 2) patternArgument(call, line, column);
    const DataType& t = args.back()->type;
    if (t.kind != TypeKind::kString && t.kind != TypeKind::kNull) {
      failCall(call, "the date to parse must be a string, got " + t.toString(),
               "write date_parse(\"yyyy-MM-dd\", s) with s a string", line, column);
    }
    return DataType::timestamp(TimeUnit::kMillis, true);
  }
  if (name == "date_diff") {
    arity(3, "date_diff(\"unit\", start, end)");
    diffUnitArgument(call, line, column);
    expectInstant(1);
    expectInstant(2);
    return DataType::int32();
  }
  if (name == "now") {
    arity(0, "now()");
    const std::optional<int64_t> now = QueryClock::now();
    if (!now) {
      failCall(call, "the query's start time is not known here",
               "NOW() is bound by a query (prepareQuery)", line, column);
    }
    call.literal = *now;
    return DataType::timestamp(TimeUnit::kMillis, true);
  }
  if (name == "$add_span") {
    const DataType& t = args[0]->type;
    const TimeSpan& span = *args[1]->timeSpan;
    if (t.kind == TypeKind::kTimestamp || t.kind == TypeKind::kNull) return t;
    if (t.kind == TypeKind::kDate) {
      return span.isCalendar() ? DataType::date() : DataType::timestamp(TimeUnit::kMicros, false);
    }
    throw QueryError(
        "cannot add the time span " + span.toString() + " to " + args[0]->toString() + " (" +
            t.toString() + ")",
        line, column,
        "time spans move dates and timestamps; convert milliseconds with TO_DATETIME first");
  }
  throw std::logic_error("bindTemporalFunction: unknown function " + name);
}

Block evaluateTemporalFunction(const BoundExpr& call, const CallArgs& args, size_t n) {
  const std::string& name = call.name;
  if (name == "date_trunc")
    return truncateBlock(call.type, *call.children[0]->timeSpan, args[1], n);
  if (name == "bucket") {
    if (call.type.kind == TypeKind::kDouble)
      return bucketNumbers(args[0], *numericBucketWidth(*call.children[1]), n);
    return truncateBlock(call.type, *call.children[1]->timeSpan, args[0], n);
  }
  if (name == "date_extract") return extractBlock(call, args[1], n);
  if (name == "to_datetime") return toDatetimeBlock(call.type, args[0], n);
  if (name == "date_format") return formatBlock(call, args, n);
  if (name == "date_parse") {
    return args.size() == 1 ? toDatetimeBlock(call.type, args[0], n) : parseBlock(call, args, n);
  }
  if (name == "date_diff") return diffBlock(call, args, n);
  if (name == "now") {
    return Block::fromValues(call.type, std::vector<int64_t>(n, std::get<int64_t>(call.literal)));
  }
  return addSpanBlock(call, args[0], n);
}

}  // namespace quarry::engine
