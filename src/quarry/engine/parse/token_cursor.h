#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/engine/parse/token.h"

namespace quarry::engine {

/// Walks the tokens of one query for the parsers, and phrases their errors:
/// "expected X CONTEXT, found Y" at the token found, with a hint.
class TokenCursor {
 public:
  /// `tokens` ends with kEnd, as tokenize returns them.
  explicit TokenCursor(std::vector<Token> tokens);

  /// Returns the token `ahead` tokens on (kEnd once past the end).
  const Token& peek(size_t ahead = 0) const;
  /// Returns the token before the current one; only valid after a next().
  const Token& previous() const;
  /// Consumes and returns the current token.
  const Token& next();
  bool at(TokenKind kind) const { return peek().kind == kind; }
  bool atKeyword(std::string_view keyword) const { return peek().isKeyword(keyword); }
  /// Consumes the current token when it is of `kind`.
  bool accept(TokenKind kind);
  /// Consumes the current token when it is `keyword` (upper case).
  bool acceptKeyword(std::string_view keyword);
  /// Consumes a token of `kind` or fails with expected(`what` + " " + `context`).
  const Token& expect(TokenKind kind, std::string_view what, std::string_view context,
                      std::string_view hint = {});
  /// Consumes `keyword` or fails like expect().
  const Token& expectKeyword(std::string_view keyword, std::string_view context,
                             std::string_view hint = {});

  /// Throws "expected WHAT, found TOKEN" at the current token. When the token
  /// before it is a ',' and nothing can follow (end, '|', ')', '}'), the hint
  /// says to remove the trailing comma.
  [[noreturn]] void failExpected(std::string_view what, std::string_view hint = {}) const;
  /// Throws `message` at `token`.
  [[noreturn]] static void fail(const Token& token, const std::string& message,
                                std::string_view hint = {});

 private:
  std::vector<Token> tokens_;
  size_t index_ = 0;
};

}  // namespace quarry::engine
