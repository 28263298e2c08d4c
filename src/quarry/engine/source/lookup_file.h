#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/data/data_type.h"
#include "quarry/engine/parse/source_position.h"
#include "quarry/engine/source/scan_metrics.h"

/// The file of a LOOKUP JOIN (ES|QL's lookup index): a small Parquet or ORC file,
/// or a glob of them, read whole through the FormatReader SPI when the query is
/// prepared, once per query, and held in memory as one block per column.
///
/// Its size is checked against a limit of rows before any data is read (the
/// footers' row counts), and again as pages arrive: a larger file is a QueryError
/// naming the file, its rows and the limit (QueryOptions::lookupMaxRows,
/// `--lookup-max-rows`).
namespace quarry::engine {

/// The most rows a lookup file may hold unless the query raises the limit.
inline constexpr uint64_t kDefaultLookupMaxRows = 1'000'000;

struct LookupFile {
  std::string uri;  // as the query names it (a path or a glob)
  Schema schema;
  /// Every row of the matched files, one block per column of `schema`, in the
  /// files' order (sorted by URI, as FROM orders a glob's matches) and their rows'.
  /// Empty when only the schema is known (a data node plans with it, never runs it).
  std::vector<Block> columns;
  uint64_t rows = 0;
};

struct LookupReadOptions {
  uint64_t maxRows = kDefaultLookupMaxRows;
  int threads = 2;
  std::string metadataCacheDirectory;
  /// Counts what reading the file read (footers and data), when set.
  ScanMetrics* metrics = nullptr;
  /// Where the query names the file: errors point there.
  SourcePosition position;
};

/// Reads every row of `uri` (a path, URL or glob of Parquet / ORC files; their
/// schemas reconciled as FROM's first_file_wins does). Throws QueryError at
/// `options.position` when it holds more than `options.maxRows` rows, and the
/// resolver's errors (no file matches, a file of neither format) as they are.
std::shared_ptr<const LookupFile> readLookupFile(const std::string& uri,
                                                 const LookupReadOptions& options);

}  // namespace quarry::engine
