#include "quarry/engine/data/value_order.h"

#include <stdexcept>

namespace quarry::engine {

int compareNonNull(const Block& a, size_t i, const Block& b, size_t j) {
  switch (a.type().kind) {
    case TypeKind::kNull:
      return 0;
    case TypeKind::kBoolean:
      return compareValues(a.values<uint8_t>()[i], b.values<uint8_t>()[j]);
    case TypeKind::kInt32:
    case TypeKind::kDate:
      return compareValues(a.values<int32_t>()[i], b.values<int32_t>()[j]);
    case TypeKind::kInt64:
    case TypeKind::kTime:
    case TypeKind::kTimestamp:
      return compareValues(a.values<int64_t>()[i], b.values<int64_t>()[j]);
    case TypeKind::kUInt64:
      return compareValues(a.values<uint64_t>()[i], b.values<uint64_t>()[j]);
    case TypeKind::kDouble:
      return compareDoubles(a.values<double>()[i], b.values<double>()[j]);
    case TypeKind::kDecimal:
      return compareValues(a.values<Int128>()[i], b.values<Int128>()[j]);
    case TypeKind::kString:
    case TypeKind::kBinary:
    case TypeKind::kUuid:
      return compareBytes(a.bytes(i), b.bytes(j));
    case TypeKind::kList:  // lists have no order (the planner refuses SORT by a list)
      break;
  }
  throw std::logic_error("compareNonNull: unknown type kind");
}

}  // namespace quarry::engine
