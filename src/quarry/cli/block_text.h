#pragma once

#include <cstddef>
#include <string>

#include "quarry/cli/json_numbers.h"
#include "quarry/engine/data/block.h"

/// Renders engine values (a position of a Block) as DuckDB renders the same SQL
/// type, so that query results compare with DuckDB's by script: text as
/// `CAST(x AS VARCHAR)` prints it, JSON as DuckDB's node API gives it from
/// getRowObjectsJson (the conventions of value_renderer.h: integers, decimals
/// and doubles are numbers (json_numbers.h: big ones strings on request), NaN and
/// infinities strings, temporal values, UUIDs and blobs their text).
///
/// A UTC-adjusted timestamp is DuckDB's TIMESTAMP WITH TIME ZONE shown in UTC:
/// "2024-01-02 03:04:05.5+00". Decimals print every digit of their scale.
namespace quarry::cli {

/// Appends the text of position `i` ("NULL" when null).
void appendBlockText(const engine::Block& block, size_t i, std::string& out);
/// Appends the JSON of position `i` (null when null).
void appendBlockJson(const engine::Block& block, size_t i, std::string& out,
                     BigNumbers big = BigNumbers::kNumbers);
/// Appends the text of a TIMESTAMP of `type` (its unit and zone), `value` units since the epoch.
void appendTimestampText(int64_t value, const engine::DataType& type, std::string& out);
/// Appends the text of a TIME of `type` (its unit), `value` units since midnight.
void appendTimeText(int64_t value, const engine::DataType& type, std::string& out);
/// Renders an Int128 unscaled decimal with `scale` fraction digits.
std::string decimalText(engine::Int128 unscaled, int32_t scale);

}  // namespace quarry::cli
