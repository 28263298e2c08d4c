#include "quarry/formats/parquet/encoding/bit_unpacking.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <string>
#include <utility>

#include "quarry/common/error.h"

namespace quarry::parquet {
namespace {

// The packed bytes are read as little-endian words; a big-endian host would need
// a byte swap per word, which nothing here does.
static_assert(std::endian::native == std::endian::little, "bit unpacking assumes little-endian");

/// Extracts value J of a group of 8 `W`-bit values held in little-endian words.
/// Every position is a compile-time constant, so a group unpacks to straight-line
/// shifts and masks with no branch.
template <typename Out, unsigned W, size_t J>
inline Out extractValue(const uint64_t* words) {
  constexpr size_t kBit = J * W;
  constexpr size_t kWord = kBit / 64;
  constexpr unsigned kShift = kBit % 64;
  uint64_t value = words[kWord] >> kShift;
  if constexpr (kShift + W > 64) value |= words[kWord + 1] << (64 - kShift);
  if constexpr (W < 64) value &= (uint64_t{1} << W) - 1;
  return static_cast<Out>(value);
}

template <typename Out, unsigned W, size_t... J>
inline void unpackGroupFromWords(const uint64_t* words, Out* out, std::index_sequence<J...>) {
  ((out[J] = extractValue<Out, W, J>(words)), ...);
}

/// Unpacks one whole group of 8 values from the W bytes at `in`, reading
/// ceil(W / 8) whole words: up to 7 bytes past the group, which the caller
/// guarantees exist. Whole-word loads go straight to registers; assembling a
/// partial last word on the stack instead stalls on store forwarding and costs
/// about 3x for widths that are not a multiple of 8.
template <typename Out, unsigned W>
inline void unpackGroupReadingWholeWords(const uint8_t* in, Out* out) {
  if constexpr (W == 0) {
    for (size_t j = 0; j < 8; ++j) out[j] = 0;
  } else {
    constexpr size_t kWords = (W + 7) / 8;
    uint64_t words[kWords];
    std::memcpy(words, in, kWords * 8);
    unpackGroupFromWords<Out, W>(words, out, std::make_index_sequence<8>{});
  }
}

/// Bytes a whole-word group read touches from its start.
template <unsigned W>
constexpr size_t kWholeWordBytes = (W + 7) / 8 * 8;

/// Unpacks values [from, to) of the group of 8 at `in`, of which only `bytes`
/// bytes exist: the group is first copied into a zero-padded buffer so that the
/// whole-group code never reads past the caller's bytes.
template <typename Out, unsigned W>
inline void unpackPartialGroup(const uint8_t* in, size_t bytes, size_t from, size_t to, Out* out) {
  uint8_t padded[kWholeWordBytes<W> > 0 ? kWholeWordBytes<W> : 1] = {};
  if (bytes > 0) std::memcpy(padded, in, bytes);
  Out group[8];
  unpackGroupReadingWholeWords<Out, W>(padded, group);
  std::copy(group + from, group + to, out);
}

template <typename Out, unsigned W>
void unpackRange(const uint8_t* packed, const uint8_t* end, size_t first, size_t count, Out* out) {
  const uint8_t* in = packed + (first / 8) * W;
  if (const size_t lead = first % 8; lead != 0) {
    const size_t groupEnd = std::min<size_t>(8, lead + count);
    unpackPartialGroup<Out, W>(in, packedByteCount(groupEnd, W), lead, groupEnd, out);
    out += groupEnd - lead;
    count -= groupEnd - lead;
    in += W;
  }
  // Whole groups with whole words readable behind them; the last group or so
  // before `end` goes through the padded copy.
  for (; count >= 8 && static_cast<size_t>(end - in) >= kWholeWordBytes<W>;
       count -= 8, in += W, out += 8) {
    unpackGroupReadingWholeWords<Out, W>(in, out);
  }
  for (; count >= 8; count -= 8, in += W, out += 8) {
    uint8_t padded[kWholeWordBytes<W> > 0 ? kWholeWordBytes<W> : 1] = {};
    std::memcpy(padded, in, W);
    unpackGroupReadingWholeWords<Out, W>(padded, out);
  }
  if (count > 0) unpackPartialGroup<Out, W>(in, packedByteCount(count, W), 0, count, out);
}

template <typename Out>
using UnpackFunction = void (*)(const uint8_t*, const uint8_t*, size_t, size_t, Out*);

template <typename Out, size_t... W>
constexpr std::array<UnpackFunction<Out>, sizeof...(W)> unpackTable(std::index_sequence<W...>) {
  return {&unpackRange<Out, static_cast<unsigned>(W)>...};
}

/// Dispatches once per call on the bit width, so the per-value code is
/// specialised for it.
template <typename Out>
void dispatchUnpack(std::span<const uint8_t> packed, size_t first, size_t count, unsigned bitWidth,
                    Out* out) {
  static constexpr auto kTable = unpackTable<Out>(std::make_index_sequence<sizeof(Out) * 8 + 1>{});
  if (bitWidth >= kTable.size()) {
    throw InvalidArgument("bit width " + std::to_string(bitWidth) + " does not fit a " +
                          std::to_string(sizeof(Out) * 8) + "-bit output");
  }
  if (count == 0) return;
  if (packed.size() < packedByteCount(first + count, bitWidth)) {
    throw InvalidArgument("unpacking values [" + std::to_string(first) + ", " +
                          std::to_string(first + count) + ") of " + std::to_string(bitWidth) +
                          " bits needs " +
                          std::to_string(packedByteCount(first + count, bitWidth)) +
                          " bytes, but only " + std::to_string(packed.size()) + " are given");
  }
  kTable[bitWidth](packed.data(), packed.data() + packed.size(), first, count, out);
}

}  // namespace

void unpackBits(std::span<const uint8_t> packed, size_t first, size_t count, unsigned bitWidth,
                uint8_t* out) {
  dispatchUnpack(packed, first, count, bitWidth, out);
}

void unpackBits(std::span<const uint8_t> packed, size_t first, size_t count, unsigned bitWidth,
                uint16_t* out) {
  dispatchUnpack(packed, first, count, bitWidth, out);
}

void unpackBits(std::span<const uint8_t> packed, size_t first, size_t count, unsigned bitWidth,
                uint32_t* out) {
  dispatchUnpack(packed, first, count, bitWidth, out);
}

void unpackBits(std::span<const uint8_t> packed, size_t first, size_t count, unsigned bitWidth,
                uint64_t* out) {
  dispatchUnpack(packed, first, count, bitWidth, out);
}

}  // namespace quarry::parquet
