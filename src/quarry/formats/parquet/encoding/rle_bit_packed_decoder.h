#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

/// The RLE/bit-packed hybrid (Encodings.md, "RLE = 3"): the encoding of
/// repetition and definition levels, dictionary indices and RLE booleans.
///
/// The data is a sequence of runs of fixed-width values. Each run starts with a
/// ULEB128 header whose low bit tells its kind:
///   - even header h: an RLE run of h/2 copies of one value, stored in
///     ceil(bitWidth/8) little-endian bytes;
///   - odd header h: a bit-packed run of (h/2) groups of 8 values, packed LSB first
///     in (h/2) * bitWidth bytes.
///
/// Worked example, bit width 3, ten 4s followed by 0 1 2 3 4 5 6 7:
///
///     14 04        RLE run: header 0x14 = 10 << 1, value 0x04
///     03 88 C6 FA  bit-packed run: header 0x03 = 1 group << 1 | 1, then 8 values in
///                  3 bytes: 10001000 11000110 11111010 read from the low bits up is
///                  000 001 010 011 100 101 110 111
///
/// A run may claim more values than the caller needs (the last bit-packed group is
/// padded, and writers round runs up); the caller's count decides where decoding
/// stops, and headers are only read when a value of their run is asked for, so
/// trailing padding after the last needed run is never looked at.
namespace quarry::parquet {

/// Decodes a stream of hybrid runs in batches into contiguous arrays. Offsets in
/// its errors count from the start of the span the decoder was made from.
class RleBitPackedDecoder {
 public:
  /// Largest bit width the hybrid allows (dictionary indices are at most 32 bits).
  static constexpr unsigned kMaxBitWidth = 32;

  /// Makes a decoder over `data`, runs of `bitWidth`-bit values (0..32) with no
  /// length prefix: data page v2 levels, dictionary indices after their width byte.
  RleBitPackedDecoder(std::span<const uint8_t> data, unsigned bitWidth);

  /// Makes a decoder over runs prefixed by their 4-byte little-endian length, as
  /// data page v1 levels and RLE booleans are; encodedSize() then tells where the
  /// next section of the page starts. Throws CorruptFile when the prefix is cut off
  /// or claims more bytes than `data` holds.
  static RleBitPackedDecoder withLengthPrefix(std::span<const uint8_t> data, unsigned bitWidth);

  /// Makes a decoder over an RLE_DICTIONARY (or PLAIN_DICTIONARY) data page's
  /// values: one byte of bit width (at most 32), then runs. An empty span, a page
  /// whose values are all null, decodes as no values.
  static RleBitPackedDecoder forDictionaryIndices(std::span<const uint8_t> data);

  /// Decodes up to `n` values into `out` and returns how many it decoded: fewer
  /// than `n` only when the data ends cleanly after a run. Throws CorruptFile when
  /// the data ends inside a run header, an RLE value or the bits of a needed value,
  /// for a run length outside [1, 2^31 - 1], or an RLE value wider than the width.
  size_t getBatch(uint32_t* out, size_t n);
  /// Decodes levels; the bit width must be at most 16 (levels are int16).
  size_t getBatch(int16_t* out, size_t n);
  /// Decodes small values such as booleans (0/1); the bit width must be at most 8.
  size_t getBatch(uint8_t* out, size_t n);

  /// Skips up to `n` values and returns how many it skipped, with getBatch's errors.
  size_t skip(size_t n);

  unsigned bitWidth() const { return bitWidth_; }

  /// Returns how many bytes of the span this decoder was made from belong to the
  /// encoded data: the length prefix and its length when there is one, the width
  /// byte and the runs for dictionary indices, else the whole span.
  size_t encodedSize() const { return data_.size(); }

 private:
  /// Decodes data[start, data.size()), counting error offsets from data[0].
  RleBitPackedDecoder(std::span<const uint8_t> data, size_t start, unsigned bitWidth);

  /// Reads the next run header; returns false when the data ends cleanly.
  bool nextRun();
  template <typename Out>
  size_t decode(Out* out, size_t n);
  [[noreturn]] void throwPackedBitsMissing(size_t wanted) const;

  /// The span the decoder was made from, cut at the end of the encoded data.
  std::span<const uint8_t> data_;
  unsigned bitWidth_ = 0;
  size_t pos_ = 0;

  // The current run.
  bool rle_ = false;
  uint32_t rleValue_ = 0;
  size_t runRemaining_ = 0;
  size_t runOffset_ = 0;
  /// The bit-packed run's bytes and everything after them in the data.
  std::span<const uint8_t> packed_;
  /// Index of the next value within the bit-packed run.
  size_t packedNext_ = 0;
  /// Values of the bit-packed run whose bits are present (fewer than the header
  /// claims when the data is cut short; an error only if one of them is needed).
  size_t packedPresent_ = 0;
  size_t packedClaimed_ = 0;
};

}  // namespace quarry::parquet
