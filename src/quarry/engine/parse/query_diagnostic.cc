#include "quarry/engine/parse/query_diagnostic.h"

#include <algorithm>

#include "quarry/common/uri_redaction.h"
#include "quarry/common/utf8.h"

namespace quarry::engine {
namespace {

/// Returns line `number` (1-based) of `text` without its line break, or an
/// empty view when the text has fewer lines.
std::string_view lineOf(std::string_view text, int number) {
  size_t start = 0;
  for (int line = 1; line < number; ++line) {
    const size_t newline = text.find('\n', start);
    if (newline == std::string_view::npos) return {};
    start = newline + 1;
  }
  size_t end = text.find('\n', start);
  if (end == std::string_view::npos) end = text.size();
  if (end > start && text[end - 1] == '\r') --end;
  return text.substr(start, end - start);
}

/// The text of renderQueryError and renderQueryWarning: `label` ("error",
/// "warning"), the message and where, the query line with a caret, the hint.
std::string renderDiagnostic(std::string_view label, const std::string& message, int lineNumber,
                             int columnNumber, const std::string& hint, std::string_view query) {
  std::string out = std::string(label) + ": " + redactUris(message) + "\n  at line " +
                    std::to_string(lineNumber) + ", column " + std::to_string(columnNumber) + ":\n";
  const std::string_view line = lineOf(query, lineNumber);
  // The byte the caret points at: one code point per column, as the lexer counts
  // them (each ill-formed byte as one); columns past the line's end as spaces.
  int column = 1;
  size_t pos = 0;
  while (column < columnNumber && pos < line.size()) {
    const size_t length = utf8SequenceLength(line, pos);
    pos += length == 0 ? 1 : length;
    ++column;
  }
  const int pastEnd = columnNumber - column;
  // The line is shown with its URIs' credentials redacted, the caret moved with
  // the text (to the start of a "***" it pointed into).
  const std::vector<std::pair<size_t, size_t>> secrets = uriSecrets(line);
  std::string shown;
  size_t shownPos = std::string::npos;
  size_t done = 0;
  for (const auto& [from, to] : secrets) {
    if (shownPos == std::string::npos && pos < to) shownPos = shown.size() + std::min(pos, from) - done;
    shown.append(line.substr(done, from - done));
    shown.append("***");
    done = to;
  }
  if (shownPos == std::string::npos) shownPos = shown.size() + pos - done;
  shown.append(line.substr(done));
  out += "  ";
  appendUtf8Lossy(shown, out);
  out += "\n  ";
  for (size_t at = 0; at < shownPos && at < shown.size();) {
    out += shown[at] == '\t' ? '\t' : ' ';
    const size_t length = utf8SequenceLength(shown, at);
    at += length == 0 ? 1 : length;
  }
  for (int i = 0; i < pastEnd; ++i) out += ' ';
  out += "^\n";
  if (!hint.empty()) out += "hint: " + redactUris(hint) + "\n";
  return out;
}

}  // namespace

std::string renderQueryError(const QueryError& error, std::string_view query) {
  return renderDiagnostic("error", error.message(), error.line(), error.column(), error.hint(),
                          query);
}

std::string renderQueryWarning(const QueryWarning& warning, std::string_view query) {
  return renderDiagnostic("warning", warning.message, warning.line, warning.column, warning.hint,
                          query);
}

}  // namespace quarry::engine
