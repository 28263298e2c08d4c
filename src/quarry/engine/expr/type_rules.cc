#include "quarry/engine/expr/type_rules.h"

#include <algorithm>

namespace quarry::engine {

namespace {

constexpr int32_t kMaxPrecision = 38;

int unitRank(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillis:
      return 0;
    case TimeUnit::kMicros:
      return 1;
    case TimeUnit::kNanos:
      return 2;
  }
  return 1;
}

TimeUnit finerUnit(TimeUnit a, TimeUnit b) {
  return unitRank(a) >= unitRank(b) ? a : b;
}

bool isTemporalInstant(const DataType& t) {
  return t.kind == TypeKind::kDate || t.kind == TypeKind::kTimestamp;
}

/// The decimal joining two decimals: integer digits and scale of the wider.
DataType joinDecimals(const DataType& a, const DataType& b, int extraDigit) {
  const int32_t scale = std::max(a.scale, b.scale);
  const int32_t integerDigits = std::max(a.precision - a.scale, b.precision - b.scale);
  return DataType::decimal(std::min(kMaxPrecision, integerDigits + scale + extraDigit), scale);
}

}  // namespace

bool isInteger(const DataType& type) {
  return type.kind == TypeKind::kInt32 || type.kind == TypeKind::kInt64 ||
         type.kind == TypeKind::kUInt64;
}

DataType asDecimal(const DataType& type) {
  switch (type.kind) {
    case TypeKind::kInt32:
      return DataType::decimal(10, 0);
    case TypeKind::kInt64:
      return DataType::decimal(19, 0);
    case TypeKind::kUInt64:
      return DataType::decimal(20, 0);
    default:
      return type;
  }
}

std::optional<DataType> commonSuperType(const DataType& a, const DataType& b) {
  if (a.kind == TypeKind::kNull) return b;
  if (b.kind == TypeKind::kNull) return a;
  if (a == b) return a;
  if (a.isNumeric() && b.isNumeric()) {
    if (a.kind == TypeKind::kDouble || b.kind == TypeKind::kDouble) return DataType::float64();
    if (a.kind == TypeKind::kDecimal || b.kind == TypeKind::kDecimal) {
      return joinDecimals(asDecimal(a), asDecimal(b), 0);
    }
    if (a.kind == TypeKind::kUInt64 || b.kind == TypeKind::kUInt64) return DataType::decimal(20, 0);
    return DataType::int64();  // int32 with int64
  }
  if (isTemporalInstant(a) && isTemporalInstant(b)) {
    if (a.kind == TypeKind::kDate) return b;
    if (b.kind == TypeKind::kDate) return a;
    if (a.utcAdjusted != b.utcAdjusted) return std::nullopt;
    return DataType::timestamp(finerUnit(a.unit, b.unit), a.utcAdjusted);
  }
  if (a.kind == TypeKind::kTime && b.kind == TypeKind::kTime) {
    return DataType::time(finerUnit(a.unit, b.unit));
  }
  const auto isText = [](const DataType& t) {
    return t.kind == TypeKind::kString || t.kind == TypeKind::kBinary;
  };
  if (isText(a) && isText(b)) return DataType::binary();
  return std::nullopt;
}

bool comparable(const DataType& a, const DataType& b) {
  return commonSuperType(a, b).has_value();
}

std::optional<DataType> arithmeticResultType(BinaryOp op, const DataType& left,
                                             const DataType& right) {
  DataType a = left.kind == TypeKind::kNull ? right : left;
  DataType b = right.kind == TypeKind::kNull ? left : right;
  if (a.kind == TypeKind::kNull) return DataType::null();
  if (!a.isNumeric() || !b.isNumeric()) return std::nullopt;
  if (a.kind == TypeKind::kDouble || b.kind == TypeKind::kDouble) return DataType::float64();
  if (isInteger(a) && isInteger(b)) {
    if (a.kind == b.kind) return a;
    if (a.kind == TypeKind::kUInt64 || b.kind == TypeKind::kUInt64) return DataType::decimal(38, 0);
    return DataType::int64();
  }
  // At least one decimal.
  if (op == BinaryOp::kDivide) return DataType::float64();
  const DataType da = asDecimal(a);
  const DataType db = asDecimal(b);
  switch (op) {
    case BinaryOp::kAdd:
    case BinaryOp::kSubtract:
      return joinDecimals(da, db, 1);
    case BinaryOp::kModulo:
      return joinDecimals(da, db, 0);
    case BinaryOp::kMultiply: {
      const int32_t scale = da.scale + db.scale;
      if (scale > kMaxPrecision) return std::nullopt;
      int32_t precision = da.precision + db.precision;
      if (precision > 18 && da.precision <= 18 && db.precision <= 18) precision = 18;
      precision = std::max(std::min(precision, kMaxPrecision), scale);
      return DataType::decimal(precision, scale);
    }
    default:
      return std::nullopt;
  }
}

}  // namespace quarry::engine
