#include "quarry/formats/orc/encoding/int_rle_v2_decoder.h"

#include <algorithm>
#include <array>
#include <utility>

#include "quarry/formats/orc/encoding/bit_unpacking.h"
#include "quarry/formats/orc/encoding/varint.h"

namespace quarry::orc {
namespace {

enum SubEncoding : uint8_t { kShortRepeat = 0, kDirect = 1, kPatchedBase = 2, kDelta = 3 };

/// The 9-bit length (stored minus one) that DIRECT, PATCHED_BASE and DELTA share:
/// the low bit of the first header byte, then all of the second.
size_t runLength(uint8_t first, uint8_t second) {
  return ((size_t{first} & 1) << 8 | second) + 1;
}

}  // namespace

unsigned decodeBitWidth(unsigned code) {
  static constexpr std::array<unsigned, 8> kWide = {26, 28, 30, 32, 40, 48, 56, 64};
  return code < 24 ? code + 1 : kWide[code - 24];
}

unsigned closestFixedBits(unsigned bits) {
  if (bits <= 24) return bits;
  if (bits <= 32) return bits + (bits & 1);
  return (bits + 7) / 8 * 8;
}

IntRleV2Decoder::IntRleV2Decoder(std::span<const uint8_t> stream, bool isSigned,
                                 std::string context)
    : RunDecoder(stream, isSigned, std::move(context)) {}

size_t IntRleV2Decoder::decodeRun(int64_t* dest) {
  const size_t runStart = pos_;
  const uint8_t first = readByte("RLEv2 header");
  switch (first >> 6) {
    case kShortRepeat:
      return shortRepeat(first, dest);
    case kDirect:
      return direct(first, runStart, dest);
    case kPatchedBase:
      return patchedBase(first, runStart, dest);
    default:
      return delta(first, runStart, dest);
  }
}

void IntRleV2Decoder::unpack(unsigned width, size_t count, uint64_t* out, const char* what,
                             size_t runStart) {
  const uint64_t bytes = packedBytes(width, count);
  require(bytes, what, runStart);
  unpackBigEndian(stream_.data() + pos_, width, count, out);
  pos_ += bytes;
}

size_t IntRleV2Decoder::shortRepeat(uint8_t first, int64_t* dest) {
  const unsigned width = ((first >> 3) & 7) + 1;
  const size_t count = (first & 7) + 3;
  require(width, "the SHORT_REPEAT value", pos_ - 1);
  uint64_t value = 0;
  for (unsigned i = 0; i < width; ++i) value = (value << 8) | stream_[pos_ + i];
  pos_ += width;
  std::fill_n(dest, count, signed_ ? unZigZag(value) : static_cast<int64_t>(value));
  return count;
}

size_t IntRleV2Decoder::direct(uint8_t first, size_t runStart, int64_t* dest) {
  const unsigned width = decodeBitWidth((first >> 1) & 0x1F);
  const size_t length = runLength(first, readByte("RLEv2 DIRECT header"));
  auto* out = reinterpret_cast<uint64_t*>(dest);
  unpack(width, length, out, "the DIRECT values", runStart);
  if (signed_) {
    for (size_t i = 0; i < length; ++i) dest[i] = unZigZag(out[i]);
  }
  return length;
}

size_t IntRleV2Decoder::patchedBase(uint8_t first, size_t runStart, int64_t* dest) {
  const unsigned width = decodeBitWidth((first >> 1) & 0x1F);
  const size_t length = runLength(first, readByte("RLEv2 PATCHED_BASE header"));
  const uint8_t third = readByte("RLEv2 PATCHED_BASE header");
  const uint8_t fourth = readByte("RLEv2 PATCHED_BASE header");
  const unsigned baseBytes = (third >> 5) + 1;
  const unsigned patchWidth = decodeBitWidth(third & 0x1F);
  const unsigned gapWidth = (fourth >> 5) + 1;
  const size_t patchCount = fourth & 0x1F;
  if (gapWidth + patchWidth > 64) {
    fail("RLEv2 PATCHED_BASE run has patch gap width " + std::to_string(gapWidth) +
             " + patch width " + std::to_string(patchWidth) + " > 64 bits",
         runStart);
  }
  if (patchCount > 0 && width + patchWidth > 64) {
    fail("RLEv2 PATCHED_BASE run patches values of width " + std::to_string(width) + " with " +
             std::to_string(patchWidth) + " more bits, past 64",
         runStart);
  }

  // The base is big-endian with its top bit as the sign (sign-magnitude).
  require(baseBytes, "the PATCHED_BASE base value", runStart);
  uint64_t base = 0;
  for (unsigned i = 0; i < baseBytes; ++i) base = (base << 8) | stream_[pos_ + i];
  pos_ += baseBytes;
  const uint64_t signBit = uint64_t{1} << (baseBytes * 8 - 1);
  if ((base & signBit) != 0) base = ~(base & ~signBit) + 1;

  auto* out = reinterpret_cast<uint64_t*>(dest);
  unpack(width, length, out, "the PATCHED_BASE values", runStart);

  const unsigned entryWidth = closestFixedBits(gapWidth + patchWidth);
  std::array<uint64_t, 31> patches;
  unpack(entryWidth, patchCount, patches.data(), "the PATCHED_BASE patch list", runStart);
  // patchWidth <= 63: the gap takes at least one of the entry's 64 bits.
  const uint64_t patchMask = (uint64_t{1} << patchWidth) - 1;
  size_t index = 0;
  for (size_t i = 0; i < patchCount; ++i) {
    // A gap over 255 is written as entries of gap 255 and patch 0, which OR nothing.
    index += patches[i] >> patchWidth;
    const uint64_t patch = patches[i] & patchMask;
    if (patch == 0) continue;
    if (index >= length) {
      fail("RLEv2 PATCHED_BASE patch " + std::to_string(i) + " lands on value " +
               std::to_string(index) + " of a run of " + std::to_string(length),
           runStart);
    }
    out[index] |= patch << width;
  }
  for (size_t i = 0; i < length; ++i) dest[i] = static_cast<int64_t>(base + out[i]);
  return length;
}

size_t IntRleV2Decoder::delta(uint8_t first, size_t runStart, int64_t* dest) {
  const unsigned code = (first >> 1) & 0x1F;
  const unsigned width = code == 0 ? 0 : decodeBitWidth(code);
  const size_t length = runLength(first, readByte("RLEv2 DELTA header"));
  const uint64_t rawBase = readVarint64(stream_, pos_, context_, "RLEv2 DELTA base");
  const uint64_t base = signed_ ? static_cast<uint64_t>(unZigZag(rawBase)) : rawBase;
  const int64_t firstDelta = readSignedVarint64(stream_, pos_, context_, "RLEv2 DELTA delta");
  // Unsigned arithmetic throughout: the writer's longs wrapped the same way.
  const auto step = static_cast<uint64_t>(firstDelta);
  if (width == 0) {
    for (size_t i = 0; i < length; ++i) dest[i] = static_cast<int64_t>(base + step * i);
    return length;
  }
  dest[0] = static_cast<int64_t>(base);
  if (length == 1) return 1;
  dest[1] = static_cast<int64_t>(base + step);
  auto* deltas = reinterpret_cast<uint64_t*>(dest + 2);
  unpack(width, length - 2, deltas, "the DELTA deltas", runStart);
  uint64_t value = base + step;
  if (firstDelta < 0) {
    for (size_t i = 2; i < length; ++i) dest[i] = static_cast<int64_t>(value -= deltas[i - 2]);
  } else {
    for (size_t i = 2; i < length; ++i) dest[i] = static_cast<int64_t>(value += deltas[i - 2]);
  }
  return length;
}

}  // namespace quarry::orc
