#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/engine/parse/source_position.h"

namespace quarry::engine {

enum class TokenKind : uint8_t {
  kIdentifier,  // bare or backquoted, dotted parts joined
  kInteger,     // digits
  kDecimal,     // digits '.' digits
  kDouble,      // a number with an exponent
  kString,      // '...' or "...", escapes resolved
  kPipe,
  kComma,
  kLeftParen,
  kRightParen,
  kLeftBrace,
  kRightBrace,
  kColon,
  kDoubleColon,  // ::, ES|QL's inline cast
  kAssign,       // =
  kEq,           // ==
  kNe,           // != or <>
  kLt,
  kLe,
  kGt,
  kGe,
  kPlus,
  kMinus,
  kStar,
  kSlash,
  kPercent,
  kParameter,  // ?name, its name in `text` (query_parameters.h binds it)
  kEnd,
};

/// One token of a query. Keywords are identifiers: the parser decides from
/// context whether `by` is the keyword or a column.
struct Token {
  TokenKind kind = TokenKind::kEnd;
  SourcePosition position;
  std::string_view source;         // the token's text in the query
  std::string text;                // a string's value; a number's digits
  std::vector<std::string> parts;  // an identifier's dotted parts
  bool quoted = false;             // an identifier with a backquoted part

  /// Returns true for an unquoted one-part identifier equal to `keyword`
  /// ignoring ASCII case (`keyword` is given in upper case).
  bool isKeyword(std::string_view keyword) const;
  /// Describes the token for an error message: "')'", "identifier 'x'",
  /// "end of query".
  std::string describe() const;
};

}  // namespace quarry::engine
