#pragma once

#include <cstdint>
#include <string>

#include "quarry/formats/parquet/metadata.h"

/// Calendar text for Parquet's temporal values (DATE, TIME, TIMESTAMP, INT96):
/// ISO 8601 in the proleptic Gregorian calendar, with as many fraction digits
/// as the value's unit has, over the whole range the physical types can hold.
namespace quarry::cli {

/// Returns how many `unit`s make one day.
int64_t unitsPerDay(parquet::TimeUnit unit);

/// Formats a day count since 1970-01-01 as YYYY-MM-DD (a negative year as -YYYY).
std::string formatDate(int64_t daysSinceEpoch);

/// Formats `units` since midnight (0 <= units < unitsPerDay(unit)) as
/// HH:MM:SS.fff, .ffffff or .fffffffff for millis, micros and nanos.
std::string formatTimeOfDay(int64_t units, parquet::TimeUnit unit);

/// Formats an instant `count` units of `unit` from the epoch as
/// YYYY-MM-DDTHH:MM:SS.fraction (no zone: the caller appends Z where it applies).
std::string formatTimestamp(int64_t count, parquet::TimeUnit unit);

}  // namespace quarry::cli
