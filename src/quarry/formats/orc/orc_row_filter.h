#pragma once

#include <cstdint>
#include <vector>

#include "quarry/formats/orc/orc_column_reader.h"
#include "quarry/formats/orc/orc_predicate.h"

/// Exact row filtering of one decoded stripe in SQL's three-valued logic. Each
/// node yields, per row, true, false or unknown (a comparison or a test whose
/// column is null in that row, a struct ancestor's null included); not swaps
/// true and false and keeps unknown, so not over a comparison never selects a
/// null row; and / or combine as Kleene logic. A row is selected when the root
/// is true.
///
/// A leaf first maps each row to the value it reads: the root's slot r is row r,
/// and each struct on the way down turns a present slot into its children's
/// slot (valueIndex); a null slot on the way makes the row's value null. The
/// comparison then runs over those values in one plain loop.
namespace quarry::orc {

/// Per-row outcome of a predicate node.
enum class Truth : uint8_t { kFalse = 0, kTrue = 1, kUnknown = 2 };

/// Returns, for each of the stripe's rows, whether `predicate` selects it.
/// `stripe` must hold every column predicate.columns() flags.
std::vector<uint8_t> selectRows(const OrcBoundPredicate& predicate, const ColumnVector& stripe);

}  // namespace quarry::orc
