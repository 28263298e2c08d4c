#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

/// Fixed-width values stored little-endian, as Parquet's PLAIN encoding, its
/// statistics and the Variant encoding keep them: on this little-endian target
/// a load is one unaligned copy.
namespace quarry {

/// The T at `p` (any alignment).
template <typename T>
inline T loadLittleEndian(const uint8_t* p) {
  static_assert(std::is_trivially_copyable_v<T>);
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace quarry
