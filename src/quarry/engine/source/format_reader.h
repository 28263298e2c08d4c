#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/data/data_type.h"
#include "quarry/engine/data/local_supplier.h"
#include "quarry/engine/source/file_split.h"
#include "quarry/engine/source/scan_metrics.h"
#include "quarry/engine/source/source_statistics.h"
#include "quarry/engine/source/statistics_filter.h"
#include "quarry/formats/predicate/filter_predicate.h"

/// The FormatReader SPI: what the engine needs of a file format. A reader reads
/// a file's footer into SourceMetadata (engine schema, whole-file statistics,
/// splits) and a split's rows into Pages. Readers are stateless but for caches
/// and are shared by every thread of a query.
namespace quarry::engine {

/// The name of the metadata columns a ReadRequest may ask for.
inline constexpr const char* kFilePathColumn = "_file.path";
inline constexpr const char* kFileSizeColumn = "_file.size";
/// The row's index in its file (int64, from 0): what a late materialization
/// (LateMaterializeExec) fetches a row's other columns by. Parquet only; a
/// format without row positions fails a read that asks for it.
inline constexpr const char* kRowPositionColumn = "_row.position";

/// A column a file holds that the engine does not read (a map, a list of lists, an
/// ORC union): named so that a query naming it is told why, not "unknown column".
struct UnreadColumn {
  std::string name;                             // as a query would name it ("a", "s.m")
  std::string what;                             // "a MAP", "array<struct<a:int>>", ...
};

struct SourceMetadata {
  Schema schema;                                // engine types; struct leaves as dotted names
  std::vector<UnreadColumn> unreadColumns;      // columns left out of `schema`, outermost first
  std::shared_ptr<const SourceStatistics> statistics;  // whole-file statistics when known
  uint64_t fileSize = 0;
  std::vector<FileSplit> splits;                // FileSplitProvider's splits of the file
  uint64_t bytesRead = 0;                       // what reading the footer read from storage, and in
  uint64_t requests = 0;                        // how many requests (0 when the footer was cached)
  bool fromMetadataCache = false;               // recalled from disk (MetadataCache), not read
};

struct ReadRequest {
  std::vector<std::string> columns;             // file column names to produce, in this order;
                                                // "_file.path" / "_file.size" produce constants
  Schema outputSchema;                          // the types to produce (the resolved schema's types for
                                                // these columns: widen int32->int64 etc.; a column the
                                                // file lacks is all null). Position i types columns[i];
                                                // empty: each column's type in the file.
  /// The hive partition columns among the source's (constants each split's
  /// FileSplit::partition gives, in no file's statistics): never part of `filter`.
  std::vector<std::string> partitionColumns;
  std::optional<parquet::FilterPredicate> filter;  // exact: only matching rows are returned
  std::optional<int64_t> limit;                 // at most this many rows (after the filter)
  ScanMetrics* metrics = nullptr;
};

enum class AggregatePushdownSupport : uint8_t { kNone, kFromStatistics };

/// Rows of a unit that a filter decides apart from the rest of the unit.
struct UnitSegment {
  /// The unit narrowed to the segment's rows (FileSplit::rows). Where every row
  /// matches, with the statistics of the segment's rows (exact values only).
  FileSplit split;
  StatisticsDecision decision = StatisticsDecision::kSomeRows;
};

class FormatReader {
 public:
  virtual ~FormatReader() = default;
  virtual const std::string& name() const = 0;                           // "parquet", "orc"
  virtual SourceMetadata metadata(const std::string& uri) const = 0;    // reads the footer
  // Pages of the split's rows (row groups / stripes whose midpoint is in the split's range).
  // The filter is best effort: exact when it binds to the file, every row when it does
  // not (a column the file lacks, a literal its type does not take). Pages hold at most
  // kMaxPageRows rows.
  virtual LocalSupplier read(const FileSplit& split, const ReadRequest& request) const = 0;
  virtual AggregatePushdownSupport aggregatePushdownSupport() const = 0;
  /// The units of `split` (its row groups / stripes), each a split of its own
  /// covering exactly that unit, with the unit's statistics where the footer has
  /// them; reads the footer. What an aggregate answered unit by unit decides on
  /// (PushAggregatesToExternalSource, mixed mode). The default: the splits of
  /// metadata() that lie within `split` (readers whose splits are single units).
  virtual std::vector<FileSplit> units(const FileSplit& split) const {
    return unitsWithin(split, metadata(split.uri).splits);
  }
  /// The segments of `unit` (a split of one row group) that `filter` decides
  /// apart through a page index, in row order, covering the unit: a segment
  /// every row of which matches carries the statistics of `columns` over its
  /// rows. Empty where the format, the file or the unit has no page index
  /// for the filter, or the filter does not bind to the file. Reads the
  /// footer (unless cached) and the page index, counting what storage read
  /// in `metrics` (when given). The default: none.
  virtual std::vector<UnitSegment> segments(const FileSplit& unit,
                                            const parquet::FilterPredicate& filter,
                                            std::span<const std::string> columns,
                                            ScanMetrics* metrics) const {
    (void)unit, (void)filter, (void)columns, (void)metrics;
    return {};
  }
};

/// A split and the reader that reads it: what a scan runs.
struct SplitTask {
  const FormatReader* reader;
  FileSplit split;
};

/// The most rows a reader puts in one page (a larger row group is cut).
inline constexpr size_t kMaxPageRows = 64 * 1024;

}  // namespace quarry::engine
