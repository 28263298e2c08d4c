#pragma once

#include <cmath>
#include <cstddef>
#include <string_view>

#include "quarry/engine/data/block.h"

/// The engine's total order on values, shared by MIN/MAX and SORT: numbers by
/// value, doubles with NaN greatest and equal to itself and -0.0 == +0.0, strings
/// and binary as unsigned bytes, false < true. Dates, times and timestamps of one
/// column share a unit, so their storage integers order them.
namespace quarry::engine {

inline int compareDoubles(double a, double b) {
  if (std::isnan(a)) return std::isnan(b) ? 0 : 1;
  if (std::isnan(b)) return -1;
  return a < b ? -1 : (a > b ? 1 : 0);
}

/// Compares two storage values of one fixed-width kind.
template <typename T>
inline int compareValues(T a, T b) {
  if constexpr (std::is_same_v<T, double>) {
    return compareDoubles(a, b);
  } else {
    return a < b ? -1 : (a > b ? 1 : 0);
  }
}

/// Compares bytes as unsigned bytes (char_traits<char>::compare is memcmp).
inline int compareBytes(std::string_view a, std::string_view b) {
  const int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

/// One key of a sort (SORT, TopNExec): a channel, its direction and where its
/// nulls go.
struct SortSpec {
  int channel;
  bool ascending = true;
  bool nullsFirst = false;
};

/// Compares position `i` of `a` with position `j` of `b`, both non-null and of one type.
int compareNonNull(const Block& a, size_t i, const Block& b, size_t j);

}  // namespace quarry::engine
