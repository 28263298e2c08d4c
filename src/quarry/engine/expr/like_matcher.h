#pragma once

#include <string>
#include <string_view>

/// SQL LIKE on UTF-8 strings: `%` matches any run of characters (also none),
/// `_` exactly one character (a whole UTF-8 sequence); every other byte matches
/// itself. There is no escape character (as DuckDB's LIKE without ESCAPE).
///
/// The pattern is classified once: no wildcard is an equality, `abc%` a prefix,
/// `%abc` a suffix, `%abc%` a substring search; anything else runs the general
/// matcher, which backtracks only to the last `%` (linear for most patterns,
/// O(n*m) at worst). Example: "a%c_" matches "abxcé" and "acd", not "ac".
namespace quarry::engine {

class LikeMatcher {
 public:
  explicit LikeMatcher(std::string pattern);
  bool matches(std::string_view value) const;

 private:
  enum class Shape { kEquals, kPrefix, kSuffix, kContains, kGeneral };
  Shape shape_;
  std::string pattern_;
  std::string literal_;  // the pattern without its `%` ends, for the simple shapes
};

}  // namespace quarry::engine
