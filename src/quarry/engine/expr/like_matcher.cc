#include "quarry/engine/expr/like_matcher.h"

#include <algorithm>

#include "quarry/common/error.h"
#include "quarry/engine/parse/query_printer.h"

namespace quarry::engine {

namespace {

// Code units of a compiled pattern beyond the 256 byte values.
constexpr short kAnyOne = 256;  // `?`
constexpr short kAnyRun = 257;  // `*` (consecutive ones are one)

/// Length of the UTF-8 sequence starting with `lead` (1 for a stray byte).
size_t sequenceLength(unsigned char lead) {
  if (lead < 0xC0) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return 4;
}

/// The pattern as code units, its escapes resolved; throws InvalidArgument for
/// an escape ES|QL refuses (its WildcardPattern: "Invalid sequence - escape
/// character is not followed by special wildcard char").
std::vector<short> compile(std::string_view pattern) {
  std::vector<short> out;
  out.reserve(pattern.size());
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\') {
      if (i + 1 == pattern.size()) {
        throw InvalidArgument("LIKE pattern " + quoteString(pattern) +
                              " ends with an escape character (\\) that escapes nothing");
      }
      const char next = pattern[++i];
      if (next != '*' && next != '?' && next != '\\') {
        const size_t length = sequenceLength(static_cast<unsigned char>(next));
        throw InvalidArgument("LIKE pattern " + quoteString(pattern) + " escapes '" +
                              std::string(pattern.substr(i, length)) +
                              "': the escape character \\ is followed only by *, ? or \\");
      }
      out.push_back(static_cast<unsigned char>(next));
    } else if (c == '*') {
      if (out.empty() || out.back() != kAnyRun) out.push_back(kAnyRun);
    } else if (c == '?') {
      out.push_back(kAnyOne);
    } else {
      out.push_back(static_cast<unsigned char>(c));
    }
  }
  return out;
}

bool generalMatch(const std::vector<short>& p, std::string_view s) {
  size_t pi = 0;
  size_t si = 0;
  size_t starP = std::string_view::npos;  // pattern position after the last '*'
  size_t starS = 0;                       // where that '*' currently resumes in s
  while (si < s.size()) {
    if (pi < p.size() && p[pi] == kAnyRun) {
      starP = ++pi;
      starS = si;
    } else if (pi < p.size() && p[pi] == kAnyOne) {
      ++pi;
      si += std::min(sequenceLength(static_cast<unsigned char>(s[si])), s.size() - si);
    } else if (pi < p.size() && p[pi] == static_cast<unsigned char>(s[si])) {
      ++pi;
      ++si;
    } else if (starP != std::string_view::npos) {
      // Let the last '*' swallow one more character and retry.
      starS += std::min(sequenceLength(static_cast<unsigned char>(s[starS])), s.size() - starS);
      si = starS;
      pi = starP;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == kAnyRun) ++pi;
  return pi == p.size();
}

}  // namespace

LikeMatcher::LikeMatcher(std::string_view pattern) {
  std::vector<short> program = compile(pattern);
  if (std::find(program.begin(), program.end(), kAnyOne) != program.end()) {
    shape_ = Shape::kGeneral;
    program_ = std::move(program);
    return;
  }
  // Only bytes and `*`: the literal runs between the stars.
  runs_.emplace_back();
  for (const short unit : program) {
    if (unit == kAnyRun) {
      runs_.emplace_back();
    } else {
      runs_.back() += static_cast<char>(unit);
    }
  }
  const bool leading = runs_.size() > 1 && runs_.front().empty();
  const bool trailing = runs_.size() > 1 && runs_.back().empty();
  if (runs_.size() == 1) {
    shape_ = Shape::kEquals;
  } else if (runs_.size() == 2 && trailing) {
    shape_ = Shape::kPrefix;  // `abc*`, and `*` alone (the empty prefix)
    runs_.pop_back();
  } else if (runs_.size() == 2 && leading) {
    shape_ = Shape::kSuffix;
    runs_.erase(runs_.begin());
  } else if (runs_.size() == 3 && leading && trailing) {
    shape_ = Shape::kContains;
    runs_ = {runs_[1]};
  } else {
    shape_ = Shape::kRuns;
  }
}

bool LikeMatcher::hasWildcard(std::string_view pattern) {
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {
      ++i;
    } else if (pattern[i] == '*' || pattern[i] == '?') {
      return true;
    }
  }
  return false;
}

bool LikeMatcher::matches(std::string_view value) const {
  switch (shape_) {
    case Shape::kEquals:
      return value == runs_[0];
    case Shape::kPrefix:
      return value.starts_with(runs_[0]);
    case Shape::kSuffix:
      return value.ends_with(runs_[0]);
    case Shape::kContains:
      return value.find(runs_[0]) != std::string_view::npos;
    case Shape::kRuns: {
      // The first run starts the value and the last ends it; each one between
      // is taken where it first occurs after the previous one: a later
      // occurrence leaves less room for the rest, never more.
      const std::string& first = runs_.front();
      const std::string& last = runs_.back();
      if (value.size() < first.size() + last.size() || !value.starts_with(first) ||
          !value.ends_with(last)) {
        return false;
      }
      const std::string_view middle = value.substr(0, value.size() - last.size());
      size_t pos = first.size();
      for (size_t i = 1; i + 1 < runs_.size(); ++i) {
        const size_t found = middle.find(runs_[i], pos);
        if (found == std::string_view::npos) return false;
        pos = found + runs_[i].size();
      }
      return true;
    }
    case Shape::kGeneral:
      return generalMatch(program_, value);
  }
  return false;
}

}  // namespace quarry::engine
