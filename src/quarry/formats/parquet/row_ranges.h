#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

/// Rows of one row group as sorted, disjoint, non-adjacent half-open ranges
/// [first, end): what page-index pruning keeps of a row group, and what the
/// page-skipping chunk reader decodes.
namespace quarry::parquet {

class RowRanges {
 public:
  struct Range {
    int64_t first = 0;
    int64_t end = 0;  // one past the last row
    bool operator==(const Range&) const = default;
  };

  RowRanges() = default;

  /// Returns the ranges of every row of a unit of `rows` rows.
  static RowRanges all(int64_t rows) {
    RowRanges r;
    r.add(0, rows);
    return r;
  }

  /// Adds [first, end), which must not start before the last range added
  /// begins; touching or overlapping ranges merge.
  void add(int64_t first, int64_t end) {
    if (first >= end) return;
    if (!ranges_.empty() && first <= ranges_.back().end) {
      ranges_.back().end = std::max(ranges_.back().end, end);
      return;
    }
    ranges_.push_back({first, end});
  }

  const std::vector<Range>& ranges() const { return ranges_; }
  bool empty() const { return ranges_.empty(); }

  /// Returns the number of rows the ranges hold.
  int64_t rowCount() const {
    int64_t n = 0;
    for (const Range& r : ranges_) n += r.end - r.first;
    return n;
  }

  /// Returns whether some row of [first, end) is in the ranges.
  bool overlaps(int64_t first, int64_t end) const {
    auto it = std::upper_bound(ranges_.begin(), ranges_.end(), first,
                               [](int64_t row, const Range& r) { return row < r.end; });
    return it != ranges_.end() && it->first < end;
  }

  /// Returns the rows in both this and `other`.
  RowRanges intersect(const RowRanges& other) const {
    RowRanges out;
    size_t i = 0, j = 0;
    while (i < ranges_.size() && j < other.ranges_.size()) {
      const Range& a = ranges_[i];
      const Range& b = other.ranges_[j];
      out.add(std::max(a.first, b.first), std::min(a.end, b.end));
      if (a.end < b.end) {
        ++i;
      } else {
        ++j;
      }
    }
    return out;
  }

  /// Returns every row of the ranges, ascending.
  std::vector<int64_t> rows() const {
    std::vector<int64_t> out;
    out.reserve(static_cast<size_t>(rowCount()));
    for (const Range& r : ranges_) {
      for (int64_t row = r.first; row < r.end; ++row) out.push_back(row);
    }
    return out;
  }

 private:
  std::vector<Range> ranges_;
};

}  // namespace quarry::parquet
