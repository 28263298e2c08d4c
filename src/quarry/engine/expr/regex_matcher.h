#pragma once

#include <memory>
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

}  // namespace quarry::engine
