#include "quarry/formats/codec/snappy_decompression.h"

#include <array>
#include <cstring>

// Fast path and careful path: every element first checks that it stays within
// the input and the output (the announced length); only then does it copy, with
// 16-byte moves when both the input (literals) and the output (slack included)
// have room for the rounded-up length, and exactly otherwise. A decoder that
// skipped those checks would read and write out of bounds on corrupt pages.
namespace quarry::parquet {
namespace {

inline void copy16(uint8_t* dst, const uint8_t* src) {
  uint8_t chunk[16];
  std::memcpy(chunk, src, 16);
  std::memcpy(dst, chunk, 16);
}

inline uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline void store64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }

inline uint32_t loadLe(const uint8_t* p, size_t bytes) {
  uint32_t v = 0;
  for (size_t i = 0; i < bytes; ++i) v |= static_cast<uint32_t>(p[i]) << (8 * i);
  return v;
}

/// Writes `len` bytes at `op` from `offset` bytes back (offset >= 1, checked by
/// the caller). `room` is how many bytes may be written from op on.
inline void copyBack(uint8_t* op, size_t offset, size_t len, size_t room) {
  const uint8_t* src = op - offset;
  if (room >= len + 16) {
    if (offset >= 16) {
      // Each 16-byte read lies wholly below the bytes it writes, and was written
      // by an earlier step (or before this copy).
      for (size_t i = 0; i < len; i += 16) copy16(op + i, src + i);
      return;
    }
    // Shorter offsets repeat a pattern. Copying chunk after chunk from `offset`
    // back would make every load wait for the store just before it; instead the
    // pattern is loaded once into registers and stored period after period.
    if (offset >= 8) {
      // One period is two 8-byte stores that may overlap (offset 8: the same one).
      const uint64_t head = load64(src);
      const uint64_t tail = load64(src + offset - 8);
      for (size_t i = 0; i < len; i += offset) {
        store64(op + i, head);
        store64(op + i + offset - 8, tail);
      }
      return;
    }
    // Offset 1-7: eight bytes of the pattern, stored every `step` bytes (the
    // largest multiple of the offset up to 8, where the pattern lines up again).
    uint8_t pattern[8];
    for (size_t i = 0; i < 8; ++i) pattern[i] = i < offset ? src[i] : pattern[i - offset];
    const uint64_t value = load64(pattern);
    const size_t step = offset * (8 / offset);
    for (size_t i = 0; i < len; i += step) store64(op + i, value);
    return;
  }
  if (offset >= len) {
    std::memcpy(op, src, len);
  } else {
    for (size_t i = 0; i < len; ++i) op[i] = src[i];
  }
}

/// Per tag byte: bits 0-7 the length (a literal's length - 1 is added when it
/// follows the tag, so 1 there), bits 8-10 the high bits of a 1-byte-offset
/// copy's offset, bits 11-13 how many bytes follow the tag.
constexpr std::array<uint16_t, 256> makeTagTable() {
  std::array<uint16_t, 256> table{};
  for (unsigned tag = 0; tag < 256; ++tag) {
    unsigned len = 0, high = 0, extra = 0;
    switch (tag & 3) {
      case 0:
        if ((tag >> 2) < 60) {
          len = (tag >> 2) + 1;
        } else {
          len = 1;
          extra = (tag >> 2) - 59;
        }
        break;
      case 1:
        len = 4 + ((tag >> 2) & 7);
        high = tag >> 5;
        extra = 1;
        break;
      case 2:
        len = (tag >> 2) + 1;
        extra = 2;
        break;
      default:
        len = (tag >> 2) + 1;
        extra = 4;
        break;
    }
    table[tag] = static_cast<uint16_t>(len | high << 8 | extra << 11);
  }
  return table;
}

constexpr std::array<uint16_t, 256> kTagTable = makeTagTable();

}  // namespace

std::optional<uint64_t> snappyUncompressedLength(std::span<const uint8_t> input) {
  uint64_t value = 0;
  for (size_t i = 0; i < 5 && i < input.size(); ++i) {
    value |= static_cast<uint64_t>(input[i] & 0x7f) << (7 * i);
    if ((input[i] & 0x80) == 0) {
      if (value > 0xffffffffu) return std::nullopt;
      return value;
    }
  }
  return std::nullopt;
}

const char* decompressSnappyBlock(std::span<const uint8_t> input, std::span<uint8_t> output,
                                  size_t outputSlack) {
  size_t header = 0;
  while (header < input.size() && header < 5 && (input[header] & 0x80) != 0) ++header;
  ++header;
  const auto announced = snappyUncompressedLength(input);
  if (!announced) return "the length preamble is malformed";
  if (*announced != output.size()) return "its preamble announces another length";

  const uint8_t* ip = input.data() + header;
  const uint8_t* const ipEnd = input.data() + input.size();
  if (output.data() == nullptr) outputSlack = 0;  // an empty output with no buffer behind it
  uint8_t* const outStart = output.data();
  uint8_t* op = outStart;
  uint8_t* const opEnd = outStart + output.size();
  uint8_t* const opCapEnd = opEnd + outputSlack;

  while (ip < ipEnd) {
    const uint8_t tag = *ip++;
    if ((tag & 3) == 0) {
      // A literal. Up to 60 bytes its length is in the tag, so the next tag's
      // position waits on no table lookup; beyond, the length - 1 follows in
      // 1-4 bytes.
      size_t len;
      if (tag < 60 << 2) {
        len = (tag >> 2) + 1u;
      } else {
        const size_t extra = (tag >> 2) - 59u;
        if (static_cast<size_t>(ipEnd - ip) < extra) return "a literal's length is cut off";
        len = loadLe(ip, extra) + size_t{1};
        ip += extra;
      }
      if (len > static_cast<size_t>(opEnd - op)) return "it decompresses to more bytes than announced";
      if (len <= 16 && ipEnd - ip >= 16 && opCapEnd - op >= 16) {
        copy16(op, ip);  // the common short literal: one 16-byte move
      } else if (len <= 64 && static_cast<size_t>(ipEnd - ip) >= len + 16 &&
                 static_cast<size_t>(opCapEnd - op) >= len + 16) {
        for (size_t i = 0; i < len; i += 16) copy16(op + i, ip + i);  // text: a few words
      } else {
        if (len > static_cast<size_t>(ipEnd - ip)) return "a literal runs past the end of the input";
        std::memcpy(op, ip, len);
      }
      op += len;
      ip += len;
      continue;
    }
    // A copy: its length, offset bits and size from one table lookup, the offset
    // from one load where four input bytes remain.
    const uint16_t entry = kTagTable[tag];
    const size_t extra = entry >> 11;
    uint32_t trailer;
    if (ipEnd - ip >= 4) {
      uint32_t word;
      std::memcpy(&word, ip, 4);
      trailer = static_cast<uint32_t>(word & ((uint64_t{1} << (8 * extra)) - 1));
    } else {
      if (static_cast<size_t>(ipEnd - ip) < extra) return "a copy's offset is cut off";
      trailer = loadLe(ip, extra);
    }
    ip += extra;
    const size_t len = entry & 0xff;
    const size_t offset = (entry & 0x700) + static_cast<size_t>(trailer);
    if (offset == 0 || offset > static_cast<size_t>(op - outStart)) {
      return "a copy reaches before the start of the output";
    }
    if (len > static_cast<size_t>(opEnd - op)) return "it decompresses to more bytes than announced";
    copyBack(op, offset, len, static_cast<size_t>(opCapEnd - op));
    op += len;
  }
  if (op != opEnd) return "it decompresses to fewer bytes than announced";
  return nullptr;
}

}  // namespace quarry::parquet
