#pragma once

#include <string_view>

#include "quarry/engine/parse/ast.h"
#include "quarry/engine/plan/plan_node.h"

/// STATS ... BY: the aggregates of a STATS command as AggregateSpecs of one
/// AggregationNode, the expressions over them (`SUM(a) / COUNT(a)`) evaluated
/// after it, per-aggregate filters (`COUNT(*) WHERE c`), unnamed items named by
/// their text, constant BY keys added after grouping, and SUM(e + c) answered
/// from SUM(e) and COUNT(e).
namespace quarry::engine::planning {

/// The plan of `stats` over `input`; `text` is the query's text (unnamed items
/// are named as written).
PlanNodePtr planStats(PlanNodePtr input, const StatsCommand& stats, std::string_view text);

}  // namespace quarry::engine::planning
