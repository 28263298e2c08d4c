#include "quarry/engine/expr/decimal_arithmetic.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace quarry::engine {

namespace {

constexpr std::array<Int128, 39> makePowers() {
  std::array<Int128, 39> powers{};
  powers[0] = 1;
  for (size_t i = 1; i < powers.size(); ++i) powers[i] = powers[i - 1] * 10;
  return powers;
}

constexpr std::array<Int128, 39> kPowers = makePowers();

}  // namespace

Int128 pow10Int128(int exponent) {
  return kPowers[static_cast<size_t>(std::clamp(exponent, 0, 38))];
}

int decimalDigits(Int128 value) {
  unsigned __int128 magnitude = value < 0 ? static_cast<unsigned __int128>(-(value + 1)) + 1
                                          : static_cast<unsigned __int128>(value);
  int digits = 1;
  while (magnitude >= 10) {
    magnitude /= 10;
    ++digits;
  }
  return digits;
}

std::optional<Int128> scaleUp(Int128 value, int by) {
  if (by <= 0) return value;
  if (by > 38) return value == 0 ? std::optional<Int128>(0) : std::nullopt;
  Int128 out;
  if (__builtin_mul_overflow(value, kPowers[static_cast<size_t>(by)], &out)) return std::nullopt;
  return out;
}

Int128 scaleDownRounded(Int128 value, int by) {
  if (by <= 0) return value;
  if (by > 38) return 0;
  const Int128 divisor = kPowers[static_cast<size_t>(by)];
  const Int128 quotient = value / divisor;
  const Int128 remainder = value % divisor;
  // Half away from zero: |remainder| * 2 >= divisor rounds the magnitude up.
  const Int128 magnitude = remainder < 0 ? -remainder : remainder;
  if (magnitude >= divisor - magnitude) return quotient + (value < 0 ? -1 : 1);
  return quotient;
}

std::optional<Int128> parseUnscaled(std::string_view digits) {
  if (digits.empty() || digits.size() > 38) return std::nullopt;
  Int128 value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

std::string int128ToString(Int128 value) {
  if (value == 0) return "0";
  const bool negative = value < 0;
  unsigned __int128 magnitude = negative ? static_cast<unsigned __int128>(-(value + 1)) + 1
                                         : static_cast<unsigned __int128>(value);
  std::string out;
  while (magnitude > 0) {
    out.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  if (negative) out.push_back('-');
  std::reverse(out.begin(), out.end());
  return out;
}

std::string decimalToString(Int128 unscaled, int32_t scale) {
  std::string digits = int128ToString(unscaled);
  if (scale <= 0) return digits;
  const bool negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.erase(0, 1);
  const auto width = static_cast<size_t>(scale);
  if (digits.size() <= width) digits.insert(0, width + 1 - digits.size(), '0');
  digits.insert(digits.size() - width, 1, '.');
  return negative ? "-" + digits : digits;
}

double decimalToDoubleWide(Int128 unscaled, int32_t scale) {
  // Splitting keeps both parts exactly representable for the common precisions.
  const Int128 divisor = pow10Int128(scale);
  const Int128 whole = unscaled / divisor;
  const Int128 fraction = unscaled % divisor;
  return static_cast<double>(whole) + static_cast<double>(fraction) / static_cast<double>(divisor);
}

}  // namespace quarry::engine
