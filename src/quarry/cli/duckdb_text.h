#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "quarry/common/values.h"

/// DuckDB's text forms of scalar values (what `CAST(x AS VARCHAR)` prints), so
/// that `quarry print` output can be compared with DuckDB's by a script.
///
/// Floating point follows DuckDB (and Python's repr): the shortest digits that
/// round-trip, in plain notation with at least one fraction digit when the
/// decimal exponent is in [-4, 16), else in scientific notation with a signed,
/// two-digit-minimum exponent: 0.1, 100.0, 1e+16, 1e-05, -0.0, nan, -inf. A FLOAT
/// whose shortest digits DuckDB's Grisu cannot prove (a tie, or a decimal on its
/// rounding interval's bound) prints as its double does: 2731571.75, not 2731571.8.
/// Temporal values trim trailing zeros of their fraction ("00:00:00.12"), and
/// years before 1 print as DuckDB does, "0044-03-15 (BC)".
namespace quarry::cli {

/// Returns the shortest round-trip text of `value` in DuckDB's notation.
std::string duckDbDouble(double value);
std::string duckDbFloat(float value);

/// Returns YYYY-MM-DD, or "YYYY-MM-DD (BC)" for years before 1 (year 0 is 1 BC).
std::string duckDbDate(Date date);

/// Returns HH:MM:SS[.fraction] for `nanosOfDay`, the fraction cut to
/// `fractionDigits` (6 for TIME, 9 for TIME_NS) and stripped of trailing zeros.
std::string duckDbTime(int64_t nanosOfDay, int fractionDigits);

/// Returns "date HH:MM:SS[.fraction]" for an instant or wall-clock reading; the
/// BC marker sits between date and time as DuckDB puts it.
std::string duckDbTimestamp(int64_t epochSeconds, int32_t nanos, int fractionDigits);

/// Returns an INTERVAL as DuckDB prints it: "1 year 2 months 3 days 04:05:06.007",
/// the parts that are zero left out, "00:00:00" when all are.
std::string duckDbInterval(const Interval& interval);

/// Returns a BLOB as DuckDB prints it: printable ASCII other than \ ' " as is,
/// every other byte as \xNN (upper-case hex).
std::string duckDbBlob(std::string_view bytes);

/// Returns a GEOMETRY (or GEOGRAPHY, which DuckDB reads as GEOMETRY) as DuckDB
/// 1.5 prints it: the WKT of its WKB bytes (see formats/parquet/wkb_text.h), each
/// coordinate as a DOUBLE prints but without a trailing ".0" ("POINT (30 10)",
/// "POINT (1.5 -0)", "POINT (1e+16 nan)"). Throws CorruptFile for invalid WKB.
std::string duckDbGeometry(std::string_view wkb);

/// Returns whether DuckDB quotes this scalar's text inside a LIST, STRUCT or MAP:
/// empty, NULL in any case, leading or trailing white space, or one of "'(),:=[]{}.
bool needsQuotesInNested(std::string_view text);

/// Appends `text` in single quotes with \ and ' escaped by a backslash.
void appendQuotedInNested(std::string_view text, std::string& out);

}  // namespace quarry::cli
