#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/engine/expr/row_extractor.h"

/// ES|QL's DISSECT pattern: literal text (the delimiters) around `%{key}`s, each
/// key taking the text up to the next delimiter, the last key without a
/// delimiter after it the rest of the value. Matching is all or nothing: the
/// text before the first key must start the value, and every delimiter must be
/// found, left to right, each at its first occurrence after the previous one.
///
///   pattern  %{date} [%{level}] %{+msg} %{+msg}     value  2024-05-01 [WARN] disk full
///   gives    date = "2024-05-01", level = "WARN", msg = "diskfull" (APPEND_SEPARATOR "")
///
/// Key modifiers (Elastic's dissect): `%{+key}` appends to the key's value, joined
/// by the append separator (`%{+key/n}` in the order n), `%{?key}` and `%{}` match
/// and are dropped, `%{key->}` skips repeats of the delimiter after it. Without
/// `->`, a repeated delimiter gives the next key an empty value. Reference keys
/// (`%{*k}`, `%{&k}`) are refused, as ES|QL refuses them. Every column is a string.
namespace quarry::engine {

class DissectPattern final : public RowExtractor {
 public:
  /// Throws InvalidArgument naming the pattern for a pattern without keys, an
  /// unclosed `%{`, a reference key or an append order that is no number.
  DissectPattern(std::string_view pattern, std::string_view appendSeparator);

  const Schema& fields() const override { return fields_; }
  void extract(const Block& input, std::vector<Block>& out) const override;
  std::string describe() const override;
  const char* operatorName() const override { return "DissectExec"; }

  /// Field k's value for `value`, or nothing for every field when it does not match.
  std::optional<std::vector<std::string>> match(std::string_view value) const;

 private:
  struct Key {
    std::string name;
    bool skip = false;
    bool append = false;
    int order = 0;  // `/n` of an appended key
    bool rightPadding = false;
    int field = -1;  // its column, -1 for a skipped key
  };
  struct Part {
    Key key;
    std::string delimiter;  // the text after the key, up to the next key
  };

  std::string pattern_;
  std::string separator_;
  std::string leading_;  // the text before the first key
  std::vector<Part> parts_;
  Schema fields_;
};

}  // namespace quarry::engine
