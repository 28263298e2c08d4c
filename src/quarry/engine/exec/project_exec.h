#pragma once

#include <string>
#include <vector>

#include "quarry/engine/exec/operator.h"

/// The ProjectExec plan node (KEEP, DROP, RENAME): output column i is input
/// channel channels[i], named names[i]. Blocks move through without copying
/// unless a channel is used twice.
namespace quarry::engine {

class ProjectExec final : public Operator {
 public:
  ProjectExec(OperatorPtr input, std::vector<int> channels, std::vector<std::string> names);
  const Schema& schema() const override { return schema_; }
  std::optional<Page> next() override;
  void collectStats(std::vector<OperatorStats>& out) const override;

 private:
  OperatorPtr input_;
  std::vector<int> channels_;
  /// Per output column: whether a later output column reads the same channel.
  std::vector<bool> usedAgain_;
  Schema schema_;
  OperatorStats stats_{"ProjectExec"};
};

}  // namespace quarry::engine
