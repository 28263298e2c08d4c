#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

/// DELTA_BINARY_PACKED (Encodings.md, "DELTA_BINARY_PACKED = 5") for INT32 and
/// INT64, and the length sections of DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY.
///
/// A header <block size> <miniblocks per block> <value count> <first value>
/// (ULEB128, the last zigzag) is followed by blocks; each block is
/// <min delta, zigzag> <one bit-width byte per miniblock> <miniblocks>, and a
/// miniblock holds (block size / miniblocks) deltas minus min delta, bit-packed
/// at its width. Value i+1 = value i + min delta + packed delta, wrapping.
///
/// Worked example (Encodings.md's second; the spec shrinks the block to 8 values
/// for brevity, which real data may not): 7 5 3 1 2 3 4 5 has deltas
/// -2 -2 -2 1 1 1 1, min delta -2, so the miniblock packs 0 0 0 3 3 3 3 at 2 bits.
///
/// Blocks are read lazily, when a value of theirs is asked for: the bit widths of
/// miniblocks past the last value may be garbage (the spec says readers must
/// accept that), and their bodies are absent.
namespace quarry::parquet {

/// Decodes one DELTA_BINARY_PACKED stream in batches. T is int32_t or int64_t;
/// arithmetic wraps in the unsigned type of T, as the spec requires.
template <typename T>
class DeltaBinaryPackedDecoder {
  static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>);

 public:
  using Unsigned = std::make_unsigned_t<T>;

  /// Largest block size accepted; it keeps every size computation far from overflow.
  static constexpr uint64_t kMaxBlockSize = uint64_t{1} << 31;

  /// Reads the header at the start of `data`. Throws CorruptFile for a header
  /// that is cut off, or a block size that is not a positive multiple of 128 up to
  /// kMaxBlockSize, or a miniblock count that does not divide it into miniblocks
  /// of a multiple of 8 values (the spec says 32; parquet-mr could be configured
  /// to 8, and either keeps every miniblock a whole number of bytes).
  explicit DeltaBinaryPackedDecoder(std::span<const uint8_t> data)
      : DeltaBinaryPackedDecoder(data, 0) {}

  /// Reads the header at `data[start]`; error offsets count from `data[0]`, so a
  /// stream inside a page reports page offsets.
  DeltaBinaryPackedDecoder(std::span<const uint8_t> data, size_t start);

  /// Returns the value count the header declares: a claim, checked only as values
  /// are decoded, so callers must not allocate from it unchecked.
  uint64_t valueCount() const { return valueCount_; }
  /// Returns how many of the declared values have not been decoded or skipped.
  uint64_t remaining() const { return remaining_; }

  /// Decodes up to `n` values into `out` and returns how many: fewer only when the
  /// declared values run out. Throws CorruptFile (naming the block's offset) for a
  /// needed block or miniblock that is cut off, or a needed miniblock wider than T.
  size_t getBatch(T* out, size_t n);

  /// Skips up to `n` values (decoding them: each value depends on the last) and
  /// returns how many, with getBatch's errors.
  size_t skip(size_t n);

  /// Returns the offset in the span just past the last declared value's miniblock
  /// (where a following section starts), walking the blocks not yet read without
  /// decoding their values. Throws CorruptFile as getBatch would.
  size_t endOffset() const;

 private:
  void readBlockHeader();
  void startMiniblock();
  /// Unpacks `count` deltas of the current miniblock wider than Unsigned,
  /// keeping their low bits (the sum is taken modulo 2^bits of T anyway).
  void unpackWideDeltas(size_t count, Unsigned* out) const;

  std::span<const uint8_t> data_;
  size_t pos_ = 0;
  uint64_t valuesPerMiniblock_ = 0;
  uint64_t miniblocksPerBlock_ = 0;
  uint64_t valueCount_ = 0;
  uint64_t remaining_ = 0;
  bool firstPending_ = false;
  Unsigned last_ = 0;

  // The current block.
  size_t blockOffset_ = 0;
  Unsigned minDelta_ = 0;
  const uint8_t* bitWidths_ = nullptr;
  /// Index of the next miniblock to start; miniblocksPerBlock_ means a new block.
  uint64_t nextMiniblock_ = 0;

  // The current miniblock.
  /// The miniblock's bytes and everything after them in the data.
  std::span<const uint8_t> packed_;
  unsigned bitWidth_ = 0;
  uint64_t miniblockNext_ = 0;
  uint64_t miniblockRemaining_ = 0;
};

extern template class DeltaBinaryPackedDecoder<int32_t>;
extern template class DeltaBinaryPackedDecoder<int64_t>;

}  // namespace quarry::parquet
