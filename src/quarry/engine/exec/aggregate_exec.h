#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "quarry/engine/exec/group_by_hash.h"
#include "quarry/engine/exec/operator.h"
#include "quarry/engine/expr/aggregator.h"

/// The AggregateExec plan node: STATS over its input, in one AggregatorMode
/// (aggregator.h). Grouped aggregation hashes the group columns (GroupByHash);
/// output row order is unspecified. It consumes all its input on the first
/// next(), then returns the groups in pages of at most kOutputPageRows rows.
namespace quarry::engine {

class AggregateExec final : public Operator {
 public:
  static constexpr size_t kOutputPageRows = 8192;

  /// Output: the group columns (in groupChannels order, keeping their names), then per aggregate
  /// its final value (SINGLE, FINAL) or its intermediate columns (INITIAL, INTERMEDIATE).
  /// INTERMEDIATE/FINAL read the group columns at groupChannels and each aggregate's
  /// intermediate columns starting at spec.inputChannel.
  /// Ungrouped: exactly one output row, even over no input (COUNT 0, others null).
  AggregateExec(OperatorPtr input, AggregatorMode mode, std::vector<int> groupChannels,
                std::vector<AggregateSpec> aggregates);

  const Schema& schema() const override { return schema_; }
  std::optional<Page> next() override;
  void collectStats(std::vector<OperatorStats>& out) const override;

 private:
  void consumeInput();

  OperatorPtr input_;
  AggregatorMode mode_;
  std::vector<int> groupChannels_;
  std::vector<AggregateSpec> aggregates_;
  Schema schema_;
  std::vector<std::unique_ptr<Aggregator>> aggregators_;
  std::unique_ptr<GroupByHash> hash_;
  bool consumed_ = false;
  std::optional<Page> output_;
  size_t outputOffset_ = 0;
  OperatorStats stats_;
};

}  // namespace quarry::engine
