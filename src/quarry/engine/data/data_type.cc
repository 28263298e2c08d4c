#include "quarry/engine/data/data_type.h"

#include <stdexcept>

namespace quarry::engine {

int64_t unitsPerSecond(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillis:
      return 1'000;
    case TimeUnit::kMicros:
      return 1'000'000;
    case TimeUnit::kNanos:
      return 1'000'000'000;
  }
  return 1'000'000;
}

namespace {
const char* unitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillis:
      return "ms";
    case TimeUnit::kMicros:
      return "us";
    case TimeUnit::kNanos:
      return "ns";
  }
  return "us";
}
}  // namespace

DataType DataType::list(const DataType& element) {
  if (element.kind == TypeKind::kList) throw std::logic_error("DataType::list: a list of lists");
  DataType out = element;
  out.kind = TypeKind::kList;
  out.elementKind = element.kind;
  return out;
}

std::string DataType::toString() const {
  switch (kind) {
    case TypeKind::kNull:
      return "null";
    case TypeKind::kBoolean:
      return "boolean";
    case TypeKind::kInt32:
      return "int32";
    case TypeKind::kInt64:
      return "int64";
    case TypeKind::kUInt64:
      return "uint64";
    case TypeKind::kDouble:
      return "double";
    case TypeKind::kDecimal:
      return "decimal(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
    case TypeKind::kString:
      return "string";
    case TypeKind::kBinary:
      return "binary";
    case TypeKind::kDate:
      return "date";
    case TypeKind::kTime:
      return std::string("time(") + unitName(unit) + ")";
    case TypeKind::kTimestamp:
      return std::string("timestamp(") + unitName(unit) + (utcAdjusted ? ", utc)" : ", local)");
    case TypeKind::kUuid:
      return "uuid";
    case TypeKind::kList:
      return "list<" + elementType().toString() + ">";
  }
  return "?";
}

bool DataType::operator==(const DataType& other) const {
  if (kind != other.kind) return false;
  if (kind == TypeKind::kList)
    return elementKind == other.elementKind && elementType() == other.elementType();
  switch (kind) {
    case TypeKind::kDecimal:
      return precision == other.precision && scale == other.scale;
    case TypeKind::kTime:
      return unit == other.unit;
    case TypeKind::kTimestamp:
      return unit == other.unit && utcAdjusted == other.utcAdjusted;
    default:
      return true;
  }
}

int fieldIndex(const Schema& schema, const std::string& name) {
  for (size_t i = 0; i < schema.size(); ++i) {
    if (schema[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace quarry::engine
