#pragma once

#include <optional>
#include <span>
#include <vector>

#include "quarry/formats/parquet/bound_predicate.h"
#include "quarry/formats/parquet/column_chunk_reader.h"
#include "quarry/formats/parquet/metadata.h"
#include "quarry/formats/parquet/reader_metrics.h"
#include "quarry/formats/parquet/row_ranges.h"
#include "quarry/formats/parquet/statistics_pruning.h"
#include "quarry/io/storage.h"

/// Page skipping from the page index (query-controls.txt: "All predicates,
/// including those wrapped in not, are pushed down for row-group and page
/// skipping").
///
/// The ColumnIndex of a chunk holds each page's min / max, null count, null-page
/// flag and NaN count; its OffsetIndex each page's byte range and first row.
/// Pages of different columns need not start at the same rows, so the row group
/// is cut at every page boundary of every filter column into segments, inside
/// each of which every filter column lies within one page. Each segment is
/// decided by the same three-valued decision as a row group (statistics_pruning,
/// decideUnit) from the statistics of the pages covering it, restricted to the
/// segment: bounds hold for any subset of a page's rows, a null count only as
/// "none" or "all". The rows kept are the segments some row of which may match.
/// Deciding segments of the whole predicate covers and (ranges intersected), or
/// (united) and not alike. A filter column without a column index takes its
/// pages' statistics from their headers where they record them
/// (page_header_index: its chunk, which is decoded anyway, is then read before
/// the others), and otherwise its chunk's statistics for every segment.
///
/// Example: column a with pages at rows 0 and 100 (bounds [1, 5], [6, 9]), b at
/// rows 0, 50 and 150 (bounds [10, 20], [30, 40], [50, 60]), 200 rows; the
/// segments are [0, 50) [50, 100) [100, 150) [150, 200). a > 5 AND b >= 50
/// keeps [150, 200); a > 5 OR b >= 50 keeps [100, 200).
namespace quarry::parquet {

/// The page index of one column chunk, as read from the file (each part absent
/// where the chunk has none), or as its page headers give it: then offsetIndex
/// holds the pages found there and pageHeaderStatistics their statistics (one
/// entry per page), and columnIndex is absent.
struct ChunkPageIndex {
  std::optional<ColumnIndex> columnIndex;
  std::optional<OffsetIndex> offsetIndex;
  std::vector<std::optional<Statistics>> pageHeaderStatistics;
};

/// Reads, with one request, the OffsetIndex of every leaf of `leaves` and the
/// ColumnIndex of every leaf of `filterLeaves` (entries in the order given) of
/// row group `rowGroup`. Checks each OffsetIndex against its chunk (pages start
/// at row 0 and ascend, lie within the chunk's bytes) and each ColumnIndex
/// against its OffsetIndex (one entry per page); throws CorruptFile naming the
/// file, row group and column otherwise.
struct RowGroupPageIndex {
  std::vector<ChunkPageIndex> leaves;
  std::vector<ChunkPageIndex> filterLeaves;
};
RowGroupPageIndex readPageIndex(io::StorageObject& file, const FileMetaData& metadata, int rowGroup,
                                std::span<const SchemaNode* const> leaves,
                                std::span<const SchemaNode* const> filterLeaves);

/// Returns whether some leaf of `leaves` has a ColumnIndex and an OffsetIndex
/// in row group `rowGroup` (without reading them).
bool hasPageIndex(const FileMetaData& metadata, int rowGroup,
                  std::span<const SchemaNode* const> leaves);

/// Returns the index of the page of `index` that holds row `row` (of its row
/// group; pages start at row 0, as readPageIndex checks).
size_t pageAt(const OffsetIndex& index, int64_t row);

/// Returns the rows of page `page` of `index`, in a row group of `groupRows` rows.
int64_t pageRowCount(const OffsetIndex& index, size_t page, int64_t groupRows);

/// Rows [first, end) of a row group inside which every cutting column lies
/// within one page, and how the predicate decides them.
struct DecidedSegment {
  int64_t first = 0;
  int64_t end = 0;
  PruningDecision decision = PruningDecision::kSomeMayMatch;
  bool operator==(const DecidedSegment&) const = default;
};

/// Cuts row group `rowGroup` at every page boundary of the predicate's leaves
/// that `filterIndex` (predicate.leaves() order) gives pages and statistics
/// for, and of every chunk `moreCuts` gives an OffsetIndex for, then decides
/// each segment from the statistics of the pages covering it (restricted to
/// it). The segments are in row order and cover the group.
std::vector<DecidedSegment> decideSegments(const BoundPredicate& predicate,
                                           const FileMetaData& metadata, int rowGroup,
                                           std::span<const ChunkPageIndex> filterIndex,
                                           std::span<const ChunkPageIndex> moreCuts = {});

/// Returns the rows of row group `rowGroup` that `predicate` may select, by the
/// page index `filterIndex` of the predicate's leaves (predicate.leaves() order):
/// the segments of decideSegments some row of which may match.
RowRanges selectRowRanges(const BoundPredicate& predicate, const FileMetaData& metadata,
                          int rowGroup, std::span<const ChunkPageIndex> filterIndex);

/// What a reader does with a row group some of whose pages the page index rules
/// out: the rows to read and, for each decoded leaf, its OffsetIndex (absent
/// where the chunk has none: it is read whole and trimmed to the rows) and
/// whether its whole chunk is already in the reader's ChunkBuffers (read for its
/// page headers; readRowGroupRows does not read it again).
struct PageSelection {
  RowRanges rows;
  std::vector<std::optional<OffsetIndex>> offsetIndexes;
  std::vector<uint8_t> chunkInBuffers;
};

/// Decides the pages of row group `rowGroup` for a reader decoding `leaves`
/// into `buffers` (one per leaf): absent when no leaf of the predicate has a
/// page index or page-header statistics, or when every row may match, no chunk
/// was read for its headers and no leaf outside the predicate has an
/// OffsetIndex (the group is then read whole); otherwise the
/// rows to read (possibly none, possibly all). The chunks of filter leaves
/// without a ColumnIndex (unless encoding_stats show a single data page) are
/// read whole into `buffers` to walk their page headers. The bytes read show in
/// `metrics` (bytesFetched, requestsFetched), and the pages of the chunks it has
/// an OffsetIndex for in pagesTotal and pagesSkipped (countIndexedPages) when it
/// returns nothing or no row; a reader counts the pages of the other chunks of a
/// group ruled out whole by unindexedDataPages.
std::optional<PageSelection> selectPages(const BoundPredicate& predicate,
                                         const FileMetaData& metadata, io::StorageObject& file,
                                         int rowGroup, std::span<const SchemaNode* const> leaves,
                                         std::vector<ChunkBuffers>& buffers,
                                         ReaderMetrics& metrics);

/// Returns the bytes a reader decoding `leaves` of `group` still reads: with no
/// `selection`, their whole chunks; with one, nothing when it keeps no row,
/// otherwise the dictionary and kept pages of each chunk with an OffsetIndex,
/// nothing of a chunk already in the reader's buffers, and the whole of the others.
uint64_t bytesToRead(const RowGroup& group, std::span<const SchemaNode* const> leaves,
                     const std::optional<PageSelection>& selection);

/// Returns the data pages of `leaf`'s chunk in `group` as its encoding_stats
/// count them (0 for a chunk without them).
int64_t dataPagesFromEncodingStats(const RowGroup& group, const SchemaNode& leaf);
/// Returns the sum of dataPagesFromEncodingStats over `leaves`.
int64_t dataPagesFromEncodingStats(const RowGroup& group, std::span<const SchemaNode* const> leaves);

/// Returns the data pages (by encoding_stats) of the chunks of `leaves` for which
/// `selection` holds no OffsetIndex.
int64_t unindexedDataPages(const RowGroup& group, std::span<const SchemaNode* const> leaves,
                           const PageSelection& selection);

/// Counts in `metrics` the pages of the chunks of `leaves` for which `selection`
/// holds an OffsetIndex: its page count replaces encoding_stats' in pagesTotal
/// (which the reader counted before it read the index), and those pages not
/// among the `pagesRead` are skipped.
void countIndexedPages(const RowGroup& group, std::span<const SchemaNode* const> leaves,
                       const PageSelection& selection, int64_t pagesRead, ReaderMetrics& metrics);

}  // namespace quarry::parquet
