#include "quarry/engine/source/source_statistics.h"

#include <compare>
#include <cstdio>
#include <type_traits>

#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

bool columnAllNull(const ColumnStatistics& c, int64_t rows) {
  return c.nullCount && *c.nullCount == rows;
}

std::optional<int64_t> addCounts(std::optional<int64_t> a, std::optional<int64_t> b) {
  if (!a || !b) return std::nullopt;
  int64_t sum = 0;
  if (__builtin_add_overflow(*a, *b, &sum)) return std::nullopt;
  return sum;
}

}  // namespace

std::optional<std::strong_ordering> compareStatisticValues(const StatisticValue& a,
                                                           const StatisticValue& b) {
  if (a.index() != b.index()) return std::nullopt;
  return std::visit(
      [&](const auto& left) -> std::optional<std::strong_ordering> {
        using T = std::decay_t<decltype(left)>;
        const T& right = std::get<T>(b);
        if constexpr (std::is_same_v<T, double>) {
          return std::strong_order(left, right);
        } else if constexpr (std::is_same_v<T, std::string>) {
          // Byte-wise unsigned comparison, the order of Parquet's and ORC's binary bounds.
          const int c = left.compare(right);  // char_traits<char>::compare uses memcmp
          return c < 0 ? std::strong_ordering::less
                       : (c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal);
        } else {
          return left <=> right;
        }
      },
      a);
}

std::string toString(const StatisticValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return std::to_string(v);
        } else if constexpr (std::is_same_v<T, double>) {
          char buffer[32];
          std::snprintf(buffer, sizeof buffer, "%.17g", v);
          return buffer;
        } else if constexpr (std::is_same_v<T, std::string>) {
          return "'" + v + "'";
        } else {
          return v.toString();
        }
      },
      value);
}

bool SourceStatistics::allNull(const std::string& column) const {
  const ColumnStatistics* c = find(column);
  return c != nullptr && columnAllNull(*c, rowCount);
}

const ColumnStatistics* SourceStatistics::find(const std::string& column) const {
  auto it = columns.find(column);
  return it == columns.end() ? nullptr : &it->second;
}

namespace {

// Keeps in `a` the lower (wantMin) or higher of two bounds; unknown when either
// is unknown or they cannot be compared.
void pickInto(std::optional<StatisticValue>& a, const std::optional<StatisticValue>& b,
              bool wantMin) {
  if (!a) return;
  const std::optional<std::strong_ordering> order =
      b ? compareStatisticValues(*a, *b) : std::nullopt;
  if (!order) {
    a.reset();
  } else if (wantMin ? *order > 0 : *order < 0) {
    a = b;
  }
}

}  // namespace

void mergeColumnInto(ColumnStatistics& a, int64_t aRows, const ColumnStatistics& b, int64_t bRows) {
  const bool aEmpty = columnAllNull(a, aRows);
  const bool bEmpty = columnAllNull(b, bRows);
  a.nullCount = addCounts(a.nullCount, b.nullCount);
  if (aEmpty && bEmpty) {  // all null: no bound, and none needed
    a.min.reset();
    a.max.reset();
  } else if (aEmpty) {
    a.min = b.min;
    a.max = b.max;
  } else if (!bEmpty) {
    pickInto(a.min, b.min, /*wantMin=*/true);
    pickInto(a.max, b.max, /*wantMin=*/false);
  }
}

ColumnStatistics mergeColumn(const ColumnStatistics& a, int64_t aRows, const ColumnStatistics& b,
                             int64_t bRows) {
  ColumnStatistics out = a;
  mergeColumnInto(out, aRows, b, bRows);
  return out;
}

SourceStatistics merge(const SourceStatistics& a, const SourceStatistics& b) {
  SourceStatistics out;
  if (__builtin_add_overflow(a.rowCount, b.rowCount, &out.rowCount)) {
    throw CorruptFile("row counts " + std::to_string(a.rowCount) + " and " +
                      std::to_string(b.rowCount) + " overflow when merged");
  }
  for (const auto& [name, left] : a.columns) {
    const ColumnStatistics* right = b.find(name);
    out.columns[name] =
        right ? mergeColumn(left, a.rowCount, *right, b.rowCount) : ColumnStatistics{};
  }
  for (const auto& [name, right] : b.columns) {
    if (a.find(name) == nullptr) out.columns[name] = ColumnStatistics{};
  }
  return out;
}

}  // namespace quarry::engine
