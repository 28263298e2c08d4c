#include "quarry/formats/parquet/row_filter.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace quarry::parquet {
namespace {

using Compare = BoundNode::Compare;
using Reader = BoundNode::Reader;

/// Per row: 1 where the node is true / false; neither where it is unknown.
struct Truth {
  std::vector<uint8_t> isTrue;
  std::vector<uint8_t> isFalse;
};

template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/// Sets out[i] to whether value i satisfies `compare` against the keys, where
/// cmp(i, k) orders value i against key k (<0, 0, >0).
template <typename Cmp>
void matchValues(int64_t n, size_t keyCount, Compare compare, Cmp cmp, uint8_t* out) {
  switch (compare) {
    case Compare::kEq:
      for (int64_t i = 0; i < n; ++i) out[i] = cmp(i, 0) == 0;
      break;
    case Compare::kNotEq:
      for (int64_t i = 0; i < n; ++i) out[i] = cmp(i, 0) != 0;
      break;
    case Compare::kLt:
      for (int64_t i = 0; i < n; ++i) out[i] = cmp(i, 0) < 0;
      break;
    case Compare::kLtEq:
      for (int64_t i = 0; i < n; ++i) out[i] = cmp(i, 0) <= 0;
      break;
    case Compare::kGt:
      for (int64_t i = 0; i < n; ++i) out[i] = cmp(i, 0) > 0;
      break;
    case Compare::kGtEq:
      for (int64_t i = 0; i < n; ++i) out[i] = cmp(i, 0) >= 0;
      break;
    case Compare::kIn:
      for (int64_t i = 0; i < n; ++i) {
        uint8_t m = 0;
        for (size_t k = 0; k < keyCount && !m; ++k) m = cmp(i, k) == 0;
        out[i] = m;
      }
      break;
  }
}

template <typename T>
int order(T a, T b) {
  return (a > b) - (a < b);
}

/// INT96 / 12-byte timestamps: nanoseconds of the day (int64 LE), then the Julian
/// day (int32 LE); the nanoseconds may run past one day, so they are added.
Int128 nanosOf(const uint8_t* p) {
  constexpr int64_t kUnixEpochJulianDay = 2'440'588;
  return (Int128{load<int32_t>(p + 8)} - kUnixEpochJulianDay) * (Int128{86'400} * 1'000'000'000) +
         load<int64_t>(p);
}

int64_t floatKey(float f) { return totalOrderKey(static_cast<double>(f)); }

std::vector<uint8_t> matchColumn(const BoundNode& node, const ColumnChunkData& column) {
  const int64_t n = column.valueCount;
  std::vector<uint8_t> out(static_cast<size_t>(n));
  const auto& sk = node.signedKeys;
  const auto& uk = node.unsignedKeys;
  const auto& nk = node.nanoKeys;
  const auto& bk = node.byteKeys;
  const uint8_t* fixed = column.fixedValues.data();
  switch (node.reader) {
    case Reader::kBoolean:
      matchValues(n, sk.size(), node.compare,
                  [&](int64_t i, size_t k) { return order<int64_t>(fixed[i] != 0, sk[k]); }, out.data());
      break;
    case Reader::kInt32: {
      const auto v = column.values<int32_t>();
      matchValues(n, sk.size(), node.compare,
                  [&](int64_t i, size_t k) { return order<int64_t>(v[i], sk[k]); }, out.data());
      break;
    }
    case Reader::kUInt32: {
      const auto v = column.values<uint32_t>();
      matchValues(n, uk.size(), node.compare,
                  [&](int64_t i, size_t k) { return order<uint64_t>(v[i], uk[k]); }, out.data());
      break;
    }
    case Reader::kInt64: {
      const auto v = column.values<int64_t>();
      matchValues(n, sk.size(), node.compare,
                  [&](int64_t i, size_t k) { return order<int64_t>(v[i], sk[k]); }, out.data());
      break;
    }
    case Reader::kUInt64: {
      const auto v = column.values<uint64_t>();
      matchValues(n, uk.size(), node.compare,
                  [&](int64_t i, size_t k) { return order<uint64_t>(v[i], uk[k]); }, out.data());
      break;
    }
    case Reader::kFloat: {
      const auto v = column.values<float>();
      std::vector<int64_t> keys(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) keys[i] = floatKey(v[i]);
      matchValues(n, sk.size(), node.compare,
                  [&](int64_t i, size_t k) { return order<int64_t>(keys[i], sk[k]); }, out.data());
      break;
    }
    case Reader::kDouble: {
      const auto v = column.values<double>();
      std::vector<int64_t> keys(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) keys[i] = totalOrderKey(v[i]);
      matchValues(n, sk.size(), node.compare,
                  [&](int64_t i, size_t k) { return order<int64_t>(keys[i], sk[k]); }, out.data());
      break;
    }
    case Reader::kFloat16: {
      std::vector<int64_t> keys(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) {
        const auto* p = reinterpret_cast<const uint8_t*>(column.bytes(i).data());
        keys[i] = floatKey(Float16{static_cast<uint16_t>(p[0] | p[1] << 8)}.toFloat());
      }
      matchValues(n, sk.size(), node.compare,
                  [&](int64_t i, size_t k) { return order<int64_t>(keys[i], sk[k]); }, out.data());
      break;
    }
    case Reader::kInt96Nanos:
    case Reader::kFixed12Nanos: {
      std::vector<Int128> keys(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) {
        keys[i] = nanosOf(reinterpret_cast<const uint8_t*>(column.bytes(i).data()));
      }
      matchValues(n, nk.size(), node.compare,
                  [&](int64_t i, size_t k) { return order<Int128>(keys[i], nk[k]); }, out.data());
      break;
    }
    case Reader::kBytes:
      matchValues(n, bk.size(), node.compare,
                  [&](int64_t i, size_t k) {
                    // string_view compares as char_traits<char>, which is unsigned bytes.
                    const int c = column.bytes(i).compare(bk[k]);
                    return (c > 0) - (c < 0);
                  },
                  out.data());
      break;
    case Reader::kDecimalBytes:
      matchValues(n, bk.size(), node.compare,
                  [&](int64_t i, size_t k) { return compareTwosComplement(column.bytes(i), bk[k]); },
                  out.data());
      break;
  }
  return out;
}

/// Returns whether the closed intervals [a0, a1] and [b0, b1] overlap, where an
/// interval with a0 > a1 wraps around the antimeridian (covers [a0, +inf) and (-inf, a1]).
bool overlapsX(double a0, double a1, double b0, double b1) {
  auto pieces = [](double lo, double hi, double out[4]) {
    if (lo <= hi) {
      out[0] = lo, out[1] = hi, out[2] = 1, out[3] = 0;  // second piece empty
    } else {
      out[0] = lo, out[1] = INFINITY, out[2] = -INFINITY, out[3] = hi;
    }
  };
  double a[4], b[4];
  pieces(a0, a1, a);
  pieces(b0, b1, b);
  for (int i = 0; i < 4; i += 2) {
    for (int j = 0; j < 4; j += 2) {
      if (a[i] <= a[i + 1] && b[j] <= b[j + 1] && a[i] <= b[j + 1] && b[j] <= a[i + 1]) return true;
    }
  }
  return false;
}

bool rowGroupIntersects(const BoundNode& node, const RowGroup* metadata) {
  if (metadata == nullptr) return true;
  const auto index = static_cast<size_t>(node.node->leafIndex);
  if (index >= metadata->columns.size()) return true;
  const auto& meta = metadata->columns[index].meta_data;
  if (!meta || !meta->geospatial_statistics || !meta->geospatial_statistics->bbox) return true;
  const BoundingBox& b = *meta->geospatial_statistics->bbox;
  const auto& q = node.box;  // xmin, ymin, xmax, ymax
  for (double v : {b.xmin, b.xmax, b.ymin, b.ymax, q[0], q[1], q[2], q[3]}) {
    if (std::isnan(v)) return true;  // a bound that compares with nothing prunes nothing
  }
  if (b.ymin > q[3] || q[1] > b.ymax) return false;
  if (node.geography) return overlapsX(b.xmin, b.xmax, q[0], q[2]);
  return b.xmin <= q[2] && q[0] <= b.xmax;
}

Truth evaluate(const BoundNode& node, const AssembledRowGroup& group, const RowGroup* metadata) {
  const auto rows = static_cast<size_t>(group.numRows());
  Truth t{std::vector<uint8_t>(rows, 0), std::vector<uint8_t>(rows, 0)};
  switch (node.kind) {
    case BoundNode::Kind::kAnd:
    case BoundNode::Kind::kOr: {
      const bool isAnd = node.kind == BoundNode::Kind::kAnd;
      std::fill(isAnd ? t.isTrue.begin() : t.isFalse.begin(), isAnd ? t.isTrue.end() : t.isFalse.end(), 1);
      for (const auto& child : node.children) {
        const Truth c = evaluate(child, group, metadata);
        for (size_t r = 0; r < rows; ++r) {
          if (isAnd) {
            t.isTrue[r] &= c.isTrue[r];
            t.isFalse[r] |= c.isFalse[r];
          } else {
            t.isTrue[r] |= c.isTrue[r];
            t.isFalse[r] &= c.isFalse[r];
          }
        }
      }
      return t;
    }
    case BoundNode::Kind::kNot: {
      Truth c = evaluate(node.children.at(0), group, metadata);
      std::swap(c.isTrue, c.isFalse);
      return c;
    }
    case BoundNode::Kind::kIntersects: {
      const bool keep = rowGroupIntersects(node, metadata);
      std::fill((keep ? t.isTrue : t.isFalse).begin(), (keep ? t.isTrue : t.isFalse).end(), 1);
      return t;
    }
    default: break;
  }
  const NodeSlots* slots = group.slots(node.node);
  if (slots == nullptr || static_cast<size_t>(slots->slotCount()) != rows) {
    throw std::logic_error("row filter: column '" + node.node->path +
                           "' was not decoded with one slot per row");
  }
  const uint8_t* present = slots->present.data();
  switch (node.kind) {
    case BoundNode::Kind::kIsNull:
    case BoundNode::Kind::kIsNotNull: {
      const uint8_t wantPresent = node.kind == BoundNode::Kind::kIsNotNull;
      for (size_t r = 0; r < rows; ++r) {
        t.isTrue[r] = (present[r] != 0) == wantPresent;
        t.isFalse[r] = !t.isTrue[r];
      }
      return t;
    }
    case BoundNode::Kind::kConstant: {
      for (size_t r = 0; r < rows; ++r) {
        t.isTrue[r] = present[r] && node.constant;
        t.isFalse[r] = present[r] && !node.constant;
      }
      return t;
    }
    default: break;
  }
  const ColumnChunkData* column = group.column(node.node);
  if (column == nullptr) {
    throw std::logic_error("row filter: column '" + node.node->path + "' was not decoded");
  }
  const std::vector<uint8_t> match = matchColumn(node, *column);
  const int64_t* valueIndex = slots->valueIndex.data();
  for (size_t r = 0; r < rows; ++r) {
    const int64_t v = valueIndex[r];
    if (v < 0) continue;  // null: unknown
    t.isTrue[r] = match[static_cast<size_t>(v)];
    t.isFalse[r] = !match[static_cast<size_t>(v)];
  }
  return t;
}

}  // namespace

std::vector<int64_t> selectRows(const BoundPredicate& predicate, const AssembledRowGroup& group,
                                const RowGroup* metadata) {
  const Truth t = evaluate(predicate.root(), group, metadata);
  std::vector<int64_t> rows;
  for (size_t r = 0; r < t.isTrue.size(); ++r) {
    if (t.isTrue[r]) rows.push_back(static_cast<int64_t>(r));
  }
  return rows;
}

}  // namespace quarry::parquet
