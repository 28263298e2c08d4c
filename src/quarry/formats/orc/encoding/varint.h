#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

/// Base-128 varints as ORC stores them (the Protocol Buffers form: little endian,
/// seven bits a byte, the high bit set while more bytes follow), the zigzag map of
/// signed values, and the unbounded varint of DECIMAL DATA streams (at most 128
/// bits here: the 38-digit precision limit needs 127 bits plus the sign).
namespace quarry::orc {

__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

/// Reads any varint (see readVarint64).
uint64_t readVarint64Slow(std::span<const uint8_t> bytes, size_t& pos, const std::string& context,
                          const char* what);

/// Reads the unsigned varint at `bytes[pos]` and moves `pos` past it. Throws
/// CorruptFile naming `context` and the offset when the bytes end inside the
/// varint or it does not fit 64 bits; `what` names the value ("RLEv1 literal").
inline uint64_t readVarint64(std::span<const uint8_t> bytes, size_t& pos,
                             const std::string& context, const char* what = "varint") {
  // Most lengths and small values take one byte: keep that path inline.
  if (pos < bytes.size() && bytes[pos] < 0x80) return bytes[pos++];
  return readVarint64Slow(bytes, pos, context, what);
}

/// Maps a zigzag-encoded integer back to its signed value (0, -1, 1, -2, ...).
constexpr int64_t unZigZag(uint64_t value) {
  return static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1));
}

/// Reads a zigzag varint at `bytes[pos]` (see readVarint64).
inline int64_t readSignedVarint64(std::span<const uint8_t> bytes, size_t& pos,
                                  const std::string& context, const char* what = "varint") {
  return unZigZag(readVarint64(bytes, pos, context, what));
}

/// Reads the zigzag varint of a DECIMAL value at `bytes[pos]` and moves `pos`
/// past it. Throws CorruptFile when the bytes end inside it or it needs more than
/// 128 bits.
Int128 readSignedVarint128(std::span<const uint8_t> bytes, size_t& pos, const std::string& context);

}  // namespace quarry::orc
