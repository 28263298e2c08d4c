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

/// `pattern`, an s3:// glob, with its leading `key=*` folders narrowed to the
/// values the conjuncts' equalities give them, so that its ListObjectsV2 prefix
/// (the glob's literal part) is longer:
///
///   s3://b/sales/year=*/month=*/*.parquet, WHERE year == 2024 AND month == "06"
///     -> s3://b/sales/year=2024/month=06/*.parquet   (prefix sales/year=2024/month=06/)
///
/// Only where the glob's literal part ends at a folder boundary followed by
/// folders written `key=*`, each taken in order while a conjunct `key == v` or
/// `key IN (v)` holds (v a literal, either side of ==). Conservative: the
/// value is written back only where its form in a path is not in doubt, so
/// that the narrowed listing matches exactly the files the full one would keep:
///   - an integer (with or without a minus sign, within int64) as its decimal
///     digits (hive's autocast reads only that form as an integer: a folder
///     `06` makes the column a string, and `month == 6` an error either way);
///   - a string only of letters, digits, '.', '-' and '_' (characters no
///     writer escapes: `S%C3%A3o%20Paulo` is not guessed from "São Paulo") that
///     does not itself read as a date, a timestamp or an integer (`"06"` does
///     not, `"2024"` does), and is not NULL or __HIVE_DEFAULT_PARTITION__;
///   - nothing for a key WITH {"hive_types": ...} types (`06` is 6 as an integer
///     there), nor for dates, timestamps, booleans or numbers with a fraction
///     (`2024-1-5` and `2024-01-05` are one date).
/// A value written with escapes of characters that need none (`nor%74h` for
/// `north`) is not found by the narrowed prefix. Returns `pattern` unchanged
/// when nothing narrows it.
std::string narrowByPartitionEqualities(const std::string& pattern, std::span<const Expr> conjuncts,
                                        std::span<const HiveType> hiveTypes);

}  // namespace quarry::engine
