#pragma once

#include <cstdint>

/// What a reader did: how much metadata pruning saved and what it read. Every
/// reader keeps one (RowReader::metrics(), ColumnReaders::metrics(),
/// MultiFileRowReader::metrics()), so
/// tests and benchmarks can check I/O as well as results.
namespace quarry::parquet {

struct ReaderMetrics {
  /// Row groups the reader considered: every row group of every file it opened,
  /// but for those after a head(n) limit was reached.
  int64_t rowGroupsTotal = 0;
  /// Row groups skipped unread because their statistics prove no row matches.
  int64_t rowGroupsPrunedByStatistics = 0;
  /// Row groups statistics keep but a Bloom filter / the dictionary pages of
  /// fully dictionary-encoded chunks prove no row matches (row_group_pruning.h).
  int64_t rowGroupsPrunedByBloomFilter = 0;
  int64_t rowGroupsPrunedByDictionary = 0;
  /// Row groups statistics, Bloom filters and dictionaries keep but whose page
  /// indexes prove no page holds a matching row (page_pruning.h).
  int64_t rowGroupsPrunedByPageIndex = 0;
  /// Row groups whose metadata proves every row matches: read without
  /// evaluating the filter per row (and without decoding filter-only columns).
  int64_t rowGroupsMatchedByStatistics = 0;
  /// Row groups skipped unread because their midpoint lies outside the reader's
  /// byte range (row_limits.h).
  int64_t rowGroupsOutsideByteRange = 0;
  /// Row groups skipped unread because skip(n) or tail(n) starts after them.
  int64_t rowGroupsSkippedByLimit = 0;
  /// Row groups whose column chunks the reader fetched and decoded.
  int64_t rowGroupsRead = 0;

  /// Data pages of the column chunks the reader needed, counted from the
  /// chunks' encoding_stats where the writer recorded them (0 otherwise), or
  /// from the OffsetIndex where the reader read it.
  int64_t pagesTotal = 0;
  /// Those pages that were not read (in pruned row groups, pages the page index
  /// rules out, or filter-only columns of row groups every row of which matches).
  int64_t pagesSkipped = 0;

  /// Bytes and read requests the reader fetched from storage; a multi-file
  /// reader counts the footers it read as well.
  uint64_t bytesFetched = 0;
  uint64_t requestsFetched = 0;

  /// Rows of the row groups the reader decoded.
  int64_t rowsDecoded = 0;
  /// Rows next() returned.
  int64_t rowsReturned = 0;

  ReaderMetrics& operator+=(const ReaderMetrics& other) {
    rowGroupsTotal += other.rowGroupsTotal;
    rowGroupsPrunedByStatistics += other.rowGroupsPrunedByStatistics;
    rowGroupsPrunedByBloomFilter += other.rowGroupsPrunedByBloomFilter;
    rowGroupsPrunedByDictionary += other.rowGroupsPrunedByDictionary;
    rowGroupsPrunedByPageIndex += other.rowGroupsPrunedByPageIndex;
    rowGroupsMatchedByStatistics += other.rowGroupsMatchedByStatistics;
    rowGroupsOutsideByteRange += other.rowGroupsOutsideByteRange;
    rowGroupsSkippedByLimit += other.rowGroupsSkippedByLimit;
    rowGroupsRead += other.rowGroupsRead;
    pagesTotal += other.pagesTotal;
    pagesSkipped += other.pagesSkipped;
    bytesFetched += other.bytesFetched;
    requestsFetched += other.requestsFetched;
    rowsDecoded += other.rowsDecoded;
    rowsReturned += other.rowsReturned;
    return *this;
  }
};

}  // namespace quarry::parquet
