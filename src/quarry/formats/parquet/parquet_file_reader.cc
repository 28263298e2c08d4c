#include "quarry/formats/parquet/parquet_file_reader.h"

#include "quarry/common/error.h"
#include "quarry/formats/parquet/column_reader.h"
#include "quarry/formats/parquet/row_group_reads.h"
#include "quarry/formats/parquet/page_pruning.h"
#include "quarry/formats/parquet/row_reader.h"
#include "quarry/formats/parquet/scan_memory.h"

namespace quarry::parquet {

std::unique_ptr<ParquetFileReader> ParquetFileReader::open(const std::string& uri,
                                                           ReaderOptions options) {
  return open(io::openObject(uri), options);
}

std::unique_ptr<ParquetFileReader> ParquetFileReader::open(std::unique_ptr<io::StorageObject> file,
                                                           ReaderOptions options) {
  return std::unique_ptr<ParquetFileReader>(new ParquetFileReader(std::move(file), options));
}

ParquetFileReader::ParquetFileReader(std::unique_ptr<io::StorageObject> file, ReaderOptions options)
    : file_(std::move(file)), options_(options), footer_(readFooter(*file_)) {
  try {
    schema_ = FileSchema::build(footer_.metadata.schema);
  } catch (const CorruptFile& e) {
    throw CorruptFile(file_->uri() + ": " + e.what());
  }
  for (size_t i = 0; i < footer_.metadata.row_groups.size(); ++i) {
    const RowGroup& group = footer_.metadata.row_groups[i];
    if (group.columns.size() != schema_.leafCount()) {
      throw CorruptFile(file_->uri() + ": row group " + std::to_string(i) + " has " +
                        std::to_string(group.columns.size()) + " column chunks, the schema " +
                        std::to_string(schema_.leafCount()) + " columns");
    }
    if (group.num_rows < 0) {
      throw CorruptFile(file_->uri() + ": row group " + std::to_string(i) +
                        " has a negative num_rows (" + std::to_string(group.num_rows) + ")");
    }
  }
}

AssembledRowGroup ParquetFileReader::readRowGroup(int index, const ResolvedProjection& projection) {
  ScanMemory memory;
  return readRowGroup(index, projection, memory);
}

AssembledRowGroup ParquetFileReader::readRowGroup(int index, const ResolvedProjection& projection,
                                                  ScanMemory& memory) {
  const RowGroup& group = footer_.metadata.row_groups.at(static_cast<size_t>(index));
  std::vector<ColumnChunkData> columns = std::move(memory.columns);
  ColumnChunkReadOptions chunkOptions;
  chunkOptions.verifyChecksums = options_.verifyChecksums;
  readRowGroupChunks(*file_, index, group, projection.leaves(), chunkOptions, options_.threads,
                     memory.buffers, columns);
  try {
    return AssembledRowGroup::assemble(std::move(columns), group.num_rows);
  } catch (const CorruptFile& e) {
    throw CorruptFile(file_->uri() + ": row group " + std::to_string(index) + ": " + e.what());
  }
}

AssembledRowGroup ParquetFileReader::readRowGroupRows(int index, const ResolvedProjection& projection,
                                                     const PageSelection& selection,
                                                     ReaderMetrics& metrics, ScanMemory& memory) {
  const RowGroup& group = footer_.metadata.row_groups.at(static_cast<size_t>(index));
  std::vector<ColumnChunkData> columns = std::move(memory.columns);
  ColumnChunkReadOptions chunkOptions;
  chunkOptions.verifyChecksums = options_.verifyChecksums;
  const int64_t pagesRead = parquet::readRowGroupRows(
      *file_, index, group, projection.leaves(), selection.rows, selection.offsetIndexes,
      chunkOptions, options_.threads, memory.buffers, columns);
  countIndexedPages(group, projection.leaves(), selection, pagesRead, metrics);
  try {
    return AssembledRowGroup::assemble(std::move(columns), selection.rows.rowCount());
  } catch (const CorruptFile& e) {
    throw CorruptFile(file_->uri() + ": row group " + std::to_string(index) + ": " + e.what());
  }
}

std::unique_ptr<RowReader> ParquetFileReader::rowReader(const ColumnProjection& projection) {
  return std::make_unique<RowReader>(*this, ResolvedProjection::resolve(projection, schema_));
}

std::unique_ptr<RowReader> ParquetFileReader::rowReader(const ColumnProjection& projection,
                                                        const FilterPredicate& filter) {
  return buildRowReader().projection(projection).filter(filter).build();
}

RowReaderBuilder ParquetFileReader::buildRowReader() { return RowReaderBuilder(*this); }

std::unique_ptr<ColumnReaders> ParquetFileReader::columnReaders(const ColumnProjection& projection) {
  return std::make_unique<ColumnReaders>(*this, ResolvedProjection::resolve(projection, schema_));
}

std::unique_ptr<ColumnReaders> ParquetFileReader::columnReaders(const ColumnProjection& projection,
                                                                const FilterPredicate& filter) {
  auto resolved = ResolvedProjection::resolve(projection, schema_);
  return std::make_unique<ColumnReaders>(*this, std::move(resolved),
                                         BoundPredicate::bind(filter, schema_));
}

}  // namespace quarry::parquet
