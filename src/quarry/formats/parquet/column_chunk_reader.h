#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "quarry/formats/parquet/column_chunk_data.h"
#include "quarry/formats/parquet/metadata.h"
#include "quarry/formats/parquet/page_values.h"

/// Decoding of a column chunk in memory: its pages in order (an optional dictionary
/// page, then data pages v1 or v2), each checked against its CRC when present,
/// decompressed, split into levels and values, and appended to a ColumnChunkData.
/// Reading the bytes from storage is row_group_reads'.
namespace quarry::parquet {

struct ColumnChunkReadOptions {
  /// Verifies each page's CRC32 when the page header carries one; a mismatch is
  /// CorruptFile. Off trades that safety for a little speed.
  bool verifyChecksums = true;
  /// Keeps a BYTE_ARRAY chunk whose data pages are all dictionary-encoded as
  /// dictionary indices plus the chunk's dictionary (ColumnChunkData::dictionary)
  /// instead of copying each value's bytes. A chunk that falls back to another
  /// encoding is decoded plain, as without the option.
  bool dictionaryIds = false;
  /// Decodes a chunk of a column that is not repeated (one level entry per row)
  /// only as far as its first `rowLimit` rows: the pages past them are not read,
  /// the page across the limit only up to it (its levels and values are decoded
  /// as a prefix), and the chunk is not checked to hold num_values. For a head(n)
  /// that needs a few rows of a row group of billions. -1: no limit. Ignored for
  /// repeated columns.
  int64_t rowLimit = -1;
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
  RawVector<int16_t> levels;
  /// What `page` and `levels` are charged against the query's memory limit.
  MemoryCharge pageMemory;
  MemoryCharge levelsMemory;
  /// The chunk's dictionary.
  Dictionary dictionary;
  /// The pages read of a chunk some pages of which are skipped, before they are
  /// trimmed to the rows wanted (readColumnChunkRows).
  ColumnChunkData pages;

  static constexpr size_t kPageSlack = 64;
};

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

/// Adjacent pages of a column chunk in memory: `bytes`, the first page's header
/// at `fileOffset` in the file.
struct PageRun {
  std::span<const uint8_t> bytes;
  uint64_t fileOffset = 0;
};

/// Decodes the pages of `runs` in order into `out` (its memory reused): a whole
/// chunk as one run (`whole`: its pages must then hold the chunk's num_values),
/// or its dictionary and some of its data pages (page skipping: run after run,
/// nothing checked against the whole). Errors as decodeColumnChunk, prefixed with
/// `context()`, which is called only then.
void decodeColumnChunkRuns(std::span<const PageRun> runs, bool whole, const ColumnMetaData& meta,
                           const SchemaNode& leaf, const ColumnChunkReadOptions& options,
                           const std::function<std::string()>& context, ChunkBuffers& buffers,
                           ColumnChunkData& out);

}  // namespace quarry::parquet
