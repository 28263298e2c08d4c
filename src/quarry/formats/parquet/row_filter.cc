#include "quarry/formats/parquet/row_filter.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "quarry/common/big_endian.h"
#include "quarry/formats/parquet/column_keys.h"

namespace quarry::parquet {
namespace {

using Compare = BoundNode::Compare;
using Reader = BoundNode::Reader;

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

/// matchValues for values held as plain numbers: the comparison written out per
/// operator so that the loop compiles to vector compares (about 0.3 ns a value
/// instead of the 2-3 of the three-way order()). Compares in the keys' type K.
template <typename K, typename T>
void matchNumbers(const T* v, int64_t n, const std::vector<K>& keys, Compare compare,
                  uint8_t* out) {
  if (compare == Compare::kIn) {
    matchValues(
        n, keys.size(), compare, [&](int64_t i, size_t k) { return order<K>(v[i], keys[k]); }, out);
    return;
  }
  const K key = keys.at(0);
  switch (compare) {
    case Compare::kEq:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<K>(v[i]) == key;
      break;
    case Compare::kNotEq:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<K>(v[i]) != key;
      break;
    case Compare::kLt:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<K>(v[i]) < key;
      break;
    case Compare::kLtEq:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<K>(v[i]) <= key;
      break;
    case Compare::kGt:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<K>(v[i]) > key;
      break;
    case Compare::kGtEq:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<K>(v[i]) >= key;
      break;
    case Compare::kIn: break;
  }
}

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
    case Reader::kInt32:
      matchNumbers(column.values<int32_t>().data(), n, sk, node.compare, out.data());
      break;
    case Reader::kUInt32:
      matchNumbers(column.values<uint32_t>().data(), n, uk, node.compare, out.data());
      break;
    case Reader::kInt64:
      matchNumbers(column.values<int64_t>().data(), n, sk, node.compare, out.data());
      break;
    case Reader::kUInt64:
      matchNumbers(column.values<uint64_t>().data(), n, uk, node.compare, out.data());
      break;
    case Reader::kFloat: {
      const auto v = column.values<float>();
      std::vector<int64_t> keys(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) keys[i] = floatKey(v[i]);
      matchNumbers(keys.data(), n, sk, node.compare, out.data());
      break;
    }
    case Reader::kDouble: {
      const auto v = column.values<double>();
      std::vector<int64_t> keys(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) keys[i] = totalOrderKey(v[i]);
      matchNumbers(keys.data(), n, sk, node.compare, out.data());
      break;
    }
    case Reader::kFloat16: {
      std::vector<int64_t> keys(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) {
        keys[i] = float16Key(reinterpret_cast<const uint8_t*>(column.bytes(i).data()));
      }
      matchNumbers(keys.data(), n, sk, node.compare, out.data());
      break;
    }
    case Reader::kInt96Nanos:
    case Reader::kFixed12Nanos: {
      std::vector<Int128> keys(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) {
        keys[i] = int96Nanos(reinterpret_cast<const uint8_t*>(column.bytes(i).data()));
      }
      matchValues(n, nk.size(), node.compare,
                  [&](int64_t i, size_t k) { return order<Int128>(keys[i], nk[k]); }, out.data());
      break;
    }
    case Reader::kBytes:
      matchValues(n, bk.size(), node.compare,
                  [&](int64_t i, size_t k) { return compareUnsignedBytes(column.bytes(i), bk[k]); },
                  out.data());
      break;
    case Reader::kDecimalBytes: {
      // Values and keys of at most 16 bytes compare as Int128s (decimals of
      // precision <= 38, all that writers produce): loaded once each
      // (common/big_endian.h), then the vector compare, instead of a byte-wise
      // order per value and key.
      const size_t width = column.valueWidth;
      const bool narrow =
          width > 0 && width <= 16 && std::all_of(bk.begin(), bk.end(), [](const std::string& key) {
            return !key.empty() && key.size() <= 16;
          });
      if (narrow) {
        std::vector<Int128> keys;
        keys.reserve(bk.size());
        for (const std::string& key : bk) {
          keys.push_back(bigEndianInt128(reinterpret_cast<const uint8_t*>(key.data()), key.size()));
        }
        const bool keysFit = std::all_of(keys.begin(), keys.end(), [](Int128 k) {
          return k >= std::numeric_limits<int64_t>::min() &&
                 k <= std::numeric_limits<int64_t>::max();
        });
        if (width <= 8 && keysFit) {
          // Values of up to 8 bytes and keys that fit: int64 compares, twice as
          // many to a vector register.
          const std::vector<int64_t> narrowKeys(keys.begin(), keys.end());
          std::vector<int64_t> values(static_cast<size_t>(n));
          withByteWidth(width, [&]<size_t W>() {
            if constexpr (W <= 8) {
              for (int64_t i = 0; i < n; ++i)
                values[i] = static_cast<int64_t>(bigEndianInt128<W>(fixed + i * W));
            }
          });
          matchNumbers(values.data(), n, narrowKeys, node.compare, out.data());
          break;
        }
        std::vector<Int128> values(static_cast<size_t>(n));
        withByteWidth(width, [&]<size_t W>() {
          for (int64_t i = 0; i < n; ++i) values[i] = bigEndianInt128<W>(fixed + i * W);
        });
        matchNumbers(values.data(), n, keys, node.compare, out.data());
        break;
      }
      matchValues(n, bk.size(), node.compare,
                  [&](int64_t i, size_t k) { return compareTwosComplement(column.bytes(i), bk[k]); },
                  out.data());
      break;
    }
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
  return boundingBoxOverlaps(node, meta && meta->geospatial_statistics ? &*meta->geospatial_statistics
                                                                       : nullptr);
}

/// Returns the slots of the leaf `node` reads, checked to be one per row.
const NodeSlots& rowSlots(const BoundNode& node, const AssembledRowGroup& group) {
  const NodeSlots* slots = group.slots(node.node);
  if (slots == nullptr || slots->slotCount() != group.numRows()) {
    throw std::logic_error("row filter: column '" + node.node->path +
                           "' was not decoded with one slot per row");
  }
  return *slots;
}

/// Returns whether every row of `group` holds a value of the leaf `column` at
/// the row's own index: a leaf that is not repeated has one level entry per row,
/// and as many values as rows leaves none null. Per-value results are then the
/// rows', and the leaf's slots (which record assembly may build only when asked
/// for) are not needed.
bool everyRowHoldsItsValue(const ColumnChunkData* column, const AssembledRowGroup& group) {
  return column != nullptr && column->leaf->maxRepetitionLevel == 0 &&
         column->levelCount == group.numRows() && column->valueCount == group.numRows();
}

/// Per row: 1 where comparison `node` is `side` (true or false); a null row is
/// neither.
std::vector<uint8_t> compareSide(const BoundNode& node, const AssembledRowGroup& group, bool side) {
  const auto rows = static_cast<size_t>(group.numRows());
  const ColumnChunkData* column = group.column(node.node);
  if (column == nullptr) {
    throw std::logic_error("row filter: column '" + node.node->path + "' was not decoded");
  }
  std::vector<uint8_t> match = matchColumn(node, *column);
  const uint8_t flip = side ? 0 : 1;
  if (everyRowHoldsItsValue(column, group)) {
    if (flip) {
      for (uint8_t& m : match) m ^= 1;
    }
    return match;
  }
  const int64_t* valueIndex = rowSlots(node, group).valueIndex.data();
  std::vector<uint8_t> t(rows);
  for (size_t r = 0; r < rows; ++r) {
    const int64_t v = valueIndex[r];
    t[r] = v >= 0 ? match[static_cast<size_t>(v)] ^ flip : 0;  // null: unknown
  }
  return t;
}

/// Per row: 1 where `node` is `side` (true or false), in three-valued logic: a
/// row where neither side holds is unknown. Selection needs only the root's true
/// side; an and / or takes the same side of its children (true of and: all
/// true; false of and: any false), a not the other side of its child.
std::vector<uint8_t> evaluateSide(const BoundNode& node, const AssembledRowGroup& group,
                                  const RowGroup* metadata, bool side) {
  const auto rows = static_cast<size_t>(group.numRows());
  switch (node.kind) {
    case BoundNode::Kind::kAnd:
    case BoundNode::Kind::kOr: {
      // Every child must be on `side` (true of and, false of or), or any one.
      const bool all = (node.kind == BoundNode::Kind::kAnd) == side;
      std::vector<uint8_t> t = evaluateSide(node.children.at(0), group, metadata, side);
      for (size_t c = 1; c < node.children.size(); ++c) {
        const std::vector<uint8_t> u = evaluateSide(node.children[c], group, metadata, side);
        if (all) {
          for (size_t r = 0; r < rows; ++r) t[r] &= u[r];
        } else {
          for (size_t r = 0; r < rows; ++r) t[r] |= u[r];
        }
      }
      return t;
    }
    case BoundNode::Kind::kNot: return evaluateSide(node.children.at(0), group, metadata, !side);
    case BoundNode::Kind::kIntersects:
      return std::vector<uint8_t>(rows, rowGroupIntersects(node, metadata) == side);
    case BoundNode::Kind::kCompare: return compareSide(node, group, side);
    case BoundNode::Kind::kIsNull:
    case BoundNode::Kind::kIsNotNull: {
      const bool wantPresent = (node.kind == BoundNode::Kind::kIsNotNull) == side;
      if (everyRowHoldsItsValue(group.column(node.node), group)) {
        return std::vector<uint8_t>(rows, wantPresent);
      }
      const uint8_t* present = rowSlots(node, group).present.data();
      std::vector<uint8_t> t(rows);
      for (size_t r = 0; r < rows; ++r) t[r] = (present[r] != 0) == wantPresent;
      return t;
    }
    case BoundNode::Kind::kConstant: {
      if (node.constant != side) return std::vector<uint8_t>(rows, 0);
      if (everyRowHoldsItsValue(group.column(node.node), group)) {
        return std::vector<uint8_t>(rows, 1);
      }
      const uint8_t* present = rowSlots(node, group).present.data();
      std::vector<uint8_t> t(rows);
      for (size_t r = 0; r < rows; ++r) t[r] = present[r] != 0;
      return t;
    }
  }
  throw std::logic_error("row filter: unknown predicate node");
}

}  // namespace

bool boundingBoxOverlaps(const BoundNode& node, const GeospatialStatistics* statistics) {
  if (statistics == nullptr || !statistics->bbox) return true;
  const BoundingBox& b = *statistics->bbox;
  const auto& q = node.box;  // xmin, ymin, xmax, ymax
  for (double v : {b.xmin, b.xmax, b.ymin, b.ymax, q[0], q[1], q[2], q[3]}) {
    if (std::isnan(v)) return true;  // a bound that compares with nothing prunes nothing
  }
  if (b.ymin > q[3] || q[1] > b.ymax) return false;
  if (node.geography) return overlapsX(b.xmin, b.xmax, q[0], q[2]);
  return b.xmin <= q[2] && q[0] <= b.xmax;
}

RawVector<int64_t> selectRows(const BoundPredicate& predicate, const AssembledRowGroup& group,
                              const RowGroup* metadata) {
  const std::vector<uint8_t> t = evaluateSide(predicate.root(), group, metadata, true);
  const size_t n = t.size();
  size_t count = 0;
  for (uint8_t v : t) count += v;  // every entry is 0 or 1
  // Sized once (no growth copies, no zero fill: every slot kept is written), with
  // room for the branch-free writes below, which store every row's index and
  // advance only past the selected ones.
  RawVector<int64_t> rows(count + 8);
  size_t k = 0;
  size_t r = 0;
  for (; r + 8 <= n; r += 8) {
    uint64_t word;
    std::memcpy(&word, t.data() + r, sizeof word);
    if (word == 0) continue;  // eight rows none of which is selected: most of a selective filter's
    for (size_t j = 0; j < 8; ++j) {
      rows[k] = static_cast<int64_t>(r + j);
      k += t[r + j];
    }
  }
  for (; r < n; ++r) {
    rows[k] = static_cast<int64_t>(r);
    k += t[r];
  }
  rows.resize(count);
  return rows;
}

}  // namespace quarry::parquet
