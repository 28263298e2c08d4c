#pragma once

#include <memory>

#include "quarry/engine/expr/aggregator.h"

/// The accumulators of each aggregate family, one file each: COUNT(*) and
/// COUNT(x) (count_aggregator.cc), MIN and MAX (min_max_aggregator.cc), SUM and
/// AVG (sum_avg_aggregator.cc), COUNT_DISTINCT (count_distinct_aggregator.cc),
/// MEDIAN, PERCENTILE and MEDIAN_ABSOLUTE_DEVIATION (percentile_aggregator.cc),
/// STD_DEV and VARIANCE (variance_aggregator.cc), WEIGHTED_AVG
/// (weighted_avg_aggregator.cc), VALUES and TOP (values_aggregator.cc).
/// makeAggregator (aggregator.cc) picks one; `spec`'s input type has been
/// checked by aggregateResultType and is not a list.
namespace quarry::engine {

std::unique_ptr<Aggregator> makeCountAggregator(const AggregateSpec& spec);
std::unique_ptr<Aggregator> makeMinAggregator(const AggregateSpec& spec);
std::unique_ptr<Aggregator> makeMaxAggregator(const AggregateSpec& spec);
std::unique_ptr<Aggregator> makeSumAggregator(const AggregateSpec& spec);
std::unique_ptr<Aggregator> makeAvgAggregator(const AggregateSpec& spec);
std::unique_ptr<Aggregator> makeCountDistinctAggregator(const AggregateSpec& spec);
std::unique_ptr<Aggregator> makePercentileAggregator(const AggregateSpec& spec);
std::unique_ptr<Aggregator> makeVarianceAggregator(const AggregateSpec& spec);
std::unique_ptr<Aggregator> makeWeightedAvgAggregator(const AggregateSpec& spec);
std::unique_ptr<Aggregator> makeValuesAggregator(const AggregateSpec& spec);

}  // namespace quarry::engine
