#pragma once

#include "quarry/engine/exec/operator.h"

/// ES|QL's MV_EXPAND: one output row per value of a list column, the other
/// columns repeated, the list column replaced by its elements. A null or empty
/// list gives one row with null there (ES|QL keeps the row; DuckDB's UNNEST
/// drops it). Rows keep their input order, and values their order in the list:
///
///   a = [1, 2], b = "x"   ->   a = 1, b = "x"
///   a = [],     b = "y"        a = 2, b = "x"
///                              a = null, b = "y"
namespace quarry::engine {

class MvExpandExec final : public Operator {
 public:
  /// `channel` is a list column of input->schema().
  MvExpandExec(OperatorPtr input, int channel);

  const Schema& schema() const override { return schema_; }
  std::optional<Page> next() override;
  void collectStats(std::vector<OperatorStats>& out) const override;

 private:
  OperatorPtr input_;
  int channel_;
  Schema schema_;
  OperatorStats stats_;
};

}  // namespace quarry::engine
