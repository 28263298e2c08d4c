#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "quarry/common/error.h"

/// ULEB128 and zigzag integers, as the RLE/bit-packed hybrid (run headers) and
/// DELTA_BINARY_PACKED (block header, min deltas) store them.
namespace quarry::parquet {

/// Reads the ULEB128 integer at `bytes[pos]` and moves `pos` past it. Throws
/// CorruptFile naming `what` and the offset when the bytes end inside the integer
/// or it does not fit 64 bits.
inline uint64_t readUleb128(std::span<const uint8_t> bytes, size_t& pos, const char* what) {
  const size_t start = pos;
  uint64_t value = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (pos >= bytes.size()) {
      throw CorruptFile(std::string(what) + ": ULEB128 integer at offset " + std::to_string(start) +
                        " is cut off by the end of the data (" + std::to_string(bytes.size()) +
                        " bytes)");
    }
    const uint8_t byte = bytes[pos++];
    // The tenth byte holds bit 63 alone; anything more overflows 64 bits.
    if (shift == 63 && byte > 1) {
      throw CorruptFile(std::string(what) + ": ULEB128 integer at offset " + std::to_string(start) +
                        " does not fit 64 bits");
    }
    value |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return value;
  }
}

/// Maps a zigzag-encoded integer back to its signed value (0, -1, 1, -2, ...).
constexpr int64_t zigzagDecode(uint64_t value) {
  return static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1));
}

}  // namespace quarry::parquet
