#pragma once

#include <optional>
#include <span>
#include <string>

#include "quarry/engine/data/data_type.h"
#include "quarry/engine/expr/bound_expr.h"
#include "quarry/formats/predicate/filter_predicate.h"

/// Expressions over a source's columns as the FilterPredicate a format reader
/// prunes and filters with: comparisons of a column with a literal, IS [NOT]
/// NULL, IN, and AND / OR / NOT of those. A literal is taken only when it
/// converts exactly to its column's type; comparisons with +-0.0 and NaN are
/// not (the predicate orders -0.0 below +0.0, the engine holds them equal); a
/// list column, whose predicate would see its elements, is not a source column.
/// Both translations are defined in filter_translation.cc.
namespace quarry::engine {

/// toFilterPredicate (local_optimizer.h) translates what it can of a
/// predicate, dropping the conjuncts of an AND it cannot express; this one
/// translates `predicate` whole: nullopt unless every part of it is expressed.
/// The result is true exactly where the predicate is true, except where an IN
/// list holds a null item (hasNullInList), which the translation drops.
/// Hive partition columns (`partitionColumns`) are never translated.
std::optional<parquet::FilterPredicate> toExactFilterPredicate(const BoundExpr& predicate, const Schema& schema,
                                                               std::span<const std::string> partitionColumns = {});

/// Whether `expr` holds an IN list with a null item: the translation drops the
/// item, which under NOT keeps rows the query rejects, so it is not exact.
bool hasNullInList(const BoundExpr& expr);

}  // namespace quarry::engine
