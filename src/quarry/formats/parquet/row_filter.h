#pragma once

#include <cstdint>
#include <vector>

#include "quarry/common/raw_vector.h"
#include "quarry/formats/parquet/bound_predicate.h"
#include "quarry/formats/parquet/metadata.h"
#include "quarry/formats/parquet/record_assembly.h"

/// Exact row filtering: a bound predicate evaluated over one assembled row group
/// in SQL's three-valued logic. Each node yields, per row, whether it is true and
/// whether it is false; a row where neither holds is unknown (a comparison on a
/// null). not swaps the two, and takes both from its child, so not over a
/// comparison never selects a null row; and / or combine them as Kleene logic.
/// A row is selected when the root is true.
///
/// Comparisons run in two plain loops: one over the column's dense non-null
/// values (keys against the literal), one over the rows (the value's result, or
/// unknown where the slot is null).
namespace quarry::parquet {

/// Returns the indices (ascending) of the rows of `group` that `predicate` selects.
/// `metadata` is the row group's footer entry, which intersects reads its
/// bounding boxes from; without it intersects keeps every row. Every leaf in
/// predicate.leaves() must have been decoded into `group`.
RawVector<int64_t> selectRows(const BoundPredicate& predicate, const AssembledRowGroup& group,
                              const RowGroup* metadata = nullptr);

/// Returns whether the bounding box `statistics` records overlaps the box of
/// intersects node `node` (true when there is no box, or a NaN coordinate): the
/// one test row filtering and pruning share.
bool boundingBoxOverlaps(const BoundNode& node, const GeospatialStatistics* statistics);

}  // namespace quarry::parquet
