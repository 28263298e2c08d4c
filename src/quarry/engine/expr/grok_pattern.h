#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/engine/expr/row_extractor.h"

namespace re2 {
class RE2;
}

/// ES|QL's GROK pattern: a regular expression in which `%{SYNTAX}` stands for a
/// named pattern's expression and `%{SYNTAX:name}` also captures what it matched
/// into the column `name` (a string; `%{SYNTAX:name:int}` an int32,
/// `:long` an int64, `:float` / `:double` a double, null where the text does not
/// convert). The value is searched, not matched whole (as grok does); a value
/// without a match, or a capture that took no part in it, gives null.
///
///   pattern  %{IP:client} %{WORD:method} %{URIPATHPARAM:path} %{NUMBER:bytes:int}
///   value    55.3.244.1 GET /index.html 15824
///   gives    client = "55.3.244.1", method = "GET", path = "/index.html", bytes = 15824
///
/// The expression is RE2's (linear time, no backtracking): lookarounds and
/// back-references, which grok's Oniguruma has, are refused when the pattern is
/// read. The named patterns (namedGrokPatterns) are quarry's own expressions,
/// written from the descriptions in Elastic's documentation.
namespace quarry::engine {

class GrokPattern final : public RowExtractor {
 public:
  /// Throws InvalidArgument naming the pattern for an unknown `%{SYNTAX}` (with
  /// the closest name), an unknown type, a column captured twice, no capture at
  /// all, or an expression RE2 cannot read (with RE2's message).
  explicit GrokPattern(std::string_view pattern);
  ~GrokPattern() override;
  GrokPattern(const GrokPattern&) = delete;
  GrokPattern& operator=(const GrokPattern&) = delete;

  const Schema& fields() const override { return fields_; }
  void extract(const Block& input, std::vector<Block>& out) const override;
  std::string describe() const override;
  const char* operatorName() const override { return "GrokExec"; }

  /// The text each field captured in `value` (nothing for a field that took no
  /// part), or nothing when the pattern does not match.
  std::optional<std::vector<std::optional<std::string_view>>> match(std::string_view value) const;

  /// The RE2 expression the pattern expands to (for tests and EXPLAIN's reader).
  const std::string& expression() const { return expression_; }

 private:
  std::string pattern_;
  std::string expression_;
  Schema fields_;
  std::vector<int> groups_;  // the RE2 group of each field
  std::unique_ptr<re2::RE2> re_;
};

/// The names `%{SYNTAX}` takes, in the order documented.
std::vector<std::string> namedGrokPatterns();

}  // namespace quarry::engine
