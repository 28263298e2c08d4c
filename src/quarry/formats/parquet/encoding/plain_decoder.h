#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

/// PLAIN (Encodings.md, "PLAIN = 0"): values back to back, little endian, for
/// every physical type; also the format of dictionary pages.
namespace quarry::parquet {

/// One INT96 value as stored: 12 little-endian bytes. Writers use it for
/// timestamps, the first 8 bytes being nanoseconds within the day and the last 4
/// the Julian day; turning that into an instant is the type layer's job.
struct Int96 {
  uint8_t bytes[12];
};
static_assert(sizeof(Int96) == 12);

/// Decodes one page's PLAIN values in batches. The caller calls the method of the
/// column's physical type only. Byte arrays come out as views into the page's
/// bytes, which must outlive them. Every method throws CorruptFile, naming the
/// offset and what was expected, when the data ends before the values asked for;
/// on that error nothing is consumed.
class PlainDecoder {
 public:
  explicit PlainDecoder(std::span<const uint8_t> data) : data_(data) {}

  /// Decodes `n` booleans, bit-packed LSB first, as 0/1 bytes.
  void decodeBooleans(uint8_t* out, size_t n);
  void decodeInt32(int32_t* out, size_t n) { decodeFixed(out, n, "INT32"); }
  void decodeInt64(int64_t* out, size_t n) { decodeFixed(out, n, "INT64"); }
  void decodeInt96(Int96* out, size_t n) { decodeFixed(out, n, "INT96"); }
  void decodeFloat(float* out, size_t n) { decodeFixed(out, n, "FLOAT"); }
  void decodeDouble(double* out, size_t n) { decodeFixed(out, n, "DOUBLE"); }

  /// Decodes `n` BYTE_ARRAY values (a 4-byte length, then the bytes) as views.
  void decodeByteArrays(std::string_view* out, size_t n);

  /// Returns the `n` * `width` bytes of `n` FIXED_LEN_BYTE_ARRAY(width) values, a
  /// view into the page with the values back to back.
  std::span<const uint8_t> decodeFixedLenByteArrays(size_t n, size_t width);

  /// Skips `n` values of a fixed `width` in bytes (INT96 is 12, FLOAT 4, ...).
  void skipFixed(size_t n, size_t width) { decodeFixedLenByteArrays(n, width); }
  void skipBooleans(size_t n);
  void skipByteArrays(size_t n);

  /// Returns the offset of the next unread byte.
  size_t offset() const { return pos_; }
  /// Returns whether every byte was consumed (booleans count a started byte).
  bool atEnd() const { return pos_ + (bitOffset_ != 0) >= data_.size(); }

 private:
  template <typename T>
  void decodeFixed(T* out, size_t n, const char* type) {
    if (n > (data_.size() - pos_) / sizeof(T)) throwTruncated(type, n, sizeof(T));
    if (n > 0) std::memcpy(out, data_.data() + pos_, n * sizeof(T));
    pos_ += n * sizeof(T);
  }
  template <typename Visit>
  void walkByteArrays(size_t n, Visit&& visit);
  [[noreturn]] void throwTruncated(const char* type, size_t n, size_t width) const;

  std::span<const uint8_t> data_;
  size_t pos_ = 0;
  /// Booleans read of the byte at pos_ (0..7).
  size_t bitOffset_ = 0;
};

}  // namespace quarry::parquet
