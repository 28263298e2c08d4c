#pragma once

#include <string>
#include <string_view>

#include "quarry/common/byte_scan.h"

namespace quarry::cli {

/// Appends a CSV field as DuckDB's CSV writer does: quoted (quotes doubled) when
/// it holds a delimiter, quote, line break or '#' (DuckDB's comment character), or
/// is empty (which NULL is not: a NULL is written as nothing).
inline void appendCsvField(std::string_view text, std::string& out) {
  static constexpr ByteSet kNeedsQuotes(",\"\n\r#");
  if (!text.empty() && findFirstIn(text, kNeedsQuotes) == text.size()) {
    appendBulk(out, text);
    return;
  }
  static constexpr ByteSet kQuote("\"");
  out += '"';
  appendEscaped(text, kQuote, out, [](char, std::string& o) { o += "\"\""; });
  out += '"';
}

}  // namespace quarry::cli
