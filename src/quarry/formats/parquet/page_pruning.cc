#include "quarry/formats/parquet/page_pruning.h"

#include <algorithm>
#include <limits>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/column_bounds.h"
#include "quarry/formats/parquet/metadata_decoder.h"
#include "quarry/formats/parquet/page_header_index.h"
#include "quarry/formats/parquet/row_group_reads.h"
#include "quarry/formats/parquet/statistics_pruning.h"

namespace quarry::parquet {
namespace {

const ColumnChunk* chunkOf(const RowGroup& group, const SchemaNode& leaf) {
  const auto index = static_cast<size_t>(leaf.leafIndex);
  if (leaf.leafIndex < 0 || index >= group.columns.size()) return nullptr;
  const ColumnChunk& chunk = group.columns[index];
  if (!chunk.meta_data || chunk.file_path) return nullptr;
  return &chunk;
}

struct IndexRange {
  int64_t offset = 0;
  int32_t length = 0;
};

std::optional<IndexRange> columnIndexRange(const ColumnChunk& chunk) {
  if (!chunk.column_index_offset || !chunk.column_index_length) return std::nullopt;
  return IndexRange{*chunk.column_index_offset, *chunk.column_index_length};
}

std::optional<IndexRange> offsetIndexRange(const ColumnChunk& chunk) {
  if (!chunk.offset_index_offset || !chunk.offset_index_length) return std::nullopt;
  return IndexRange{*chunk.offset_index_offset, *chunk.offset_index_length};
}

/// Checks what the readers rely on: pages start at row 0, ascend in rows and
/// bytes, and lie within the chunk.
void checkOffsetIndex(const OffsetIndex& index, const ColumnChunk& chunk, int64_t groupRows) {
  const auto& pages = index.page_locations;
  if (pages.empty()) throw CorruptFile("the offset index lists no page");
  if (pages.front().first_row_index != 0) {
    throw CorruptFile("the offset index's first page starts at row " +
                      std::to_string(pages.front().first_row_index) + ", not 0");
  }
  const ColumnMetaData& meta = *chunk.meta_data;
  const int64_t chunkStart =
      std::min(meta.data_page_offset, meta.dictionary_page_offset.value_or(meta.data_page_offset));
  const int64_t chunkEnd = chunkStart + meta.total_compressed_size;
  for (size_t i = 0; i < pages.size(); ++i) {
    const PageLocation& p = pages[i];
    if (p.compressed_page_size <= 0 || p.offset < chunkStart ||
        p.offset > chunkEnd - p.compressed_page_size) {
      throw CorruptFile("the offset index puts page " + std::to_string(i) + " at bytes [" +
                        std::to_string(p.offset) + ", " +
                        std::to_string(p.offset + p.compressed_page_size) +
                        "), outside the chunk's [" + std::to_string(chunkStart) + ", " +
                        std::to_string(chunkEnd) + ")");
    }
    if (p.first_row_index >= groupRows ||
        (i > 0 && (p.first_row_index <= pages[i - 1].first_row_index ||
                   p.offset < pages[i - 1].offset + pages[i - 1].compressed_page_size))) {
      throw CorruptFile("the offset index's page " + std::to_string(i) + " (first row " +
                        std::to_string(p.first_row_index) + ", offset " + std::to_string(p.offset) +
                        ") does not follow the previous page within the row group's " +
                        std::to_string(groupRows) + " rows");
    }
  }
}

void checkColumnIndex(const ColumnIndex& index, size_t pages) {
  auto sized = [&](size_t n, const char* what) {
    if (n != pages) {
      throw CorruptFile(std::string("the column index has ") + std::to_string(n) + " " + what +
                        " for the offset index's " + std::to_string(pages) + " pages");
    }
  };
  sized(index.null_pages.size(), "null_pages");
  sized(index.min_values.size(), "min_values");
  sized(index.max_values.size(), "max_values");
  if (index.null_counts) sized(index.null_counts->size(), "null_counts");
  if (index.nan_counts) sized(index.nan_counts->size(), "nan_counts");
}

}  // namespace

size_t pageAt(const OffsetIndex& index, int64_t row) {
  const auto& pages = index.page_locations;
  const auto after =
      std::upper_bound(pages.begin(), pages.end(), row,
                       [](int64_t r, const PageLocation& p) { return r < p.first_row_index; });
  return static_cast<size_t>(std::max<std::ptrdiff_t>(after - pages.begin() - 1, 0));
}

int64_t pageRowCount(const OffsetIndex& index, size_t page, int64_t groupRows) {
  const auto& pages = index.page_locations;
  return (page + 1 < pages.size() ? pages[page + 1].first_row_index : groupRows) -
         pages[page].first_row_index;
}

bool hasPageIndex(const FileMetaData& metadata, int rowGroup,
                  std::span<const SchemaNode* const> leaves) {
  const RowGroup& group = metadata.row_groups.at(static_cast<size_t>(rowGroup));
  for (const SchemaNode* leaf : leaves) {
    const ColumnChunk* chunk = chunkOf(group, *leaf);
    if (chunk && columnIndexRange(*chunk) && offsetIndexRange(*chunk)) return true;
  }
  return false;
}

RowGroupPageIndex readPageIndex(io::StorageObject& file, const FileMetaData& metadata, int rowGroup,
                                std::span<const SchemaNode* const> leaves,
                                std::span<const SchemaNode* const> filterLeaves) {
  const RowGroup& group = metadata.row_groups.at(static_cast<size_t>(rowGroup));
  // Every entry wanted, then one read spanning them: writers put a row group's
  // (or the file's) indexes next to each other.
  struct Wanted {
    ChunkPageIndex* into;
    const SchemaNode* leaf;
    IndexRange range;
    bool isColumnIndex;
  };
  RowGroupPageIndex out;
  out.leaves.resize(leaves.size());
  out.filterLeaves.resize(filterLeaves.size());
  std::vector<Wanted> wanted;
  auto want = [&](std::span<const SchemaNode* const> of, std::vector<ChunkPageIndex>& into,
                  bool columnIndex) {
    for (size_t i = 0; i < of.size(); ++i) {
      const ColumnChunk* chunk = chunkOf(group, *of[i]);
      if (chunk == nullptr) continue;
      const auto offsets = offsetIndexRange(*chunk);
      if (!offsets) continue;
      wanted.push_back({&into[i], of[i], *offsets, false});
      const auto columns = columnIndexRange(*chunk);
      if (columnIndex && columns) wanted.push_back({&into[i], of[i], *columns, true});
    }
  };
  want(leaves, out.leaves, false);
  want(filterLeaves, out.filterLeaves, true);
  if (wanted.empty()) return out;

  auto context = [&](const SchemaNode& leaf) {
    return file.uri() + ": row group " + std::to_string(rowGroup) + ", column '" + leaf.path + "'";
  };
  int64_t first = std::numeric_limits<int64_t>::max();
  int64_t end = 0;
  for (const Wanted& w : wanted) {
    if (w.range.offset < 0 || w.range.length <= 0 ||
        static_cast<uint64_t>(w.range.offset) > file.size() ||
        static_cast<uint64_t>(w.range.length) >
            file.size() - static_cast<uint64_t>(w.range.offset)) {
      throw CorruptFile(context(*w.leaf) + ": the " +
                        (w.isColumnIndex ? "column index" : "offset index") + " at bytes [" +
                        std::to_string(w.range.offset) + ", +" + std::to_string(w.range.length) +
                        ") lies outside the " + std::to_string(file.size()) + "-byte file");
    }
    first = std::min(first, w.range.offset);
    end = std::max(end, w.range.offset + w.range.length);
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(end - first));
  file.readAt(static_cast<uint64_t>(first), bytes);

  for (const Wanted& w : wanted) {
    const std::span<const uint8_t> entry(bytes.data() + (w.range.offset - first),
                                         static_cast<size_t>(w.range.length));
    try {
      if (w.isColumnIndex) {
        w.into->columnIndex = decodeColumnIndex(entry);
      } else {
        w.into->offsetIndex = decodeOffsetIndex(entry);
        checkOffsetIndex(*w.into->offsetIndex, *chunkOf(group, *w.leaf), group.num_rows);
      }
    } catch (const CorruptFile& e) {
      throw CorruptFile(context(*w.leaf) + ": " + e.what());
    }
  }
  for (size_t i = 0; i < filterLeaves.size(); ++i) {
    ChunkPageIndex& index = out.filterLeaves[i];
    if (!index.columnIndex) continue;
    try {
      checkColumnIndex(*index.columnIndex, index.offsetIndex->page_locations.size());
    } catch (const CorruptFile& e) {
      throw CorruptFile(context(*filterLeaves[i]) + ": " + e.what());
    }
  }
  return out;
}

std::vector<DecidedSegment> decideSegments(const BoundPredicate& predicate,
                                           const FileMetaData& metadata, int rowGroup,
                                           std::span<const ChunkPageIndex> filterIndex,
                                           std::span<const ChunkPageIndex> moreCuts) {
  const RowGroup& group = metadata.row_groups.at(static_cast<size_t>(rowGroup));
  const int64_t rows = group.num_rows;
  const auto& leaves = predicate.leaves();

  // The page boundaries of every indexed filter leaf cut the group into segments.
  std::vector<int64_t> cuts{0, rows};
  auto paged = [&](size_t i) {
    return i < filterIndex.size() && filterIndex[i].offsetIndex &&
           (filterIndex[i].columnIndex || !filterIndex[i].pageHeaderStatistics.empty());
  };
  for (size_t i = 0; i < leaves.size(); ++i) {
    if (!paged(i)) continue;
    for (const PageLocation& p : filterIndex[i].offsetIndex->page_locations) {
      cuts.push_back(p.first_row_index);
    }
  }
  for (const ChunkPageIndex& more : moreCuts) {
    if (!more.offsetIndex) continue;
    for (const PageLocation& p : more.offsetIndex->page_locations)
      cuts.push_back(p.first_row_index);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());

  auto pageRows = [&](const OffsetIndex& index, size_t page) {
    return pageRowCount(index, page, rows);
  };
  auto wholeChunk = [&](const SchemaNode& leaf) {
    const ColumnChunk* chunk = chunkOf(group, leaf);
    UnitStatistics whole;
    whole.rowCount = rows;
    if (chunk) whole = chunkStatistics(metadata, *chunk, leaf, rows);
    return whole;
  };
  std::vector<DecidedSegment> out;
  out.reserve(cuts.size() - 1);
  for (size_t s = 0; s + 1 < cuts.size(); ++s) {
    const int64_t first = cuts[s];
    const int64_t segmentRows = cuts[s + 1] - first;
    const PruningDecision decision =
        decideUnit(predicate, segmentRows, [&](const SchemaNode& leaf) {
          const auto at = std::find(leaves.begin(), leaves.end(), &leaf);
          const size_t i = static_cast<size_t>(at - leaves.begin());
          if (at != leaves.end() && paged(i)) {
            const OffsetIndex& offsets = *filterIndex[i].offsetIndex;
            const size_t page = pageAt(offsets, first);
            if (filterIndex[i].columnIndex) {
              return restrictTo(pageStatistics(metadata, *filterIndex[i].columnIndex, page, leaf,
                                               pageRows(offsets, page)),
                                segmentRows);
            }
            // Page-header statistics; a page without them has its chunk's bounds.
            const auto& header = filterIndex[i].pageHeaderStatistics[page];
            if (header) {
              return restrictTo(
                  pageHeaderStatistics(metadata, *header, leaf, pageRows(offsets, page)),
                  segmentRows);
            }
          }
          return restrictTo(wholeChunk(leaf), segmentRows);
        });
    out.push_back({first, first + segmentRows, decision});
  }
  return out;
}

RowRanges selectRowRanges(const BoundPredicate& predicate, const FileMetaData& metadata,
                          int rowGroup, std::span<const ChunkPageIndex> filterIndex) {
  RowRanges out;
  for (const DecidedSegment& s : decideSegments(predicate, metadata, rowGroup, filterIndex)) {
    if (s.decision != PruningDecision::kNoRowMatches) out.add(s.first, s.end);
  }
  return out;
}

std::optional<PageSelection> selectPages(const BoundPredicate& predicate,
                                         const FileMetaData& metadata, io::StorageObject& file,
                                         int rowGroup, std::span<const SchemaNode* const> leaves,
                                         std::vector<ChunkBuffers>& buffers,
                                         ReaderMetrics& metrics) {
  const RowGroup& group = metadata.row_groups.at(static_cast<size_t>(rowGroup));
  const auto& filterLeaves = predicate.leaves();
  // Filter leaves without a page index may record statistics in their page
  // headers: their chunks, decoded anyway, are read first to walk them. A chunk
  // of a single data page (by encoding_stats) has no pages to tell apart.
  std::vector<uint8_t> walk(leaves.size(), 0);
  bool anyWalk = false;
  for (const SchemaNode* leaf : filterLeaves) {
    const ColumnChunk* chunk = chunkOf(group, *leaf);
    if (chunk == nullptr || (columnIndexRange(*chunk) && offsetIndexRange(*chunk))) continue;
    if (chunk->meta_data->encoding_stats && dataPagesFromEncodingStats(group, *leaf) <= 1) continue;
    const auto at = std::find(leaves.begin(), leaves.end(), leaf);
    if (at == leaves.end()) continue;
    walk[static_cast<size_t>(at - leaves.begin())] = 1;
    anyWalk = true;
  }
  if (!anyWalk && !hasPageIndex(metadata, rowGroup, filterLeaves)) return std::nullopt;
  const uint64_t bytes = file.bytesRead();
  const uint64_t requests = file.requestCount();
  RowGroupPageIndex index = readPageIndex(file, metadata, rowGroup, leaves, filterLeaves);
  PageSelection selection;
  selection.chunkInBuffers.assign(leaves.size(), 0);
  if (anyWalk) {
    // Chunks read whole in any case (no OffsetIndex to pick their pages by) come in
    // the same request as the walked ones: one round trip per row group, as
    // without header statistics (a file with no page index at all, DuckDB's for one).
    std::vector<uint8_t> fetch = walk;
    for (size_t i = 0; i < leaves.size(); ++i) {
      const ColumnChunk* chunk = chunkOf(group, *leaves[i]);
      if (chunk != nullptr && !offsetIndexRange(*chunk)) fetch[i] = 1;
    }
    selection.chunkInBuffers = readWholeChunks(file, rowGroup, group, leaves, fetch, buffers);
    for (size_t i = 0; i < leaves.size(); ++i) {
      if (selection.chunkInBuffers[i] == 0 || walk[i] == 0) continue;
      const ColumnMetaData& meta =
          *group.columns.at(static_cast<size_t>(leaves[i]->leafIndex)).meta_data;
      const ChunkRange range = columnChunkRange(meta);
      std::optional<PageHeaderIndex> headers =
          indexPageHeaders({buffers[i].raw.get(), static_cast<size_t>(range.length)}, range.offset,
                           meta, *leaves[i], group.num_rows);
      if (!headers) continue;
      index.leaves[i].offsetIndex = headers->offsetIndex;
      for (size_t k = 0; k < filterLeaves.size(); ++k) {
        if (filterLeaves[k] != leaves[i]) continue;
        ChunkPageIndex& filter = index.filterLeaves[k];
        filter.columnIndex.reset();
        filter.offsetIndex = headers->offsetIndex;
        filter.pageHeaderStatistics = headers->statistics;
      }
    }
  }
  metrics.bytesFetched += file.bytesRead() - bytes;
  metrics.requestsFetched += file.requestCount() - requests;
  const int64_t rows = group.num_rows;
  selection.rows = selectRowRanges(predicate, metadata, rowGroup, index.filterLeaves);
  selection.offsetIndexes.reserve(leaves.size());
  for (ChunkPageIndex& leaf : index.leaves) {
    selection.offsetIndexes.push_back(std::move(leaf.offsetIndex));
  }
  const bool chunksRead = std::any_of(selection.chunkInBuffers.begin(),
                                      selection.chunkInBuffers.end(), [](uint8_t b) { return b != 0; });
  // A column outside the filter with page locations can still be read late
  // (ParquetFileReader::readSelectedRows), whatever rows the index keeps.
  bool lateReadable = false;
  for (size_t i = 0; i < leaves.size(); ++i) {
    lateReadable = lateReadable ||
                   (selection.offsetIndexes[i] &&
                    std::find(filterLeaves.begin(), filterLeaves.end(), leaves[i]) == filterLeaves.end());
  }
  if (selection.rows.rowCount() == rows && !chunksRead && !lateReadable) {
    // Every page is read: the index still counts them (none skipped).
    int64_t indexed = 0;
    for (const auto& offsets : selection.offsetIndexes) {
      if (offsets) indexed += static_cast<int64_t>(offsets->page_locations.size());
    }
    countIndexedPages(group, leaves, selection, indexed, metrics);
    return std::nullopt;
  }
  // No row left: no page of an indexed chunk is read.
  if (selection.rows.empty()) countIndexedPages(group, leaves, selection, 0, metrics);
  return selection;
}

uint64_t bytesToRead(const RowGroup& group, std::span<const SchemaNode* const> leaves,
                     const std::optional<PageSelection>& selection) {
  if (selection && selection->rows.empty()) return 0;
  uint64_t total = 0;
  for (size_t i = 0; i < leaves.size(); ++i) {
    const ColumnChunk* chunk = chunkOf(group, *leaves[i]);
    if (chunk == nullptr) continue;
    const ChunkRange range = columnChunkRange(*chunk->meta_data);
    if (!selection) {
      total += range.length;
      continue;
    }
    if (i < selection->chunkInBuffers.size() && selection->chunkInBuffers[i] != 0) continue;
    if (i >= selection->offsetIndexes.size() || !selection->offsetIndexes[i]) {
      total += range.length;
      continue;
    }
    const auto& pages = selection->offsetIndexes[i]->page_locations;
    const auto firstPage = static_cast<uint64_t>(pages.front().offset);
    if (firstPage > range.offset) total += firstPage - range.offset;
    for (size_t p = 0; p < pages.size(); ++p) {
      const int64_t end = p + 1 < pages.size() ? pages[p + 1].first_row_index : group.num_rows;
      if (selection->rows.overlaps(pages[p].first_row_index, end)) {
        total += static_cast<uint64_t>(pages[p].compressed_page_size);
      }
    }
  }
  return total;
}

int64_t dataPagesFromEncodingStats(const RowGroup& group, const SchemaNode& leaf) {
  const ColumnChunk* chunk = chunkOf(group, leaf);
  if (chunk == nullptr || !chunk->meta_data->encoding_stats) return 0;
  int64_t pages = 0;
  for (const PageEncodingStats& s : *chunk->meta_data->encoding_stats) {
    if (s.page_type == PageType::DATA_PAGE || s.page_type == PageType::DATA_PAGE_V2)
      pages += s.count;
  }
  return pages;
}

int64_t dataPagesFromEncodingStats(const RowGroup& group, std::span<const SchemaNode* const> leaves) {
  int64_t pages = 0;
  for (const SchemaNode* leaf : leaves) pages += dataPagesFromEncodingStats(group, *leaf);
  return pages;
}

int64_t unindexedDataPages(const RowGroup& group, std::span<const SchemaNode* const> leaves,
                           const PageSelection& selection) {
  int64_t pages = 0;
  for (size_t i = 0; i < leaves.size(); ++i) {
    if (i < selection.offsetIndexes.size() && selection.offsetIndexes[i]) continue;
    pages += dataPagesFromEncodingStats(group, *leaves[i]);
  }
  return pages;
}

void countIndexedPages(const RowGroup& group, std::span<const SchemaNode* const> leaves,
                       const PageSelection& selection, int64_t pagesRead, ReaderMetrics& metrics) {
  int64_t indexed = 0;
  for (size_t i = 0; i < leaves.size() && i < selection.offsetIndexes.size(); ++i) {
    if (!selection.offsetIndexes[i]) continue;
    const auto pages = static_cast<int64_t>(selection.offsetIndexes[i]->page_locations.size());
    metrics.pagesTotal += pages - dataPagesFromEncodingStats(group, *leaves[i]);
    indexed += pages;
  }
  metrics.pagesSkipped += indexed - pagesRead;
}

}  // namespace quarry::parquet
