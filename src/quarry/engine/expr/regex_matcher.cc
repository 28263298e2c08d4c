#include "quarry/engine/expr/regex_matcher.h"

#include <re2/re2.h>

#include <string>

#include "quarry/common/error.h"
#include "quarry/engine/parse/query_printer.h"

namespace quarry::engine {

namespace {

re2::RE2::Options matcherOptions() {
  re2::RE2::Options options;        // UTF-8, case-sensitive
  options.set_log_errors(false);    // a bad pattern is the query's error, not a log line
  options.set_dot_nl(true);         // Lucene's `.` is any character, a line break too
  options.set_never_capture(true);  // only whether it matches is asked
  return options;
}

}  // namespace

RegexMatcher::RegexMatcher(std::string_view pattern)
    : re_(std::make_unique<re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()),
                                     matcherOptions())) {
  if (!re_->ok()) {
    throw InvalidArgument("RLIKE pattern " + quoteString(pattern) +
                          " is not a regular expression RE2 reads: " + re_->error());
  }
}

RegexMatcher::~RegexMatcher() = default;

bool RegexMatcher::matches(std::string_view value) const {
  const re2::StringPiece text(value.data(), value.size());
  return re_->Match(text, 0, text.size(), re2::RE2::ANCHOR_BOTH, nullptr, 0);
}

namespace {

/// Java's replacement syntax ($n, \x) in RE2's (\n, a backslash doubled).
std::string rewriteOf(std::string_view replacement, std::string_view pattern) {
  const auto failure = [&](const std::string& why) {
    return InvalidArgument("REPLACE replacement " + quoteString(replacement) + " (pattern " + quoteString(pattern) +
                           "): " + why);
  };
  std::string out;
  for (size_t i = 0; i < replacement.size(); ++i) {
    const char c = replacement[i];
    if (c == '\\') {
      if (++i == replacement.size()) throw failure("it ends with an escape character (\\) that escapes nothing");
      if (replacement[i] == '\\') out += '\\';
      out += replacement[i];
    } else if (c == '$') {
      if (i + 1 == replacement.size() || replacement[i + 1] < '0' || replacement[i + 1] > '9') {
        throw failure("a $ is followed by a group number ($1), or written \\$");
      }
      out += '\\';
      out += replacement[++i];
    } else {
      out += c;
    }
  }
  return out;
}

re2::RE2::Options replacerOptions() {
  re2::RE2::Options options;
  options.set_log_errors(false);
  options.set_dot_nl(true);
  return options;
}

}  // namespace

RegexReplacer::RegexReplacer(std::string_view pattern, std::string_view replacement)
    : re_(std::make_unique<re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), replacerOptions())),
      rewrite_(rewriteOf(replacement, pattern)) {
  if (!re_->ok()) {
    throw InvalidArgument("REPLACE pattern " + quoteString(pattern) +
                          " is not a regular expression RE2 reads: " + re_->error());
  }
  std::string error;
  if (!re_->CheckRewriteString(rewrite_, &error)) {
    throw InvalidArgument("REPLACE replacement " + quoteString(replacement) + " does not fit the pattern " +
                          quoteString(pattern) + ": " + error);
  }
}

RegexReplacer::~RegexReplacer() = default;

void RegexReplacer::replace(std::string_view value, std::string& out) const {
  out.assign(value);
  re2::RE2::GlobalReplace(&out, *re_, rewrite_);
}

}  // namespace quarry::engine
