#pragma once

#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/data/data_type.h"

/// What DISSECT and GROK share: a pattern that takes a string value apart into
/// named columns (ExtractExec appends them). A value the pattern does not match,
/// or a null, gives null in every column. Extraction is const and thread-safe:
/// one pattern serves every driver.
namespace quarry::engine {

class RowExtractor {
 public:
  virtual ~RowExtractor() = default;
  /// The columns an extraction gives, in the order the pattern names them.
  virtual const Schema& fields() const = 0;
  /// Appends to out[k] (of fields()[k].type) field k of each position of `input`
  /// (a string block), or null.
  virtual void extract(const Block& input, std::vector<Block>& out) const = 0;
  /// The command as EXPLAIN shows it: `DISSECT "%{a} %{b}"`.
  virtual std::string describe() const = 0;
  /// The operator's name in EXPLAIN and --profile: "DissectExec", "GrokExec".
  virtual const char* operatorName() const = 0;
};

}  // namespace quarry::engine
