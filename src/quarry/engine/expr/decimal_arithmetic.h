#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "quarry/engine/data/data_type.h"

/// Exact decimal helpers over Int128 unscaled values (precision <= 38).
namespace quarry::engine {

/// Returns 10^exponent for exponent in [0, 38].
Int128 pow10Int128(int exponent);

/// Returns the number of decimal digits of |value| (1 for zero).
int decimalDigits(Int128 value);

/// Returns `value` scaled up by 10^by (by >= 0), or nullopt when it overflows Int128.
std::optional<Int128> scaleUp(Int128 value, int by);

/// Returns `value` divided by 10^by (by >= 0), rounded half away from zero.
Int128 scaleDownRounded(Int128 value, int by);

/// Reads decimal digits (no sign) into an Int128; nullopt when more than 38 digits.
std::optional<Int128> parseUnscaled(std::string_view digits);

/// Renders an Int128 in base 10.
std::string int128ToString(Int128 value);

/// Renders unscaled/scale in plain notation: (-1250, 2) -> "-12.50".
std::string decimalToString(Int128 unscaled, int32_t scale);

/// Returns 10^exponent as a double for exponent in [0, 22] (all exact).
inline double pow10Double(int exponent) {
  static constexpr double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  return kPowers[exponent];
}

/// decimalToDouble for values too large for one exact division (out of line).
double decimalToDoubleWide(Int128 unscaled, int32_t scale);

/// Converts an unscaled decimal to the nearest double. Inline so that loops over
/// a block convert without a call: when |unscaled| < 2^53 and scale <= 22 both
/// operands are exact doubles and one correctly rounded division gives the double
/// nearest the decimal, as DuckDB's cast does.
inline double decimalToDouble(Int128 unscaled, int32_t scale) {
  const auto low = static_cast<int64_t>(unscaled);
  constexpr int64_t kExact = int64_t{1} << 53;
  if (static_cast<Int128>(low) == unscaled && low < kExact && low > -kExact && scale >= 0 &&
      scale <= 22) {
    return static_cast<double>(low) / pow10Double(scale);
  }
  return decimalToDoubleWide(unscaled, scale);
}

}  // namespace quarry::engine
