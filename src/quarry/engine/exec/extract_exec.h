#pragma once

#include <memory>

#include "quarry/engine/exec/operator.h"
#include "quarry/engine/expr/row_extractor.h"

/// DISSECT and GROK: appends the columns a pattern (RowExtractor) takes out of
/// a string column, after the input's columns; a null or unmatched value gives
/// null in each. Rows pass one to one.
namespace quarry::engine {

class ExtractExec final : public Operator {
 public:
  /// `channel` is a string column of input->schema().
  ExtractExec(OperatorPtr input, int channel, std::shared_ptr<const RowExtractor> extractor);

  const Schema& schema() const override { return schema_; }
  std::optional<Page> next() override;
  void collectStats(std::vector<OperatorStats>& out) const override;

 private:
  OperatorPtr input_;
  int channel_;
  std::shared_ptr<const RowExtractor> extractor_;
  Schema schema_;
  OperatorStats stats_;
};

}  // namespace quarry::engine
