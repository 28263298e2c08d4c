#pragma once

#include <string>
#include <string_view>

namespace quarry::cli {

/// Appends a CSV field as DuckDB's CSV writer does: quoted (quotes doubled) when
/// it holds a delimiter, quote, line break or '#' (DuckDB's comment character), or
/// is empty (which NULL is not: a NULL is written as nothing).
inline void appendCsvField(std::string_view text, std::string& out) {
  if (!text.empty() && text.find_first_of(",\"\n\r#") == std::string_view::npos) {
    out += text;
    return;
  }
  out += '"';
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace quarry::cli
