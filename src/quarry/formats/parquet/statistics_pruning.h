#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "quarry/formats/parquet/bound_predicate.h"
#include "quarry/formats/parquet/column_bounds.h"
#include "quarry/formats/parquet/metadata.h"

/// Pruning from statistics (query-controls.txt, "All predicates, including those
/// wrapped in not, are pushed down for row-group and page skipping"): a bound
/// predicate decided for a whole unit (a row group, later a page) from the
/// unit's per-column statistics, without reading its values.
///
/// Each node is evaluated to the set of truth values its rows may take, in the
/// three-valued logic row_filter applies per row: may some row be true, may
/// some be false, may some be unknown (a comparison on a null). A comparison
/// knows its unit's values lie in [min, max] (the non-NaN ones, for floats), may
/// include NaN unless nan_count is 0 and may include nulls unless null_count is
/// 0; and / or / not combine the sets as Kleene logic does per row. Example: over
/// a unit with min 5, max 9, null_count 2, eq(x, 3) may only be false or
/// unknown, so no row matches; not(eq(x, 3)) may only be true or unknown, so
/// some rows match (not every row: a null row matches neither).
namespace quarry::parquet {

enum class PruningDecision {
  /// No row of the unit can match: skip it without reading it.
  kNoRowMatches,
  /// Some rows may match: read the unit and filter its rows.
  kSomeMayMatch,
  /// Every row matches: read the unit without evaluating the predicate per row.
  kEveryRowMatches,
};

std::string toString(PruningDecision decision);

/// Returns the statistics of one leaf column over the unit being decided.
using UnitStatisticsLookup = std::function<UnitStatistics(const SchemaNode& leaf)>;

/// Returns whether membership metadata of the unit (a Bloom filter, a dictionary)
/// proves that no value of the unit equals any literal of `node`, a leaf eq or in
/// of the predicate. Such a leaf is false for every non-null row of the unit (and
/// unknown for null ones), whatever and / or / not it sits under.
using MembershipLookup = std::function<bool(const BoundNode& node)>;

/// Decides a unit of `rowCount` rows from the statistics `statisticsOf` returns
/// for each leaf the predicate names, sharpened by `excluded` where given. The
/// row-group decision and a page-level one (ColumnIndex min / max lists) share it.
PruningDecision decideUnit(const BoundPredicate& predicate, int64_t rowCount,
                           const UnitStatisticsLookup& statisticsOf,
                           const MembershipLookup& excluded = {});

/// Decides row group `rowGroup` of `metadata` from its column chunks' statistics
/// (and `excluded`, see decideUnit).
PruningDecision decideRowGroup(const BoundPredicate& predicate, const FileMetaData& metadata,
                               size_t rowGroup, const MembershipLookup& excluded = {});

}  // namespace quarry::parquet
