#pragma once

#include "quarry/formats/parquet/row_values.h"
#include "quarry/formats/parquet/variant.h"

/// Reassembling shredded Variants (VariantShredding.md, "Reconstructing a
/// Shredded Variant"). A VARIANT group holds `metadata`, an optional binary
/// `value` and an optional `typed_value` that is a primitive, a group of
/// shredded object fields (each a group of value / typed_value) or a LIST of
/// such element groups. Reading one row rebuilds the bytes a writer that never
/// shredded would have written:
///
///   typed_value int32 34, value null       -> 14 22 00 00 00   (int32 34)
///   typed_value {a: {typed_value 1}},
///     value {"b": "x"}                     -> {"a": 1, "b": "x"}, ids and
///                                             offsets in name order
///   typed_value null, value null           -> missing: a Variant null (00) at
///                                             the top, no field in an object
///
/// Shredded strings become short strings below 64 bytes; objects and arrays use
/// the fewest bytes for their counts, ids and offsets, with values laid out in
/// field order: the choices of the reference writer (Iceberg), so that results
/// match parquet-testing's shredded_variant files byte for byte.
///
/// The spec's invalid cases are refused with CorruptFile: value and typed_value
/// both set for a primitive or an array, a partially shredded value that is not
/// an object, a field both in value and among the shredded fields (even when
/// its shredded column is missing in the row), and typed_value types outside
/// the spec's table (unsigned integers, FIXED_LEN_BYTE_ARRAY other than UUID or
/// DECIMAL, ...). Shredded field groups the file marks optional, which the spec
/// requires to be required, are read, a null group meaning a missing field.
namespace quarry::parquet {

/// Returns the unshredded Variant of `variantGroup`, a VARIANT group that is
/// not null in this row. Throws InvalidArgument when it is not a Variant group
/// or when the projection left out part of it, and CorruptFile for bytes or a
/// shredding the spec does not allow.
Variant reassembleVariant(const FieldValue& variantGroup);

}  // namespace quarry::parquet
