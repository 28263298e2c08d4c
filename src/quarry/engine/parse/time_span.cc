#include "quarry/engine/parse/time_span.h"

#include <array>
#include <cctype>

namespace quarry::engine {

namespace {

struct UnitWord {
  std::string_view word;
  TimeSpanUnit unit;
};

constexpr std::array<UnitWord, 29> kUnitWords = {{
    {"millisecond", TimeSpanUnit::kMillisecond}, {"milliseconds", TimeSpanUnit::kMillisecond},
    {"ms", TimeSpanUnit::kMillisecond},          {"second", TimeSpanUnit::kSecond},
    {"seconds", TimeSpanUnit::kSecond},          {"sec", TimeSpanUnit::kSecond},
    {"s", TimeSpanUnit::kSecond},                {"minute", TimeSpanUnit::kMinute},
    {"minutes", TimeSpanUnit::kMinute},          {"min", TimeSpanUnit::kMinute},
    {"hour", TimeSpanUnit::kHour},               {"hours", TimeSpanUnit::kHour},
    {"h", TimeSpanUnit::kHour},                  {"day", TimeSpanUnit::kDay},
    {"days", TimeSpanUnit::kDay},                {"d", TimeSpanUnit::kDay},
    {"week", TimeSpanUnit::kWeek},               {"weeks", TimeSpanUnit::kWeek},
    {"w", TimeSpanUnit::kWeek},                  {"month", TimeSpanUnit::kMonth},
    {"months", TimeSpanUnit::kMonth},            {"mo", TimeSpanUnit::kMonth},
    {"quarter", TimeSpanUnit::kQuarter},         {"quarters", TimeSpanUnit::kQuarter},
    {"q", TimeSpanUnit::kQuarter},               {"year", TimeSpanUnit::kYear},
    {"years", TimeSpanUnit::kYear},              {"yr", TimeSpanUnit::kYear},
    {"y", TimeSpanUnit::kYear},
}};

}  // namespace

std::optional<TimeSpanUnit> timeSpanUnit(std::string_view word) {
  std::string lower(word);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const UnitWord& w : kUnitWords) {
    if (w.word == lower) return w.unit;
  }
  return std::nullopt;
}

const char* timeSpanUnitName(TimeSpanUnit unit) {
  switch (unit) {
    case TimeSpanUnit::kMillisecond:
      return "millisecond";
    case TimeSpanUnit::kSecond:
      return "second";
    case TimeSpanUnit::kMinute:
      return "minute";
    case TimeSpanUnit::kHour:
      return "hour";
    case TimeSpanUnit::kDay:
      return "day";
    case TimeSpanUnit::kWeek:
      return "week";
    case TimeSpanUnit::kMonth:
      return "month";
    case TimeSpanUnit::kQuarter:
      return "quarter";
    case TimeSpanUnit::kYear:
      return "year";
  }
  return "?";
}

std::optional<int64_t> TimeSpan::fixedLength(int64_t perSecond) const {
  int64_t per = 0;
  switch (unit) {
    case TimeSpanUnit::kMillisecond:
      per = perSecond / 1000;
      break;
    case TimeSpanUnit::kSecond:
      per = perSecond;
      break;
    case TimeSpanUnit::kMinute:
      per = perSecond * 60;
      break;
    case TimeSpanUnit::kHour:
      per = perSecond * 3600;
      break;
    case TimeSpanUnit::kDay:
      per = perSecond * 86'400;
      break;
    default:
      return std::nullopt;
  }
  int64_t length = 0;
  if (per == 0 || __builtin_mul_overflow(count, per, &length)) return std::nullopt;
  return length;
}

std::string TimeSpan::toString() const {
  std::string out = std::to_string(count) + " " + timeSpanUnitName(unit);
  if (count != 1 && count != -1) out += 's';
  return out;
}

}  // namespace quarry::engine
