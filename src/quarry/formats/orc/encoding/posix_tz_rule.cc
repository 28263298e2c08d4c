#include "quarry/formats/orc/encoding/posix_tz_rule.h"

#include <algorithm>
#include <cctype>
#include <chrono>

namespace quarry::orc {
namespace {

constexpr int64_t kSecondsPerDay = 86400;

/// A cursor over the TZ string; every parse function returns false on bad input.
struct Cursor {
  std::string_view text;
  size_t pos = 0;

  bool atEnd() const { return pos >= text.size(); }
  char peek() const { return atEnd() ? '\0' : text[pos]; }
  bool accept(char c) {
    if (peek() != c) return false;
    ++pos;
    return true;
  }

  bool number(int& out, int max) {
    if (!std::isdigit(static_cast<unsigned char>(peek()))) return false;
    out = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      out = out * 10 + (text[pos++] - '0');
      if (out > max) return false;
    }
    return true;
  }

  /// A zone abbreviation: three or more letters, or <...> of letters, digits, +, -.
  bool name() {
    const size_t start = pos;
    if (accept('<')) {
      while (!atEnd() && peek() != '>') ++pos;
      return accept('>') && pos - start >= 5;
    }
    while (std::isalpha(static_cast<unsigned char>(peek()))) ++pos;
    return pos - start >= 3;
  }

  /// [+|-]hh[:mm[:ss]], hours up to `maxHours`.
  bool duration(int64_t& out, int maxHours) {
    const bool negative = accept('-');
    if (!negative) accept('+');
    int hours = 0;
    int minutes = 0;
    int seconds = 0;
    if (!number(hours, maxHours)) return false;
    if (accept(':')) {
      if (!number(minutes, 59)) return false;
      if (accept(':') && !number(seconds, 59)) return false;
    }
    out = int64_t{hours} * 3600 + minutes * 60 + seconds;
    if (negative) out = -out;
    return true;
  }
};

int64_t daysFromCivil(int year, unsigned month, unsigned day) {
  using namespace std::chrono;
  return sys_days{std::chrono::year{year} / std::chrono::month{month} / std::chrono::day{day}}
      .time_since_epoch()
      .count();
}

bool isLeap(int year) {
  return std::chrono::year{year}.is_leap();
}

}  // namespace

std::optional<PosixTzRule> PosixTzRule::parse(std::string_view text) {
  Cursor in{text};
  PosixTzRule rule;
  int64_t posixStd = 0;
  if (!in.name() || !in.duration(posixStd, 24)) return std::nullopt;
  // POSIX offsets count hours west of UTC; quarry's count seconds east.
  rule.stdOffset_ = -posixStd;
  if (in.atEnd()) return rule;
  if (!in.name()) return std::nullopt;
  rule.hasDst_ = true;
  rule.dstOffset_ = rule.stdOffset_ + 3600;
  if (!in.atEnd() && in.peek() != ',') {
    int64_t posixDst = 0;
    if (!in.duration(posixDst, 24)) return std::nullopt;
    rule.dstOffset_ = -posixDst;
  }
  if (in.atEnd()) {
    // No rule: POSIX leaves it to the implementation; tzcode uses the US rules.
    rule.start_ = Date{Date::kMonthWeekDay, 0, 2, 3, 7200};
    rule.end_ = Date{Date::kMonthWeekDay, 0, 1, 11, 7200};
    return rule;
  }
  for (Date* date : {&rule.start_, &rule.end_}) {
    if (!in.accept(',')) return std::nullopt;
    if (in.accept('M')) {
      date->kind = Date::kMonthWeekDay;
      if (!in.number(date->month, 12) || date->month < 1 || !in.accept('.') ||
          !in.number(date->week, 5) || date->week < 1 || !in.accept('.') ||
          !in.number(date->day, 6)) {
        return std::nullopt;
      }
    } else if (in.accept('J')) {
      date->kind = Date::kJulian1;
      if (!in.number(date->day, 365) || date->day < 1) return std::nullopt;
    } else {
      date->kind = Date::kJulian0;
      if (!in.number(date->day, 365)) return std::nullopt;
    }
    if (in.accept('/') && !in.duration(date->time, 167)) return std::nullopt;
  }
  if (!in.atEnd()) return std::nullopt;
  return rule;
}

int64_t PosixTzRule::transitionUtc(const Date& date, int year, int64_t offset) {
  int64_t days = 0;
  switch (date.kind) {
    case Date::kJulian1:
      // Jn never counts February 29: day 60 is March 1 in every year.
      days = daysFromCivil(year, 1, 1) + date.day - 1 + (isLeap(year) && date.day >= 60 ? 1 : 0);
      break;
    case Date::kJulian0:
      days = daysFromCivil(year, 1, 1) + date.day;
      break;
    case Date::kMonthWeekDay: {
      const int64_t first = daysFromCivil(year, static_cast<unsigned>(date.month), 1);
      // 1970-01-01 was a Thursday (4); floor modulo for days before it.
      const int64_t firstWeekday = ((first + 4) % 7 + 7) % 7;
      int64_t day = (date.day - firstWeekday + 7) % 7 + (date.week - 1) * 7;
      const int nextMonth = date.month == 12 ? 1 : date.month + 1;
      const int64_t monthDays =
          daysFromCivil(date.month == 12 ? year + 1 : year, static_cast<unsigned>(nextMonth), 1) -
          first;
      while (day >= monthDays) day -= 7;
      days = first + day;
      break;
    }
  }
  return days * kSecondsPerDay + date.time - offset;
}

int64_t PosixTzRule::utcOffsetAt(int64_t utcSeconds) const {
  if (!hasDst_) return stdOffset_;
  using namespace std::chrono;
  // Clamped to +/-8000 years, so the calendar arithmetic cannot overflow on the
  // extreme values a corrupt file can hold.
  constexpr int64_t kMaxDays = 8000 * 366;
  const int64_t local =
      std::clamp(utcSeconds, -kMaxDays * kSecondsPerDay, kMaxDays * kSecondsPerDay) + stdOffset_;
  const int64_t localDays = local / kSecondsPerDay - (local % kSecondsPerDay < 0 ? 1 : 0);
  const int year = static_cast<int>(year_month_day{sys_days{days{localDays}}}.year());
  // The start is read on standard time, the end on daylight time.
  const int64_t start = transitionUtc(start_, year, stdOffset_);
  const int64_t end = transitionUtc(end_, year, dstOffset_);
  const bool inDst = start < end ? (utcSeconds >= start && utcSeconds < end)
                                 : !(utcSeconds >= end && utcSeconds < start);
  return inDst ? dstOffset_ : stdOffset_;
}

}  // namespace quarry::orc
