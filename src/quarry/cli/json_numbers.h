#pragma once

#include <string>
#include <string_view>

/// How the JSON output (`--format json|ndjson` of print and query) writes
/// 64-bit integers and decimals: as JSON numbers with their exact digits (JSON
/// numbers are text, of any length), or, for consumers that parse every number
/// into a double (JavaScript's JSON.parse), as strings where a double would not
/// carry the value exactly: integers beyond ±2^53 (9,007,199,254,740,992) and
/// decimals of more than 15 significant digits. The choice is per value: 42 is
/// a number either way.
namespace quarry::cli {

enum class BigNumbers { kNumbers, kStrings };

/// Appends `digits`, an exact integer or decimal in plain notation ("-12",
/// "0.50"), as a JSON number, or as a JSON string when `big` is kStrings and a
/// double would not hold it (see above).
void appendJsonExactNumber(std::string_view digits, BigNumbers big, std::string& out);

/// Whether a double holds the value of `digits` exactly (integers within
/// ±2^53) or to its every digit (decimals of at most 15 significant digits).
bool fitsDouble(std::string_view digits);

}  // namespace quarry::cli
