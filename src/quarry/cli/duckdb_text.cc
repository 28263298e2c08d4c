#include "quarry/cli/duckdb_text.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <system_error>
#include <type_traits>

#include "quarry/common/byte_scan.h"
#include "quarry/formats/parquet/wkb_text.h"

namespace quarry::cli {

namespace {

constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kSecondsPerDay = 86'400;

int64_t floorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

std::string padded(int64_t value, size_t width) {
  std::string digits = std::to_string(value);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return digits;
}

/// Rewrites std::to_chars' shortest scientific form ("-1.25e-07") in DuckDB's
/// notation (see the header).
std::string fromShortestScientific(std::string_view scientific) {
  const bool negative = scientific.front() == '-';
  if (negative) scientific.remove_prefix(1);
  const size_t e = scientific.find('e');
  std::string digits;
  for (char c : scientific.substr(0, e)) {
    if (c != '.') digits += c;
  }
  const int exponent = std::atoi(std::string(scientific.substr(e + 1)).c_str());
  std::string out = negative ? "-" : "";
  if (exponent >= -4 && exponent < 16) {
    if (exponent >= 0) {
      const size_t integerDigits = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= integerDigits) {
        out += digits;
        out.append(integerDigits - digits.size(), '0');
        out += ".0";
      } else {
        out += digits.substr(0, integerDigits);
        out += '.';
        out += digits.substr(integerDigits);
      }
    } else {
      out += "0.";
      out.append(static_cast<size_t>(-exponent - 1), '0');
      out += digits;
    }
    return out;
  }
  out += digits[0];
  if (digits.size() > 1) {
    out += '.';
    out += digits.substr(1);
  }
  out += exponent < 0 ? "e-" : "e+";
  out += padded(std::abs(exponent), 2);
  return out;
}

template <typename T>
std::string shortestScientific(T value) {
  char buffer[64];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  return std::string(buffer, result.ptr - buffer);
}

/// A positive number as significant digits, without trailing zeros, and the
/// power of ten of the first one: 1250 is {"125", 3}.
struct DecimalDigits {
  std::string digits;
  int exponent = 0;
  bool operator==(const DecimalDigits&) const = default;
  /// Returns the power of ten of the last digit.
  int lastPlace() const { return exponent - static_cast<int>(digits.size()) + 1; }
};

/// Parses to_chars' scientific form of a positive number ("1.2500e+03").
DecimalDigits fromScientific(std::string_view scientific) {
  const size_t e = scientific.find('e');
  DecimalDigits out;
  for (char c : scientific.substr(0, e)) {
    if (c != '.') out.digits += c;
  }
  while (out.digits.size() > 1 && out.digits.back() == '0') out.digits.pop_back();
  out.exponent = std::atoi(std::string(scientific.substr(e + 1)).c_str());
  return out;
}

/// Returns the exact decimal value of `value`, a positive double that is a float
/// or the midpoint of two adjacent floats: those have at most 112 significant
/// digits (2^-150 has 105), so 130 digits of precision are exact.
DecimalDigits exactDecimal(double value) {
  char buffer[160];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific, 130);
  return fromScientific(std::string_view(buffer, result.ptr - buffer));
}

/// Returns whether DuckDB prints `value` (finite, non-zero) with the float's
/// shortest digits. DuckDB formats a FLOAT with its fmt library's Grisu, on the
/// float's rounding interval, and when Grisu cannot be sure of its digits it falls
/// back to formatting the value widened to double: 2731571.75f prints as
/// "2731571.75", not "2731571.8". Grisu gives up when the shortest digits are a
/// tie between two candidates (the value ends in 5 just past the last digit), or
/// when a bound of the interval, which it never returns, is the shortest decimal
/// (36622392f is not "36622390.0", its lower bound) or shorter than the shortest
/// digits inside (6036831744f is not "6036831700.0": 6036832000 is its upper
/// bound, which to_chars excludes for an odd mantissa).
bool grisuFindsShortest(float value, const DecimalDigits& shortest) {
  const float magnitude = std::fabs(value);
  const DecimalDigits exact = exactDecimal(magnitude);
  if (exact.lastPlace() == shortest.lastPlace() - 1 && exact.digits.back() == '5') return false;
  const double below = std::nextafter(magnitude, 0.0f);
  const double above = magnitude == std::numeric_limits<float>::max()
                           ? magnitude + (magnitude - below)
                           : static_cast<double>(std::nextafter(magnitude, HUGE_VALF));
  for (double neighbour : {below, above}) {
    const DecimalDigits bound = exactDecimal((magnitude + neighbour) / 2);
    if (bound.digits.size() < shortest.digits.size() || bound == shortest) return false;
  }
  return true;
}

template <typename T>
std::string floatingText(T value) {
  if (std::isnan(value)) return std::signbit(value) ? "-nan" : "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  std::string scientific = shortestScientific(value);
  if constexpr (std::is_same_v<T, float>) {
    if (value != 0 && !grisuFindsShortest(value, fromScientific(scientific.substr(value < 0)))) {
      scientific = shortestScientific(static_cast<double>(value));
    }
  }
  return fromShortestScientific(scientific);
}

/// Appends ".fraction" for `nanos` (0..999'999'999) cut to `digits` digits,
/// trailing zeros removed; nothing when that leaves no digit.
void appendFraction(int64_t nanos, int digits, std::string& out) {
  std::string fraction = padded(nanos, 9).substr(0, static_cast<size_t>(digits));
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  if (!fraction.empty()) {
    out += '.';
    out += fraction;
  }
}

void appendCount(int64_t count, const char* unit, std::string& out) {
  if (!out.empty()) out += ' ';
  out += std::to_string(count);
  out += ' ';
  out += unit;
  if (count != 1) out += 's';
}

}  // namespace

std::string duckDbDouble(double value) {
  return floatingText(value);
}

std::string duckDbFloat(float value) {
  return floatingText(value);
}

std::string duckDbGeometry(std::string_view wkb) {
  std::string out;
  parquet::appendWktOfWkb(
      wkb,
      [](double value, std::string& text) {
        // DuckDB's WKT writer formats a coordinate as a DOUBLE's text and then drops
        // a final ".0" from plain notation: 30.0 -> 30, -0.0 -> -0, 1e+16 stays.
        const std::string number = floatingText(value);
        const bool plain = number.find('e') == std::string::npos;
        const size_t kept = plain && number.ends_with(".0") ? number.size() - 2 : number.size();
        text.append(number, 0, kept);
      },
      out);
  return out;
}

std::string duckDbDate(Date date) {
  // Date renders astronomical years (0 = 1 BC, -1 = 2 BC) as [-]YYYY-MM-DD.
  const std::string iso = date.toString();
  constexpr size_t kMonthDay = 6;  // "-MM-DD"
  const std::string yearText = iso.substr(0, iso.size() - kMonthDay);
  const int64_t year = std::strtoll(yearText.c_str(), nullptr, 10);
  if (year > 0) return iso;
  return padded(1 - year, 4) + iso.substr(iso.size() - kMonthDay) + " (BC)";
}

std::string duckDbTime(int64_t nanosOfDay, int fractionDigits) {
  const int64_t seconds = floorDiv(nanosOfDay, kNanosPerSecond);
  std::string out = padded(seconds / 3600, 2) + ":" + padded(seconds / 60 % 60, 2) + ":" +
                    padded(seconds % 60, 2);
  appendFraction(nanosOfDay - seconds * kNanosPerSecond, fractionDigits, out);
  return out;
}

std::string duckDbTimestamp(int64_t epochSeconds, int32_t nanos, int fractionDigits) {
  const int64_t days = floorDiv(epochSeconds, kSecondsPerDay);
  const int64_t secondOfDay = epochSeconds - days * kSecondsPerDay;
  return duckDbDate(Date{static_cast<int32_t>(days)}) + " " +
         duckDbTime(secondOfDay * kNanosPerSecond + nanos, fractionDigits);
}

std::string duckDbInterval(const Interval& interval) {
  std::string out;
  const int64_t years = interval.months / 12;
  const int64_t months = interval.months % 12;
  if (years != 0) appendCount(years, "year", out);
  if (months != 0) appendCount(months, "month", out);
  if (interval.days != 0) appendCount(interval.days, "day", out);
  if (interval.millis != 0) {
    if (!out.empty()) out += ' ';
    const int64_t seconds = interval.millis / 1000;
    out += padded(seconds / 3600, 2) + ":" + padded(seconds / 60 % 60, 2) + ":" +
           padded(seconds % 60, 2);
    appendFraction(int64_t{interval.millis % 1000} * 1'000'000, 6, out);
  }
  return out.empty() ? "00:00:00" : out;
}

std::string duckDbBlob(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(bytes.size());
  for (char c : bytes) {
    const auto b = static_cast<uint8_t>(c);
    if (b >= 32 && b <= 126 && c != '\\' && c != '\'' && c != '"') {
      out += c;
    } else {
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 15];
    }
  }
  return out;
}

bool needsQuotesInNested(std::string_view text) {
  const auto isSpace = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
  };
  if (text.empty() || isSpace(text.front()) || isSpace(text.back())) return true;
  if (text.size() == 4) {
    std::string lower(text);
    for (char& c : lower) c = static_cast<char>(c | 0x20);
    if (lower == "null") return true;
  }
  static constexpr ByteSet kSpecial("\"'(),:=[]{}");
  return findFirstIn(text, kSpecial) != text.size();
}

void appendQuotedInNested(std::string_view text, std::string& out) {
  static constexpr ByteSet kEscaped("\\'");
  out += '\'';
  appendEscaped(text, kEscaped, out, [](char c, std::string& o) {
    o += '\\';
    o += c;
  });
  out += '\'';
}

}  // namespace quarry::cli
