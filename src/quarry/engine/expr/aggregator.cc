#include "quarry/engine/expr/aggregator.h"

#include <stdexcept>

#include "quarry/common/error.h"
#include "quarry/engine/expr/aggregate_families.h"
#include "quarry/engine/expr/list_aggregator.h"

namespace quarry::engine {

const char* aggregateName(AggregateFunction f) {
  switch (f) {
    case AggregateFunction::kCountStar:
    case AggregateFunction::kCount:
      return "COUNT";
    case AggregateFunction::kCountDistinct:
      return "COUNT_DISTINCT";
    case AggregateFunction::kMin:
      return "MIN";
    case AggregateFunction::kMax:
      return "MAX";
    case AggregateFunction::kSum:
      return "SUM";
    case AggregateFunction::kAvg:
      return "AVG";
    case AggregateFunction::kMedian:
      return "MEDIAN";
    case AggregateFunction::kPercentile:
      return "PERCENTILE";
    case AggregateFunction::kMedianAbsoluteDeviation:
      return "MEDIAN_ABSOLUTE_DEVIATION";
    case AggregateFunction::kStdDev:
      return "STD_DEV";
    case AggregateFunction::kVariance:
      return "VARIANCE";
    case AggregateFunction::kWeightedAvg:
      return "WEIGHTED_AVG";
    case AggregateFunction::kValues:
      return "VALUES";
    case AggregateFunction::kTop:
      return "TOP";
  }
  return "?";
}

const char* aggregatorModeName(AggregatorMode mode) {
  switch (mode) {
    case AggregatorMode::kSingle:
      return "SINGLE";
    case AggregatorMode::kInitial:
      return "INITIAL";
    case AggregatorMode::kIntermediate:
      return "INTERMEDIATE";
    case AggregatorMode::kFinal:
      return "FINAL";
  }
  return "?";
}

DataType aggregateResultType(AggregateFunction f, const DataType& input) {
  // A list aggregates its elements (list_aggregator.h); WEIGHTED_AVG pairs each
  // value with its row's weight, which a list's elements do not have.
  if (input.isList() && f != AggregateFunction::kWeightedAvg) {
    return aggregateResultType(f, input.elementType());
  }
  switch (f) {
    case AggregateFunction::kCountStar:
    case AggregateFunction::kCount:
    case AggregateFunction::kCountDistinct:
      return DataType::int64();
    case AggregateFunction::kMin:
    case AggregateFunction::kMax:
      return input;
    case AggregateFunction::kSum:
      switch (input.kind) {
        case TypeKind::kNull:
        case TypeKind::kInt32:
        case TypeKind::kInt64:
          return DataType::int64();
        case TypeKind::kUInt64:
          return DataType::decimal(38, 0);
        case TypeKind::kDecimal:
          return DataType::decimal(38, input.scale);
        case TypeKind::kDouble:
          return DataType::float64();
        default:
          break;
      }
      break;
    case AggregateFunction::kAvg:
    case AggregateFunction::kMedian:
    case AggregateFunction::kPercentile:
    case AggregateFunction::kMedianAbsoluteDeviation:
    case AggregateFunction::kStdDev:
    case AggregateFunction::kVariance:
    case AggregateFunction::kWeightedAvg:
      if (input.kind == TypeKind::kNull || input.isNumeric()) return DataType::float64();
      break;
    case AggregateFunction::kValues:
    case AggregateFunction::kTop:
      if (!input.isList()) return DataType::list(input);
      break;
  }
  throw InvalidArgument(std::string(aggregateName(f)) + " does not accept an argument of type " +
                        input.toString() +
                        (input.isList() ? "; it takes one value per row" : "; it takes a number"));
}

std::vector<Field> intermediateFields(const AggregateSpec& spec) {
  if (spec.inputType.isList()) {
    AggregateSpec element = spec;
    element.inputType = spec.inputType.elementType();
    return intermediateFields(element);
  }
  const DataType result = aggregateResultType(spec.function, spec.inputType);
  switch (spec.function) {
    case AggregateFunction::kCountStar:
    case AggregateFunction::kCount:
      return {{spec.name + "$count", DataType::int64()},
              {spec.name + "$seen", DataType::boolean()}};
    case AggregateFunction::kMin:
    case AggregateFunction::kMax:
      return {{spec.name + "$value", spec.inputType}, {spec.name + "$seen", DataType::boolean()}};
    case AggregateFunction::kSum:
      return {{spec.name + "$sum", result}, {spec.name + "$seen", DataType::boolean()}};
    case AggregateFunction::kAvg: {
      const DataType sum =
          spec.inputType.kind == TypeKind::kDouble
              ? DataType::float64()
              : DataType::decimal(
                    38, spec.inputType.kind == TypeKind::kDecimal ? spec.inputType.scale : 0);
      return {{spec.name + "$sum", sum}, {spec.name + "$count", DataType::int64()}};
    }
    case AggregateFunction::kCountDistinct:
    case AggregateFunction::kMedian:
    case AggregateFunction::kPercentile:
    case AggregateFunction::kMedianAbsoluteDeviation:
    case AggregateFunction::kValues:
    case AggregateFunction::kTop:
      return {{spec.name + "$values", DataType::binary()},
              {spec.name + "$seen", DataType::boolean()}};
    case AggregateFunction::kStdDev:
    case AggregateFunction::kVariance:
      return {{spec.name + "$count", DataType::int64()},
              {spec.name + "$mean", DataType::float64()},
              {spec.name + "$m2", DataType::float64()}};
    case AggregateFunction::kWeightedAvg:
      return {{spec.name + "$sum", DataType::float64()},
              {spec.name + "$weight", DataType::float64()},
              {spec.name + "$seen", DataType::boolean()}};
  }
  throw std::logic_error("intermediateFields: unknown aggregate function");
}

std::unique_ptr<Aggregator> makeAggregator(const AggregateSpec& spec) {
  aggregateResultType(spec.function, spec.inputType);  // rejects unsupported argument types
  if (spec.inputType.isList()) return makeListAggregator(spec);
  switch (spec.function) {
    case AggregateFunction::kCountStar:
    case AggregateFunction::kCount:
      return makeCountAggregator(spec);
    case AggregateFunction::kCountDistinct:
      return makeCountDistinctAggregator(spec);
    case AggregateFunction::kMin:
      return makeMinAggregator(spec);
    case AggregateFunction::kMax:
      return makeMaxAggregator(spec);
    case AggregateFunction::kSum:
      return makeSumAggregator(spec);
    case AggregateFunction::kAvg:
      return makeAvgAggregator(spec);
    case AggregateFunction::kMedian:
    case AggregateFunction::kPercentile:
    case AggregateFunction::kMedianAbsoluteDeviation:
      return makePercentileAggregator(spec);
    case AggregateFunction::kStdDev:
    case AggregateFunction::kVariance:
      return makeVarianceAggregator(spec);
    case AggregateFunction::kWeightedAvg:
      return makeWeightedAvgAggregator(spec);
    case AggregateFunction::kValues:
    case AggregateFunction::kTop:
      return makeValuesAggregator(spec);
  }
  throw std::logic_error("makeAggregator: unknown aggregate function");
}

}  // namespace quarry::engine
