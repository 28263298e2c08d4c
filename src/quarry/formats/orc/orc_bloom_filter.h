#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/formats/orc/orc_predicate.h"
#include "quarry/formats/orc/orc_tail.h"

/// ORC's per-row-group Bloom filters (BLOOM_FILTER_UTF8 streams, one
/// BloomFilterIndex per column per stripe, one BloomFilter per row group; the
/// older BLOOM_FILTER streams hash the same way but strings in the writer's
/// JVM charset, so the reader uses them for numbers and dates only).
///
/// A value is hashed to 64 bits: integers (and dates) by Thomas Wang's 64-bit
/// integer hash of the value (Java long arithmetic, arithmetic right shifts),
/// doubles (floats widened) by the same hash of the IEEE bits, strings and
/// binary by ORC's Murmur3 hash64 of the bytes (seed 104729). The two 32-bit
/// halves h1 (low) and h2 (high) then give, for k = 1 .. numHashFunctions, the
/// bit (h1 + k * h2 in 32-bit arithmetic, its bits flipped when negative) modulo
/// the filter's bit count; a value is absent when one of its bits is clear.
/// Worked example: numHashFunctions 2, 64 bits, h1 = 5, h2 = 1 tests bits 6
/// and 7.
namespace quarry::orc {

class OrcBloomFilter {
 public:
  /// Decodes a decompressed BLOOM_FILTER_UTF8 (or BLOOM_FILTER) stream: one
  /// filter per row group.
  /// Throws CorruptFile naming `context` when the stream does not parse; a
  /// filter without bits or hash functions (or implausibly many) is kept as
  /// "unknown" (mightContain always true).
  static std::vector<OrcBloomFilter> decodeIndex(std::span<const uint8_t> stream,
                                                 const std::string& context);

  /// Returns false only when no value hashing to `hash64` was added.
  bool mightContain(uint64_t hash64) const;

  /// The hash of an integer (and a date's days, a double's IEEE bits).
  static uint64_t longHash(int64_t value);
  /// ORC's Murmur3 hash64 of `bytes`.
  static uint64_t bytesHash(std::string_view bytes);

 private:
  std::vector<uint64_t> bits_;
  uint32_t numHashFunctions_ = 0;
};

/// Returns true when `filter` proves that the column of comparison `node` (eq,
/// notEq or in) holds none of its literals. Only where the writer's hashing is
/// known: tinyint .. bigint and date, float and double (not NaN), string,
/// varchar and binary (but for keys with a byte >= 0x80 after their last 8-byte
/// block, where writers' Murmur3 tails have differed); never for char, decimal,
/// timestamp or boolean.
bool bloomProvesAbsent(const OrcBloomFilter& filter, const OrcBoundNode& node);

/// Returns whether the Bloom filters of the file's writer can be trusted:
/// filters of Java writers, and of C++ writers from 1.6.12 on (earlier C++
/// writers hashed integers with logical right shifts: the example files
/// bad_bloom_filter_1.6.0.orc and _1.6.11.orc).
bool bloomFiltersUsable(const OrcTail& tail);

}  // namespace quarry::orc
