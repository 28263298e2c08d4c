#pragma once

#include <memory>
#include <span>

#include "quarry/engine/expr/aggregator.h"

/// Aggregates over list inputs, by ES|QL's rule for multi-valued fields: an
/// aggregate of a list column aggregates every element of every row of the
/// group, as if each element were a row of its own. COUNT(x) counts non-null
/// elements; MIN, MAX, SUM, AVG and COUNT_DISTINCT see the non-null elements; a
/// null list and an empty list add nothing. The intermediate columns are the
/// element type's (aggregator.h), so the INITIAL side flattens and the
/// INTERMEDIATE and FINAL sides merge as for any column.
///
/// Example: COUNT(tags) over rows [1, 2], null, [], [null, 3] is 3; MIN is 1.
///
/// The same accumulators, with one group per row, are the mv_ functions
/// (aggregateEachList): MV_MIN([3, null, 1]) is MIN over 3 and 1.
namespace quarry::engine {

/// The accumulators of `spec`, whose inputType is a list.
std::unique_ptr<Aggregator> makeListAggregator(const AggregateSpec& spec);

/// Per position of `lists` (a list block), `f` over its non-null elements: null
/// for a null list and, but for COUNT, where no element is non-null; COUNT gives
/// 0 there. The result has aggregateResultType(f, element type).
Block aggregateEachList(AggregateFunction f, const Block& lists);

}  // namespace quarry::engine
