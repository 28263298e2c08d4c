#pragma once

#include "quarry/engine/source/source_statistics.h"
#include "quarry/formats/predicate/filter_predicate.h"

/// Deciding a unit of rows (a split, a row group, a stripe) against a filter
/// from its SourceStatistics alone: no row matches, some may, or every row
/// does. Each predicate node yields the set of truth values (true, false,
/// unknown) its rows may take, over-approximated from the statistics; and / or
/// / not combine the sets as Kleene logic combines values. The unit matches no
/// row when true is not in the root's set, and every row when the set is
/// exactly {true}.
///
///   x > 5, min(x) = 7, max(x) = 9, nullCount(x) = 0   -> {true}:                   every row
///   x > 5, min(x) = 1, max(x) = 4, nullCount unknown  -> {false, unknown}:          no row
///   x > 5, min(x) = 1, max(x) = 9, nullCount(x) = 2   -> {true, false, unknown}:    some rows
///
/// SourceStatistics only holds exact values, so both proofs are sound: a bound
/// or null count the unit does not know widens the set, never narrows it. A
/// column the unit's statistics do not name, and a literal no StatisticValue
/// carries (decimal, local timestamp, time, ...), make the node's set
/// {true, false, unknown}.
namespace quarry::engine {

enum class StatisticsDecision { kNoRow, kSomeRows, kEveryRow };

/// Decides `stats`' rows against `filter`.
StatisticsDecision decideFromStatistics(const parquet::FilterPredicate& filter,
                                        const SourceStatistics& stats);

}  // namespace quarry::engine
