#include "quarry/engine/expr/bound_expr.h"

#include <charconv>

#include "quarry/engine/expr/decimal_arithmetic.h"
#include "quarry/engine/parse/query_printer.h"
#include "quarry/engine/parse/temporal_literal.h"

namespace quarry::engine {

namespace {

std::string columnText(const std::string& name) {
  Identifier id;
  size_t start = 0;
  while (true) {
    const size_t dot = name.find('.', start);
    id.parts.push_back(
        name.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return printIdentifier(id);
}

}  // namespace

std::string literalToString(const Scalar& value, const DataType& type) {
  if (std::holds_alternative<std::monostate>(value)) return "NULL";
  switch (type.kind) {
    case TypeKind::kBoolean:
      return std::get<uint8_t>(value) != 0 ? "TRUE" : "FALSE";
    case TypeKind::kInt32:
      return std::to_string(std::get<int32_t>(value));
    case TypeKind::kInt64:
      return std::to_string(std::get<int64_t>(value));
    case TypeKind::kUInt64:
      return std::to_string(std::get<uint64_t>(value));
    case TypeKind::kDouble: {
      char buffer[64];
      const auto result = std::to_chars(buffer, buffer + sizeof buffer, std::get<double>(value),
                                        std::chars_format::scientific);
      return std::string(buffer, result.ptr);
    }
    case TypeKind::kDecimal:
      return decimalToString(std::get<Int128>(value), type.scale);
    case TypeKind::kString:
      return quoteString(std::get<std::string>(value));
    case TypeKind::kDate:
      return "DATE '" + Date{std::get<int32_t>(value)}.toString() + "'";
    case TypeKind::kTimestamp: {
      const int64_t units = std::get<int64_t>(value);
      const int64_t perSecond = unitsPerSecond(type.unit);
      int64_t seconds = units / perSecond;
      int64_t fraction = units % perSecond;
      if (fraction < 0) {
        fraction += perSecond;
        --seconds;
      }
      LocalDateTime wall{seconds, static_cast<int32_t>(fraction * (1'000'000'000 / perSecond))};
      return "TIMESTAMP '" + formatTimestampLiteral(wall) + "'";
    }
    default:
      return "?";
  }
}

std::string BoundExpr::toString() const {
  switch (kind) {
    case Kind::kColumn:
      return columnText(name);
    case Kind::kLiteral:
      return timeSpan ? timeSpan->toString() : literalToString(literal, type);
    case Kind::kUnary:
      return unaryOp == UnaryOp::kNot ? "(NOT " + children[0]->toString() + ")"
                                      : "(-" + children[0]->toString() + ")";
    case Kind::kBinary:
      return "(" + children[0]->toString() + " " + binaryOpText(binaryOp) + " " +
             children[1]->toString() + ")";
    case Kind::kIsNull:
      return "(" + children[0]->toString() + (negated ? " IS NOT NULL)" : " IS NULL)");
    case Kind::kIn: {
      std::string out = "(" + children[0]->toString() + (negated ? " NOT IN (" : " IN (");
      for (size_t i = 1; i < children.size(); ++i) {
        if (i > 1) out += ", ";
        out += children[i]->toString();
      }
      return out + "))";
    }
    case Kind::kLike:
      return "(" + children[0]->toString() + (negated ? " NOT LIKE " : " LIKE ") +
             quoteString(pattern) + ")";
    case Kind::kRLike:
      return "(" + children[0]->toString() + (negated ? " NOT RLIKE " : " RLIKE ") +
             quoteString(pattern) + ")";
    case Kind::kCase: {
      std::string out = "CASE";
      size_t i = 0;
      for (; i + 1 < children.size(); i += 2) {
        out += " WHEN " + children[i]->toString() + " THEN " + children[i + 1]->toString();
      }
      if (i < children.size()) out += " ELSE " + children[i]->toString();
      return out + " END";
    }
    case Kind::kCall: {
      // A list taken as its one value ($single_value, mv_functions.h) reads as the list.
      if (name == "$single_value") return children[0]->toString();
      if (name == "$add_span") {
        return "(" + children[0]->toString() + (negated ? " - " : " + ") + children[1]->toString() +
               ")";
      }
      std::string out = name + "(";
      for (size_t i = 0; i < children.size(); ++i) {
        if (i > 0) out += ", ";
        out += children[i]->toString();
      }
      return out + ")";
    }
  }
  return "?";
}

}  // namespace quarry::engine
