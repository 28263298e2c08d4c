#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

/// Unpacking of LSB-first bit-packed integers: the packing that the RLE/bit-packed
/// hybrid, DELTA_BINARY_PACKED miniblocks and PLAIN booleans share. Value i of a
/// packed sequence of width w occupies bits [i*w, (i+1)*w) counted from the least
/// significant bit of byte 0, so 8 values of width w fill exactly w bytes: the
/// unit the fast paths work on.
namespace quarry::parquet {

/// Returns the bytes that `count` values of `bitWidth` bits occupy, the last byte
/// partly filled; never overflows for any count a span can describe.
constexpr size_t packedByteCount(size_t count, unsigned bitWidth) {
  return (count / 8) * bitWidth + ((count % 8) * bitWidth + 7) / 8;
}

/// Unpacks values [first, first + count) of a sequence of `bitWidth`-bit values
/// packed from the start of `packed` into `out`. `packed` is every byte that may
/// be read: at least packedByteCount(first + count, bitWidth) of them, else
/// InvalidArgument; passing the rest of the page rather than just the values'
/// bytes lets all but the page's last groups take the whole-word fast path.
/// `bitWidth` may be 0 (all values are 0) up to the bits of the output type; a
/// wider one throws InvalidArgument.
void unpackBits(std::span<const uint8_t> packed, size_t first, size_t count, unsigned bitWidth,
                uint8_t* out);
void unpackBits(std::span<const uint8_t> packed, size_t first, size_t count, unsigned bitWidth,
                uint16_t* out);
void unpackBits(std::span<const uint8_t> packed, size_t first, size_t count, unsigned bitWidth,
                uint32_t* out);
void unpackBits(std::span<const uint8_t> packed, size_t first, size_t count, unsigned bitWidth,
                uint64_t* out);

}  // namespace quarry::parquet
