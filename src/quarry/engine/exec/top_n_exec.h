#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "quarry/engine/data/value_order.h"
#include "quarry/engine/exec/operator.h"

/// The TopNExec plan node: SORT, and SORT + LIMIT. Rows order by the keys in
/// turn, each ascending or descending with its nulls first or last (value_order.h
/// orders the values); ties keep their input order (the sort is stable). With a
/// limit it keeps at most about 2 * limit rows: whenever its buffer reaches that,
/// it keeps the best `limit` (a partial sort), so memory follows the limit, not
/// the input. Without one it sorts all its input.
namespace quarry::engine {

class TopNExec final : public Operator {
 public:
  static constexpr size_t kOutputPageRows = 8192;

  /// `limit` nullopt: a full sort.
  TopNExec(OperatorPtr input, std::vector<SortSpec> keys, std::optional<int64_t> limit);
  const Schema& schema() const override { return input_->schema(); }
  std::optional<Page> next() override;
  void collectStats(std::vector<OperatorStats>& out) const override;

 private:
  void consumeInput();
  /// Reorders the buffer to its best `keep` rows in order.
  void sortBuffer(size_t keep);
  /// Whether buffer row a goes before row b; ties go by position.
  bool before(uint32_t a, uint32_t b) const;

  OperatorPtr input_;
  std::vector<SortSpec> keys_;
  std::optional<int64_t> limit_;
  std::vector<Block> buffer_;
  size_t bufferRows_ = 0;
  bool consumed_ = false;
  size_t outputOffset_ = 0;
  OperatorStats stats_;
};

}  // namespace quarry::engine
