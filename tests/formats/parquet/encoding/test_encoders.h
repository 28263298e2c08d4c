#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

/// Tiny reference encoders for the decoder tests: written straight from
/// Encodings.md, favouring clarity over speed, so that round trips check the
/// decoders against an independent reading of the spec.
namespace quarry::parquet::testing {

using Bytes = std::vector<uint8_t>;

inline void appendUleb128(Bytes& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<uint8_t>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<uint8_t>(value));
}

inline uint64_t zigzag(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}

inline void appendLe32(Bytes& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

/// Packs values LSB first at `bitWidth` bits, one bit at a time.
inline Bytes packBits(const std::vector<uint64_t>& values, unsigned bitWidth) {
  Bytes out((values.size() * bitWidth + 7) / 8, 0);
  size_t bit = 0;
  for (uint64_t value : values) {
    for (unsigned b = 0; b < bitWidth; ++b, ++bit) {
      if ((value >> b) & 1) out[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
    }
  }
  return out;
}

inline void appendRleRun(Bytes& out, uint64_t count, uint64_t value, unsigned bitWidth) {
  appendUleb128(out, count << 1);
  for (unsigned i = 0; i < (bitWidth + 7) / 8; ++i)
    out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

/// Appends one bit-packed run of `values`, padded with zeros to a multiple of 8.
inline void appendBitPackedRun(Bytes& out, std::vector<uint64_t> values, unsigned bitWidth) {
  while (values.size() % 8 != 0) values.push_back(0);
  appendUleb128(out, (values.size() / 8) << 1 | 1);
  const Bytes packed = packBits(values, bitWidth);
  out.insert(out.end(), packed.begin(), packed.end());
}

/// Encodes with the hybrid: repeats of 8 or more become RLE runs, the rest
/// bit-packed runs (padding only the last one, as writers do).
inline Bytes encodeHybrid(const std::vector<uint64_t>& values, unsigned bitWidth) {
  Bytes out;
  std::vector<uint64_t> literal;
  size_t i = 0;
  while (i < values.size()) {
    size_t j = i;
    while (j < values.size() && values[j] == values[i]) ++j;
    // Only start an RLE run on a group boundary of the pending literals.
    if (j - i >= 8 + (8 - literal.size() % 8) % 8) {
      const size_t fill = (8 - literal.size() % 8) % 8;
      literal.insert(literal.end(), fill, values[i]);
      if (!literal.empty()) appendBitPackedRun(out, literal, bitWidth);
      literal.clear();
      appendRleRun(out, j - i - fill, values[i], bitWidth);
    } else {
      literal.insert(literal.end(), values.begin() + static_cast<std::ptrdiff_t>(i),
                     values.begin() + static_cast<std::ptrdiff_t>(j));
    }
    i = j;
  }
  if (!literal.empty()) appendBitPackedRun(out, literal, bitWidth);
  return out;
}

inline unsigned bitsNeeded(uint64_t value) {
  return static_cast<unsigned>(std::bit_width(value));
}

/// Options of the DELTA_BINARY_PACKED reference encoder.
struct DeltaOptions {
  uint64_t blockSize = 128;
  uint64_t miniblocks = 4;
  /// Bit width written for the unused miniblocks of the last block (the spec says
  /// 0 but readers must accept anything).
  uint8_t unusedBitWidth = 0;
};

/// Encodes int32 or int64 values; deltas wrap in the unsigned type of T.
template <typename T>
Bytes encodeDeltaBinaryPacked(const std::vector<T>& values, DeltaOptions options = {}) {
  using U = std::make_unsigned_t<T>;
  Bytes out;
  appendUleb128(out, options.blockSize);
  appendUleb128(out, options.miniblocks);
  appendUleb128(out, values.size());
  appendUleb128(out, zigzag(values.empty() ? 0 : static_cast<int64_t>(values[0])));
  const uint64_t perMiniblock = options.blockSize / options.miniblocks;
  for (size_t start = 1; start < values.size(); start += options.blockSize) {
    const size_t end = std::min<size_t>(values.size(), start + options.blockSize);
    std::vector<T> deltas;
    for (size_t i = start; i < end; ++i) {
      deltas.push_back(static_cast<T>(static_cast<U>(values[i]) - static_cast<U>(values[i - 1])));
    }
    const T minDelta = *std::min_element(deltas.begin(), deltas.end());
    appendUleb128(out, zigzag(static_cast<int64_t>(minDelta)));
    std::vector<std::vector<uint64_t>> miniblocks(options.miniblocks);
    for (size_t i = 0; i < deltas.size(); ++i) {
      miniblocks[i / perMiniblock].push_back(
          static_cast<U>(static_cast<U>(deltas[i]) - static_cast<U>(minDelta)));
    }
    std::vector<unsigned> widths;
    for (auto& miniblock : miniblocks) {
      unsigned width = 0;
      for (uint64_t v : miniblock) width = std::max(width, bitsNeeded(v));
      widths.push_back(miniblock.empty() ? options.unusedBitWidth : width);
      out.push_back(static_cast<uint8_t>(widths.back()));
    }
    for (size_t m = 0; m < miniblocks.size(); ++m) {
      if (miniblocks[m].empty()) break;
      miniblocks[m].resize(perMiniblock, 0);
      const Bytes packed = packBits(miniblocks[m], widths[m]);
      out.insert(out.end(), packed.begin(), packed.end());
    }
  }
  return out;
}

inline Bytes encodeDeltaLengthByteArray(const std::vector<std::string>& values) {
  std::vector<int32_t> lengths;
  for (const auto& v : values) lengths.push_back(static_cast<int32_t>(v.size()));
  Bytes out = encodeDeltaBinaryPacked(lengths);
  for (const auto& v : values) out.insert(out.end(), v.begin(), v.end());
  return out;
}

inline Bytes encodeDeltaByteArray(const std::vector<std::string>& values) {
  std::vector<int32_t> prefixes;
  std::vector<std::string> suffixes;
  std::string previous;
  for (const auto& v : values) {
    size_t prefix = 0;
    while (prefix < previous.size() && prefix < v.size() && previous[prefix] == v[prefix]) ++prefix;
    prefixes.push_back(static_cast<int32_t>(prefix));
    suffixes.push_back(v.substr(prefix));
    previous = v;
  }
  Bytes out = encodeDeltaBinaryPacked(prefixes);
  const Bytes rest = encodeDeltaLengthByteArray(suffixes);
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

/// Splits values of `width` bytes (back to back in `plain`) into byte streams.
inline Bytes encodeByteStreamSplit(const Bytes& plain, size_t width) {
  const size_t n = plain.size() / width;
  Bytes out(plain.size());
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < width; ++k) out[k * n + i] = plain[i * width + k];
  }
  return out;
}

}  // namespace quarry::parquet::testing
