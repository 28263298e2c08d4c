#pragma once

#include <string_view>
#include <vector>

#include "quarry/engine/parse/token.h"

namespace quarry::engine {

/// Splits query text into tokens, the last one kEnd. Whitespace and comments
/// (`// to end of line`, `/* ... */`, not nested) separate tokens.
///
/// Strings are '...' or "..." with backslash escapes \\ \' \" \n \r \t \0 and
/// \uXXXX, or ES|QL's """...""", which has no escapes (a backslash is itself:
/// """a\*b""" is the LIKE pattern a\*b, as "a\\*b" is); identifiers are bare
/// (a letter or '_', then letters, digits, '_') or backquoted (`` `a b` ``, a
/// backquote doubled inside), joined by '.' without spaces into one dotted
/// identifier. Numbers: `12` integer, `1.25`
/// decimal, `1e3` / `1.5E-2` double. `?name` is a parameter (kParameter, the
/// name in Token::text), replaced by its value before parsing (query_parameters.h).
///
/// Throws QueryError for a character no token starts with, an unclosed
/// string, identifier or comment, a bad escape, a malformed number, and text
/// that is not UTF-8 inside a string or identifier.
std::vector<Token> tokenize(std::string_view text);

}  // namespace quarry::engine
