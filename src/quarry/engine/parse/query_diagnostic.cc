#include "quarry/engine/parse/query_diagnostic.h"

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

}  // namespace

std::string renderQueryError(const QueryError& error, std::string_view query) {
  std::string out = "error: " + error.message() + "\n  at line " + std::to_string(error.line()) +
                    ", column " + std::to_string(error.column()) + ":\n";
  const std::string_view line = lineOf(query, error.line());
  out += "  ";
  appendUtf8Lossy(line, out);
  out += "\n  ";
  // One pad character per code point before the caret; the column counts code
  // points as the lexer does (each ill-formed byte as one).
  int column = 1;
  size_t pos = 0;
  while (column < error.column() && pos < line.size()) {
    out += line[pos] == '\t' ? '\t' : ' ';
    const size_t length = utf8SequenceLength(line, pos);
    pos += length == 0 ? 1 : length;
    ++column;
  }
  for (; column < error.column(); ++column) out += ' ';
  out += "^\n";
  if (!error.hint().empty()) out += "hint: " + error.hint() + "\n";
  return out;
}

}  // namespace quarry::engine
