#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "quarry/formats/parquet/bound_predicate.h"
#include "quarry/formats/parquet/column_chunk_reader.h"
#include "quarry/formats/parquet/column_projection.h"
#include "quarry/formats/parquet/metadata.h"
#include "quarry/formats/parquet/page_pruning.h"
#include "quarry/formats/parquet/reader_metrics.h"
#include "quarry/formats/parquet/row_limits.h"
#include "quarry/formats/parquet/row_ranges.h"

/// Which row groups a reader reads, and which of their rows and pages: the one
/// decision RowReader and ColumnReaders both make, row group by row group,
/// cheapest evidence first:
///
///   1. the footer: byte ranges, then skip / tail (row_limits.h); a row group
///      they pass over is never read, whatever its statistics say;
///   2. with a filter, statistics, the page index where the filter's columns
///      have one, Bloom filters and dictionaries (row_group_pruning.h,
///      decideAndCount); a row group no row of which matches is skipped, one
///      every row of which matches is read without its filter-only columns;
///   3. the page index or page-header statistics (page_pruning.h, selectPages),
///      which may leave some rows of the group, or none;
///   4. the rows the reader was restricted to (a split narrowed to part of its
///      row group), read through the OffsetIndex where the chunks have one.
///
/// Every step counts what it saved in the reader's ReaderMetrics; reading the
/// chunks of a row group to read is the reader's (row_group_reads.h).
namespace quarry::parquet {

class ParquetFileReader;

/// How one row group is read.
struct RowGroupRead {
  int index = 0;
  const RowGroup* group = nullptr;
  /// The file's index of the group's first row.
  int64_t firstRow = 0;
  /// Rows of the group before the first one to return (skip / tail).
  int64_t leadingRows = 0;
  /// Whether every row of the group is returned without evaluating the filter
  /// (no filter, or its metadata proves every row matches).
  bool everyRow = true;
  /// The leaves to decode: the projection's, and the filter's unless everyRow.
  const ResolvedProjection* decoded = nullptr;
  /// The rows to read (never none) and the OffsetIndexes that locate their
  /// pages; absent: every row, whole chunks.
  std::optional<PageSelection> selection;
};

/// How a reader accounts for what its footer decisions pass over.
struct RowGroupDecisionOptions {
  /// Whether a row group outside the byte ranges counts its pages in pagesTotal
  /// and pagesSkipped (a RowReader's account of the file), or leaves them to the
  /// reader of the split that holds it (ColumnReaders).
  bool countPagesOutsideByteRange = true;
  /// Whether row groups before the plan's first row are passed over (skip /
  /// tail, which ColumnReaders do not take).
  bool rowLimits = true;
};

class RowGroupDecision {
 public:
  /// Decides the row groups of `file` in order. `projection` decodes the
  /// filter's leaves as well as the projected ones, `projectedLeaves` the
  /// projected ones only; they, `filter`, `buffers` (where page headers and
  /// page indexes are read) and `metrics` are the reader's and must outlive it.
  RowGroupDecision(ParquetFileReader& file, const ResolvedProjection& projection,
                   const ResolvedProjection& projectedLeaves, const std::optional<BoundPredicate>& filter,
                   RowGroupPlan plan, RowGroupDecisionOptions options, std::vector<ChunkBuffers>& buffers,
                   ReaderMetrics& metrics);

  /// Reads only `rows` of each row group, numbered within it. Call before the first next().
  void restrictRows(RowRanges rows) { restriction_ = std::move(rows); }

  /// Returns the next row group to read and how; absent after the last.
  std::optional<RowGroupRead> next();

  /// The footer's plan: the row groups the byte ranges keep, the first row and the head budget.
  const RowGroupPlan& plan() const { return plan_; }

 private:
  /// The rows of restriction_ in row group `rowGroup`, each chunk of `leaves`
  /// read by its OffsetIndex where it has one (read here).
  PageSelection restrictedSelection(int rowGroup, std::span<const SchemaNode* const> leaves);

  ParquetFileReader& file_;
  const ResolvedProjection& projection_;
  const ResolvedProjection& projectedLeaves_;
  const std::optional<BoundPredicate>& filter_;
  RowGroupPlan plan_;
  RowGroupDecisionOptions options_;
  std::vector<ChunkBuffers>& buffers_;
  ReaderMetrics& metrics_;
  std::optional<RowRanges> restriction_;
  int nextRowGroup_ = 0;
  /// Rows of the row groups before nextRowGroup_, and of the kept ones among them.
  int64_t nextFirstRow_ = 0;
  int64_t keptRowsBefore_ = 0;
};

}  // namespace quarry::parquet
