#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "quarry/engine/exec/group_by_hash.h"
#include "quarry/engine/exec/operator.h"
#include "quarry/engine/source/lookup_file.h"

/// ES|QL's LOOKUP JOIN, a left join with a lookup file held in memory
/// (source/lookup_file.h). Each input row is followed by one output row per
/// file row whose keys equal its own, in the file's order, or by one row with
/// nulls in the file's columns when none does; a null key matches nothing (SQL's
/// and ES|QL's equality). The output rows keep the input's order:
///
///   input k = 1, 2, null, 3   file k, name = (1, "a"), (3, "c"), (1, "b")
///   ->  (1, "a"), (1, "b"), (2, null), (null, null), (3, "c")
///
/// The file's keys go into a GroupByHash once, when the operator is made (its
/// groups are the distinct keys; the file rows of each group are kept in file
/// order). An input page's keys are looked up by adding them to the same table:
/// a group id past the file's is no match. Those new groups only cost memory,
/// so the table is built again from the file's keys once they outnumber the
/// file's, at least 65,536 of them. Output pages hold at most kMaxPageRows
/// rows; a page whose matches make more is cut into several.
namespace quarry::engine {

class LookupJoinExec final : public Operator {
 public:
  /// `keyChannels` are columns of input->schema(), `lookupKeys` the file's
  /// columns they equal (of the same types), `lookupColumns` the file's columns
  /// appended to each row.
  LookupJoinExec(OperatorPtr input, std::shared_ptr<const LookupFile> lookup,
                 std::vector<int> keyChannels, std::vector<int> lookupKeys,
                 std::vector<int> lookupColumns);

  const Schema& schema() const override { return schema_; }
  std::optional<Page> next() override;
  void collectStats(std::vector<OperatorStats>& out) const override;

 private:
  /// Makes table_ of the file's keys; returns the group of each of fileKeyRows_.
  std::vector<uint32_t> buildTable();
  /// Sets rowGroups_ to each row's group of the file's keys, or kNoMatch.
  void probe(const Page& page);

  static constexpr uint32_t kNoMatch = UINT32_MAX;

  OperatorPtr input_;
  std::shared_ptr<const LookupFile> lookup_;
  std::vector<int> keyChannels_;
  std::vector<int> lookupKeys_;
  Schema schema_;
  std::vector<DataType> keyTypes_;
  /// The file's key columns over its rows without a null key, and those rows.
  std::vector<Block> fileKeys_;
  std::vector<uint32_t> fileKeyRows_;
  std::unique_ptr<GroupByHash> table_;
  uint32_t fileGroups_ = 0;
  /// The file rows of group g: matchRows_[groupOffsets_[g], groupOffsets_[g + 1]).
  std::vector<uint32_t> groupOffsets_;
  std::vector<uint32_t> matchRows_;
  /// The appended columns, each with one more row, null, that rows without a match take.
  std::vector<Block> added_;

  std::optional<Page> page_;  // the input page being joined
  std::vector<uint32_t> rowGroups_;
  size_t nextRow_ = 0;    // its first row not yet joined whole
  size_t nextMatch_ = 0;  // that row's matches already given
  OperatorStats stats_;
};

}  // namespace quarry::engine
