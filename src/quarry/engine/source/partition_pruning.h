#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "quarry/engine/parse/ast.h"
#include "quarry/engine/source/hive_partitioning.h"

/// Which files a query's WHERE excludes from their paths alone, before any of
/// them is opened: each conjunct that names only partition columns,
/// `_file.path` and (local files) `_file.size` is evaluated once per file, by
/// the engine's own evaluator over one row per file, and a file where it is
/// false or null holds no row the WHERE keeps. A conjunct naming another
/// column, not typed boolean, or failing to evaluate (an overflow) decides
/// nothing: the scan's FilterExec evaluates it as before.
///
///   files  a/year=2023/x.parquet, a/year=2024/y.parquet
///   WHERE  year == 2024 AND v > 1   ->  keep {false, true}: `v > 1` names a file column
namespace quarry::engine {

/// Splits a condition into its top-level AND operands.
void collectConjuncts(const Expr& condition, std::vector<Expr>& out);

/// Per file of `uris`: whether `conjuncts` may keep a row of it. `partitions`
/// holds the files' partition values (its columns may be empty); `sizes` is
/// called once, when a conjunct names `_file.size`, for the files' sizes
/// (nullopt: unknown, and such conjuncts decide nothing).
std::vector<bool> keepByPath(std::span<const Expr> conjuncts, std::span<const std::string> uris,
                             const HivePartitions& partitions,
                             const std::function<std::optional<std::vector<uint64_t>>()>& sizes);

}  // namespace quarry::engine
