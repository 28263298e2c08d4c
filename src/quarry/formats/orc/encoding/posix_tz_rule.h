#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

/// The POSIX TZ string at the end of a TZif file, which gives a zone's offsets
/// for every instant after its last listed transition (POSIX.1-2017 section 8.3,
/// with RFC 8536's extensions: hours up to 167 and negative in rule times).
/// "PST8PDT,M3.2.0,M11.1.0": standard time 8 hours west of UTC, daylight time an
/// hour less, from 02:00 on the second Sunday of March to 02:00 on the first
/// Sunday of November.
namespace quarry::orc {

/// A zone's offset rule for times past its transition table.
class PosixTzRule {
 public:
  /// Parses `text`; returns nullopt when it is not a valid TZ string.
  static std::optional<PosixTzRule> parse(std::string_view text);

  /// Returns the offset from UTC (seconds east) in effect at `utcSeconds`.
  int64_t utcOffsetAt(int64_t utcSeconds) const;

 private:
  /// A day-of-year rule: Jn (1..365, February 29 never counted), n (0..365), or
  /// Mm.w.d (day d of week w, 5 meaning the last, of month m).
  struct Date {
    enum Kind { kJulian1, kJulian0, kMonthWeekDay } kind = kMonthWeekDay;
    int day = 0;
    int week = 0;
    int month = 0;
    int64_t time = 7200;  // seconds after local midnight, default 02:00
  };

  /// Returns the UTC instant at which `date` falls in `year`, read on a clock
  /// `offset` seconds east of UTC.
  static int64_t transitionUtc(const Date& date, int year, int64_t offset);

  int64_t stdOffset_ = 0;  // seconds east of UTC
  int64_t dstOffset_ = 0;
  bool hasDst_ = false;
  Date start_;
  Date end_;
};

}  // namespace quarry::orc
