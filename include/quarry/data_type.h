#pragma once

#include <cstdint>
#include <string>
#include <vector>

/// The types of a query's result columns: what each value of a Batch holds.
namespace quarry {

enum class TypeKind : uint8_t {
  kNull,       // only NULL (a NULL literal, a column no file has)
  kBoolean,    // Batch::getBoolean
  kInt32,      // Batch::getInt64 (widened)
  kInt64,      // Batch::getInt64
  kUInt64,     // Batch::getUInt64
  kDouble,     // Batch::getDouble
  kDecimal,    // Batch::getDecimal: unscaled 128-bit integer, DataType::scale digits
  kString,     // Batch::getString (UTF-8)
  kBinary,     // Batch::getString (bytes)
  kDate,       // Batch::getInt64: days since 1970-01-01
  kTime,       // Batch::getInt64: DataType::unit since midnight
  kTimestamp,  // Batch::getInt64: DataType::unit since the epoch (UTC, or wall clock)
  kUuid,       // Batch::getString: 16 bytes
  kList,       // Batch::text only: a list of DataType::elementKind
};

enum class TimeUnit : uint8_t { kMillis, kMicros, kNanos };

struct DataType {
  TypeKind kind = TypeKind::kNull;
  /// kDecimal: digits in all, and after the point.
  int32_t precision = 0;
  int32_t scale = 0;
  /// kTime and kTimestamp.
  TimeUnit unit = TimeUnit::kMicros;
  /// kTimestamp: true for an instant (UTC), false for a local date-time.
  bool utcAdjusted = true;
  /// kList: the kind of its elements (the fields above describe them).
  TypeKind elementKind = TypeKind::kNull;

  /// Returns the type as EXPLAIN and the --profile output name it: "decimal(9,2)",
  /// "timestamp(us, utc)", "list<string>".
  std::string toString() const;
};

struct Field {
  std::string name;
  DataType type;
};

using Schema = std::vector<Field>;

}  // namespace quarry
