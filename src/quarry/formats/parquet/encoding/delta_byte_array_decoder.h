#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "quarry/formats/parquet/encoding/delta_binary_packed_decoder.h"
#include "quarry/formats/parquet/encoding/delta_length_byte_array_decoder.h"

/// DELTA_BYTE_ARRAY (Encodings.md, "DELTA_BYTE_ARRAY = 7"), front compression for
/// BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY: each value is a prefix of the value
/// before it plus a suffix. The prefix lengths are one DELTA_BINARY_PACKED stream,
/// the suffixes a DELTA_LENGTH_BYTE_ARRAY stream after it:
///
///     "axis" "axle" "babble" "babyhood"
///     prefix lengths 0 2 0 3, suffixes "axis" "le" "babble" "yhood"
namespace quarry::parquet {

/// Decodes one DELTA_BYTE_ARRAY stream in batches. Values are rebuilt, so they
/// live in storage this decoder owns: the views of a batch stay valid until the
/// next getBatch or skip call (or the decoder's end). FIXED_LEN_BYTE_ARRAY callers
/// check the lengths against the column's width.
class DeltaByteArrayDecoder {
 public:
  /// Reads both streams' headers and finds where the suffixes start. Throws
  /// CorruptFile as DeltaBinaryPackedDecoder does, and when the two streams
  /// declare different value counts.
  explicit DeltaByteArrayDecoder(std::span<const uint8_t> data);

  uint64_t valueCount() const { return prefixLengths_.valueCount(); }
  uint64_t remaining() const { return prefixLengths_.remaining(); }

  /// Decodes up to `n` values into `out` and returns how many: fewer only when the
  /// declared values run out. Throws CorruptFile for a prefix length that is
  /// negative or longer than the value before it, naming the value.
  size_t getBatch(std::string_view* out, size_t n);

  /// Skips up to `n` values and returns how many, with getBatch's errors.
  size_t skip(size_t n);

 private:
  /// Decodes the next `n` (available) prefix lengths and suffixes into the scratch
  /// arrays and checks every prefix against the value before it.
  void readParts(size_t n);

  DeltaBinaryPackedDecoder<int32_t> prefixLengths_;
  DeltaLengthByteArrayDecoder suffixes_;
  /// The last value decoded or skipped, the base of the next prefix.
  std::vector<uint8_t> previous_;
  /// The bytes the current batch's views point into.
  std::vector<uint8_t> values_;
  std::vector<int32_t> prefixes_;
  std::vector<std::string_view> suffixViews_;
};

}  // namespace quarry::parquet
