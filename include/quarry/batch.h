#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "quarry/data_type.h"

/// A batch of a query's result rows, column by column (a page of the engine's
/// output). Values are read by column and row index, typed by the column's
/// DataType (data_type.h says which getter each kind takes); asking a column for
/// another kind throws InvalidArgument naming the column and its type, an index
/// out of range std::out_of_range. A batch shares its values: copies are cheap,
/// and it stays valid after the Result that gave it is gone.
namespace quarry {

class Batch {
 public:
  struct Impl;
  explicit Batch(std::shared_ptr<const Impl> impl);

  size_t rowCount() const;
  size_t columnCount() const;
  /// Returns the columns' names and types, as Result::schema() has them.
  const Schema& schema() const;

  bool isNull(size_t column, size_t row) const;
  bool getBoolean(size_t column, size_t row) const;
  /// kInt32, kInt64, and the counts of kDate (days), kTime and kTimestamp (units).
  int64_t getInt64(size_t column, size_t row) const;
  uint64_t getUInt64(size_t column, size_t row) const;
  double getDouble(size_t column, size_t row) const;
  /// The unscaled value of a kDecimal (its scale is the column type's).
  __int128 getDecimal(size_t column, size_t row) const;
  /// The bytes of a kString, kBinary or kUuid value (valid while the batch is).
  std::string_view getString(size_t column, size_t row) const;

  /// Returns the value's text as `quarry query` prints it ("NULL" for null):
  /// decimals with every digit of their scale, temporal values in ISO form
  /// (value_text.h), lists as [a, b].
  std::string text(size_t column, size_t row) const;
  /// Returns the value as JSON, as `quarry query --format json` writes it.
  std::string json(size_t column, size_t row) const;

  /// The engine's side of the batch (opaque), for the library's exporters (arrow.h).
  const std::shared_ptr<const Impl>& impl() const { return impl_; }

 private:
  std::shared_ptr<const Impl> impl_;
};

}  // namespace quarry
