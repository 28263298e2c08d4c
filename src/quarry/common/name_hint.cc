#include "quarry/common/name_hint.h"

#include <vector>

namespace quarry {

size_t editDistance(std::string_view a, std::string_view b) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  // Three rows of the (|a|+1) x (|b|+1) table: a transposition looks two rows back.
  const size_t width = b.size() + 1;
  std::vector<size_t> before(width), previous(width), current(width);
  for (size_t j = 0; j < width; ++j) previous[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j < width; ++j) {
      const bool same = lower(a[i - 1]) == lower(b[j - 1]);
      size_t best =
          std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (same ? 0 : 1)});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1])) {
        best = std::min(best, before[j - 2] + 1);
      }
      current[j] = best;
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

}  // namespace quarry
