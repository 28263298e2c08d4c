#pragma once

#include <compare>
#include <string>

#include "quarry/common/values.h"

/// The Parquet VARIANT value (VariantEncoding.md): semi-structured data in two
/// binary parts. Readers hand it back unshredded, in the encoding a writer that
/// never shredded would have stored; variant_encoding.h reads those bytes and
/// variant_shredding.h rebuilds them from shredded columns.
namespace quarry::parquet {

/// A Variant in its binary encoding: the metadata (version header and the
/// dictionary of field names) and the value that refers to it.
struct Variant {
  Bytes metadata;
  Bytes value;

  bool operator==(const Variant&) const = default;
  /// Checks that both parts are well-formed and that every object field id is in
  /// the dictionary; throws CorruptFile naming the first defect and its offset.
  void validate() const;
  /// Renders the value as JSON text (validating first): objects and arrays as
  /// JSON, numbers as numbers (decimals exact, NaN and infinities as strings),
  /// dates, times, timestamps ("+00:00" when UTC-adjusted) and UUIDs as quoted
  /// text, binary values as base64 strings.
  std::string toJson() const;
};

}  // namespace quarry::parquet
