#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "quarry/engine/exec/data_type.h"

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

/// Converts an unscaled decimal to the nearest double.
double decimalToDouble(Int128 unscaled, int32_t scale);

}  // namespace quarry::engine
