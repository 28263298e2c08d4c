#pragma once

#include <string>

#include "quarry/common/values.h"

/// A Decimal predicate literal brought to a column's scale, exactly: the floor and
/// ceiling of the rescaled value (equal when the literal has no digit the scale
/// cannot hold), as the integer the column's carrier compares against.
namespace quarry::parquet {

__extension__ typedef __int128 Int128;

/// A Decimal literal rescaled to a scale: the floor and ceiling as sign + decimal
/// digits of the magnitude (no leading zeros, "0" for zero).
struct ScaledDecimal {
  bool negative = false;
  std::string floorDigits;
  std::string ceilDigits;
  bool floorNegative = false;
  bool ceilNegative = false;
  bool exact = true;
};

/// Rescales `literal` to `scale`. Throws InvalidArgument, prefixed with `column`,
/// when the rescaled value would need more than 100000 digits.
ScaledDecimal rescale(const Decimal& literal, int32_t scale, const std::string& column);

/// Returns sign + digits as an Int128, saturated at +/-2^120 (past every carrier).
Int128 toSaturatedInt128(bool negative, const std::string& digits);

/// Returns sign + digits as big-endian two's complement of minimal length (>= 1 byte).
std::string toTwosComplement(bool negative, const std::string& digits);

}  // namespace quarry::parquet
