#pragma once

#include <string>

#include "quarry/cli/json_numbers.h"
#include "quarry/formats/parquet/variant_encoding.h"

/// The forms `quarry print` gives a VARIANT value, as DuckDB 1.5 renders its
/// VARIANT type: the text of `CAST(v AS VARCHAR)` and the JSON of its node API.
///
/// Text: a top-level scalar prints alone (a string unquoted); objects print as
/// {'key': value, ...} in field-name order and arrays as [a, b], their scalars
/// quoted where DuckDB quotes a nested value (needsQuotesInNested) and a Variant
/// null as NULL. Scalars take DuckDB's forms of the equivalent SQL type;
/// timestamps with a time zone show "+00", and nanosecond ones with a time zone
/// round to microseconds as DuckDB's TIMESTAMP WITH TIME ZONE does.
///
/// JSON: objects and arrays as JSON, scalars as ValueRenderer writes the
/// equivalent column (integers, decimals and floats as numbers, big integers and
/// decimals strings on request (json_numbers.h), the rest as strings of their text).
namespace quarry::cli {

/// Appends DuckDB's text of `value`; `nested` for a value inside an object or array.
void appendVariantText(const parquet::VariantValue& value, std::string& out, bool nested = false);

/// Appends the JSON form of `value`.
void appendVariantJson(const parquet::VariantValue& value, std::string& out,
                       BigNumbers big = BigNumbers::kNumbers);

/// Returns true for a Variant null (which DuckDB reads as SQL NULL at the top).
inline bool isVariantNull(const parquet::VariantValue& value) {
  return value.basicType() == parquet::VariantBasicType::kPrimitive &&
         value.primitiveType() == parquet::VariantPrimitiveType::kNull;
}

}  // namespace quarry::cli
