#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/data/data_type.h"
#include "quarry/engine/parse/ast.h"

/// Hive partitions: `key=value` folders on a file's path are columns of its rows
/// (`sales/year=2024/month=06/part-0.parquet` holds year 2024 and month "06").
///
/// As DuckDB reads them: the directory segments of the path (not the file name,
/// not an S3 bucket or an HTTP host, not a URL's query) that hold a '=' name a key
/// (the text before the first '=', as written) and its value (the rest, with %XX
/// escapes decoded; `+` stays `+`); a key met twice on one path keeps its first
/// value. `__HIVE_DEFAULT_PARTITION__` and `NULL` (any case) are null. A column's
/// type, unless WITH {"hive_types": ...} gives it, is the first of these that
/// every non-null value of it reads as (DuckDB's hive_types_autocast):
///
///   date       YYYY-M[M]-D[D], a real calendar day           2024-06-01
///   timestamp  a date, ' ' or 'T', HH:MM[:SS[.fraction]][Z]   2024-06-01 10:00:00
///              (microseconds, local: timestamp(us))
///   int64      -?(0|[1-9][0-9]*) within int64                2024, -3 (not 06)
///   string     anything else, and a column of nulls only      06, São Paulo
///
/// So `month=06` is a string, as in DuckDB (an integer would not give "06" back).
/// DuckDB also reads a few texts no writer produces as numbers or dates ("0x10",
/// " 7", "infinity") and autocasts the value before decoding it; quarry casts the
/// decoded value and takes only the forms above.
///
/// Partition columns come after the file columns, sorted by name (DuckDB's order).
namespace quarry::engine {

/// A path's `key=value` segments, values percent-decoded (common/percent_decoding.h: %XX in
/// either hex case; a '%' not followed by two hex digits stays), in path order, first of each key.
/// nullopt values are null (the default partition, NULL).
std::vector<std::pair<std::string, std::optional<std::string>>> hivePathSegments(
    std::string_view uri);

/// The type `values` (non-null) autocast to: date, timestamp(us), int64, else string.
DataType autocastHiveType(std::span<const std::string> values);

/// `text` read as `type` (storage form of Block's Scalar), or nullopt when it is
/// not one. Types: boolean, int32, int64, double, string, date, timestamp(us, local).
/// Integers take leading zeros and a sign here ("06" is 6 when hive_types says
/// integer), though autocast does not infer an integer from them.
std::optional<Scalar> castHiveValue(std::string_view text, const DataType& type);

/// The engine type of a WITH {"hive_types": ...} name (kHiveTypeNames).
DataType hiveTypeNamed(std::string_view name);

struct HivePartitions {
  /// The partition columns, sorted by name.
  std::vector<Field> columns;
  /// Per file (in the order given), per column: its value (std::monostate: null).
  std::vector<std::vector<Scalar>> values;
};

/// The partitions of `uris` under WITH {"hive_partitioning": enabled} (unset: on
/// when every path has at least one key and all have the same keys) and
/// `hiveTypes`, which also turns them on. Throws InvalidArgument when enabled
/// explicitly and two paths have different keys (naming both files and the key),
/// when hive_types names no key, and when a value does not read as its given
/// type (naming the file, the column and the value).
HivePartitions readHivePartitions(std::span<const std::string> uris, std::optional<bool> enabled,
                                  std::span<const HiveType> hiveTypes);

}  // namespace quarry::engine
