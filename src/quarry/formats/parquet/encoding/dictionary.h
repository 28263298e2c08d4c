#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/encoding/rle_bit_packed_decoder.h"

/// Dictionary encoding (Encodings.md, "PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8"):
/// a dictionary page of PLAIN values, then data pages of indices into it, one
/// byte of bit width followed by RLE/bit-packed runs. Decoding the indices is
/// RleBitPackedDecoder::forDictionaryIndices; this file gathers values by them.
namespace quarry::parquet {

/// Makes the decoder of an RLE_DICTIONARY or PLAIN_DICTIONARY data page's values
/// (after the levels): the width byte, then runs. Bit width 0, an index page of
/// all zeros, decodes without any bytes per run.
inline RleBitPackedDecoder dictionaryIndexDecoder(std::span<const uint8_t> values) {
  return RleBitPackedDecoder::forDictionaryIndices(values);
}

/// Writes dict[idx[i]] to out[i] for i < n. Throws CorruptFile naming the first
/// index that is not below `dictSize`, and the dictionary's size, before writing
/// anything. The check is a max-reduction and the gather a plain loop, both over
/// contiguous arrays.
template <typename T>
void gather(const T* dict, size_t dictSize, const uint32_t* idx, size_t n, T* out) {
  uint32_t maxIndex = 0;
  for (size_t i = 0; i < n; ++i) maxIndex = std::max(maxIndex, idx[i]);
  if (n > 0 && maxIndex >= dictSize) {
    const size_t bad = static_cast<size_t>(
        std::find_if(idx, idx + n, [&](uint32_t index) { return index >= dictSize; }) - idx);
    throw CorruptFile("dictionary index " + std::to_string(idx[bad]) + " (value " +
                      std::to_string(bad) + " of the batch) is out of range for a dictionary of " +
                      std::to_string(dictSize) + " values");
  }
  for (size_t i = 0; i < n; ++i) out[i] = dict[idx[i]];
}

}  // namespace quarry::parquet
