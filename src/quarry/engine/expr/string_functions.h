#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/expr/bound_expr.h"
#include "quarry/engine/expr/call_args.h"

/// ES|QL's string functions beyond scalar_functions.h's length, to_lower,
/// to_upper, substring, starts_with and replace. Strings are UTF-8 and counted
/// in characters (code points); counts are integers of any width. A null
/// argument gives null, as in ES|QL.
///
///   concat(s1, s2, ...)       string: 2 or more arguments joined; null when any
///                             is null; a result over 1 MiB is an error (ES|QL's bound)
///   trim(s), ltrim(s), rtrim(s)  string: leading and / or trailing whitespace
///                             removed, whitespace as ES|QL's (Java's
///                             Character.isWhitespace: \t \n \v \f \r, U+001C-U+001F,
///                             space, and the Unicode space separators but the
///                             no-break ones U+00A0, U+2007, U+202F)
///   ends_with(s, suffix)      boolean
///   left(s, n), right(s, n)   string: the first / last n characters (all of s when
///                             n is past its length, "" when n <= 0, as ES|QL)
///   reverse(s)                string: the characters in reverse order (by code
///                             point; ES|QL reverses grapheme clusters)
///   repeat(s, n)              string: s n times; a negative n, and a result over
///                             1 MiB, are errors
///   locate(s, sub[, start])   int64: the 1-based character position of the first
///                             sub at or after start (1-based; 0 is 1, negative
///                             counts from the end), 0 when there is none
///   space(n)                  string: n spaces (negative or over 1 MiB: an error)
///   bit_length(s), byte_length(s)  int64: the UTF-8 bytes (times 8)
///   split(s, delimiter)       list<string>: s cut at each delimiter, a single
///                             byte (ES|QL's rule); empty pieces kept
///   md5(s), sha1(s), sha256(s)  string: the digest of s's UTF-8 bytes in lowercase
///                             hexadecimal (32, 40, 64 digits), from OpenSSL's libcrypto
///                             loaded on the first use (io/crypto_library.h)
///
/// Example: concat("a", "b", "c") is "abc", left("日本語", 2) is "日本",
/// locate("a😀b😀", "😀", 3) is 4, split("a,,b", ",") is ["a", "", "b"], md5("") is
/// "d41d8cd98f00b204e9800998ecf8427e".
namespace quarry::engine {

/// Whether `name` (lower case) is one of the functions above.
bool isStringFunction(const std::string& name);

/// Checks the arguments of the call `call` (kind kCall, name and children set)
/// and returns its result type; throws QueryError at `line`, `column`.
DataType bindStringFunction(const BoundExpr& call, int line, int column);

/// Evaluates a bound call over its arguments' blocks (n positions each).
Block evaluateStringFunction(const BoundExpr& call, const CallArgs& args, size_t n);

// ---- Shared with scalar_functions.cc ----------------------------------------

/// The characters (code points) of UTF-8 `s`: its bytes that do not continue a sequence.
int64_t characterCount(std::string_view s);

/// The byte offset of character `index` of `s` (0-based; s.size() past its last).
size_t byteOffsetOf(std::string_view s, int64_t index);

/// Integer argument block `b` (int32, int64 or uint64) at position i as int64;
/// a uint64 past INT64_MAX reads as INT64_MAX.
int64_t integerAt(const Block& b, size_t i);

/// Whether any of `args` is null at position i.
bool anyNull(const CallArgs& args, size_t i);

}  // namespace quarry::engine
