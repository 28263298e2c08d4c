#include "quarry/engine/expr/date_pattern.h"

#include <array>
#include <cstring>

#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kNanosPerDay = 86'400 * kNanosPerSecond;

constexpr std::array<std::string_view, 12> kMonths = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};
// Monday first, as ISO numbers the days.
constexpr std::array<std::string_view, 7> kDays = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                                   "Friday", "Saturday", "Sunday"};
constexpr std::array<std::string_view, 4> kQuarterOrdinals = {"1st", "2nd", "3rd", "4th"};

/// The most letters Java takes for each supported letter (0: not supported).
int maxCount(char letter) {
  switch (letter) {
    case 'G':
    case 'M':
    case 'L':
    case 'Q':
    case 'q':
    case 'E':
    case 'Z':
    case 'X':
    case 'x':
      return 5;
    case 'u':
    case 'y':
    case 'n':
    case 'A':
    case 'N':
      return 19;
    case 'S':
      return 9;
    case 'D':
      return 3;
    case 'd':
    case 'H':
    case 'h':
    case 'k':
    case 'K':
    case 'm':
    case 's':
      return 2;
    case 'a':
      return 1;
    case 'O':
      return 4;
    case 'V':
      return 2;
    default:
      return 0;
  }
}

bool isNumericElement(char letter, int count) {
  switch (letter) {
    case 'M':
    case 'L':
    case 'Q':
    case 'q':
      return count <= 2;
    case 'u':
    case 'y':
    case 'd':
    case 'D':
    case 'H':
    case 'h':
    case 'k':
    case 'K':
    case 'm':
    case 's':
    case 'S':
    case 'n':
    case 'A':
    case 'N':
      return true;
    default:
      return false;
  }
}

bool isAsciiLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

void appendPadded(std::string& out, int64_t value, int width) {
  const std::string digits = std::to_string(value);
  if (static_cast<int>(digits.size()) < width) out.append(width - digits.size(), '0');
  out += digits;
}

/// A year as Java's appendValue(YEAR, count, 19, EXCEEDS_PAD) writes it: '+'
/// before a year longer than the pad (count >= 4), '-' before a negative one.
void appendYear(std::string& out, int64_t year, int count) {
  if (count == 2) {
    appendPadded(out, floorMod(year, 100), 2);
    return;
  }
  if (year < 0) {
    out += '-';
    appendPadded(out, -year, count);
    return;
  }
  if (count >= 4 && static_cast<int>(std::to_string(year).size()) > count) out += '+';
  appendPadded(out, year, count);
}

/// The day of the week of `day` (since 1970-01-01, a Thursday), Monday = 0.
int dayOfWeek(int64_t day) {
  return static_cast<int>(floorMod(day + 3, 7));
}

void appendText(std::string& out, std::string_view full, int count) {
  if (count == 4) {
    out += full;
  } else if (count == 5) {
    out += full.substr(0, 1);
  } else {
    out += full.substr(0, 3);
  }
}

// ---- parsing --------------------------------------------------------------------

/// What the text gave, field by field (-1: not given).
struct Parsed {
  int64_t year = -1;
  bool yearOfEra = false;
  bool beforeChrist = false;
  bool eraGiven = false;
  int64_t month = -1, day = -1, dayOfYear = -1, quarter = -1, weekday = -1;
  int64_t hour = -1, hour12 = -1, minute = -1, second = -1, nanos = -1;
  int64_t milliOfDay = -1, nanoOfDay = -1;
  int pm = -1;
  int64_t offsetSeconds = 0;
};

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}
  bool atEnd() const { return pos_ >= text_.size(); }
  bool accept(std::string_view s) {
    if (text_.substr(pos_, s.size()) != s) return false;
    pos_ += s.size();
    return true;
  }
  /// Between `min` and `max` ASCII digits (as many as there are).
  std::optional<int64_t> digits(int min, int max) {
    size_t n = 0;
    int64_t value = 0;
    while (static_cast<int>(n) < max && pos_ + n < text_.size() && text_[pos_ + n] >= '0' &&
           text_[pos_ + n] <= '9') {
      if (value > (INT64_MAX - 9) / 10) return std::nullopt;
      value = value * 10 + (text_[pos_ + n] - '0');
      ++n;
    }
    if (static_cast<int>(n) < min) return std::nullopt;
    pos_ += n;
    return value;
  }
  /// The index of the first of `names` (full, or three letters when `shortForm`) the text starts
  /// with.
  template <size_t N>
  std::optional<int> name(const std::array<std::string_view, N>& names, int count) {
    for (size_t k = 0; k < N; ++k) {
      const std::string_view candidate =
          count == 4 ? names[k] : (count == 5 ? names[k].substr(0, 1) : names[k].substr(0, 3));
      if (accept(candidate)) return static_cast<int>(k);
    }
    return std::nullopt;
  }
  /// An offset: Z, or a sign, hours and optional minutes and seconds (with or without ':').
  std::optional<int64_t> offset() {
    if (accept("Z")) return 0;
    if (atEnd() || (text_[pos_] != '+' && text_[pos_] != '-')) return std::nullopt;
    const int sign = text_[pos_] == '-' ? -1 : 1;
    ++pos_;
    const std::optional<int64_t> hours = digits(2, 2);
    if (!hours || *hours > 18) return std::nullopt;
    int64_t seconds = *hours * 3600;
    for (int64_t unit : {int64_t{60}, int64_t{1}}) {
      const size_t mark = pos_;
      accept(":");
      const std::optional<int64_t> part = digits(2, 2);
      if (!part) {
        pos_ = mark;
        break;
      }
      if (*part > 59) return std::nullopt;
      seconds += *part * unit;
    }
    return sign * seconds;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

/// The widest a numeric field reads when it is not followed by another number.
int naturalWidth(char letter) {
  switch (letter) {
    case 'u':
    case 'y':
      return 10;
    case 'D':
      return 3;
    case 'n':
      return 9;
    case 'A':
      return 8;
    case 'N':
      return 14;
    default:
      return 2;
  }
}

}  // namespace

DatePattern::DatePattern(std::string_view pattern) {
  for (size_t i = 0; i < pattern.size();) {
    const char c = pattern[i];
    if (c == '\'') {
      // 'text', with '' for a quote inside or alone.
      std::string text;
      size_t j = i + 1;
      if (j < pattern.size() && pattern[j] == '\'') {
        text = "'";
        i = j + 1;
      } else {
        for (;; ++j) {
          if (j >= pattern.size()) {
            throw InvalidArgument("the pattern \"" + std::string(pattern) +
                                  "\" has an unclosed quote");
          }
          if (pattern[j] == '\'') {
            if (j + 1 < pattern.size() && pattern[j + 1] == '\'') {
              text += '\'';
              ++j;
              continue;
            }
            break;
          }
          text += pattern[j];
        }
        i = j + 1;
      }
      elements_.push_back(Element{0, 0, std::move(text)});
      continue;
    }
    if (c == '[' || c == ']' || c == '#' || c == '{' || c == '}') {
      throw InvalidArgument(
          "the pattern \"" + std::string(pattern) + "\" has '" + std::string(1, c) +
          "', which quarry's date patterns do not take (Java's optional sections and "
          "reserved characters); quote it as '" +
          std::string(1, c) + "' for the character");
    }
    if (!isAsciiLetter(c)) {
      if (!elements_.empty() && elements_.back().letter == 0) {
        elements_.back().text += c;
      } else {
        elements_.push_back(Element{0, 0, std::string(1, c)});
      }
      ++i;
      continue;
    }
    size_t j = i;
    while (j < pattern.size() && pattern[j] == c) ++j;
    const int count = static_cast<int>(j - i);
    const int most = maxCount(c);
    if (most == 0) {
      throw InvalidArgument(
          "the pattern letter '" + std::string(1, c) + "' (in \"" + std::string(pattern) +
          "\") is not supported; the letters are G u y M L Q q d D E a H k h K m s S n A N "
          "X x Z O VV, and 'text' for literal letters");
    }
    if (count > most || (c == 'V' && count != 2) || (c == 'O' && count != 1 && count != 4)) {
      throw InvalidArgument("too many pattern letters '" + std::string(1, c) + "' (" +
                            std::to_string(count) + ") in \"" + std::string(pattern) + "\"");
    }
    elements_.push_back(Element{c, count, {}});
    i = j;
  }
}

void DatePattern::format(const DayAndNanos& at, std::string& out) const {
  const Civil civil = civilFromDays(at.day);
  const int64_t hour = at.nanosOfDay / (3600 * kNanosPerSecond);
  const int64_t nanoOfSecond = at.nanosOfDay % kNanosPerSecond;
  for (const Element& e : elements_) {
    const int n = e.count;
    switch (e.letter) {
      case 0:
        out += e.text;
        break;
      case 'G':
        if (n == 4) {
          out += civil.year > 0 ? "Anno Domini" : "Before Christ";
        } else {
          out += civil.year > 0 ? (n == 5 ? "A" : "AD") : (n == 5 ? "B" : "BC");
        }
        break;
      case 'u':
        appendYear(out, civil.year, n);
        break;
      case 'y':
        appendYear(out, civil.year > 0 ? civil.year : 1 - civil.year, n);
        break;
      case 'M':
      case 'L':
        if (n <= 2) {
          appendPadded(out, civil.month, n);
        } else {
          appendText(out, kMonths[civil.month - 1], n);
        }
        break;
      case 'Q':
      case 'q': {
        const unsigned quarter = (civil.month - 1) / 3 + 1;
        if (n <= 2 || n == 5) {
          appendPadded(out, quarter, n == 5 ? 1 : n);
        } else if (n == 3) {
          out += "Q" + std::to_string(quarter);
        } else {
          out += std::string(kQuarterOrdinals[quarter - 1]) + " quarter";
        }
        break;
      }
      case 'd':
        appendPadded(out, civil.day, n);
        break;
      case 'D':
        appendPadded(out, at.day - daysFromCivil(civil.year, 1, 1) + 1, n);
        break;
      case 'E':
        appendText(out, kDays[dayOfWeek(at.day)], n);
        break;
      case 'a':
        out += hour < 12 ? "AM" : "PM";
        break;
      case 'H':
        appendPadded(out, hour, n);
        break;
      case 'k':
        appendPadded(out, hour == 0 ? 24 : hour, n);
        break;
      case 'h':
        appendPadded(out, hour % 12 == 0 ? 12 : hour % 12, n);
        break;
      case 'K':
        appendPadded(out, hour % 12, n);
        break;
      case 'm':
        appendPadded(out, at.nanosOfDay / (60 * kNanosPerSecond) % 60, n);
        break;
      case 's':
        appendPadded(out, at.nanosOfDay / kNanosPerSecond % 60, n);
        break;
      case 'S': {
        std::string digits;
        appendPadded(digits, nanoOfSecond, 9);
        out += digits.substr(0, n);
        break;
      }
      case 'n':
        appendPadded(out, nanoOfSecond, n);
        break;
      case 'A':
        appendPadded(out, at.nanosOfDay / 1'000'000, n);
        break;
      case 'N':
        appendPadded(out, at.nanosOfDay, n);
        break;
      case 'X':
      case 'V':
        out += 'Z';
        break;
      case 'x':
        out += n == 1 ? "+00" : (n == 2 || n == 4 ? "+0000" : "+00:00");
        break;
      case 'Z':
        out += n <= 3 ? "+0000" : (n == 4 ? "GMT" : "Z");
        break;
      case 'O':
        out += "GMT";
        break;
      default:
        break;
    }
  }
}

std::optional<int64_t> DatePattern::parseMillis(std::string_view text) const {
  Reader reader(text);
  Parsed p;
  for (size_t k = 0; k < elements_.size(); ++k) {
    const Element& e = elements_[k];
    const int n = e.count;
    // A number directly followed by another takes exactly its letters' width
    // (Java's adjacent value parsing: "yyyyMMdd").
    const bool adjacent = k + 1 < elements_.size() && elements_[k + 1].letter != 0 &&
                          isNumericElement(elements_[k + 1].letter, elements_[k + 1].count);
    const auto number = [&](int width) -> std::optional<int64_t> {
      if (n >= 2 || adjacent)
        return reader.digits(n, adjacent || e.letter == 'S' ? n : std::max(n, width));
      return reader.digits(1, width);
    };
    // A number below `limit` into `field`; false when there is none.
    const auto bounded = [&](int width, int64_t limit, int64_t& field) {
      const std::optional<int64_t> value = number(width);
      if (!value || *value >= limit) return false;
      field = *value;
      return true;
    };
    std::optional<int64_t> v;
    switch (e.letter) {
      case 0:
        if (!reader.accept(e.text)) return std::nullopt;
        continue;
      case 'G': {
        static constexpr std::array<std::string_view, 2> kEras = {"AD", "BC"};
        static constexpr std::array<std::string_view, 2> kLongEras = {"Anno Domini",
                                                                      "Before Christ"};
        const std::optional<int> era =
            n == 4 ? reader.name(kLongEras, 4)
                   : (n == 5 ? reader.name(std::array<std::string_view, 2>{"A", "B"}, 4)
                             : reader.name(kEras, 4));
        if (!era) return std::nullopt;
        p.eraGiven = true;
        p.beforeChrist = *era == 1;
        continue;
      }
      case 'u':
      case 'y':
        if (n == 2) {
          v = reader.digits(2, 2);
          if (v) v = 2000 + *v;
        } else {
          v = number(naturalWidth('y'));
        }
        if (!v) return std::nullopt;
        p.year = *v;
        p.yearOfEra = e.letter == 'y';
        continue;
      case 'M':
      case 'L':
        if (n <= 2) {
          v = number(2);
        } else if (const std::optional<int> m = reader.name(kMonths, n)) {
          v = *m + 1;
        }
        if (!v) return std::nullopt;
        p.month = *v;
        continue;
      case 'Q':
      case 'q':
        if (n == 3) {
          if (!reader.accept("Q")) return std::nullopt;
          v = reader.digits(1, 1);
        } else if (n == 4) {
          if (const std::optional<int> q = reader.name(kQuarterOrdinals, 4)) v = *q + 1;
          if (v && !reader.accept(" quarter")) return std::nullopt;
        } else {
          v = number(1);
        }
        if (!v) return std::nullopt;
        p.quarter = *v;
        continue;
      case 'd':
        v = number(2);
        if (!v) return std::nullopt;
        p.day = *v;
        continue;
      case 'D':
        v = n == 2 ? reader.digits(2, adjacent ? 2 : 3) : number(3);
        if (!v) return std::nullopt;
        p.dayOfYear = *v;
        continue;
      case 'E': {
        const std::optional<int> w = reader.name(kDays, n);
        if (!w) return std::nullopt;
        p.weekday = *w;
        continue;
      }
      case 'a': {
        const std::optional<int> half = reader.name(std::array<std::string_view, 2>{"AM", "PM"}, 4);
        if (!half) return std::nullopt;
        p.pm = *half;
        continue;
      }
      case 'H':
      case 'k':
      case 'h':
      case 'K':
        v = number(2);
        if (!v) return std::nullopt;
        if (e.letter == 'H') {
          if (*v > 23) return std::nullopt;
          p.hour = *v;
        } else if (e.letter == 'k') {
          if (*v < 1 || *v > 24) return std::nullopt;
          p.hour = *v % 24;
        } else if (e.letter == 'h') {
          if (*v < 1 || *v > 12) return std::nullopt;
          p.hour12 = *v % 12;
        } else {
          if (*v > 11) return std::nullopt;
          p.hour12 = *v;
        }
        continue;
      case 'm':
      case 's':
        if (!bounded(2, 60, e.letter == 'm' ? p.minute : p.second)) return std::nullopt;
        continue;
      case 'S': {
        v = reader.digits(n, n);
        if (!v) return std::nullopt;
        int64_t nanos = *v;
        for (int d = n; d < 9; ++d) nanos *= 10;
        p.nanos = nanos;
        continue;
      }
      case 'n':
        if (!bounded(9, kNanosPerSecond, p.nanos)) return std::nullopt;
        continue;
      case 'A':
        if (!bounded(8, 86'400'000, p.milliOfDay)) return std::nullopt;
        continue;
      case 'N':
        if (!bounded(14, kNanosPerDay, p.nanoOfDay)) return std::nullopt;
        continue;
      case 'O':
      case 'Z':
        if ((e.letter == 'O' || n == 4) && !reader.accept("GMT")) return std::nullopt;
        if (e.letter == 'O' || n == 4) {
          // GMT alone is offset zero; GMT+01:00 an offset.
          const std::optional<int64_t> offset = reader.offset();
          p.offsetSeconds = offset.value_or(0);
          continue;
        }
        [[fallthrough]];
      case 'X':
      case 'x':
      case 'V': {
        const std::optional<int64_t> offset = reader.offset();
        if (!offset) return std::nullopt;
        p.offsetSeconds = *offset;
        continue;
      }
      default:
        return std::nullopt;
    }
  }
  if (!reader.atEnd()) return std::nullopt;

  // Resolve, strictly: every field given must agree with the date it names.
  int64_t year = p.year < 0 ? 1970 : p.year;
  if (p.yearOfEra) {
    if (year == 0) return std::nullopt;  // year-of-era starts at 1
    if (p.beforeChrist) year = 1 - year;
  } else if (p.eraGiven && p.beforeChrist != (year <= 0)) {
    return std::nullopt;
  }
  int64_t day = 0;
  if (p.dayOfYear >= 0 && p.month < 0 && p.day < 0) {
    if (p.dayOfYear < 1 || p.dayOfYear > (isLeapYear(year) ? 366 : 365)) return std::nullopt;
    day = daysFromCivil(year, 1, 1) + p.dayOfYear - 1;
  } else {
    const int64_t month = p.month < 0 ? 1 : p.month;
    const int64_t dom = p.day < 0 ? 1 : p.day;
    if (month < 1 || month > 12 || dom < 1 ||
        dom > daysInMonth(year, static_cast<unsigned>(month))) {
      return std::nullopt;
    }
    day = daysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(dom));
    if (p.dayOfYear >= 0 && p.dayOfYear != day - daysFromCivil(year, 1, 1) + 1) return std::nullopt;
  }
  const Civil civil = civilFromDays(day);
  if (p.quarter >= 0 && p.quarter != (civil.month - 1) / 3 + 1) return std::nullopt;
  if (p.weekday >= 0 && p.weekday != dayOfWeek(day)) return std::nullopt;
  int64_t nanosOfDay = 0;
  if (p.nanoOfDay >= 0) {
    nanosOfDay = p.nanoOfDay;
  } else if (p.milliOfDay >= 0) {
    nanosOfDay = p.milliOfDay * 1'000'000;
  } else {
    int64_t hour = p.hour >= 0 ? p.hour : 0;
    if (p.hour12 >= 0) {
      const int64_t fromHalf = p.hour12 + (p.pm == 1 ? 12 : 0);
      if (p.hour >= 0 && p.hour != fromHalf) return std::nullopt;
      hour = fromHalf;
    } else if (p.pm >= 0 && p.hour >= 0 && (p.hour >= 12) != (p.pm == 1)) {
      return std::nullopt;
    }
    nanosOfDay =
        ((hour * 60 + std::max<int64_t>(p.minute, 0)) * 60 + std::max<int64_t>(p.second, 0)) *
            kNanosPerSecond +
        std::max<int64_t>(p.nanos, 0);
  }
  int64_t millis = 0;
  if (__builtin_mul_overflow(day, int64_t{86'400'000}, &millis) ||
      __builtin_add_overflow(millis, nanosOfDay / 1'000'000 - p.offsetSeconds * 1000, &millis)) {
    return std::nullopt;
  }
  return millis;
}

std::string isoDatetimeText(const DayAndNanos& at, bool nanosPrecision, bool zulu) {
  const Civil civil = civilFromDays(at.day);
  std::string out;
  appendYear(out, civil.year, 4);
  out += '-';
  appendPadded(out, civil.month, 2);
  out += '-';
  appendPadded(out, civil.day, 2);
  out += 'T';
  const int64_t seconds = at.nanosOfDay / kNanosPerSecond;
  appendPadded(out, seconds / 3600, 2);
  out += ':';
  appendPadded(out, seconds / 60 % 60, 2);
  out += ':';
  appendPadded(out, seconds % 60, 2);
  out += '.';
  std::string fraction;
  appendPadded(fraction, at.nanosOfDay % kNanosPerSecond, 9);
  size_t digits = 3;
  if (nanosPrecision) {
    digits = fraction.find_last_not_of('0') + 1;
    if (digits < 3) digits = 3;
  }
  out += fraction.substr(0, digits);
  if (zulu) out += 'Z';
  return out;
}

}  // namespace quarry::engine
