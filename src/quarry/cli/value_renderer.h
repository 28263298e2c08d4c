#pragma once

#include <string>
#include <string_view>

#include "quarry/cli/json_numbers.h"
#include "quarry/formats/parquet/metadata.h"
#include "quarry/formats/parquet/row_values.h"
#include "quarry/formats/parquet/schema.h"

/// Renders the values of a Parquet row as DuckDB renders the same column, as text
/// (`CAST(x AS VARCHAR)`) or as JSON (what DuckDB's node API gives from
/// getRowObjectsJson), so that a script can compare `quarry print` with DuckDB.
///
/// A column renders as the DuckDB type DuckDB's Parquet reader gives it:
/// unannotated BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY and BSON are BLOBs; GEOMETRY
/// and GEOGRAPHY are DuckDB's GEOMETRY, whose text is the WKT of the WKB bytes
/// (duckDbGeometry; invalid WKB is CorruptFile, as DuckDB's query fails on it);
/// FLOAT16 is a FLOAT; a TIME or TIMESTAMP that is UTC-adjusted by its LogicalType
/// (not by a legacy ConvertedType alone) is WITH TIME ZONE and shows "+00".
/// Where quarry knows more than DuckDB keeps, quarry shows it: INT96 keeps its
/// nanoseconds (DuckDB cuts them to microseconds), DECIMAL of any precision stays
/// exact (DuckDB reads a precision over 38 as DOUBLE).
///
/// JSON: integers of every width and decimals are numbers with their exact digits
/// (or, with BigNumbers::kStrings, strings where a double would not hold them:
/// json_numbers.h); floats are numbers with the shortest
/// round-trip digits, and "NaN", "-NaN", "Infinity", "-Infinity" as strings (a NaN
/// with another payload as "NaN(0x<bits>)"); temporal values, UUIDs and blobs are
/// strings in their text form (a GEOMETRY's is its WKB bytes as BLOB text, as
/// the node API gives it); INTERVAL is {"months", "days", "micros"}; a STRUCT
/// is an object; a MAP is a list of {"key", "value"} objects. A MAP without a
/// value field (which DuckDB cannot read) renders as the list of its keys.
namespace quarry::cli {

class ValueRenderer {
 public:
  /// Renders values of the file described by `metadata` (which must outlive this).
  explicit ValueRenderer(const parquet::FileMetaData& metadata,
                         BigNumbers bigNumbers = BigNumbers::kNumbers)
      : metadata_(metadata), bigNumbers_(bigNumbers) {}

  /// Returns true when DuckDB reads a row's field as SQL NULL: a null field, or a
  /// VARIANT holding a Variant null at its top (CSV writes both as the empty field).
  bool isSqlNull(const parquet::FieldValue& value) const;
  /// Appends DuckDB's text of a row's field (NULL for null); `isStructField` is
  /// true for values reached as a field of the row or of a struct, where a
  /// repeated node stands for the list of its occurrences.
  void appendText(const parquet::FieldValue& value, std::string& out,
                  bool isStructField = true) const;

  /// Appends the JSON form of a row's field (null for null).
  void appendJson(const parquet::FieldValue& value, std::string& out,
                  bool isStructField = true) const;

  /// The DuckDB type family a leaf renders as.
  enum class Scalar {
    kNull,
    kBoolean,
    kInt8,
    kInt16,
    kInt32,
    kInt64,
    kUInt8,
    kUInt16,
    kUInt32,
    kUInt64,
    kFloat,
    kDouble,
    kDecimal,
    kDate,
    kTime,
    kTimestamp,
    kInt96,
    kInterval,
    kUuid,
    kString,
    kBlob,
    kGeometry,
  };
  /// Returns how leaf `node` renders.
  static Scalar scalarOf(const parquet::SchemaNode& node);

 private:
  enum class Shape { kScalar, kStruct, kList, kMap };
  static Shape shapeOf(const parquet::FieldValue& value, bool isStructField);

  /// Returns true when `node`'s TIME or TIMESTAMP shows "+00": UTC-adjusted by
  /// its LogicalType field, as DuckDB decides.
  bool showsUtcOffset(const parquet::SchemaNode& node) const;
  std::string scalarText(const parquet::FieldValue& value) const;
  /// Returns scalarText's text without copying a STRING's well-formed bytes: a
  /// view of the value itself, or of `storage` holding scalarText's.
  std::string_view scalarView(const parquet::FieldValue& value, std::string& storage) const;
  void appendScalarJson(const parquet::FieldValue& value, std::string& out) const;
  /// Appends a value inside a LIST, STRUCT or MAP, scalars quoted where DuckDB quotes them.
  void appendNestedText(const parquet::FieldValue& value, std::string& out,
                        bool isStructField) const;

  const parquet::FileMetaData& metadata_;
  BigNumbers bigNumbers_;
};

}  // namespace quarry::cli
