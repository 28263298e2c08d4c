#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "quarry/common/values.h"
#include "quarry/formats/parquet/variant_encoding.h"

/// Writing Variant values (VariantEncoding.md) in the compact form the
/// reference writers produce and the parquet-testing files hold: strings under
/// 64 bytes as short strings, and every object's and array's element count,
/// field ids and offsets in the fewest bytes that hold them.
namespace quarry::parquet {

/// Returns the fewest bytes (1 to 4) that hold `maxValue` unsigned.
int variantIntegerSize(uint32_t maxValue);

/// Appends a primitive with no value data: null, true or false.
void appendVariantEmpty(Bytes& out, VariantPrimitiveType type);
/// Appends a primitive whose value data is `data` as given (little-endian numbers,
/// a decimal's scale then unscaled digits, a UUID's 16 big-endian bytes).
void appendVariantPrimitive(Bytes& out, VariantPrimitiveType type, std::span<const uint8_t> data);
/// Appends an integer primitive of `type` (int8 to int64, date, time, timestamps)
/// holding the low bytes of `value`.
void appendVariantInteger(Bytes& out, VariantPrimitiveType type, int64_t value);
/// Appends a string: a short string below 64 bytes, else the long form.
void appendVariantString(Bytes& out, std::string_view text);
/// Appends a binary value.
void appendVariantBinary(Bytes& out, std::span<const uint8_t> bytes);
/// Appends a decimal whose unscaled value is `unscaledBigEndian` (two's
/// complement, any width up to 16 bytes), as decimal4, decimal8 or decimal16
/// by `type`; throws CorruptFile when the value does not fit that width.
void appendVariantDecimal(Bytes& out, VariantPrimitiveType type,
                          std::span<const uint8_t> unscaledBigEndian, int32_t scale);

/// One field of an object under construction: its dictionary id and name and
/// its encoded value.
struct VariantObjectField {
  uint32_t id = 0;
  std::string_view name;
  std::span<const uint8_t> value;
};

/// Appends an object of `fields`: sorts them by name (unsigned bytes), then
/// writes ids, offsets and values in that order. Throws CorruptFile when two
/// fields share a name.
void appendVariantObject(Bytes& out, std::vector<VariantObjectField> fields);
/// Appends an array of the encoded `elements`, in order.
void appendVariantArray(Bytes& out, const std::vector<std::span<const uint8_t>>& elements);

}  // namespace quarry::parquet
