#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/expr/aggregator.h"
#include "quarry/engine/source/format_reader.h"
#include "quarry/engine/source/source_statistics.h"

/// Answers ungrouped COUNT(*), COUNT(col), MIN(col) and MAX(col) over a set of
/// splits from their statistics alone (aggregate-pushdown-plan.txt, "Implement
/// FileStatsSupplier"): the statistics each split carries from the footer read
/// at planning, or those of a row group whose footer the mixed path read (see
/// MixedStatisticsSupplier). Merged across splits:
/// counts summed, min of mins, max of maxes; a column a file lacks counts as all
/// null (union_by_name). All or nothing: when any split lacks a statistic an
/// aggregate needs, or a bound is not exactly representable in the aggregate's
/// type, there is no answer and the caller scans every split.
namespace quarry::engine {

class FileStatsSupplier {
 public:
  /// `columns[i]` is the source column the aggregates' channel i reads. Keeps
  /// references to both vectors: answer while they live.
  FileStatsSupplier(const std::vector<std::string>& columns, const std::vector<AggregateSpec>& aggregates,
                    AggregatorMode mode);

  /// The one-row answer over units with these statistics (none null), in the
  /// mode's layout: final values (SINGLE) or the intermediate columns of each
  /// aggregate (INITIAL). nullopt when some needed statistic is unknown.
  std::optional<Page> answer(std::span<const SourceStatistics* const> units) const;

  /// Whether answer(units) has an answer, without building it.
  bool answers(std::span<const SourceStatistics* const> units) const;

  /// The answer over the statistics the splits carry; nullopt also when a split
  /// carries none.
  std::optional<Page> answer(const std::vector<SplitTask>& splits) const;

  /// Whether `spec` can ever be answered from statistics (COUNT(*), COUNT, MIN, MAX
  /// over a column of a type statistics bound).
  static bool supports(const AggregateSpec& spec);

 private:
  /// answer(units), the page built only when `materialize`.
  std::optional<Page> build(std::span<const SourceStatistics* const> units, bool materialize) const;

  const std::vector<std::string>& columns_;
  const std::vector<AggregateSpec>& aggregates_;
  AggregatorMode mode_;
};

}  // namespace quarry::engine
