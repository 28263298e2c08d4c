#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "quarry/common/little_endian.h"
#include "quarry/formats/parquet/bound_predicate.h"

/// Keys: the one order a bound predicate compares in. A stored value, a
/// statistics bound and a literal are all turned into a key of the comparing
/// node's BoundNode::Reader domain (bound_predicate.h) and compared there, so
/// row filtering (row_filter) and pruning (statistics_pruning) cannot disagree
/// about an order: floats by their total-order key, unsigned integers by
/// magnitude, INT96 by the instant, DECIMAL bytes as two's complement, other
/// bytes unsigned.
namespace quarry::parquet {

/// The total-order key every NaN maps to (above every other value).
constexpr int64_t kNaNKey = std::numeric_limits<int64_t>::max();

/// Returns <0, 0 or >0 as a orders before, with or after b.
template <typename T>
int order(T a, T b) {
  return (a > b) - (a < b);
}

inline int64_t floatKey(float f) { return totalOrderKey(static_cast<double>(f)); }

/// The key of an IEEE half stored little endian at `p` (2 bytes), widened to float.
inline int64_t float16Key(const uint8_t* p) {
  return floatKey(Float16{static_cast<uint16_t>(p[0] | p[1] << 8)}.toFloat());
}

/// INT96 / 12-byte timestamps at `p`: nanoseconds of the day (int64 LE), then the
/// Julian day (int32 LE); the nanoseconds may run past one day, so they are added.
inline Int128 int96Nanos(const uint8_t* p) {
  constexpr int64_t kUnixEpochJulianDay = 2'440'588;
  return (Int128{loadLittleEndian<int32_t>(p + 8)} - kUnixEpochJulianDay) *
             (Int128{86'400} * 1'000'000'000) +
         loadLittleEndian<int64_t>(p);
}

/// Orders two byte strings as unsigned bytes.
inline int compareUnsignedBytes(std::string_view a, std::string_view b) {
  // string_view compares as char_traits<char>, which is unsigned bytes.
  const int c = a.compare(b);
  return (c > 0) - (c < 0);
}

/// A value in a reader's key domain: int64_t for BOOLEAN, signed integers and
/// float total-order keys; uint64_t for unsigned integers; Int128 nanoseconds for
/// INT96 and 12-byte timestamps; the bytes for byte strings and DECIMAL bytes.
using ColumnKey = std::variant<int64_t, uint64_t, Int128, std::string>;

/// Returns whether the reader orders floating-point values (FLOAT, DOUBLE, FLOAT16).
bool isFloatingPoint(BoundNode::Reader reader);

/// Decodes a value PLAIN-encoded as Parquet statistics store it (byte arrays
/// without a length prefix) into `reader`'s key domain; nullopt when the bytes
/// have another width than the reader's type.
std::optional<ColumnKey> plainKey(BoundNode::Reader reader, std::string_view plain);

/// Orders `key` (of node.reader's domain) against the node's literal key `k`.
int compareToLiteral(const BoundNode& node, const ColumnKey& key, size_t k);

/// Orders two keys of one reader's domain.
int compareKeys(BoundNode::Reader reader, const ColumnKey& a, const ColumnKey& b);

/// Returns whether a value with `key` satisfies the comparison `node` (kCompare).
bool satisfies(const BoundNode& node, const ColumnKey& key);

}  // namespace quarry::parquet
