#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "quarry/formats/orc/encoding/integer_decoder.h"
#include "quarry/formats/orc/encoding/varint.h"

/// DECIMAL columns. Encoding DIRECT / DIRECT_V2 keeps each value's unscaled
/// integer as an unbounded zigzag varint in DATA and its scale in SECONDARY
/// (signed integer RLE v1 / v2); a value's scale may differ from the column's.
/// ORCv2's DECIMAL64 (DIRECT_V2 for precision <= 18) keeps the unscaled values as
/// signed RLEv2 in DATA, at the column's scale. -12.50 in decimal(10,2): unscaled
/// -1250, scale 2.
namespace quarry::orc {

/// The largest precision of an ORC decimal (127 bits and a sign).
inline constexpr int32_t kMaxDecimalPrecision = 38;

/// Decodes a DECIMAL column's value streams into unscaled 128-bit integers.
class DecimalDecoder {
 public:
  /// Reads DIRECT (kV1) or DIRECT_V2 (kV2) decimals: varints in `data`, scales in
  /// `secondary`. `columnScale` is the type's scale (0..38).
  DecimalDecoder(std::span<const uint8_t> data, std::span<const uint8_t> secondary,
                 RleVersion version, int32_t columnScale, std::string context);

  /// Reads ORCv2 DECIMAL64 values: signed RLEv2 in `data` at `columnScale`.
  static DecimalDecoder decimal64(std::span<const uint8_t> data, int32_t columnScale,
                                  std::string context);

  /// Writes the next values as stored: unscaled integers and their scales.
  void nextRaw(std::span<Int128> unscaled, std::span<int32_t> scales);
  /// Writes the next out.size() values rescaled to the column's scale (see
  /// rescaleDecimal). Throws CorruptFile when a scale is outside 0..38 or a value
  /// overflows 38 digits at the column's scale.
  void next(std::span<Int128> out);
  /// Skips n values.
  void skip(uint64_t n);

  int32_t columnScale() const { return columnScale_; }

 private:
  DecimalDecoder(std::span<const uint8_t> data, int32_t columnScale, std::string context);

  std::span<const uint8_t> data_;
  size_t pos_ = 0;
  int32_t columnScale_;
  std::string context_;
  std::unique_ptr<IntegerDecoder> scales_;    // DIRECT, DIRECT_V2
  std::unique_ptr<IntegerDecoder> values64_;  // DECIMAL64
};

/// Rescales `unscaled` from scale `from` to scale `to` (both 0..38), truncating
/// toward zero when digits drop, as the C++ reader that wrote the examples'
/// expected files does (a Hive 0.11 file's 12345678.6547457 read at the forced
/// scale 6 is 12345678.654745). Returns false when the result needs more than 38
/// digits.
bool rescaleDecimal(Int128 unscaled, int32_t from, int32_t to, Int128& out);

/// Renders an unscaled value at `scale` exactly: toString(-1250, 2) = "-12.50",
/// toString(5, 3) = "0.005", toString(7, 0) = "7".
std::string decimalToString(Int128 unscaled, int32_t scale);

}  // namespace quarry::orc
