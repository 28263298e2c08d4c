#pragma once

#include <string>
#include <string_view>

#include "quarry/cli/json_writer.h"
#include "quarry/cli/statistic_value.h"
#include "quarry/formats/parquet/metadata.h"

/// Statistics shown exactly as a file carries them: every field that is
/// present, absent ones marked absent, bounds rendered as values and (in JSON)
/// as the raw bytes' hex. Reversed pairs and NaN bounds are not filtered; the
/// rules that make a reader ignore them (query-controls, "When statistics are
/// ignored") do not apply to reporting.
namespace quarry::cli {

/// Writes one bound as {"value": <rendered>, "hex": "<raw bytes>"}: the value as
/// a JSON number where it is one, else as a string.
void writeBoundJson(JsonWriter& json, std::string_view bytes, const ValueType& type);

/// Writes a rendered value as a JSON number where it is one, else as a string.
void writeRenderedJson(JsonWriter& json, const RenderedValue& value);

/// Writes `statistics` as a JSON object with every field of the Statistics
/// struct (null where absent).
void writeStatisticsJson(JsonWriter& json, const parquet::Statistics& statistics,
                         const ValueType& type);

/// Appends one "label value" line per field the statistics carry, values
/// starting `labelWidth` columns after the indent.
void appendStatisticsText(std::string& out, std::string_view indent,
                          const parquet::Statistics& statistics, const ValueType& type,
                          size_t labelWidth);

/// Returns a one-line summary ("min=0 max=7 nulls=0") for a table cell.
std::string summarizeStatistics(const parquet::Statistics& statistics, const ValueType& type);

/// Formats a bound for a table cell.
std::string boundText(std::string_view bytes, const ValueType& type, size_t maxWidth = 32);

}  // namespace quarry::cli
