#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

/// ES|QL's RLIKE: whether a whole UTF-8 value matches a regular expression
/// (ES|QL's RLIKE is anchored at both ends, as Lucene's regular expressions
/// are). The expression is RE2's syntax, which runs in time linear in the
/// value whatever the pattern (no backtracking); `.` matches any character, a
/// line break included, as Lucene's does. Where RE2's syntax departs from
/// Lucene's, which ES|QL uses, is listed in docs/ARCHITECTURE.md ("Departures
/// from ES|QL"). Matching is const and thread-safe: one compiled expression
/// serves every thread.
///
///   RegexMatcher("fo+|ba.").matches("foo") -> true, ("food") -> false
namespace quarry::engine {

class RegexMatcher {
 public:
  /// Throws InvalidArgument naming the pattern and RE2's message when RE2
  /// cannot compile it.
  explicit RegexMatcher(std::string_view pattern);
  ~RegexMatcher();
  RegexMatcher(const RegexMatcher&) = delete;
  RegexMatcher& operator=(const RegexMatcher&) = delete;

  bool matches(std::string_view value) const;

 private:
  std::unique_ptr<re2::RE2> re_;
};

/// ES|QL's REPLACE(string, regex, replacement): every match of the expression in
/// the value, leftmost first and not overlapping, replaced (Java's replaceAll, which
/// ES|QL calls). The replacement is written as Java writes it: `$n` is group n (one
/// digit, 0-9: RE2 has no more; 0 the whole match), `\` escapes the next character
/// (`\$` a dollar sign); any other character is itself. The expression is RE2's, as
/// RLIKE's; `.` takes a line break. Thread-safe, as RegexMatcher.
///
///   RegexReplacer("^https?://(?:www\\.)?([^/]+)/.*$", "$1") turns "http://www.a.com/x" into "a.com"
class RegexReplacer {
 public:
  /// Throws InvalidArgument naming the pattern or the replacement when RE2 cannot
  /// compile the one, or the other names a group the expression lacks, ends with
  /// `\`, or has a `$` not followed by a group number.
  RegexReplacer(std::string_view pattern, std::string_view replacement);
  ~RegexReplacer();
  RegexReplacer(const RegexReplacer&) = delete;
  RegexReplacer& operator=(const RegexReplacer&) = delete;

  /// Sets `out` to `value` with every match replaced.
  void replace(std::string_view value, std::string& out) const;

 private:
  std::unique_ptr<re2::RE2> re_;
  std::string rewrite_;  // the replacement in RE2's syntax (\n for group n, \\ for a backslash)
};

}  // namespace quarry::engine
