#pragma once

#include <cstdint>
#include <vector>

#include "quarry/formats/orc/orc_predicate.h"
#include "quarry/formats/orc/orc_statistics.h"

/// Deciding a unit of rows (a stripe, or a row group of rowIndexStride rows
/// within one) from its column statistics: no row matches, some may, or every
/// row does. Each predicate node yields the set of outcomes (true, false,
/// unknown) its rows may have, over-approximated from the statistics; and / or
/// / not combine the sets as Kleene logic does values, so not needs no special
/// case. A unit whose root cannot be true is pruned; one whose root can only be
/// true is read without evaluating the filter.
///
/// What the statistics give, and where they are not trusted (the unit is then
/// decided from its counts alone, never from a doubtful bound):
///   - nulls: a column has no null row where its value count equals the unit's
///     rows (a null struct ancestor lowers the count too); every row is null
///     where the count is 0. ORC's hasNull is not used: it does not see a null
///     ancestor.
///   - floats: writers compare with `<`, so NaN values never move a bound (a NaN
///     first value makes it NaN: ignored), and -0.0 / +0.0 tie (a +0 minimum is
///     widened to -0, a -0 maximum to +0). A NaN value may hide anywhere unless
///     the sum is recorded and not NaN; NaN sorts above everything, so the
///     maximum is then taken as NaN.
///   - strings: lowerBound / upperBound of truncated values bound without
///     being values (no "every row equals"); bounds of files older than
///     HIVE-8732 (writer version 0) and of char(n) columns are ignored.
///   - timestamps: bounds are milliseconds (plus the sub-millisecond nanos where
///     written) and widened by 1 ms; a timestamp column's bounds (written on the
///     writer's wall clock or in UTC depending on the writer) and files before
///     ORC-135 are widened by one day more, as no time zone is further.
///   - decimals: bounds are the writer's text, read at the column's scale;
///     one with more digits than the scale is ignored.
namespace quarry::orc {

enum class UnitDecision { kNone, kSome, kAll };

/// What pruning knows about the file as a whole.
struct PruningContext {
  /// False for files written before HIVE-8732, whose string bounds are wrong.
  bool stringBoundsUsable = true;
};

/// Membership answers for one unit (a row group's Bloom filters): after the
/// statistics, eq and in are false on every row of a column proven to hold none
/// of their literals, and notEq is then true on every non-null row.
class MembershipProbe {
 public:
  virtual ~MembershipProbe() = default;
  /// Returns true when the unit's column `node.column` holds none of the
  /// literals of comparison `node` (eq, notEq or in).
  virtual bool provesAbsent(const OrcBoundNode& node) const = 0;
};

/// Decides a unit of `rows` rows. `statistics` holds the unit's statistics by
/// column id (nullptr, or a shorter vector, where there are none); `probe`, when
/// given, answers membership for eq / notEq / in.
UnitDecision decideUnit(const OrcBoundPredicate& predicate,
                        const std::vector<const OrcColumnStatistics*>& statistics, uint64_t rows,
                        const PruningContext& context, const MembershipProbe* probe = nullptr);

}  // namespace quarry::orc
