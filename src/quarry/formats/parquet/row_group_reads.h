#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "quarry/formats/parquet/column_chunk_data.h"
#include "quarry/formats/parquet/column_chunk_reader.h"
#include "quarry/formats/parquet/metadata.h"
#include "quarry/formats/parquet/row_ranges.h"
#include "quarry/io/storage.h"

/// Reading a row group's column chunks from storage: the byte ranges every
/// projected chunk needs (whole chunks, or a chunk's dictionary and the runs of
/// pages page skipping keeps) are handed to storage in one readRanges call, so a
/// remote object can merge them into few concurrent requests; the chunks are then
/// decoded (column_chunk_reader), in parallel.
namespace quarry::parquet {

/// Reads and decodes column chunk `chunk` of row group `rowGroup` into `out`,
/// reusing `out`'s vectors and `buffers`; throws CorruptFile naming the file, row
/// group, column and page offset on any defect, and Unsupported for codecs or
/// encodings quarry does not read.
void readColumnChunk(io::StorageObject& file, int rowGroup, const ColumnChunk& chunk,
                     const SchemaNode& leaf, const ColumnChunkReadOptions& options,
                     ChunkBuffers& buffers, ColumnChunkData& out);

/// Reads and decodes column chunk `chunk` of row group `rowGroup`; errors as above.
ColumnChunkData readColumnChunk(io::StorageObject& file, int rowGroup, const ColumnChunk& chunk,
                                const SchemaNode& leaf, const ColumnChunkReadOptions& options = {});

/// Reads and decodes, of column chunk `chunk` of row group `rowGroup` (of
/// `groupRows` rows), the rows `rows`: with the chunk's OffsetIndex `offsets`,
/// only its dictionary and the pages holding one of those rows (one range per run
/// of adjacent pages, all in one readRanges call); without (null), the whole
/// chunk. `out` then holds exactly those rows, as keepRows leaves them. Returns
/// the data pages read (0 without `offsets`). Errors as readColumnChunk, and
/// CorruptFile when the pages read do not hold the rows the offset index gives them.
int64_t readColumnChunkRows(io::StorageObject& file, int rowGroup, const ColumnChunk& chunk,
                            const SchemaNode& leaf, const OffsetIndex* offsets,
                            const RowRanges& rows, int64_t groupRows,
                            const ColumnChunkReadOptions& options, ChunkBuffers& buffers,
                            ColumnChunkData& out);

/// Reads the chunks of `leaves` in row group `rowGroup` (`group`) with one
/// readRanges call, each into `buffers[i]` (resized to one per leaf), then decodes
/// them into `columns` (likewise; their memory reused). `threads` as
/// ReaderOptions::threads: 1 decodes on the calling thread, anything else through
/// ThreadPool::shared().
void readRowGroupChunks(io::StorageObject& file, int rowGroup, const RowGroup& group,
                        std::span<const SchemaNode* const> leaves,
                        const ColumnChunkReadOptions& options, int threads,
                        std::vector<ChunkBuffers>& buffers, std::vector<ColumnChunkData>& columns);

/// Reads and decodes, as readRowGroupChunks does, the rows `rows` of row group
/// `rowGroup` (readColumnChunkRows), leaf i with OffsetIndex `offsetIndexes[i]`
/// where present; the ranges of all leaves go to one readRanges call, but for
/// the leaves i with `chunkInBuffers[i]` set, whose whole chunk readWholeChunks
/// already put in `buffers[i]`. Every column then holds exactly those rows.
/// Returns the data pages read of the chunks that have an OffsetIndex.
int64_t readRowGroupRows(io::StorageObject& file, int rowGroup, const RowGroup& group,
                         std::span<const SchemaNode* const> leaves, const RowRanges& rows,
                         std::span<const std::optional<OffsetIndex>> offsetIndexes,
                         std::span<const uint8_t> chunkInBuffers,
                         const ColumnChunkReadOptions& options, int threads,
                         std::vector<ChunkBuffers>& buffers, std::vector<ColumnChunkData>& columns);

/// Reads, with one readRanges call, the whole chunk of each leaf i of `leaves`
/// with `wanted[i]` set into `buffers[i].raw` (buffers resized to one per leaf),
/// as columnChunkRange gives its bytes. A chunk whose metadata decoding would
/// refuse is not read (decoding it reports why). Returns, per leaf, whether its
/// chunk is now in its buffer.
std::vector<uint8_t> readWholeChunks(io::StorageObject& file, int rowGroup, const RowGroup& group,
                                     std::span<const SchemaNode* const> leaves,
                                     std::span<const uint8_t> wanted,
                                     std::vector<ChunkBuffers>& buffers);

}  // namespace quarry::parquet
