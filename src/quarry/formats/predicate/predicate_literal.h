#pragma once

#include <string>
#include <variant>

#include "quarry/common/values.h"

/// The literal of a FilterPredicate: one of the C++ stand-ins for the spec's Java
/// literal types (query-controls.txt, "Predicate literals by column type"). Each
/// alternative is a distinct type, so an int64_t literal is never an int32_t one.
namespace quarry::parquet {

using PredicateLiteral = std::variant<bool, int32_t, int64_t, float, double, std::string, Bytes,
                                      Date, TimeOfDay, Instant, LocalDateTime, Decimal, Uuid,
                                      Interval>;

/// The literal types, in the variant's order.
enum class LiteralType {
  kBool,
  kInt32,
  kInt64,
  kFloat,
  kDouble,
  kString,
  kBytes,
  kDate,
  kTimeOfDay,
  kInstant,
  kLocalDateTime,
  kDecimal,
  kUuid,
  kInterval,
};

inline LiteralType literalType(const PredicateLiteral& literal) {
  return static_cast<LiteralType>(literal.index());
}

/// Names a literal type as the C++ API spells it ("int32_t", "quarry::Decimal", ...).
std::string literalTypeName(LiteralType type);

/// Renders a literal for error messages: numbers as written, text quoted, bytes as
/// hex, instants in ISO-8601 with a trailing Z.
std::string literalToString(const PredicateLiteral& literal);

/// Returns whether `text` is well-formed UTF-8 (no overlong forms, surrogates or
/// code points past U+10FFFF).
bool isWellFormedUtf8(const std::string& text);

}  // namespace quarry::parquet
