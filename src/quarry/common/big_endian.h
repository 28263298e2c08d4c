#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

/// Big-endian two's complement integers of 1 to 16 bytes, as Parquet stores a
/// DECIMAL over FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY, read as __int128: one or
/// two fixed-size loads and a byte swap, no loop over the bytes.
namespace quarry {

/// The integer of W (1 to 16) bytes at `p`.
template <size_t W>
inline __int128 bigEndianInt128(const uint8_t* p) {
  static_assert(W >= 1 && W <= 16);
  if constexpr (W <= 8) {
    uint64_t x = 0;
    std::memcpy(&x, p, W);
    return static_cast<int64_t>(__builtin_bswap64(x)) >> (64 - 8 * W);
  } else {
    uint64_t high = 0, low = 0;
    std::memcpy(&high, p, W - 8);
    std::memcpy(&low, p + (W - 8), 8);
    const __int128 top = static_cast<int64_t>(__builtin_bswap64(high)) >> (64 - 8 * (W - 8));
    return static_cast<__int128>((static_cast<unsigned __int128>(top) << 64) |
                                 __builtin_bswap64(low));
  }
}

namespace detail {
template <typename F, size_t... W>
bool withByteWidth(size_t width, F& f, std::index_sequence<W...>) {
  return ((width == W + 1 ? (f.template operator()<W + 1>(), true) : false) || ...);
}
}  // namespace detail

/// Calls `f.template operator()<W>()` with W = `width` (1 to 16): a loop over
/// values of one width then loads each with bigEndianInt128<W>. Returns false,
/// calling nothing, for another width.
template <typename F>
bool withByteWidth(size_t width, F&& f) {
  return detail::withByteWidth(width, f, std::make_index_sequence<16>());
}

/// The integer of `width` bytes at `p`; 0 for a width of 0 (an empty
/// BYTE_ARRAY decimal) or above 16 (the caller refuses those).
inline __int128 bigEndianInt128(const uint8_t* p, size_t width) {
  __int128 value = 0;
  withByteWidth(width, [&]<size_t W>() { value = bigEndianInt128<W>(p); });
  return value;
}

}  // namespace quarry
