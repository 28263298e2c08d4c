#include "quarry/engine/parse/token_cursor.h"

#include <utility>

#include "quarry/common/error.h"

namespace quarry::engine {

TokenCursor::TokenCursor(std::vector<Token> tokens) : tokens_(std::move(tokens)) {
  if (tokens_.empty() || tokens_.back().kind != TokenKind::kEnd) tokens_.emplace_back();
}

const Token& TokenCursor::peek(size_t ahead) const {
  const size_t last = tokens_.size() - 1;
  return tokens_[index_ + ahead < last ? index_ + ahead : last];
}

const Token& TokenCursor::previous() const {
  return tokens_[index_ > 0 ? index_ - 1 : 0];
}

const Token& TokenCursor::next() {
  const Token& token = peek();
  if (index_ + 1 < tokens_.size()) ++index_;
  return token;
}

bool TokenCursor::accept(TokenKind kind) {
  if (!at(kind)) return false;
  next();
  return true;
}

bool TokenCursor::acceptKeyword(std::string_view keyword) {
  if (!atKeyword(keyword)) return false;
  next();
  return true;
}

const Token& TokenCursor::expect(TokenKind kind, std::string_view what, std::string_view context,
                                 std::string_view hint) {
  if (!at(kind)) {
    std::string expected(what);
    if (!context.empty()) expected += " " + std::string(context);
    failExpected(expected, hint);
  }
  return next();
}

const Token& TokenCursor::expectKeyword(std::string_view keyword, std::string_view context,
                                        std::string_view hint) {
  if (!atKeyword(keyword)) {
    std::string expected(keyword);
    if (!context.empty()) expected += " " + std::string(context);
    failExpected(expected, hint);
  }
  return next();
}

void TokenCursor::failExpected(std::string_view what, std::string_view hint) const {
  const Token& found = peek();
  const bool nothingFollows = found.kind == TokenKind::kEnd || found.kind == TokenKind::kPipe ||
                              found.kind == TokenKind::kRightParen ||
                              found.kind == TokenKind::kRightBrace;
  if (index_ > 0 && previous().kind == TokenKind::kComma && nothingFollows) {
    hint = "remove the trailing ','";
  }
  fail(found, "expected " + std::string(what) + ", found " + found.describe(), hint);
}

void TokenCursor::fail(const Token& token, const std::string& message, std::string_view hint) {
  throw QueryError(message, token.position.line, token.position.column, std::string(hint));
}

}  // namespace quarry::engine
