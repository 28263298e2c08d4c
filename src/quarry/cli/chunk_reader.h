#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "quarry/formats/parquet/metadata.h"
#include "quarry/io/storage.h"

/// Reading the structures of one column chunk that its footer entry only
/// points at: the page headers, found by walking the chunk from its first page,
/// and the chunk's ColumnIndex and OffsetIndex.
namespace quarry::cli {

/// Names a column chunk in error messages.
struct ChunkLocation {
  size_t rowGroup = 0;
  size_t column = 0;
  std::string path;

  /// Returns "<uri>: row group R, column C 'path'".
  std::string describe(const io::StorageObject& file) const;
};

/// The byte range of a chunk's pages.
struct ChunkRange {
  uint64_t start = 0;
  uint64_t length = 0;
};

/// Returns where a chunk's pages lie: from the lower of its dictionary and
/// first data page offsets (ignoring either when it points into the leading
/// magic, as some writers' placeholders do), for total_compressed_size bytes.
/// Throws CorruptFile when there is no plausible start or the range runs past
/// the end of the file.
ChunkRange columnChunkRange(const io::StorageObject& file, const parquet::ColumnMetaData& meta,
                            const ChunkLocation& where);

/// One page as the walk found it.
struct PageEntry {
  uint64_t offset = 0;  // of the page header, in the file
  uint32_t headerSize = 0;
  parquet::PageHeader header;
};

/// Bytes read at a time while walking a chunk larger than kWholeChunkRead; a
/// header is retried with more bytes, up to kMaxPageHeaderSize, when it does
/// not decode from what was read.
inline constexpr uint64_t kPageHeaderRead = 64 * 1024;
/// Chunks up to this size are read in one request.
inline constexpr uint64_t kWholeChunkRead = 8 * 1024 * 1024;
inline constexpr uint64_t kMaxPageHeaderSize = 16 * 1024 * 1024;

/// Decodes every page header in `range`, stepping from each header over its
/// page's compressed bytes, and stops at the range's end. Throws CorruptFile
/// naming the file, row group, column and offset for a header that does not
/// decode within the chunk, a negative page size, or a page that runs past the
/// chunk's end.
std::vector<PageEntry> readPageHeaders(io::StorageObject& file, const ChunkRange& range,
                                       const ChunkLocation& where);

/// Reads and decodes the chunk's OffsetIndex; the chunk must carry its
/// location. Throws CorruptFile for a location outside the file or bytes that
/// do not decode.
parquet::OffsetIndex readOffsetIndex(io::StorageObject& file, const parquet::ColumnChunk& chunk,
                                     const ChunkLocation& where);

/// Reads and decodes the chunk's ColumnIndex, like readOffsetIndex.
parquet::ColumnIndex readColumnIndex(io::StorageObject& file, const parquet::ColumnChunk& chunk,
                                     const ChunkLocation& where);

}  // namespace quarry::cli
