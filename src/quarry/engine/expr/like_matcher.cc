#include "quarry/engine/expr/like_matcher.h"

#include <algorithm>

namespace quarry::engine {

namespace {

/// Length of the UTF-8 sequence starting with `lead` (1 for a stray byte).
size_t sequenceLength(unsigned char lead) {
  if (lead < 0xC0) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return 4;
}

bool generalMatch(std::string_view p, std::string_view s) {
  size_t pi = 0;
  size_t si = 0;
  size_t starP = std::string_view::npos;  // pattern position after the last '%'
  size_t starS = 0;                       // where that '%' currently resumes in s
  while (si < s.size()) {
    if (pi < p.size() && p[pi] == '%') {
      starP = ++pi;
      starS = si;
    } else if (pi < p.size() && p[pi] == '_') {
      ++pi;
      si += std::min(sequenceLength(static_cast<unsigned char>(s[si])), s.size() - si);
    } else if (pi < p.size() && p[pi] == s[si]) {
      ++pi;
      ++si;
    } else if (starP != std::string_view::npos) {
      // Let the last '%' swallow one more character and retry.
      starS += std::min(sequenceLength(static_cast<unsigned char>(s[starS])), s.size() - starS);
      si = starS;
      pi = starP;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '%') ++pi;
  return pi == p.size();
}

}  // namespace

LikeMatcher::LikeMatcher(std::string pattern)
    : shape_(Shape::kGeneral), pattern_(std::move(pattern)) {
  if (pattern_.find('_') != std::string::npos) return;
  const size_t percents = std::count(pattern_.begin(), pattern_.end(), '%');
  const bool leading = !pattern_.empty() && pattern_.front() == '%';
  const bool trailing = pattern_.size() > 1 && pattern_.back() == '%';
  const size_t ends = static_cast<size_t>(leading) + static_cast<size_t>(trailing);
  if (percents != ends) return;
  literal_ = pattern_.substr(leading ? 1 : 0, pattern_.size() - ends);
  if (leading && trailing) {
    shape_ = Shape::kContains;
  } else if (leading) {
    shape_ = Shape::kSuffix;
  } else if (trailing) {
    shape_ = Shape::kPrefix;
  } else {
    shape_ = Shape::kEquals;
  }
}

bool LikeMatcher::matches(std::string_view value) const {
  switch (shape_) {
    case Shape::kEquals:
      return value == literal_;
    case Shape::kPrefix:
      return value.starts_with(literal_);
    case Shape::kSuffix:
      return value.ends_with(literal_);
    case Shape::kContains:
      return value.find(literal_) != std::string_view::npos;
    case Shape::kGeneral:
      return generalMatch(pattern_, value);
  }
  return false;
}

}  // namespace quarry::engine
