#include "quarry/engine/parse/temporal_literal.h"

#include <cstdint>

namespace quarry::engine {
namespace {

constexpr int64_t kSecondsPerDay = 86400;

/// Reads exactly `count` digits at `pos` into `out`, advancing `pos`.
bool readDigits(std::string_view text, size_t& pos, size_t count, int64_t& out) {
  if (pos + count > text.size()) return false;
  out = 0;
  for (size_t i = 0; i < count; ++i) {
    const char c = text[pos + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  pos += count;
  return true;
}

bool isLeapYear(int64_t year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int64_t daysInMonth(int64_t year, int64_t month) {
  static constexpr int64_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && isLeapYear(year) ? 29 : kDays[month - 1];
}

/// Reads the "YYYY-MM-DD" at the start of `text`, advancing `pos` past it.
std::optional<Date> readDate(std::string_view text, size_t& pos) {
  int64_t year = 0;
  int64_t month = 0;
  int64_t day = 0;
  if (!readDigits(text, pos, 4, year) || pos >= text.size() || text[pos++] != '-' ||
      !readDigits(text, pos, 2, month) || pos >= text.size() || text[pos++] != '-' ||
      !readDigits(text, pos, 2, day)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return std::nullopt;
  return Date::ofCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
}

}  // namespace

std::optional<Date> parseDateLiteral(std::string_view text) {
  size_t pos = 0;
  auto date = readDate(text, pos);
  if (!date || pos != text.size()) return std::nullopt;
  return date;
}

std::optional<LocalDateTime> parseTimestampLiteral(std::string_view text) {
  size_t pos = 0;
  const auto date = readDate(text, pos);
  if (!date || pos >= text.size() || (text[pos] != ' ' && text[pos] != 'T')) return std::nullopt;
  ++pos;
  int64_t hour = 0;
  int64_t minute = 0;
  int64_t second = 0;
  int64_t nanos = 0;
  if (!readDigits(text, pos, 2, hour) || pos >= text.size() || text[pos++] != ':' ||
      !readDigits(text, pos, 2, minute)) {
    return std::nullopt;
  }
  if (pos < text.size() && text[pos] == ':') {
    ++pos;
    if (!readDigits(text, pos, 2, second)) return std::nullopt;
    if (pos < text.size() && text[pos] == '.') {
      ++pos;
      int digits = 0;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && digits < 9) {
        nanos = nanos * 10 + (text[pos++] - '0');
        ++digits;
      }
      if (digits == 0) return std::nullopt;
      for (int i = digits; i < 9; ++i) nanos *= 10;
    }
  }
  if (pos != text.size() || hour > 23 || minute > 59 || second > 59) return std::nullopt;
  LocalDateTime value;
  value.epochSeconds = date->daysSinceEpoch * kSecondsPerDay + hour * 3600 + minute * 60 + second;
  value.nanos = static_cast<int32_t>(nanos);
  return value;
}

std::string formatTimestampLiteral(const LocalDateTime& value) {
  std::string text = Instant{value.epochSeconds, value.nanos}.toString(value.nanos == 0 ? 0 : 9);
  if (value.nanos != 0) {
    while (text.back() == '0') text.pop_back();
  }
  return text;
}

}  // namespace quarry::engine
