#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "quarry/formats/parquet/encoding/delta_binary_packed_decoder.h"

/// DELTA_LENGTH_BYTE_ARRAY (Encodings.md, "DELTA_LENGTH_BYTE_ARRAY = 6"): the
/// lengths of all values as one DELTA_BINARY_PACKED stream, then the values'
/// bytes back to back. "Hello" "World" "Foobar" "ABCDEF" is DeltaEncoding(5 5 6 6)
/// followed by "HelloWorldFoobarABCDEF".
namespace quarry::parquet {

/// Decodes one DELTA_LENGTH_BYTE_ARRAY stream in batches as views into its bytes,
/// which must outlive them. The lengths are decoded lazily beside a second cursor
/// on the bytes, so nothing is allocated from the declared value count.
class DeltaLengthByteArrayDecoder {
 public:
  /// Reads the lengths' header at `data[start]` and finds where the bytes start
  /// (walking the lengths' blocks). Error offsets count from `data[0]`. Throws
  /// CorruptFile as DeltaBinaryPackedDecoder does.
  explicit DeltaLengthByteArrayDecoder(std::span<const uint8_t> data, size_t start = 0);

  /// Returns the value count the lengths' header declares (a claim; see
  /// DeltaBinaryPackedDecoder::valueCount).
  uint64_t valueCount() const { return lengths_.valueCount(); }
  uint64_t remaining() const { return lengths_.remaining(); }

  /// Decodes up to `n` values into `out` and returns how many: fewer only when the
  /// declared values run out. Throws CorruptFile for a negative length or one past
  /// the end of the data, naming the value's offset.
  size_t getBatch(std::string_view* out, size_t n);

  /// Skips up to `n` values and returns how many, with getBatch's errors.
  size_t skip(size_t n);

  /// Returns the offset of the next value's bytes; after the last value, the end
  /// of the encoded data.
  size_t offset() const { return bytesPos_; }

 private:
  template <typename Visit>
  size_t walk(size_t n, Visit&& visit);

  std::span<const uint8_t> data_;
  DeltaBinaryPackedDecoder<int32_t> lengths_;
  size_t bytesPos_ = 0;
};

}  // namespace quarry::parquet
