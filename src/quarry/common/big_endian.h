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
    return static_cast<__int128>((static_cast<unsigned __int128>(top) << 64) | __builtin_bswap64(low));
  }
}

/// The integer of `width` bytes at `p`; 0 for a width of 0 (an empty
/// BYTE_ARRAY decimal) or above 16 (the caller refuses those).
inline __int128 bigEndianInt128(const uint8_t* p, size_t width) {
  switch (width) {
    case 1: return bigEndianInt128<1>(p);
    case 2: return bigEndianInt128<2>(p);
    case 3: return bigEndianInt128<3>(p);
    case 4: return bigEndianInt128<4>(p);
    case 5: return bigEndianInt128<5>(p);
    case 6: return bigEndianInt128<6>(p);
    case 7: return bigEndianInt128<7>(p);
    case 8: return bigEndianInt128<8>(p);
    case 9: return bigEndianInt128<9>(p);
    case 10: return bigEndianInt128<10>(p);
    case 11: return bigEndianInt128<11>(p);
    case 12: return bigEndianInt128<12>(p);
    case 13: return bigEndianInt128<13>(p);
    case 14: return bigEndianInt128<14>(p);
    case 15: return bigEndianInt128<15>(p);
    case 16: return bigEndianInt128<16>(p);
    default: return 0;
  }
}

/// Calls `f.template operator()<W>()` with W = `width` (1 to 16): a loop over
/// values of one width then loads each with bigEndianInt128<W>. Returns false,
/// calling nothing, for another width.
template <typename F>
bool withByteWidth(size_t width, F&& f) {
  return [&]<size_t... W>(std::index_sequence<W...>) {
    return ((width == W + 1 ? (f.template operator()<W + 1>(), true) : false) || ...);
  }(std::make_index_sequence<16>());
}

}  // namespace quarry
