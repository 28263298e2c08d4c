#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "quarry/formats/parquet/column_chunk_data.h"
#include "quarry/formats/parquet/metadata.h"
#include "quarry/formats/parquet/page_values.h"
#include "quarry/formats/parquet/row_ranges.h"
#include "quarry/io/storage.h"

/// Decoding of a whole column chunk: its pages in order (an optional dictionary
/// page, then data pages v1 or v2), each checked against its CRC when present,
/// decompressed, split into levels and values, and appended to a ColumnChunkData.
namespace quarry::parquet {

struct ColumnChunkReadOptions {
  /// Verifies each page's CRC32 when the page header carries one; a mismatch is
  /// CorruptFile. Off trades that safety for a little speed.
  bool verifyChecksums = true;
};

/// Returns the byte range [offset, offset + length) a column chunk's pages occupy,
/// from the dictionary page (when the chunk has one) to the end of the last data page.
struct ChunkRange {
  uint64_t offset = 0;
  uint64_t length = 0;
};
ChunkRange columnChunkRange(const ColumnMetaData& meta);

/// Memory a reader keeps from one column chunk to the next (of the same column,
/// typically), so that decoding a row group reuses the pages the previous one
/// faulted in instead of asking the kernel for fresh ones.
struct ChunkBuffers {
  /// The chunk's bytes as read from storage.
  std::unique_ptr<uint8_t[]> raw;
  size_t rawCapacity = 0;
  /// One decompressed page; kPageSlack bytes past its capacity are scratch the
  /// codec may write.
  std::unique_ptr<uint8_t[]> page;
  size_t pageCapacity = 0;
  /// A page's definition levels, while they are checked for nulls.
  std::vector<int16_t> levels;
  /// The chunk's dictionary.
  Dictionary dictionary;
  /// The pages read of a chunk some pages of which are skipped, before they are
  /// trimmed to the rows wanted (readColumnChunkRows).
  ColumnChunkData pages;

  static constexpr size_t kPageSlack = 64;
};

/// Reads and decodes column chunk `chunk` of row group `rowGroup` into `out`,
/// reusing `out`'s vectors and `buffers`; errors as the function below.
void readColumnChunk(io::StorageObject& file, int rowGroup, const ColumnChunk& chunk,
                     const SchemaNode& leaf, const ColumnChunkReadOptions& options,
                     ChunkBuffers& buffers, ColumnChunkData& out);

/// Reads and decodes, of column chunk `chunk` of row group `rowGroup` (of
/// `groupRows` rows), the rows `rows`: with the chunk's OffsetIndex `offsets`,
/// only its dictionary and the pages holding one of those rows (one read per run
/// of adjacent pages); without (null), the whole chunk. `out` then holds exactly
/// those rows, as keepRows leaves them. Returns the data pages read (0 without
/// `offsets`). Errors as readColumnChunk, and CorruptFile when the pages read do
/// not hold the rows the offset index gives them.
int64_t readColumnChunkRows(io::StorageObject& file, int rowGroup, const ColumnChunk& chunk,
                            const SchemaNode& leaf, const OffsetIndex* offsets,
                            const RowRanges& rows, int64_t groupRows,
                            const ColumnChunkReadOptions& options, ChunkBuffers& buffers,
                            ColumnChunkData& out);

/// Reads and decodes the chunks of `leaves` in row group `rowGroup` (`group`) into
/// `columns` (resized to one per leaf, their memory reused), each with
/// `buffers[i]` (resized likewise). `threads` as ReaderOptions::threads: 1 decodes
/// on the calling thread, anything else through ThreadPool::shared().
void readRowGroupChunks(io::StorageObject& file, int rowGroup, const RowGroup& group,
                        std::span<const SchemaNode* const> leaves,
                        const ColumnChunkReadOptions& options, int threads,
                        std::vector<ChunkBuffers>& buffers, std::vector<ColumnChunkData>& columns);

/// Reads and decodes, as readRowGroupChunks does, the rows `rows` of row group
/// `rowGroup` (readColumnChunkRows), leaf i with OffsetIndex `offsetIndexes[i]`
/// where present. Every column then holds exactly those rows. Returns the data
/// pages read of the chunks that have an OffsetIndex.
int64_t readRowGroupRows(io::StorageObject& file, int rowGroup, const RowGroup& group,
                         std::span<const SchemaNode* const> leaves, const RowRanges& rows,
                         std::span<const std::optional<OffsetIndex>> offsetIndexes,
                         const ColumnChunkReadOptions& options, int threads,
                         std::vector<ChunkBuffers>& buffers, std::vector<ColumnChunkData>& columns);

/// Reads and decodes column chunk `chunk` of row group `rowGroup`; throws
/// CorruptFile naming the file, row group, column and page offset on any defect,
/// and Unsupported for codecs or encodings quarry does not read.
ColumnChunkData readColumnChunk(io::StorageObject& file, int rowGroup, const ColumnChunk& chunk,
                                const SchemaNode& leaf, const ColumnChunkReadOptions& options = {});

/// Decodes a column chunk whose bytes are already in memory: `bytes` holds the
/// chunk's range as columnChunkRange gives it. `context` prefixes every error.
ColumnChunkData decodeColumnChunk(std::span<const uint8_t> bytes, uint64_t fileOffset,
                                  const ColumnMetaData& meta, const SchemaNode& leaf,
                                  const ColumnChunkReadOptions& options,
                                  const std::string& context);
void decodeColumnChunk(std::span<const uint8_t> bytes, uint64_t fileOffset,
                       const ColumnMetaData& meta, const SchemaNode& leaf,
                       const ColumnChunkReadOptions& options, const std::string& context,
                       ChunkBuffers& buffers, ColumnChunkData& out);

}  // namespace quarry::parquet
