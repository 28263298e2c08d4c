#pragma once

#include <cstddef>
#include <string>

#include "quarry/engine/data/block.h"

/// Renders engine values (a position of a Block) as DuckDB renders the same SQL
/// type, so that query results compare with DuckDB's by script: text as
/// `CAST(x AS VARCHAR)` prints it, JSON as DuckDB's node API gives it from
/// getRowObjectsJson (the conventions of value_renderer.h: 32-bit integers and
/// doubles are numbers, 64-bit integers and decimals strings, NaN and infinities
/// strings, temporal values, UUIDs and blobs their text).
///
/// A UTC-adjusted timestamp is DuckDB's TIMESTAMP WITH TIME ZONE shown in UTC:
/// "2024-01-02 03:04:05.5+00". Decimals print every digit of their scale.
namespace quarry::cli {

/// Appends the text of position `i` ("NULL" when null).
void appendBlockText(const engine::Block& block, size_t i, std::string& out);
/// Appends the JSON of position `i` (null when null).
void appendBlockJson(const engine::Block& block, size_t i, std::string& out);
/// Renders an Int128 unscaled decimal with `scale` fraction digits.
std::string decimalText(engine::Int128 unscaled, int32_t scale);

}  // namespace quarry::cli
