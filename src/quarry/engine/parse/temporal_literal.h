#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "quarry/common/values.h"

/// The text of DATE and TIMESTAMP literals, read and written back.
namespace quarry::engine {

/// Reads "YYYY-MM-DD" (a real calendar day, year 0000-9999), or returns nullopt.
std::optional<Date> parseDateLiteral(std::string_view text);

/// Reads "YYYY-MM-DD HH:MM[:SS[.f]]" ('T' may replace the space; 1 to 9 fraction
/// digits), or returns nullopt.
std::optional<LocalDateTime> parseTimestampLiteral(std::string_view text);

/// Writes "YYYY-MM-DD HH:MM:SS" with as few fraction digits as keep it exact.
std::string formatTimestampLiteral(const LocalDateTime& value);

}  // namespace quarry::engine
