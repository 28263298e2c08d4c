#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "quarry/common/values.h"
#include "quarry/formats/parquet/column_projection.h"
#include "quarry/formats/parquet/record_assembly.h"
#include "quarry/formats/parquet/variant.h"

/// Typed access to the values of assembled rows: a field of a row or struct
/// (FieldValue), a struct (PqStruct), a list (PqList) and a map (PqMap). All are
/// small views into an AssembledRowGroup, valid while the reader stays on it.
namespace quarry::parquet {

class PqStruct;
class PqList;
class PqMap;

/// One value: a projected node at one slot. A REPEATED node reached as a field
/// (an unannotated repeated field) is a list of its elements, never null.
class FieldValue {
 public:
  FieldValue(const AssembledRowGroup* group, const ProjectedNode* projected, int64_t slot,
             bool repeatedField = false)
      : group_(group), projected_(projected), slot_(slot), repeatedField_(repeatedField) {}

  const SchemaNode& node() const { return *projected_->node; }
  const ProjectedNode& projected() const { return *projected_; }
  bool isNull() const;

  bool getBoolean() const;
  /// Returns the stored INT32 (DATE as its epoch day, unsigned types as their bit pattern).
  int32_t getInt() const;
  /// Returns the stored INT64 (timestamps in their unit, unsigned types as their bit pattern).
  int64_t getLong() const;
  /// Returns a FLOAT, or a FLOAT16 widened to float.
  float getFloat() const;
  double getDouble() const;
  /// Returns the UTF-8 text of a STRING/ENUM/JSON or unannotated BYTE_ARRAY value,
  /// with each malformed sequence replaced by U+FFFD.
  std::string getString() const;
  /// Returns the stored bytes of a BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY or INT96 value.
  Bytes getBinary() const;
  /// Returns a view of the stored bytes (valid while the row group is current).
  std::string_view rawBytes() const;
  Date getDate() const;
  TimeOfDay getTime() const;
  /// Returns the instant of a UTC-adjusted TIMESTAMP or an INT96 value.
  Instant getTimestamp() const;
  /// Returns the wall clock of a TIMESTAMP with isAdjustedToUTC = false.
  LocalDateTime getLocalDateTime() const;
  Decimal getDecimal() const;
  Uuid getUuid() const;
  Interval getInterval() const;
  PqStruct getStruct() const;
  PqList getList() const;
  PqMap getMap() const;
  /// Returns the unshredded Variant of a VARIANT group, reassembled from its
  /// shredded columns where it has any (variant_shredding.h); a missing value
  /// reads as a Variant null. Throws CorruptFile for bytes or shredding the
  /// spec does not allow.
  Variant getVariant() const;

 private:
  const NodeSlots& slots() const;
  /// Returns the index of this value in its column's dense values; throws when null.
  int64_t valueIndex(const char* getter) const;
  const ColumnChunkData& column() const;
  [[noreturn]] void throwWrongType(const char* getter, const char* wanted) const;

  const AssembledRowGroup* group_;
  const ProjectedNode* projected_;
  int64_t slot_;
  bool repeatedField_;
};

/// A struct (or the row itself): its projected children by name or position.
class PqStruct {
 public:
  PqStruct(const AssembledRowGroup* group, const ProjectedNode* projected, int64_t slot)
      : group_(group), projected_(projected), slot_(slot) {}

  /// Returns the number of projected fields.
  size_t getFieldCount() const { return projected_->children.size(); }
  const std::string& getFieldName(size_t index) const;
  /// Returns field `index`; throws std::out_of_range at or past getFieldCount().
  FieldValue field(size_t index) const;
  /// Returns the field named `name`; throws InvalidArgument when it is not projected.
  FieldValue field(std::string_view name) const;

 private:
  const AssembledRowGroup* group_;
  const ProjectedNode* projected_;
  int64_t slot_;
};

/// A list's elements.
class PqList {
 public:
  PqList(const AssembledRowGroup* group, const ProjectedNode* element, int64_t begin, int64_t end)
      : group_(group), element_(element), begin_(begin), end_(end) {}
  size_t size() const { return static_cast<size_t>(end_ - begin_); }
  /// Returns element `i`; throws std::out_of_range past the end.
  FieldValue get(size_t i) const;

 private:
  const AssembledRowGroup* group_;
  const ProjectedNode* element_;
  int64_t begin_;
  int64_t end_;
};

/// A map's entries, each a key and a (possibly null) value.
class PqMap {
 public:
  PqMap(const AssembledRowGroup* group, const ProjectedNode* keyValue, int64_t begin, int64_t end)
      : group_(group), keyValue_(keyValue), begin_(begin), end_(end) {}
  size_t size() const { return static_cast<size_t>(end_ - begin_); }
  FieldValue key(size_t i) const;
  /// Returns entry i's value; throws InvalidArgument when the map has no value field.
  FieldValue value(size_t i) const;
  bool hasValues() const { return keyValue_->children.size() > 1; }

 private:
  const AssembledRowGroup* group_;
  const ProjectedNode* keyValue_;
  int64_t begin_;
  int64_t end_;
};

}  // namespace quarry::parquet
