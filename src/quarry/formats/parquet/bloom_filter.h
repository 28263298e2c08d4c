#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "quarry/formats/parquet/bound_predicate.h"
#include "quarry/formats/parquet/metadata.h"
#include "quarry/io/storage.h"

/// Parquet's split-block Bloom filters (parquet-format BloomFilter.md): a bitset
/// of 32-byte blocks, each eight little-endian 32-bit words. A value is hashed
/// with XXH64 (seed 0) over its PLAIN encoding (a BYTE_ARRAY without its length
/// prefix); the upper 32 bits of the hash pick a block, the lower 32 bits, times
/// eight salt constants, set one bit in each word. A filter answers "maybe
/// present" or "certainly absent", so it can only prove that an eq / in matches
/// no row of a column chunk (query-controls.txt, "Bloom filter and dictionary
/// pruning").
namespace quarry::parquet {

class BloomFilter {
 public:
  /// Wraps a bitset of `bitset.size()` bytes, a positive multiple of 32.
  explicit BloomFilter(std::vector<uint8_t> bitset);

  /// Returns false when no value hashing to `hash` was inserted.
  bool mightContain(uint64_t hash) const;
  /// Sets the bits of `hash` (writers and tests).
  void insert(uint64_t hash);

  const std::vector<uint8_t>& bitset() const { return bitset_; }

 private:
  std::vector<uint8_t> bitset_;
};

/// Returns XXH64 with seed 0 of `plain`, the hash Parquet Bloom filters use.
uint64_t bloomHash(std::string_view plain);

/// Returns the PLAIN encodings of the literals of `node` (a leaf eq or in) on its
/// column, or nullopt where the spec's table says the Bloom filter is not used:
/// any other operator, a BOOLEAN column, a NaN literal (or an in holding one), a
/// float on FLOAT16, a Decimal on DECIMAL over BYTE_ARRAY, an Instant on INT96 and
/// a 12-byte timestamp compared by its instant. The stored bytes of a byte[]
/// literal (INT96 and FLOAT16 included) are used as they are.
std::optional<std::vector<std::string>> bloomProbeValues(const BoundNode& node);

/// Reads the Bloom filter of column chunk `meta` (of column `leaf`, row group
/// `rowGroup`): one range read of bloom_filter_length bytes when the chunk records
/// it, else the header then the bitset. Returns nullopt when the chunk has no
/// filter or one of an algorithm, hash or compression the spec does not define.
/// Throws CorruptFile naming the file, row group and column for an offset or a
/// length outside the file, an undecodable header or a bitset size that is not a
/// positive multiple of 32 bytes or does not fit the recorded length.
std::optional<BloomFilter> readBloomFilter(io::StorageObject& file, int rowGroup,
                                           const ColumnMetaData& meta, const SchemaNode& leaf);

/// Returns whether any value of hash `hashes` may be in the Bloom filter of
/// column chunk `meta`, reading only the filter's header and the 32-byte blocks
/// the hashes fall in (a point lookup reads a few dozen bytes of a filter of
/// hundreds of KiB): with a recorded bloom_filter_length, one batch of ranges,
/// else the header then the blocks. A filter hardly larger than those blocks is
/// read whole. Returns nullopt, and throws, as readBloomFilter.
std::optional<bool> bloomFilterMayContain(io::StorageObject& file, int rowGroup,
                                          const ColumnMetaData& meta, const SchemaNode& leaf,
                                          std::span<const uint64_t> hashes);

/// The bytes bloomFilterMayContain reads for `hashes` hashes, at most (before a
/// header longer than writers make).
uint64_t bloomProbeBytes(const ColumnMetaData& meta, size_t hashes);

}  // namespace quarry::parquet
