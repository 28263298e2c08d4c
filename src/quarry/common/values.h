#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <string>
#include <vector>

/// Value types the readers hand back for Parquet's logical types. They are thin
/// and exact: a Decimal keeps its unscaled digits and scale, an Instant its
/// nanoseconds, a Float16 its stored bits.
namespace quarry {

/// Owning bytes (the spec's byte[]).
using Bytes = std::vector<uint8_t>;

/// A calendar date as days since 1970-01-01 (may be negative).
struct Date {
  int32_t daysSinceEpoch = 0;
  auto operator<=>(const Date&) const = default;
  /// Returns the proleptic Gregorian date for (year, month 1-12, day 1-31).
  static Date ofCivil(int64_t year, unsigned month, unsigned day);
  /// Renders as YYYY-MM-DD (years outside 0..9999 with a sign / more digits).
  std::string toString() const;
};

/// A time of day in nanoseconds since midnight.
struct TimeOfDay {
  int64_t nanosOfDay = 0;
  auto operator<=>(const TimeOfDay&) const = default;
  /// Renders as HH:MM:SS with as many fraction digits as `fractionDigits` (0, 3, 6, 9).
  std::string toString(int fractionDigits = 9) const;
};

/// An instant on the UTC time line: seconds since the epoch and nanoseconds
/// within that second (0..999'999'999), so that its range exceeds int64 nanos.
struct Instant {
  int64_t epochSeconds = 0;
  int32_t nanos = 0;
  auto operator<=>(const Instant&) const = default;
  static Instant ofEpochUnits(int64_t value, int64_t unitsPerSecond);
  /// Renders as ISO-8601 "YYYY-MM-DD HH:MM:SS[.fraction]" with the given digits.
  std::string toString(int fractionDigits = 9) const;
};

/// A wall-clock date-time without a zone (TIMESTAMP with isAdjustedToUTC=false).
struct LocalDateTime {
  int64_t epochSeconds = 0;  // as if the wall clock were UTC
  int32_t nanos = 0;
  auto operator<=>(const LocalDateTime&) const = default;
};

/// An exact decimal: an unscaled two's-complement integer of any width
/// (big-endian bytes, as Parquet stores it) and a scale.
struct Decimal {
  std::vector<uint8_t> unscaledBigEndian;
  int32_t scale = 0;
  /// Renders the value in plain notation, e.g. "-12.50" for unscaled -1250, scale 2.
  std::string toString() const;
};

struct Uuid {
  std::array<uint8_t, 16> bytes{};
  auto operator<=>(const Uuid&) const = default;
  /// Renders as 8-4-4-4-12 lowercase hex.
  std::string toString() const;
};

/// Parquet's INTERVAL: three unsigned 32-bit little-endian components.
struct Interval {
  uint32_t months = 0;
  uint32_t days = 0;
  uint32_t millis = 0;
  auto operator<=>(const Interval&) const = default;
};

/// An IEEE 754 half-precision value, kept as its stored bits.
struct Float16 {
  uint16_t bits = 0;
  /// Returns the value widened to float (exact: every half is a float).
  float toFloat() const;
};

}  // namespace quarry
