#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "quarry/formats/parquet/column_chunk_data.h"
#include "quarry/formats/parquet/metadata.h"
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

}  // namespace quarry::parquet
