#include "quarry/formats/orc/encoding/varint.h"

#include "quarry/common/error.h"

namespace quarry::orc {
namespace {

[[noreturn]] void cutOff(const std::string& context, const char* what, size_t start, size_t size) {
  throw CorruptFile(context + ": " + what + " at offset " + std::to_string(start) +
                    " is cut off by the end of the stream (" + std::to_string(size) + " bytes)");
}

}  // namespace

uint64_t readVarint64Slow(std::span<const uint8_t> bytes, size_t& pos, const std::string& context,
                          const char* what) {
  const size_t start = pos;
  uint64_t value = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (pos >= bytes.size()) cutOff(context, what, start, bytes.size());
    const uint8_t byte = bytes[pos++];
    // The tenth byte holds bit 63 alone; anything more overflows 64 bits.
    if (shift == 63 && (byte & 0x7F) > 1) {
      throw CorruptFile(context + ": " + what + " at offset " + std::to_string(start) +
                        " does not fit 64 bits");
    }
    value |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return value;
    if (shift == 63) {
      throw CorruptFile(context + ": " + what + " at offset " + std::to_string(start) +
                        " is longer than 10 bytes");
    }
  }
}

Int128 readSignedVarint128(std::span<const uint8_t> bytes, size_t& pos,
                           const std::string& context) {
  const size_t start = pos;
  UInt128 value = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (pos >= bytes.size()) cutOff(context, "decimal varint", start, bytes.size());
    const uint8_t byte = bytes[pos++];
    const UInt128 chunk = byte & 0x7F;
    // The nineteenth byte (shift 126) may hold two bits; nothing may go past 128.
    if (shift >= 128 || (shift > 121 && (chunk >> (128 - shift)) != 0)) {
      throw CorruptFile(context + ": decimal varint at offset " + std::to_string(start) +
                        " needs more than 128 bits");
    }
    value |= chunk << shift;
    if ((byte & 0x80) == 0) break;
  }
  return static_cast<Int128>((value >> 1) ^ (~(value & 1) + 1));
}

}  // namespace quarry::orc
