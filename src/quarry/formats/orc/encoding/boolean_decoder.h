#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "quarry/formats/orc/encoding/byte_rle_decoder.h"

/// ORC boolean streams (PRESENT, BOOLEAN DATA): bits packed most significant
/// first into bytes, the bytes byte-RLE encoded. [0xff, 0x80] (a one-byte literal
/// group holding 0x80) is one true followed by seven false values.
namespace quarry::orc {

/// Decodes a boolean stream into bytes of 0 or 1.
class BooleanDecoder {
 public:
  BooleanDecoder(std::span<const uint8_t> stream, std::string context);

  /// Writes the next out.size() values (0 or 1); throws CorruptFile when the
  /// stream ends first.
  void next(std::span<uint8_t> out);
  /// Skips n values; throws as next() does.
  void skip(uint64_t n);

 private:
  ByteRleDecoder bytes_;
  uint8_t current_ = 0;    // the byte being consumed, its next bit at the top
  unsigned bitsLeft_ = 0;  // bits of current_ not yet returned
  std::array<uint8_t, 256> scratch_;
};

}  // namespace quarry::orc
