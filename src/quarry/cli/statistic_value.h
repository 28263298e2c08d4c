#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "quarry/formats/parquet/metadata.h"
#include "quarry/formats/parquet/schema.h"

/// Rendering of the raw bytes of a statistics bound (Statistics min/max, a
/// ColumnIndex page bound) as the value they encode: the PLAIN encoding of the
/// column's physical type, read in the light of its logical type. Nothing is
/// judged or filtered here: a reversed pair, a NaN or a bound of a type that
/// has no order is shown as carried.
namespace quarry::cli {

/// What a column's bound bytes mean: its physical type and its annotation.
struct ValueType {
  parquet::PhysicalType physical = parquet::PhysicalType::BYTE_ARRAY;
  /// FIXED_LEN_BYTE_ARRAY width.
  int32_t typeLength = 0;
  /// Kind::NONE when the column has none (or it was dropped).
  parquet::LogicalType logical;
  /// Consulted where `logical` is NONE (older writers, and INTERVAL, which has
  /// no LogicalType member).
  std::optional<parquet::ConvertedType> converted;

  /// Describes a leaf column; a dropped annotation leaves the physical type.
  static ValueType ofLeaf(const parquet::SchemaNode& leaf);
};

/// A rendered bound.
struct RenderedValue {
  enum class Kind {
    kNumber,  // an integer or finite float; `text` is valid JSON number text
    kString,  // well-formed UTF-8 text, shown quoted
    kHex,     // bytes with no readable form; `text` is "0x" + lowercase hex
    kOther,   // dates, timestamps, decimals, NaN, UUIDs: shown as is
  };
  Kind kind = Kind::kHex;
  std::string text;
};

/// Renders `bytes` as the value they encode for a column of `type`. Bytes of
/// the wrong length for the type, ill-formed UTF-8 in a string, and binary
/// types without a text form are rendered as hex.
RenderedValue renderValue(std::string_view bytes, const ValueType& type);

/// Returns the lowercase hex digits of `bytes`, without a prefix.
std::string toHex(std::string_view bytes);

/// Returns `value` as one line of at most about `maxWidth` code points for a
/// table cell: strings quoted with control characters escaped, long values cut
/// with "..." and the full length noted.
std::string formatForText(const RenderedValue& value, size_t maxWidth = 48);

}  // namespace quarry::cli
