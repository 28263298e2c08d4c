#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "quarry/engine/exec/group_by_hash.h"
#include "quarry/engine/exec/operator.h"
#include "quarry/engine/expr/aggregator.h"

/// The AggregateExec plan node: STATS over its input, in one AggregatorMode
/// (aggregator.h). Grouped aggregation hashes the group columns (GroupByHash);
/// output row order is unspecified. It consumes all its input on the first
/// next(), then returns the groups in pages of at most kOutputPageRows rows (an
/// INITIAL that does not reduce streams instead: see below).
///
/// A merge of intermediate rows (FINAL, INTERMEDIATE) given several threads goes
/// parallel once it holds more than kPartitionAfterGroups groups: its table so far
/// is written out as intermediate rows, and those and every later page's rows go,
/// by a hash of their keys (GroupByHash::hashRows), to one of `threads` tables,
/// each merged on a thread of its own (the caller's thread only hashes and routes row
/// numbers; each table's thread copies its rows out of the page and, at the end, writes its
/// groups out). A key's rows all meet in one table, so each
/// group is still made once; the output is the tables' groups one table after
/// another. Below the threshold the merge stays on the calling thread and its groups
/// keep their first-seen order.
///
/// A grouped INITIAL that does not reduce (a window of kPassThroughAfterRows rows, after
/// as many rows of warm-up, that made groups for more than half its rows: WatchID, a key
/// of every row) stops building its table:
/// it returns the groups so far, then returns each later page's rows as groups of
/// their own: its key blocks as they are, and per aggregate each row's intermediate
/// state. No key is hashed or copied there; the merge above groups those rows as it
/// groups any intermediate rows (ClickBench at 10M rows, CPU time: Q19 5.5 -> 4.2 s,
/// Q17 5.6 -> 4.8 s, Q33 3.2 -> 2.6 s, Q40 2.2 -> 1.9 s). The warm-up is left out of the
/// decision because a long tail of keys makes groups of most first rows of any input (the
/// search phrases of ClickBench's Q13: 66 % of the first 65,536 rows, then 44 % of the next
/// window, 30 % of the one after), and one table per driver (exchange_exec.h) reduces them 4x.
namespace quarry::engine {

class AggregateExec final : public Operator {
 public:
  static constexpr size_t kOutputPageRows = 8192;
  static constexpr size_t kPartitionAfterGroups = 1 << 16;
  static constexpr size_t kPassThroughAfterRows = 1 << 16;

  /// Output: the group columns (in groupChannels order, keeping their names), then per aggregate
  /// its final value (SINGLE, FINAL) or its intermediate columns (INITIAL, INTERMEDIATE).
  /// INTERMEDIATE/FINAL read the group columns at groupChannels and each aggregate's
  /// intermediate columns starting at spec.inputChannel.
  /// Ungrouped: exactly one output row, even over no input (COUNT 0, others null).
  /// `threads`: how many tables a large merge (see above) is split over; 1 keeps it on the
  /// caller's thread.
  AggregateExec(OperatorPtr input, AggregatorMode mode, std::vector<int> groupChannels,
                std::vector<AggregateSpec> aggregates, int threads = 1);

  const Schema& schema() const override { return schema_; }
  std::optional<Page> next() override;
  void collectStats(std::vector<OperatorStats>& out) const override;

  /// Tests only: the group count past which a merge given several threads goes parallel
  /// (kPartitionAfterGroups unless set), so that a test takes that path with fewer rows.
  void setPartitionAfterGroupsForTesting(size_t groups) { partitionAfterGroups_ = groups; }

 private:
  void consumeInput();
  /// Whether the input is laid out as this node's INITIAL output is (the group columns, then
  /// each aggregate's intermediate columns, in order), so that the groups merged so far can be
  /// written out as input rows when the merge goes parallel.
  bool inputIsIntermediateLayout() const;

  OperatorPtr input_;
  AggregatorMode mode_;
  std::vector<int> groupChannels_;
  std::vector<AggregateSpec> aggregates_;
  size_t threads_;
  size_t partitionAfterGroups_ = kPartitionAfterGroups;
  Schema schema_;
  std::vector<DataType> keyTypes_;
  bool consumed_ = false;
  /// INITIAL that stopped reducing (see above): later pages are aggregated one at a time.
  bool pageAtATime_ = false;
  std::vector<uint32_t> rowIds_;  // 0, 1, 2, ...: the group of each row in rowsAsGroups
  std::deque<Page> output_;
  size_t outputOffset_ = 0;
  OperatorStats stats_;
};

}  // namespace quarry::engine
