#pragma once

#include <vector>

#include "quarry/formats/parquet/column_chunk_data.h"
#include "quarry/formats/parquet/column_chunk_reader.h"

/// Decoding memory a finished reader leaves to the next one on its thread.
/// Without it every file of a scan faults in its column buffers afresh (the
/// kernel zeroes each new page) and glibc hands them back when the reader ends:
/// on a filtered scan of 8 one-row-group files that was half of the time.
/// RowReader and ColumnReaders take it when they are built and leave it when
/// they are destroyed.
namespace quarry::parquet {

struct ScanMemory {
  std::vector<ChunkBuffers> buffers;
  std::vector<ColumnChunkData> columns;
  /// The filter's columns as decoded before the rows were selected, when the
  /// other columns are read late (ParquetFileReader::readSelectedRows).
  std::vector<ColumnChunkData> filterColumns;
};

/// Returns what the last reader finished on this thread left (empty if nothing).
ScanMemory takeScanMemory();

/// Keeps `memory` for the next reader on this thread when it holds no more than
/// 256 MB (an idle thread must not hold on to more) and at least as much as what
/// is kept already.
void keepScanMemory(ScanMemory memory);

}  // namespace quarry::parquet
