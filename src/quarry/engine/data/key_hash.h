#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

/// Hashing and comparing the keys of the engine's hash tables (GROUP BY's groups,
/// COUNT_DISTINCT's values): a 64-bit finalizer for words, a hash of byte strings
/// that reads short keys without a loop, and an equality of short keys without a
/// library call. Not a stable format: hashes are never stored outside a process.
namespace quarry::engine::key_hash {

inline uint64_t load64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline uint32_t load32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

/// Spreads every bit of `h` over the whole word (MurmurHash3's finalizer), so that the
/// low bits of consecutive or stepped integers index a power-of-two table evenly.
inline uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

/// The bytes of a key shorter than 8, as one word: two overlapping 4-byte loads
/// from 4 bytes on, else the first, middle and last byte (the length, mixed in by
/// the caller, tells apart what these words cannot).
inline uint64_t shortWord(const char* data, size_t length) {
  if (length >= 4) return (uint64_t{load32(data)} << 32) | load32(data + length - 4);
  if (length == 0) return 0;
  return (uint64_t{static_cast<uint8_t>(data[0])} << 16) | (uint64_t{static_cast<uint8_t>(data[length / 2])} << 8) |
         static_cast<uint8_t>(data[length - 1]);
}

inline uint64_t hashBytes(const char* data, size_t length) {
  uint64_t h = 0x9E3779B97F4A7C15ULL ^ (length * 0xff51afd7ed558ccdULL);
  if (length < 8) return mix(h ^ shortWord(data, length));  // most keys: no loop, no library call
  size_t i = 0;
  for (; i + 8 <= length; i += 8) h = (h ^ load64(data + i)) * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
  if (i < length) h = (h ^ load64(data + length - 8)) * 0x9E3779B97F4A7C15ULL;  // the last 8, overlapping
  return mix(h);
}

/// Compares two keys of `length` bytes; short keys (the common one or two numeric keys) without
/// a library call.
inline bool keysEqual(const char* a, const char* b, size_t length) {
  if (length >= 8 && length <= 16) {
    return load64(a) == load64(b) && load64(a + length - 8) == load64(b + length - 8);
  }
  if (length >= 4 && length < 8) return load32(a) == load32(b) && load32(a + length - 4) == load32(b + length - 4);
  if (length < 4) {
    for (size_t k = 0; k < length; ++k) {
      if (a[k] != b[k]) return false;
    }
    return true;
  }
  return std::memcmp(a, b, length) == 0;
}

}  // namespace quarry::engine::key_hash
