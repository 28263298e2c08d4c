#include "quarry/formats/parquet/column_keys.h"

namespace quarry::parquet {

using Reader = BoundNode::Reader;
using Compare = BoundNode::Compare;

bool isFloatingPoint(Reader reader) {
  return reader == Reader::kFloat || reader == Reader::kDouble || reader == Reader::kFloat16;
}

std::optional<ColumnKey> plainKey(Reader reader, std::string_view plain) {
  const auto* p = reinterpret_cast<const uint8_t*>(plain.data());
  const size_t n = plain.size();
  switch (reader) {
    case Reader::kBoolean:
      if (n != 1) return std::nullopt;
      return ColumnKey{int64_t{p[0] & 1}};
    case Reader::kInt32:
      if (n != 4) return std::nullopt;
      return ColumnKey{int64_t{loadLittleEndian<int32_t>(p)}};
    case Reader::kUInt32:
      if (n != 4) return std::nullopt;
      return ColumnKey{uint64_t{loadLittleEndian<uint32_t>(p)}};
    case Reader::kInt64:
      if (n != 8) return std::nullopt;
      return ColumnKey{loadLittleEndian<int64_t>(p)};
    case Reader::kUInt64:
      if (n != 8) return std::nullopt;
      return ColumnKey{loadLittleEndian<uint64_t>(p)};
    case Reader::kFloat:
      if (n != 4) return std::nullopt;
      return ColumnKey{floatKey(loadLittleEndian<float>(p))};
    case Reader::kDouble:
      if (n != 8) return std::nullopt;
      return ColumnKey{totalOrderKey(loadLittleEndian<double>(p))};
    case Reader::kFloat16:
      if (n != 2) return std::nullopt;
      return ColumnKey{float16Key(p)};
    case Reader::kInt96Nanos:
    case Reader::kFixed12Nanos:
      if (n != 12) return std::nullopt;
      return ColumnKey{int96Nanos(p)};
    case Reader::kBytes:
    case Reader::kDecimalBytes: return ColumnKey{std::string(plain)};
  }
  return std::nullopt;
}

int compareKeys(Reader reader, const ColumnKey& a, const ColumnKey& b) {
  if (a.index() != b.index()) return a.index() < b.index() ? -1 : 1;  // not of one domain
  switch (a.index()) {
    case 0: return order(std::get<int64_t>(a), std::get<int64_t>(b));
    case 1: return order(std::get<uint64_t>(a), std::get<uint64_t>(b));
    case 2: return order(std::get<Int128>(a), std::get<Int128>(b));
    default: break;
  }
  const auto& x = std::get<std::string>(a);
  const auto& y = std::get<std::string>(b);
  return reader == Reader::kDecimalBytes ? compareTwosComplement(x, y) : compareUnsignedBytes(x, y);
}

int compareToLiteral(const BoundNode& node, const ColumnKey& key, size_t k) {
  switch (key.index()) {
    case 0: return order(std::get<int64_t>(key), node.signedKeys.at(k));
    case 1: return order(std::get<uint64_t>(key), node.unsignedKeys.at(k));
    case 2: return order(std::get<Int128>(key), node.nanoKeys.at(k));
    default: break;
  }
  const auto& bytes = std::get<std::string>(key);
  return node.reader == Reader::kDecimalBytes ? compareTwosComplement(bytes, node.byteKeys.at(k))
                                              : compareUnsignedBytes(bytes, node.byteKeys.at(k));
}

bool satisfies(const BoundNode& node, const ColumnKey& key) {
  switch (node.compare) {
    case Compare::kEq: return compareToLiteral(node, key, 0) == 0;
    case Compare::kNotEq: return compareToLiteral(node, key, 0) != 0;
    case Compare::kLt: return compareToLiteral(node, key, 0) < 0;
    case Compare::kLtEq: return compareToLiteral(node, key, 0) <= 0;
    case Compare::kGt: return compareToLiteral(node, key, 0) > 0;
    case Compare::kGtEq: return compareToLiteral(node, key, 0) >= 0;
    case Compare::kIn: break;
  }
  const size_t keys = node.signedKeys.size() + node.unsignedKeys.size() + node.nanoKeys.size() +
                      node.byteKeys.size();
  for (size_t k = 0; k < keys; ++k) {
    if (compareToLiteral(node, key, k) == 0) return true;
  }
  return false;
}

}  // namespace quarry::parquet
