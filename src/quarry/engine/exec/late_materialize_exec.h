#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "quarry/engine/exec/operator.h"
#include "quarry/engine/source/format_reader.h"

/// The LateMaterializeExec plan node: the second phase of a late
/// materialization (optimizer/late_materialize.cc). Its input, a TopN over a
/// narrow scan, returns the winning rows in their final order, each with its
/// file (`_file.path`) and its position in the file (`_row.position`). It then
/// reads the request's columns of just those rows: per file, the row groups
/// holding some (FormatReader::units), each narrowed to the winners' rows
/// (FileSplit::rows), which the Parquet reader reads through its page index,
/// skipping the pages that hold none, several row groups at once (`threads`).
/// It returns the fetched rows in the
/// input's order, so the answer is the one the single-phase plan gives, ties
/// and nulls included.
namespace quarry::engine {

class LateMaterializeExec final : public Operator {
 public:
  /// `splits`: the scan's splits (which reader reads which file, the file's
  /// identity); `fetch`: the columns to return, `_row.position` last (dropped
  /// from the output), with `schema` their types but that last one;
  /// `pathChannel` / `positionChannel`: the input's row identity; `threads`:
  /// how many row groups are read at once.
  LateMaterializeExec(OperatorPtr input, Schema schema, std::vector<SplitTask> splits,
                      ReadRequest fetch, int pathChannel, int positionChannel, int threads = 1);

  const Schema& schema() const override { return schema_; }
  std::optional<Page> next() override;
  void collectStats(std::vector<OperatorStats>& out) const override;

 private:
  std::optional<Page> materialize();

  OperatorPtr input_;
  Schema schema_;
  std::vector<SplitTask> splits_;
  ReadRequest fetch_;
  int pathChannel_;
  int positionChannel_;
  int threads_;
  bool done_ = false;
  OperatorStats stats_{"LateMaterializeExec"};
};

}  // namespace quarry::engine
