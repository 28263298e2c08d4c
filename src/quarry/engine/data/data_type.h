#pragma once

#include <cstdint>
#include <string>
#include <vector>

/// The engine's value types. Every column a format reader produces, every
/// expression and every aggregate has one. A type says how a Block stores its
/// values (block.h) and how they compare and render.
namespace quarry::engine {

enum class TypeKind : uint8_t {
  kNull,       // only NULL: the type of a NULL literal or of a column absent from a file
  kBoolean,    // stored as uint8_t 0 / 1
  kInt32,      // int32_t
  kInt64,      // int64_t
  kUInt64,     // uint64_t
  kDouble,     // double (FLOAT columns widen to it exactly)
  kDecimal,    // Int128 unscaled, with precision (1..38) and scale
  kString,     // UTF-8 bytes
  kBinary,     // bytes
  kDate,       // int32_t days since 1970-01-01
  kTime,       // int64_t in `unit` since midnight
  kTimestamp,  // int64_t in `unit` since the epoch; utcAdjusted or local wall clock
  kUuid,       // 16 bytes
  /// A list of values of `elementKind` (and the parameters below), stored as per-row
  /// offsets into a child Block of elements (block.h). A list is a multi-valued
  /// field: it passes through, renders and tests IS NULL; operators that take
  /// scalars refuse it at plan time.
  kList,
};

enum class TimeUnit : uint8_t { kMillis, kMicros, kNanos };

/// Units per second of `unit`: 1'000, 1'000'000 or 1'000'000'000.
int64_t unitsPerSecond(TimeUnit unit);

using Int128 = __int128;

struct DataType {
  TypeKind kind = TypeKind::kNull;
  /// kDecimal only.
  int32_t precision = 0;
  int32_t scale = 0;
  /// kTime and kTimestamp only.
  TimeUnit unit = TimeUnit::kMicros;
  /// kTimestamp only: true for an instant (UTC), false for a local date-time.
  bool utcAdjusted = true;
  /// kList only: the kind of its elements, which the fields above describe (a
  /// list<decimal(9,2)> has precision 9 and scale 2). Never kList: lists do not nest.
  TypeKind elementKind = TypeKind::kNull;

  static DataType null() { return {TypeKind::kNull}; }
  static DataType boolean() { return {TypeKind::kBoolean}; }
  static DataType int32() { return {TypeKind::kInt32}; }
  static DataType int64() { return {TypeKind::kInt64}; }
  static DataType uint64() { return {TypeKind::kUInt64}; }
  static DataType float64() { return {TypeKind::kDouble}; }
  static DataType decimal(int32_t precision, int32_t scale) {
    return {TypeKind::kDecimal, precision, scale};
  }
  static DataType string() { return {TypeKind::kString}; }
  static DataType binary() { return {TypeKind::kBinary}; }
  static DataType date() { return {TypeKind::kDate}; }
  static DataType time(TimeUnit unit) { return {TypeKind::kTime, 0, 0, unit}; }
  static DataType timestamp(TimeUnit unit, bool utcAdjusted) {
    return {TypeKind::kTimestamp, 0, 0, unit, utcAdjusted};
  }
  static DataType uuid() { return {TypeKind::kUuid}; }
  /// A list of `element` values; `element` must not be a list (std::logic_error).
  static DataType list(const DataType& element);

  bool isList() const { return kind == TypeKind::kList; }
  /// A list's element type (kList only).
  DataType elementType() const {
    DataType element = *this;
    element.kind = elementKind;
    element.elementKind = TypeKind::kNull;
    return element;
  }

  /// Whether values are bytes of variable length (string, binary, uuid).
  bool isBytes() const {
    return kind == TypeKind::kString || kind == TypeKind::kBinary || kind == TypeKind::kUuid;
  }
  bool isNumeric() const {
    return kind == TypeKind::kInt32 || kind == TypeKind::kInt64 || kind == TypeKind::kUInt64 ||
           kind == TypeKind::kDouble || kind == TypeKind::kDecimal;
  }

  /// Renders as the language names it: "int64", "decimal(12,2)", "timestamp(us, utc)".
  std::string toString() const;
  bool operator==(const DataType& other) const;
};

/// A named, typed column of a page: what a plan node produces.
struct Field {
  std::string name;
  DataType type;
  bool operator==(const Field&) const = default;
};

using Schema = std::vector<Field>;

/// Returns the index of the field named `name`, or -1.
int fieldIndex(const Schema& schema, const std::string& name);

}  // namespace quarry::engine
