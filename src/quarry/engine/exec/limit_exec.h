#pragma once

#include <cstdint>

#include "quarry/engine/exec/operator.h"

/// The LimitExec plan node: the first `limit` rows of its input. It stops pulling
/// its input once it has them, so a scan below it stops too.
namespace quarry::engine {

class LimitExec final : public Operator {
 public:
  LimitExec(OperatorPtr input, int64_t limit);
  const Schema& schema() const override { return input_->schema(); }
  std::optional<Page> next() override;
  void collectStats(std::vector<OperatorStats>& out) const override;

 private:
  OperatorPtr input_;
  int64_t remaining_;
  OperatorStats stats_{"LimitExec"};
};

}  // namespace quarry::engine
