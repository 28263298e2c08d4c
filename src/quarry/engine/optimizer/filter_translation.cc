#include "quarry/engine/optimizer/filter_translation.h"

#include <algorithm>

#include <cmath>

#include "quarry/engine/expr/decimal_arithmetic.h"
#include "quarry/engine/optimizer/local_optimizer.h"

namespace quarry::engine {

using parquet::FilterPredicate;
using parquet::PredicateLiteral;

namespace {

bool isZero(double v) { return v == 0.0; }

/// The literal `value` (of type `literalType`) as a predicate literal for a
/// column of `columnType`, when the conversion is exact.
std::optional<PredicateLiteral> literalFor(const Scalar& value, const DataType& literalType,
                                           const DataType& columnType) {
  if (std::holds_alternative<std::monostate>(value)) return std::nullopt;
  auto asInt64 = [&]() -> std::optional<int64_t> {
    if (literalType.kind == TypeKind::kInt32) return std::get<int32_t>(value);
    if (literalType.kind == TypeKind::kInt64) return std::get<int64_t>(value);
    return std::nullopt;
  };
  switch (columnType.kind) {
    case TypeKind::kBoolean:
      if (literalType.kind == TypeKind::kBoolean) return PredicateLiteral(std::get<uint8_t>(value) != 0);
      return std::nullopt;
    case TypeKind::kInt32: {
      auto v = asInt64();
      if (!v || *v < INT32_MIN || *v > INT32_MAX) return std::nullopt;
      return PredicateLiteral(static_cast<int32_t>(*v));
    }
    case TypeKind::kInt64: {
      auto v = asInt64();
      if (!v) return std::nullopt;
      return PredicateLiteral(*v);
    }
    case TypeKind::kDouble: {
      double d;
      if (literalType.kind == TypeKind::kDouble) {
        d = std::get<double>(value);
      } else if (literalType.kind == TypeKind::kDecimal) {
        d = decimalToDouble(std::get<Int128>(value), literalType.scale);  // as the evaluator converts it
      } else if (auto v = asInt64(); v && std::abs(*v) < (int64_t{1} << 53)) {
        d = static_cast<double>(*v);
      } else {
        return std::nullopt;
      }
      // The predicate orders -0.0 below +0.0; the engine holds them equal.
      if (std::isnan(d) || isZero(d)) return std::nullopt;
      return PredicateLiteral(d);
    }
    case TypeKind::kString:
      if (literalType.kind == TypeKind::kString) return PredicateLiteral(std::get<std::string>(value));
      return std::nullopt;
    case TypeKind::kDate:
      if (literalType.kind == TypeKind::kDate) return PredicateLiteral(Date{std::get<int32_t>(value)});
      return std::nullopt;
    case TypeKind::kDecimal: {
      if (!(literalType == columnType) && !(literalType.kind == TypeKind::kDecimal &&
                                            literalType.scale == columnType.scale)) {
        return std::nullopt;
      }
      Int128 unscaled = std::get<Int128>(value);
      Decimal decimal;
      decimal.scale = columnType.scale;
      decimal.unscaledBigEndian.resize(16);
      for (int i = 15; i >= 0; --i) {
        decimal.unscaledBigEndian[i] = static_cast<uint8_t>(static_cast<unsigned __int128>(unscaled) & 0xff);
        unscaled = static_cast<Int128>(static_cast<unsigned __int128>(unscaled) >> 8);
      }
      return PredicateLiteral(std::move(decimal));
    }
    case TypeKind::kTimestamp: {
      if (!(literalType == columnType)) return std::nullopt;
      const int64_t v = std::get<int64_t>(value);
      const int64_t perSecond = unitsPerSecond(columnType.unit);
      Instant instant = Instant::ofEpochUnits(v, perSecond);
      if (columnType.utcAdjusted) return PredicateLiteral(instant);
      return PredicateLiteral(LocalDateTime{instant.epochSeconds, instant.nanos});
    }
    default:
      return std::nullopt;
  }
}

/// Whether `expr` is a column the source can filter on. Not a list: a format
/// reader's predicate (and its statistics: a list leaf's count elements, not
/// rows) would see the elements, so `tags IS NULL` stays above the source.
bool isSourceColumn(const BoundExpr& expr, const Schema& schema) {
  return expr.kind == BoundExpr::Kind::kColumn && expr.column >= 0 &&
         static_cast<size_t>(expr.column) < schema.size() &&
         schema[expr.column].name.rfind("_file.", 0) != 0 && !schema[expr.column].type.isList();
}

std::optional<FilterPredicate> comparison(BinaryOp op, const BoundExpr& left, const BoundExpr& right,
                                          const Schema& schema) {
  const BoundExpr* column = &left;
  const BoundExpr* literal = &right;
  if (!isSourceColumn(*column, schema)) {
    std::swap(column, literal);
    switch (op) {  // literal OP column is column OP' literal
      case BinaryOp::kLt:
        op = BinaryOp::kGt;
        break;
      case BinaryOp::kLe:
        op = BinaryOp::kGe;
        break;
      case BinaryOp::kGt:
        op = BinaryOp::kLt;
        break;
      case BinaryOp::kGe:
        op = BinaryOp::kLe;
        break;
      default:
        break;
    }
  }
  if (!isSourceColumn(*column, schema) || literal->kind != BoundExpr::Kind::kLiteral) return std::nullopt;
  const Field& field = schema[column->column];
  std::optional<PredicateLiteral> value = literalFor(literal->literal, literal->type, field.type);
  if (!value) return std::nullopt;
  if (field.type.kind == TypeKind::kBoolean && op != BinaryOp::kEq && op != BinaryOp::kNe) return std::nullopt;
  FilterPredicate::Op predicateOp;
  switch (op) {
    case BinaryOp::kEq:
      predicateOp = FilterPredicate::Op::kEq;
      break;
    case BinaryOp::kNe:
      predicateOp = FilterPredicate::Op::kNotEq;
      break;
    case BinaryOp::kLt:
      predicateOp = FilterPredicate::Op::kLt;
      break;
    case BinaryOp::kLe:
      predicateOp = FilterPredicate::Op::kLtEq;
      break;
    case BinaryOp::kGt:
      predicateOp = FilterPredicate::Op::kGt;
      break;
    case BinaryOp::kGe:
      predicateOp = FilterPredicate::Op::kGtEq;
      break;
    default:
      return std::nullopt;
  }
  return FilterPredicate::compareLiteral(predicateOp, field.name, std::move(*value));
}

/// `weaker`: the result may keep more rows than the predicate (AND may drop
/// conjuncts); under NOT it must be exact.
std::optional<FilterPredicate> translate(const BoundExpr& expr, const Schema& schema, bool weaker) {
  switch (expr.kind) {
    case BoundExpr::Kind::kBinary: {
      if (expr.binaryOp == BinaryOp::kAnd || expr.binaryOp == BinaryOp::kOr) {
        std::vector<FilterPredicate> parts;
        for (const BoundExprPtr& child : expr.children) {
          std::optional<FilterPredicate> part = translate(*child, schema, weaker);
          if (part) {
            parts.push_back(std::move(*part));
          } else if (expr.binaryOp == BinaryOp::kOr || !weaker) {
            return std::nullopt;
          }
        }
        if (parts.empty()) return std::nullopt;
        if (parts.size() == 1) return std::move(parts[0]);
        return expr.binaryOp == BinaryOp::kAnd ? FilterPredicate::and_(std::move(parts))
                                               : FilterPredicate::or_(std::move(parts));
      }
      if (expr.children.size() != 2) return std::nullopt;
      return comparison(expr.binaryOp, *expr.children[0], *expr.children[1], schema);
    }
    case BoundExpr::Kind::kUnary: {
      if (expr.unaryOp != UnaryOp::kNot || expr.children.size() != 1) return std::nullopt;
      std::optional<FilterPredicate> inner = translate(*expr.children[0], schema, false);
      if (!inner) return std::nullopt;
      return FilterPredicate::not_(std::move(*inner));
    }
    case BoundExpr::Kind::kIsNull: {
      if (expr.children.size() != 1 || !isSourceColumn(*expr.children[0], schema)) return std::nullopt;
      const std::string& name = schema[expr.children[0]->column].name;
      return expr.negated ? FilterPredicate::isNotNull(name) : FilterPredicate::isNull(name);
    }
    case BoundExpr::Kind::kIn: {
      // x NOT IN (...) is not pushed: a null in the list makes it null for every x.
      if (expr.negated || expr.children.size() < 2 || !isSourceColumn(*expr.children[0], schema)) {
        return std::nullopt;
      }
      const Field& field = schema[expr.children[0]->column];
      if (field.type.kind == TypeKind::kBoolean) return std::nullopt;
      std::vector<PredicateLiteral> values;
      for (size_t i = 1; i < expr.children.size(); ++i) {
        const BoundExpr& item = *expr.children[i];
        if (item.kind != BoundExpr::Kind::kLiteral) return std::nullopt;
        if (std::holds_alternative<std::monostate>(item.literal)) continue;  // never equal
        std::optional<PredicateLiteral> value = literalFor(item.literal, item.type, field.type);
        if (!value) return std::nullopt;
        values.push_back(std::move(*value));
      }
      if (values.empty()) return std::nullopt;
      return FilterPredicate::inLiterals(field.name, std::move(values));
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

namespace {

/// `schema` with the partition columns renamed out of the source's reach: they
/// are in no file, so a predicate naming them would not bind to any file and
/// would take the rest of the pushed filter down with it. The ExternalSourceExec
/// leaves them to the FilterExec (and the resolver prunes files by them).
Schema withoutPartitionColumns(const Schema& schema, std::span<const std::string> partitionColumns) {
  Schema out = schema;
  for (Field& field : out) {
    if (std::find(partitionColumns.begin(), partitionColumns.end(), field.name) != partitionColumns.end()) {
      field.name = "_file.partition." + field.name;  // isSourceColumn refuses "_file." names
    }
  }
  return out;
}

}  // namespace

std::optional<FilterPredicate> toFilterPredicate(const BoundExpr& predicate, const Schema& schema,
                                                 std::span<const std::string> partitionColumns) {
  if (!partitionColumns.empty()) {
    return translate(predicate, withoutPartitionColumns(schema, partitionColumns), true);
  }
  return translate(predicate, schema, true);
}

std::optional<FilterPredicate> toExactFilterPredicate(const BoundExpr& predicate, const Schema& schema,
                                                      std::span<const std::string> partitionColumns) {
  if (!partitionColumns.empty()) {
    return translate(predicate, withoutPartitionColumns(schema, partitionColumns), false);
  }
  return translate(predicate, schema, false);
}

bool hasNullInList(const BoundExpr& expr) {
  if (expr.kind == BoundExpr::Kind::kIn) {
    for (size_t i = 1; i < expr.children.size(); ++i) {
      const BoundExpr& item = *expr.children[i];
      if (item.kind == BoundExpr::Kind::kLiteral && std::holds_alternative<std::monostate>(item.literal)) return true;
    }
  }
  for (const BoundExprPtr& child : expr.children) {
    if (hasNullInList(*child)) return true;
  }
  return false;
}

}  // namespace quarry::engine
