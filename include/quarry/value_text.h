#pragma once

#include <cstdint>
#include <string>

#include "quarry/data_type.h"

/// Text of the values a Batch holds in their raw form, as `quarry query` prints
/// them (and as DuckDB's CAST(x AS VARCHAR) does): Batch::text gives the same for
/// a value of a batch.
namespace quarry {

/// Returns an unscaled decimal with `scale` fraction digits: (12345, 2) -> "123.45",
/// (-5, 3) -> "-0.005".
std::string decimalText(__int128 unscaled, int32_t scale);

/// Returns a day count since 1970-01-01 as YYYY-MM-DD ("0044-03-15 (BC)" before year 1).
std::string dateText(int32_t daysSinceEpoch);

/// Returns a time of day, `value` units since midnight, as HH:MM:SS[.fraction]
/// (trailing zeros of the fraction dropped).
std::string timeText(int64_t value, TimeUnit unit);

/// Returns a timestamp, `value` units since the epoch, as "YYYY-MM-DD HH:MM:SS[.fraction]",
/// followed by "+00" for a UTC instant (utcAdjusted).
std::string timestampText(int64_t value, TimeUnit unit, bool utcAdjusted);

}  // namespace quarry
