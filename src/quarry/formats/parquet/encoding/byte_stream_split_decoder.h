#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

/// BYTE_STREAM_SPLIT (Encodings.md, "BYTE_STREAM_SPLIT = 9") for FLOAT, DOUBLE,
/// INT32, INT64 and FIXED_LEN_BYTE_ARRAY(width): byte k of every value is stored
/// in stream k, the K streams back to back. Three 4-byte values
/// AABBCCDD 00112233 A3B4C5D6 are stored as AA 00 A3 BB 11 B4 CC 22 C5 DD 33 D6.
namespace quarry::parquet {

/// Decodes one page's BYTE_STREAM_SPLIT values in batches, putting the bytes of
/// each value back together.
class ByteStreamSplitDecoder {
 public:
  /// Makes a decoder over `data`, values of `width` bytes (at least 1). The page
  /// holds data.size() / width values; throws CorruptFile when the size is not a
  /// multiple of the width (the spec allows no padding).
  ByteStreamSplitDecoder(std::span<const uint8_t> data, size_t width);

  size_t valueCount() const { return valueCount_; }
  size_t remaining() const { return valueCount_ - next_; }
  size_t width() const { return width_; }

  /// Decodes up to `n` values into `out`, n * width bytes with the values back to
  /// back, and returns how many: fewer only when the page's values run out.
  size_t getBatch(uint8_t* out, size_t n);

  /// Decodes into an array of a type exactly `width` bytes wide (float, double,
  /// int32_t, int64_t); another size throws InvalidArgument.
  template <typename T>
  requires std::is_trivially_copyable_v<T> size_t getBatch(T* out, size_t n) {
    checkWidth(sizeof(T));
    return getBatch(reinterpret_cast<uint8_t*>(out), n);
  }

  /// Skips up to `n` values and returns how many.
  size_t skip(size_t n);

 private:
  void checkWidth(size_t size) const;

  std::span<const uint8_t> data_;
  size_t width_;
  size_t valueCount_ = 0;
  size_t next_ = 0;
};

}  // namespace quarry::parquet
