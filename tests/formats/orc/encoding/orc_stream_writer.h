#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

/// Test-only writers of ORC stream encodings, the inverse of the decoders under
/// test: varints, byte RLE groups, and each RLEv1 / RLEv2 sub-encoding with the
/// parameters spelled out, so tests can build edge cases the spec allows but
/// real writers rarely produce.
namespace quarry::orc::testing {

using Bytes = std::vector<uint8_t>;

inline void putVarint(Bytes& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<uint8_t>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<uint8_t>(value));
}

inline uint64_t zigzag(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}

/// Appends `values` packed big-endian at `width` bits, padded to a byte.
inline void putPacked(Bytes& out, const std::vector<uint64_t>& values, unsigned width) {
  uint64_t acc = 0;
  unsigned bits = 0;
  for (uint64_t value : values) {
    for (int bit = static_cast<int>(width) - 1; bit >= 0; --bit) {
      acc = (acc << 1) | ((value >> bit) & 1);
      if (++bits == 8) {
        out.push_back(static_cast<uint8_t>(acc));
        acc = 0;
        bits = 0;
      }
    }
  }
  if (bits > 0) out.push_back(static_cast<uint8_t>(acc << (8 - bits)));
}

/// Returns the 5-bit code of `bits` in the RLEv2 width table (delta: 0 -> 0).
inline unsigned widthCode(unsigned bits) {
  if (bits == 0) return 0;
  if (bits <= 24) return bits - 1;
  switch (bits) {
    case 26:
      return 24;
    case 28:
      return 25;
    case 30:
      return 26;
    case 32:
      return 27;
    case 40:
      return 28;
    case 48:
      return 29;
    case 56:
      return 30;
    case 64:
      return 31;
  }
  throw std::invalid_argument("no RLEv2 width code for " + std::to_string(bits));
}

/// RLEv2 SHORT_REPEAT of `count` (3..10) copies of `raw` in `bytes` (1..8) bytes.
inline void putShortRepeat(Bytes& out, uint64_t raw, unsigned bytes, unsigned count) {
  out.push_back(static_cast<uint8_t>((bytes - 1) << 3 | (count - 3)));
  for (int i = static_cast<int>(bytes) - 1; i >= 0; --i)
    out.push_back(static_cast<uint8_t>(raw >> (8 * i)));
}

inline void putLengthHeader(Bytes& out, unsigned kind, unsigned code, size_t length) {
  out.push_back(static_cast<uint8_t>(kind << 6 | code << 1 | ((length - 1) >> 8)));
  out.push_back(static_cast<uint8_t>((length - 1) & 0xFF));
}

/// RLEv2 DIRECT of `raw` values (zigzagged already when signed) at `width` bits.
inline void putDirect(Bytes& out, const std::vector<uint64_t>& raw, unsigned width) {
  putLengthHeader(out, 1, widthCode(width), raw.size());
  putPacked(out, raw, width);
}

/// RLEv2 DELTA: base (zigzagged when signed), first delta, then `deltas` at `width`.
inline void putDelta(Bytes& out, uint64_t rawBase, int64_t firstDelta, size_t length,
                     const std::vector<uint64_t>& deltas, unsigned width) {
  putLengthHeader(out, 3, widthCode(width), length);
  putVarint(out, rawBase);
  putVarint(out, zigzag(firstDelta));
  if (width > 0) putPacked(out, deltas, width);
}

/// RLEv2 PATCHED_BASE with every field given: base (sign-magnitude in baseBytes),
/// data at `width`, and (gap, patch) entries at patchWidth / gapWidth bits.
inline void putPatchedBase(Bytes& out, int64_t base, unsigned baseBytes,
                           const std::vector<uint64_t>& data, unsigned width,
                           const std::vector<std::pair<uint64_t, uint64_t>>& patches,
                           unsigned patchWidth, unsigned gapWidth) {
  putLengthHeader(out, 2, widthCode(width), data.size());
  out.push_back(static_cast<uint8_t>((baseBytes - 1) << 5 | widthCode(patchWidth)));
  out.push_back(static_cast<uint8_t>((gapWidth - 1) << 5 | patches.size()));
  uint64_t magnitude = base < 0 ? ~static_cast<uint64_t>(base) + 1 : static_cast<uint64_t>(base);
  if (base < 0) magnitude |= uint64_t{1} << (baseBytes * 8 - 1);
  for (int i = static_cast<int>(baseBytes) - 1; i >= 0; --i) {
    out.push_back(static_cast<uint8_t>(magnitude >> (8 * i)));
  }
  putPacked(out, data, width);
  const unsigned total = gapWidth + patchWidth;
  const unsigned entryWidth = total <= 24   ? total
                              : total <= 32 ? total + (total & 1)
                                            : (total + 7) / 8 * 8;
  std::vector<uint64_t> entries;
  for (const auto& [gap, patch] : patches) entries.push_back(gap << patchWidth | patch);
  putPacked(out, entries, entryWidth);
}

/// Byte RLE: a run of `count` (3..130) copies of `value`.
inline void putByteRun(Bytes& out, uint8_t value, unsigned count) {
  out.push_back(static_cast<uint8_t>(count - 3));
  out.push_back(value);
}

/// Byte RLE: a literal group of 1..128 bytes.
inline void putByteLiterals(Bytes& out, const std::vector<uint8_t>& values) {
  out.push_back(static_cast<uint8_t>(256 - values.size()));
  out.insert(out.end(), values.begin(), values.end());
}

/// Byte RLE of any bytes: runs where 3+ repeat, literal groups elsewhere.
inline Bytes encodeByteRle(const std::vector<uint8_t>& values) {
  Bytes out;
  std::vector<uint8_t> literals;
  size_t i = 0;
  auto flush = [&] {
    for (size_t k = 0; k < literals.size(); k += 128) {
      putByteLiterals(out, std::vector<uint8_t>(literals.begin() + static_cast<long>(k),
                                                literals.begin() + static_cast<long>(std::min(
                                                                       k + 128, literals.size()))));
    }
    literals.clear();
  };
  while (i < values.size()) {
    size_t run = 1;
    while (i + run < values.size() && values[i + run] == values[i] && run < 130) ++run;
    if (run >= 3) {
      flush();
      putByteRun(out, values[i], static_cast<unsigned>(run));
      i += run;
    } else {
      literals.push_back(values[i++]);
    }
  }
  flush();
  return out;
}

}  // namespace quarry::orc::testing
