#pragma once

#include <cstddef>
#include <cstdint>

/// Big-endian bit unpacking, the layout of RLEv2's DIRECT, PATCHED_BASE and DELTA
/// values: value 0 occupies the most significant bits of the first byte, and each
/// value continues into the next byte's high bits. Width 4, values [1, 2, 3]:
/// bytes 0x12 0x30 (the last byte padded with zero bits).
namespace quarry::orc {

/// Returns the bytes `count` values of `width` bits occupy, rounded up to a byte.
constexpr uint64_t packedBytes(unsigned width, uint64_t count) {
  // count <= 512 in RLEv2, so the product cannot overflow.
  return (uint64_t{width} * count + 7) / 8;
}

/// Unpacks `count` values of `width` bits (1..64) from `in` into `out`. The caller
/// guarantees that packedBytes(width, count) bytes are readable at `in`.
void unpackBigEndian(const uint8_t* in, unsigned width, size_t count, uint64_t* out);

}  // namespace quarry::orc
