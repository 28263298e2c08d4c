#pragma once

#include <span>
#include <string>
#include <vector>

#include "quarry/engine/plan/plan_node.h"

/// The local physical optimizer: rules that rewrite a plan in place, each
/// returning whether it changed anything. optimize() runs them in order:
///
/// - PruneColumns (projection pushdown): every node keeps only the columns some
///   node above it uses; the ExternalSourceExec then reads only those.
/// - PushFiltersToSource: a FilterExec directly over an ExternalSourceExec hands
///   the source the conjuncts it can express as a FilterPredicate (comparisons of
///   a column with a literal, IS [NOT] NULL, IN, and AND / OR / NOT of those), for
///   row-group, page, Bloom filter and dictionary pruning and exact row filtering.
///   The FilterExec stays as a recheck: a file the predicate cannot be bound to
///   (a column it lacks, a literal its column type does not take) is read
///   unfiltered, and conjuncts not pushed are evaluated there.
/// - PushLimitToExternalSource: a LimitExec over an ExternalSourceExec (through
///   ProjectExecs) without a filter bounds the rows each split reads.
/// - PushAggregatesToExternalSource (aggregate-pushdown-plan.txt, issues 9 and
///   29): an AggregateExec[SINGLE or INITIAL], ungrouped or grouped by hive
///   partition columns only (each file's rows in one group), over an
///   ExternalSourceExec without a limit, directly or through a FilterExec
///   whose conjuncts on partition columns and `_file.path` are decided per
///   unit from its path and whose other conjuncts the source was handed
///   exactly (every conjunct translated, no IN list with a null item: the
///   WHERE keeps a row exactly when the pushed predicate is true on it), whose
///   aggregates are all COUNT(*), COUNT(col), MIN(col) or MAX(col) and whose
///   formats declare AggregatePushdownSupport, becomes a LocalSourceExec. Each unit (split, row group, stripe) is answered wholly
///   from its statistics or scanned wholly (mixed_statistics_supplier.h):
///   with a filter, units proven to match no row are skipped and only units
///   proven to match every row are answered. When every split is decided
///   from the statistics it carries, the rule computes the page itself
///   (Phase 2, no I/O). Otherwise the supplier reads the footers of the
///   undecided splits when it runs, decides their row groups one by one,
///   scans the rest through the original plan and merges both. The rule does
///   not fire when no split can be answered or skipped and none is left to
///   decide per row group (each is a single unit lacking a statistic).
/// - LateMaterialize: a plan ending in SORT + LIMIT n (n <= 10,000; through
///   KEEP / DROP projections) over a Parquet source of local files, directly or
///   through a FilterExec (TopNExec [ExchangeExec TopNExec] [FilterExec]
///   ExternalSourceExec), whose output needs at least twice the columns the
///   filter and the sort keys read (and two more), runs in two phases: the
///   same chain scanning only the filter and key columns plus each row's file
///   and position (`_file.path`, `_row.position`) finds the n winners, and a
///   LateMaterializeExec above it fetches the other columns of just those rows
///   (late_materialize_exec.h), in the winners' order.
namespace quarry::engine {

/// What optimize() may do beyond the rules every plan takes.
struct OptimizerOptions {
  /// LateMaterialize may fire. Off where the plan's scan runs on data nodes
  /// (a cluster's coordinator and fragments): the second phase reads files by
  /// position, which only the process that scanned them can.
  bool lateMaterialization = true;
};

/// A rule's name and whether it fired, in the order run (for EXPLAIN).
struct RuleOutcome {
  std::string rule;
  bool changed = false;
  /// Why a rule that could have applied did not (for EXPLAIN); may be empty.
  std::string detail;
};

std::vector<RuleOutcome> optimize(PlanNode& root, const OptimizerOptions& options = {});

bool pruneColumns(PlanNode& root);
bool pushFiltersToSource(PlanNode& root);
bool pushLimitToExternalSource(PlanNode& root);
/// Returns whether it fired; `why` receives the reason it did not where an
/// aggregate over a source was found.
bool pushAggregatesToExternalSource(PlanNode& root, std::string* why = nullptr);
/// Returns whether it fired; `why` receives the reason it did not where a
/// SORT + LIMIT over a source was found.
bool lateMaterialize(PlanNode& root, std::string* why = nullptr);

/// The most rows LateMaterialize fetches by position (a larger LIMIT keeps the one-phase plan).
inline constexpr int64_t kMaxLateMaterializedRows = 10'000;

/// Prunes `node`'s output columns to the `required` ones (and what the nodes
/// below need) as PruneColumns does; returns for each old output channel its
/// new channel, or -1.
std::vector<int> pruneOutputs(PlanNode& node, const std::vector<bool>& required);

/// Translates `predicate` over `schema` (the source's columns) into a
/// FilterPredicate true wherever the predicate is true; nullopt when no part of
/// it can be expressed; hive partition columns (`partitionColumns`, which no
/// file holds) are never part of it. Exposed for tests.
std::optional<parquet::FilterPredicate> toFilterPredicate(const BoundExpr& predicate, const Schema& schema,
                                                          std::span<const std::string> partitionColumns = {});

}  // namespace quarry::engine
