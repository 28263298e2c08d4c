#pragma once

#include <cstdint>
#include <string_view>

#include "quarry/engine/exec/operator.h"

/// ES|QL's SAMPLE: keeps each row with a probability, independently of the
/// others (a Bernoulli sample: the count kept from n rows is binomial, n * p on
/// average). Whether row k of this operator's input is kept is decided by a
/// hash of (seed, k): the same seed over the same input keeps the same rows, on
/// every run and whatever the page sizes. The planner seeds each split's
/// operator with the query's seed and the split's identity, so a split keeps
/// the same rows on whichever driver or node reads it.
namespace quarry::engine {

class SampleExec final : public Operator {
 public:
  /// 0 < probability < 1.
  SampleExec(OperatorPtr input, double probability, uint64_t seed);

  const Schema& schema() const override { return input_->schema(); }
  std::optional<Page> next() override;
  void collectStats(std::vector<OperatorStats>& out) const override;

  /// The seed of the operator that reads `uri`'s range from `start` for a query
  /// seeded with `seed`.
  static uint64_t splitSeed(uint64_t seed, std::string_view uri, uint64_t start);

 private:
  OperatorPtr input_;
  uint64_t threshold_;  // a row is kept when its hash is below it
  uint64_t seed_;
  uint64_t row_ = 0;  // rows of the input seen so far
  OperatorStats stats_;
};

}  // namespace quarry::engine
