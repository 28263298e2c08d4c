#include "quarry/engine/parse/token.h"

namespace quarry::engine {

bool Token::isKeyword(std::string_view keyword) const {
  if (kind != TokenKind::kIdentifier || quoted || parts.size() != 1) return false;
  const std::string& word = parts[0];
  if (word.size() != keyword.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    char c = word[i];
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c != keyword[i]) return false;
  }
  return true;
}

std::string Token::describe() const {
  constexpr size_t kMaxShown = 40;
  std::string shown(source.substr(0, kMaxShown));
  if (source.size() > kMaxShown) shown += "...";
  switch (kind) {
    case TokenKind::kEnd:
      return "end of query";
    case TokenKind::kIdentifier:
      return "'" + shown + "'";
    case TokenKind::kString:
      return "string " + shown;
    case TokenKind::kInteger:
    case TokenKind::kDecimal:
    case TokenKind::kDouble:
      return "number " + shown;
    default:
      return "'" + shown + "'";
  }
}

}  // namespace quarry::engine
