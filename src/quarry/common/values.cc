#include "quarry/common/values.h"

#include <cmath>
#include <cstring>

namespace quarry {
namespace {

// Howard Hinnant's days_from_civil / civil_from_days algorithms (public domain
// descriptions), exact over the whole proleptic Gregorian range used here.
int64_t daysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void civilFromDays(int64_t z, int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
}

std::string pad(int64_t v, int width) {
  std::string s = std::to_string(v);
  if (static_cast<int>(s.size()) < width) s.insert(0, width - s.size(), '0');
  return s;
}

std::string dateString(int64_t days) {
  int64_t y;
  unsigned m, d;
  civilFromDays(days, y, m, d);
  std::string out;
  if (y < 0) {
    out = "-" + pad(-y, 4);
  } else {
    out = pad(y, 4);
  }
  return out + "-" + pad(m, 2) + "-" + pad(d, 2);
}

std::string fraction(int64_t nanos, int digits) {
  if (digits <= 0) return "";
  std::string s = pad(nanos, 9).substr(0, digits);
  return "." + s;
}

int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

}  // namespace

Date Date::ofCivil(int64_t year, unsigned month, unsigned day) {
  return Date{static_cast<int32_t>(daysFromCivil(year, month, day))};
}

std::string Date::toString() const { return dateString(daysSinceEpoch); }

std::string TimeOfDay::toString(int fractionDigits) const {
  const int64_t seconds = nanosOfDay / 1'000'000'000;
  return pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2) +
         fraction(nanosOfDay % 1'000'000'000, fractionDigits);
}

Instant Instant::ofEpochUnits(int64_t value, int64_t unitsPerSecond) {
  // Quotient and remainder rather than value - seconds * unitsPerSecond, which
  // overflows for values near the int64 limits.
  int64_t seconds = value / unitsPerSecond;
  int64_t rest = value % unitsPerSecond;
  if (rest < 0) {
    rest += unitsPerSecond;
    --seconds;
  }
  return Instant{seconds, static_cast<int32_t>(rest * (1'000'000'000 / unitsPerSecond))};
}

std::string Instant::toString(int fractionDigits) const {
  const int64_t days = floorDiv(epochSeconds, 86400);
  const int64_t secondOfDay = epochSeconds - days * 86400;
  return dateString(days) + " " + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) +
         ":" + pad(secondOfDay % 60, 2) + fraction(nanos, fractionDigits);
}

std::string Decimal::toString() const {
  // Two's-complement big-endian magnitude to decimal digits by repeated division.
  if (unscaledBigEndian.empty()) return "0";
  std::vector<uint8_t> mag = unscaledBigEndian;
  const bool negative = mag[0] & 0x80;
  if (negative) {
    for (auto& b : mag) b = static_cast<uint8_t>(~b);
    for (size_t i = mag.size(); i-- > 0;) {
      if (++mag[i] != 0) break;
    }
  }
  std::string digits;
  bool nonZero = true;
  while (nonZero) {
    nonZero = false;
    uint32_t rem = 0;
    for (auto& b : mag) {
      const uint32_t cur = rem * 256 + b;
      b = static_cast<uint8_t>(cur / 10);
      rem = cur % 10;
      nonZero |= b != 0;
    }
    digits.push_back(static_cast<char>('0' + rem));
  }
  std::string s(digits.rbegin(), digits.rend());
  if (scale > 0) {
    if (static_cast<int32_t>(s.size()) <= scale) s.insert(0, scale - s.size() + 1, '0');
    s.insert(s.size() - scale, ".");
  } else if (scale < 0 && s != "0") {
    s.append(-scale, '0');
  }
  return negative ? "-" + s : s;
}

std::string Uuid::toString() const {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 15];
  }
  return out;
}

float Float16::toFloat() const {
  const uint32_t sign = (bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1f;
  const uint32_t mantissa = bits & 0x3ff;
  uint32_t out;
  if (exponent == 0) {
    if (mantissa == 0) {
      out = sign;
    } else {  // subnormal half: value = mantissa * 2^-24, normal as a float
      const float v = std::ldexp(static_cast<float>(mantissa), -24);
      std::memcpy(&out, &v, 4);
      out |= sign;
    }
  } else if (exponent == 31) {
    out = sign | 0x7f800000u | (mantissa << 13);  // inf or NaN, payload kept
  } else {
    out = sign | ((exponent + 112) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &out, 4);
  return f;
}

}  // namespace quarry
