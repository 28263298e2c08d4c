#pragma once

#include <string>
#include <string_view>

#include "quarry/common/byte_scan.h"

namespace quarry::cli {

/// Returns true when DuckDB's CSV writer quotes a field of `text`: it holds a
/// delimiter, quote, line break or '#' (DuckDB's comment character), or is empty
/// (which NULL is not: a NULL is written as nothing).
inline bool csvFieldNeedsQuotes(std::string_view text) {
  static constexpr ByteSet kNeedsQuotes(",\"\n\r#");
  return text.empty() || findFirstIn(text, kNeedsQuotes) != text.size();
}

/// Appends `part` of a quoted field's text, its quotes doubled. A field can be
/// written part by part: the escaping looks at one byte at a time.
inline void appendCsvQuotedText(std::string_view part, std::string& out) {
  static constexpr ByteSet kQuote("\"");
  appendEscaped(part, kQuote, out, [](char, std::string& o) { o += "\"\""; });
}

/// Appends a CSV field as DuckDB's CSV writer does: quoted (quotes doubled) when
/// csvFieldNeedsQuotes.
inline void appendCsvField(std::string_view text, std::string& out) {
  if (!csvFieldNeedsQuotes(text)) {
    appendBulk(out, text);
    return;
  }
  out += '"';
  appendCsvQuotedText(text, out);
  out += '"';
}

}  // namespace quarry::cli
