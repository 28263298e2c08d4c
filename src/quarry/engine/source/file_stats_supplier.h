#pragma once

#include <optional>
#include <string>
#include <vector>

#include "quarry/engine/exec/aggregator.h"
#include "quarry/engine/exec/block.h"
#include "quarry/engine/exec/external_source_exec.h"
#include "quarry/engine/source/source_statistics.h"

/// Answers ungrouped COUNT(*), COUNT(col), MIN(col) and MAX(col) over a set of
/// splits from their statistics alone (aggregate-pushdown-plan.txt, "Implement
/// FileStatsSupplier"): each split's pre-populated statistics, else the
/// statistics of its file's footer for the split's range. Merged across splits:
/// counts summed, min of mins, max of maxes; a column a file lacks counts as all
/// null (union_by_name). All or nothing: when any split lacks a statistic an
/// aggregate needs, or a bound is not exactly representable in the aggregate's
/// type, there is no answer and the caller scans every split.
namespace quarry::engine {

struct StatisticsAnswer {
  /// One row in `mode`'s layout: final values (SINGLE) or the intermediate
  /// columns of each aggregate (INITIAL).
  Page page;
  /// Splits answered.
  uint64_t splits = 0;
};

class FileStatsSupplier {
 public:
  /// `columns[i]` is the source column the aggregates' channel i reads.
  FileStatsSupplier(std::vector<SplitTask> splits, std::vector<std::string> columns,
                    std::vector<AggregateSpec> aggregates, AggregatorMode mode);

  /// Answers from the splits' statistics, reading footers for splits without
  /// (`readFooters`); nullopt when some needed statistic is unknown.
  std::optional<StatisticsAnswer> answer(bool readFooters) const;

  /// Whether every split carries statistics (the plan's Phase 2: no I/O at all).
  bool everySplitHasStatistics() const;

  /// Whether `spec` can ever be answered from statistics (COUNT(*), COUNT, MIN, MAX
  /// over a column of a type statistics bound).
  static bool supports(const AggregateSpec& spec);

 private:
  /// The statistics of `task`: its own, else (`readFooters`) those its file's footer
  /// gives its range, kept in `read`; nullptr when unknown.
  const SourceStatistics* statisticsOf(const SplitTask& task, bool readFooters,
                                       std::optional<SourceStatistics>& read) const;

  std::vector<SplitTask> splits_;
  std::vector<std::string> columns_;
  std::vector<AggregateSpec> aggregates_;
  AggregatorMode mode_;
};

}  // namespace quarry::engine
