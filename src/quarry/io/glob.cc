#include "quarry/io/glob.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <system_error>

namespace quarry::io {
namespace {

// Matches one bracket expression at pattern[p] ('[') against `c`; returns the position
// after it, or npos when the bracket is not closed (then '[' is an ordinary character).
size_t matchBracket(std::string_view pattern, size_t p, char c, bool& matched) {
  size_t i = p + 1;
  bool negate = false;
  if (i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^')) {
    negate = true;
    ++i;
  }
  bool any = false;
  bool first = true;
  while (i < pattern.size() && (pattern[i] != ']' || first)) {
    first = false;
    const char low = pattern[i];
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      any = any || (c >= low && c <= pattern[i + 2]);
      i += 3;
    } else {
      any = any || c == low;
      ++i;
    }
  }
  if (i >= pattern.size()) return std::string_view::npos;
  matched = (any != negate) && c != '/';
  return i + 1;
}

// A backtracking matcher with a memo of (pattern position, path position) pairs known
// to fail, so that patterns like "*a*a*a*b" stay polynomial on long keys.
class Matcher {
 public:
  Matcher(std::string_view pattern, std::string_view path)
      : pattern_(pattern), path_(path), failed_((pattern.size() + 1) * (path.size() + 1), 0) {}

  bool match(size_t p, size_t s) {
    uint8_t& memo = failed_[p * (path_.size() + 1) + s];
    if (memo != 0) return false;
    const bool result = matchUncached(p, s);
    if (!result) memo = 1;
    return result;
  }

 private:
  bool isDoubleStarSegment(size_t p) const {
    return pattern_.substr(p, 2) == "**" && (p == 0 || pattern_[p - 1] == '/') &&
           (p + 2 == pattern_.size() || pattern_[p + 2] == '/');
  }

  bool matchUncached(size_t p, size_t s) {
    if (p == pattern_.size()) return s == path_.size();
    if (isDoubleStarSegment(p)) {
      if (p + 2 == pattern_.size()) return true;  // "dir/**" takes everything below
      // "**/" consumes zero segments, or one and then is tried again: each state is
      // visited once, so the whole match costs pattern length x path length.
      if (match(p + 3, s)) return true;
      const size_t slash = path_.find('/', s);
      return slash != std::string_view::npos && match(p, slash + 1);
    }
    const char c = pattern_[p];
    if (c == '*') {
      // Matches nothing, or one more character and stays on the star.
      return match(p + 1, s) || (s < path_.size() && path_[s] != '/' && match(p, s + 1));
    }
    if (s == path_.size()) return false;
    if (c == '?') return path_[s] != '/' && match(p + 1, s + 1);
    if (c == '[') {
      bool matched = false;
      const size_t after = matchBracket(pattern_, p, path_[s], matched);
      if (after != std::string_view::npos) return matched && match(after, s + 1);
    }
    return c == path_[s] && match(p + 1, s + 1);
  }

  std::string_view pattern_;
  std::string_view path_;
  std::vector<uint8_t> failed_;
};

}  // namespace

bool hasGlob(std::string_view pattern) {
  return pattern.find_first_of("*?[") != std::string_view::npos;
}

std::string_view globLiteralPrefix(std::string_view pattern) {
  return pattern.substr(0, pattern.find_first_of("*?["));
}

bool globMatch(std::string_view pattern, std::string_view path) {
  return Matcher(pattern, path).match(0, 0);
}

std::vector<std::string> globLocal(const std::string& pattern) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code error;
  if (!hasGlob(pattern)) {
    if (fs::is_regular_file(pattern, error)) out.push_back(pattern);
    return out;
  }
  // Walk from the deepest directory the pattern names literally.
  const std::string_view prefix = globLiteralPrefix(pattern);
  const size_t slash = prefix.rfind('/');
  const std::string base =
      slash == std::string_view::npos ? "." : std::string(prefix.substr(0, slash + 1));
  const std::string_view rest = slash == std::string_view::npos
                                    ? std::string_view(pattern)
                                    : std::string_view(pattern).substr(slash + 1);
  const bool recursive =
      rest.find('/') != std::string_view::npos || rest.find("**") != std::string_view::npos;
  const auto consider = [&](const fs::directory_entry& entry) {
    std::error_code typeError;
    if (!entry.is_regular_file(typeError)) return;
    std::string path = entry.path().generic_string();
    if (slash == std::string_view::npos && path.starts_with("./")) path.erase(0, 2);
    if (globMatch(pattern, path)) out.push_back(std::move(path));
  };
  if (!fs::is_directory(base, error)) return out;
  const auto options = fs::directory_options::skip_permission_denied;
  if (recursive) {
    for (fs::recursive_directory_iterator it(base, options, error), end; !error && it != end;
         it.increment(error)) {
      consider(*it);
    }
  } else {
    for (fs::directory_iterator it(base, options, error), end; !error && it != end;
         it.increment(error)) {
      consider(*it);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace quarry::io
