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

}  // namespace quarry::engine
