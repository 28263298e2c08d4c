#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "quarry/engine/exec/operator.h"
#include "quarry/engine/expr/bound_expr.h"
#include "quarry/engine/plan/plan_node.h"
#include "quarry/formats/predicate/filter_predicate.h"

/// A COUNT / MIN / MAX aggregate, ungrouped or grouped by hive partition
/// columns only, answered unit by unit (a split, or
/// a Parquet row group / ORC stripe within one): the plan's deferred "mixed
/// mode" and the WHERE-filtered form (issue 9, "Beyond the plan"). Each unit is
/// either answered wholly from its statistics or scanned wholly (the plan's
/// all-or-nothing rule, held per unit):
///
///   - with a filter, a unit whose statistics prove no row matches is skipped,
///     and only a unit proven to match in every row may be answered;
///   - a unit is answered when its statistics are exact for every aggregate
///     (FileStatsSupplier over that unit alone);
///   - every other unit is scanned through the original plan (the aggregate in
///     INITIAL mode over the filter and the source, splits narrowed to the
///     scanned units, in parallel as the exchange above would run them).
///
/// The statistics answer is one INITIAL page in the aggregators' intermediate
/// layout; one AggregateExec merges it with the scan's INITIAL pages
/// (INTERMEDIATE for an INITIAL node, FINAL for a SINGLE one), so the output
/// layout stays the node's mode's and equals a full scan's.
///
///   split 0 (statistics: 3 row groups)  -> answered at planning, no I/O
///   split 1 (one row group lacks a bound) -> footer read when run:
///       row group 3 answered, row group 4 scanned, row group 5 answered
///   merge: INITIAL page of row groups 0..3, 5  +  INITIAL pages of the scan of 4
///
/// Grouped by partition columns (`STATS ... BY year, month`), every row of a
/// unit is in the group its path names (FileSplit::partition), so a unit's
/// statistics answer for that group alone: the statistics answer is one INITIAL
/// row per group (its key, then the intermediate columns over the group's
/// answered units), and the merge above is grouped by the keys. A unit whose
/// file also holds a group column (the scan checks it against the path) is
/// scanned.
namespace quarry::engine {

/// How a unit is decided: skipped (no row matches), answered from its
/// statistics, scanned, or partly matched (a filter its statistics leave
/// undecided: its pages may decide parts of it, FormatReader::segments).
enum class UnitOutcome : uint8_t { kSkipped, kAnswered, kScanned, kPartly };

/// The aggregate to answer and how.
struct StatisticsPushdown {
  /// The aggregate's subtree as planned: an AggregateExec (SINGLE or INITIAL),
  /// ungrouped or grouped by partition columns only, over a FilterExec over an
  /// ExternalSourceExec, or over the source.
  PlanNodePtr original;
  /// The filter as an exact predicate over the source's columns (the WHERE
  /// keeps a row exactly when the predicate is true on it and on `byPath`);
  /// nullopt: none.
  std::optional<parquet::FilterPredicate> filter;
  /// The WHERE's conjuncts that name only partition columns and `_file.path`,
  /// bound over the source's columns (null: none): each unit's path decides
  /// them for all its rows (true: every row, false or null: none), so they
  /// are not part of `filter`. A unit where they fail to evaluate is scanned.
  BoundExprPtr byPath;
  /// Driver threads for the scan of the undecided units.
  int threads = 1;
};

/// Units by outcome.
struct UnitDecisions {
  std::vector<SplitTask> answered, scanned;
  /// Splits to decide row group by row group when the plan runs (footer read).
  std::vector<SplitTask> undecided;
  uint64_t answeredUnits = 0, skippedUnits = 0, skippedSplits = 0;
  /// Segments of units answered through the page index, and units whose every
  /// segment was answered or skipped (no scan of them).
  uint64_t answeredSegments = 0, unitsDecidedByPages = 0;
};

/// Decides one unit from its path (StatisticsPushdown::byPath), then from its
/// statistics (without any: kPartly under a filter, else kScanned; a unit
/// already narrowed to rows is never kPartly).
UnitOutcome decideUnit(const StatisticsPushdown& pushdown, const FileSplit& unit);

/// Decides the splits of `pushdown`'s source from the statistics they carry, no
/// I/O: a split that cannot be answered or skipped as a whole, and holds more
/// than one unit or no statistics, is left undecided. The splits move out of the
/// source into the decisions (a thousand files are not copied); when none is
/// answered, skipped or undecided, `scanned` holds them all, in order, for the
/// caller to put back.
UnitDecisions decideSplits(StatisticsPushdown& pushdown);

/// The statistics answer over `d.answered`, in `aggregate`'s INITIAL layout
/// (its group columns, then each aggregate's intermediate columns): ungrouped,
/// one row (over no unit: count 0, no value seen); grouped by partition
/// columns, one row per group of units that share its values, none for a
/// group of no row. Units whose bounds do not merge (values of different kinds)
/// move to `d.scanned`, no longer counted as answered.
Page statisticsAnswer(const PlanNode& aggregate, UnitDecisions& d);

/// The AggregateExec that merges `partials` (pages in `aggregate`'s INITIAL
/// layout) into `aggregate`'s output: FINAL for a SINGLE node, INTERMEDIATE for
/// an INITIAL one, grouped by the leading key columns when `aggregate` is.
OperatorPtr mergeStatistics(const PlanNode& aggregate, LocalSupplier partials,
                            std::string description);

/// The LocalSupplier of the mixed plan: on the first call decides the
/// undecided splits unit by unit (FormatReader::units), StatisticsPushdown::threads
/// splits at a time, then returns the merged result. Counts answered and skipped units in the
/// source's ScanMetrics.
class MixedStatisticsSupplier {
 public:
  MixedStatisticsSupplier(StatisticsPushdown pushdown, UnitDecisions decisions);

  std::optional<Page> next();

 private:
  void start();
  /// Decides `unit`, partly matched (UnitOutcome::kPartly), segment by segment
  /// where its format reader finds a page index (FormatReader::segments):
  /// segments that match no row are dropped, those that match in every row and
  /// whose statistics answer go to d.answered, and the rest stay in one split
  /// narrowed to their rows (FileSplit::rows) in d.scanned.
  void decidePages(const FormatReader* reader, FileSplit unit, UnitDecisions& d) const;
  /// Decides the undecided `task` unit by unit (its footer read) into `d`.
  void decideSplit(const SplitTask& task, UnitDecisions& d) const;

  StatisticsPushdown pushdown_;
  UnitDecisions decisions_;
  OperatorPtr merge_;
  bool started_ = false;
};

}  // namespace quarry::engine
