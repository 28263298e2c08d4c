#pragma once

#include <string>
#include <string_view>
#include <vector>

/// ES|QL's LIKE on UTF-8 strings: `*` matches any run of characters (also
/// none), `?` exactly one character (a whole UTF-8 sequence), and `\` escapes
/// the next character, which must be `*`, `?` or `\` (ES|QL refuses any other
/// escape and a trailing `\`). Every other character, SQL's `%` and `_`
/// included, matches itself. The pattern must match the whole value.
///
/// The pattern is classified once: no wildcard is an equality, `abc*` a prefix,
/// `*abc` a suffix, `*abc*` a substring search, and literal runs between `*`s
/// without a `?` (`ab*cd*ef`) a search for each run in turn, leftmost first,
/// which cannot miss a match; anything with a `?` runs the general matcher,
/// which backtracks only to the last `*` (linear for most patterns, O(n*m) at
/// worst). Example: "a*c?" matches "abxcé" and "acd", not "ac"; "100%" matches
/// only "100%"; "a\*" only "a*".
namespace quarry::engine {

class LikeMatcher {
 public:
  /// Throws InvalidArgument naming the pattern when a `\` escapes anything but
  /// `*`, `?` or `\`, or ends the pattern.
  explicit LikeMatcher(std::string_view pattern);
  bool matches(std::string_view value) const;

  /// Returns whether `pattern` holds an unescaped `*` or `?` (false for a
  /// pattern that fails as the constructor does).
  static bool hasWildcard(std::string_view pattern);

 private:
  enum class Shape { kEquals, kPrefix, kSuffix, kContains, kRuns, kGeneral };
  Shape shape_ = Shape::kEquals;
  // kEquals, kPrefix, kSuffix, kContains: the literal without its escapes or `*`s.
  // kRuns: the literal runs between the `*`s, the first and last possibly empty
  // (the pattern started or ended with `*`).
  std::vector<std::string> runs_;
  // kGeneral: the pattern as code units, a byte (0-255) or kAnyOne / kAnyRun.
  std::vector<short> program_;
};

}  // namespace quarry::engine
