#pragma once

#include <string>
#include <string_view>

/// JSON text shared by every writer of JSON (the CLI's JsonWriter, ORC's row
/// rendering): one escaping rule for strings.
namespace quarry {

/// Appends `text` to `out` as a quoted JSON string: quotes, backslashes and
/// control characters escaped; valid UTF-8 kept as is, each byte of an invalid
/// sequence written as \u00XX.
void appendJsonString(std::string& out, std::string_view text);

}  // namespace quarry
