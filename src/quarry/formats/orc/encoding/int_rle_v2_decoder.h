#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "quarry/formats/orc/encoding/integer_decoder.h"

/// Integer run length encoding version 2. The two high bits of a run's first byte
/// pick one of four sub-encodings:
///   SHORT_REPEAT (0): 3 to 10 copies of one value of 1 to 8 big-endian bytes.
///     [0x0a, 0x27, 0x10] = 5 x 10000.
///   DIRECT (1): 1 to 512 values bit-packed big-endian at a width from the 5-bit
///     width table. [0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef]
///     = [23713, 43806, 57005, 48879] (width 16, length 4).
///   PATCHED_BASE (2): a base, narrow packed offsets from it, and a patch list
///     that ORs the high bits of the few values the narrow width cannot hold; each
///     patch names its position by the gap from the previous patch.
///   DELTA (3): a first value, a first delta (its sign gives the direction), then
///     packed magnitudes of the further deltas, or none at width 0 (a constant
///     step). [0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46]
///     = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29].
namespace quarry::orc {

/// Decodes the 5-bit encoded width of DIRECT, PATCHED_BASE and DELTA runs to bits
/// (1..64; code 0 means 1 bit, except for DELTA, where it means 0 bits).
unsigned decodeBitWidth(unsigned code);

/// Rounds a patch's gap + value width (1..64) up to the width its list entries
/// use: the spec's closestFixedBits (25 and 26 -> 26, 33..40 -> 40, ...).
unsigned closestFixedBits(unsigned bits);

/// Decodes an RLEv2 integer stream (signed values zigzag encoded, except in
/// PATCHED_BASE, whose base carries a sign bit).
class IntRleV2Decoder final : public RunDecoder {
 public:
  IntRleV2Decoder(std::span<const uint8_t> stream, bool isSigned, std::string context);

 private:
  size_t decodeRun(int64_t* dest) override;
  size_t shortRepeat(uint8_t first, int64_t* dest);
  size_t direct(uint8_t first, size_t runStart, int64_t* dest);
  size_t patchedBase(uint8_t first, size_t runStart, int64_t* dest);
  size_t delta(uint8_t first, size_t runStart, int64_t* dest);
  /// Unpacks `count` values of `width` bits at pos_ into `out`, moving past them.
  void unpack(unsigned width, size_t count, uint64_t* out, const char* what, size_t runStart);
};

}  // namespace quarry::orc
