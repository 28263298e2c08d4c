#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "quarry/common/values.h"

/// Reading the Variant binary encoding (VariantEncoding.md): the metadata
/// dictionary and the self-describing value. Both views validate everything on
/// parse, bounds, dictionary ids, UTF-8, field order, before an accessor may
/// trust a byte, so corrupt bytes end in CorruptFile and never in a read past
/// the end.
///
/// Worked example: metadata `11 01 00 01 61` is version 1, sorted strings,
/// 1-byte offsets, one string "a"; value `02 01 00 00 01 0C 2A` is an object
/// (basic type 2, 1-byte ids and offsets) of one field, id 0 ("a"), at offset 0,
/// holding `0C 2A` (primitive int8, 42): {"a": 42}.
namespace quarry::parquet {

/// The two low bits of a value's first byte.
enum class VariantBasicType : uint8_t { kPrimitive = 0, kShortString = 1, kObject = 2, kArray = 3 };

/// The primitive type ids of the spec's "Variant primitive types" table.
enum class VariantPrimitiveType : uint8_t {
  kNull = 0,
  kTrue = 1,
  kFalse = 2,
  kInt8 = 3,
  kInt16 = 4,
  kInt32 = 5,
  kInt64 = 6,
  kDouble = 7,
  kDecimal4 = 8,
  kDecimal8 = 9,
  kDecimal16 = 10,
  kDate = 11,
  kTimestampMicros = 12,
  kTimestampNtzMicros = 13,
  kFloat = 14,
  kBinary = 15,
  kString = 16,
  kTimeNtzMicros = 17,
  kTimestampNanos = 18,
  kTimestampNtzNanos = 19,
  kUuid = 20,
};

/// Nesting deeper than this is refused, so that validation cannot exhaust the stack.
inline constexpr int kMaxVariantDepth = 256;

/// Returns the size of a primitive's value data (after the header byte), or -1
/// for the variable-size binary and string, and -2 for an unknown type id.
int variantPrimitiveDataSize(uint8_t typeId);

/// A view of validated metadata bytes: the field-name dictionary.
class VariantMetadata {
 public:
  /// Validates `bytes` (version 1, offsets in bounds and ascending from 0, the
  /// last one the string area's size, UTF-8 names, sorted and unique when the
  /// header says so); throws CorruptFile naming the defect.
  static VariantMetadata parse(std::span<const uint8_t> bytes);

  /// Returns the number of names in the dictionary.
  uint32_t size() const { return size_; }
  /// Returns name `id`; `id` must be below size().
  std::string_view name(uint32_t id) const;
  bool sortedStrings() const { return sorted_; }
  /// Returns the id of `name` (the first, when unsorted names repeat), or nullopt.
  std::optional<uint32_t> find(std::string_view name) const;
  std::span<const uint8_t> bytes() const { return bytes_; }

 private:
  uint32_t offset(uint32_t i) const;

  std::span<const uint8_t> bytes_;
  uint32_t size_ = 0;
  uint8_t offsetSize_ = 1;
  bool sorted_ = false;
  size_t stringsBegin_ = 0;
};

/// A view of one validated value, which may be nested in a larger one.
class VariantValue {
 public:
  /// Validates that `bytes` hold exactly one value whose object field ids are in
  /// `metadata`; throws CorruptFile naming the defect and its offset.
  static VariantValue parse(const VariantMetadata& metadata, std::span<const uint8_t> bytes);

  VariantBasicType basicType() const { return static_cast<VariantBasicType>(bytes_[0] & 3); }
  /// Returns the primitive type; a short string reads as kString.
  VariantPrimitiveType primitiveType() const;
  /// Returns the bytes of this value and nothing after it.
  std::span<const uint8_t> bytes() const { return bytes_; }
  const VariantMetadata& metadata() const { return metadata_; }

  /// Primitive accessors; each requires the matching primitiveType().
  /// Returns an int8, int16, int32 or int64 widened; also a date's day, a time's
  /// or timestamp's count of its unit.
  int64_t getLong() const;
  double getDouble() const;
  float getFloat() const;
  /// Returns the text of a short or long string, or the bytes of a binary.
  std::string_view getString() const;
  /// Returns a decimal4/8/16 as an unscaled big-endian integer and its scale.
  Decimal getDecimal() const;
  Uuid getUuid() const;

  /// Returns the number of fields of an object or elements of an array.
  uint32_t elementCount() const;
  /// Returns the dictionary id of an object's field `i` (fields are in name order).
  uint32_t fieldId(uint32_t i) const;
  std::string_view fieldName(uint32_t i) const { return metadata_.name(fieldId(i)); }
  /// Returns an object's field `i` or an array's element `i`.
  VariantValue element(uint32_t i) const;

 private:
  VariantValue(const VariantMetadata& metadata, std::span<const uint8_t> bytes)
      : metadata_(metadata), bytes_(bytes) {}
  /// The layout of an object's or array's header; see the .cc.
  struct Layout;
  Layout layout() const;
  std::span<const uint8_t> data() const { return bytes_.subspan(1); }

  VariantMetadata metadata_;
  std::span<const uint8_t> bytes_;
};

}  // namespace quarry::parquet
