#include "quarry/formats/parquet/parquet_file_reader.h"

#include <algorithm>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/column_reader.h"
#include "quarry/formats/parquet/row_group_reads.h"
#include "quarry/formats/parquet/page_pruning.h"
#include "quarry/formats/parquet/row_filter.h"
#include "quarry/formats/parquet/row_selection.h"
#include "quarry/formats/parquet/row_reader.h"
#include "quarry/formats/parquet/scan_memory.h"

namespace quarry::parquet {

std::unique_ptr<ParquetFileReader> ParquetFileReader::open(const std::string& uri,
                                                           ReaderOptions options) {
  return open(io::openObject(uri), options);
}

std::unique_ptr<ParquetFileReader> ParquetFileReader::open(std::unique_ptr<io::StorageObject> file,
                                                           ReaderOptions options) {
  auto footer = std::make_shared<const ParquetFooter>(readFooter(*file));
  return open(std::move(file), std::move(footer), options);
}

std::unique_ptr<ParquetFileReader> ParquetFileReader::open(
    std::unique_ptr<io::StorageObject> file, std::shared_ptr<const ParquetFooter> footer,
    ReaderOptions options) {
  return std::unique_ptr<ParquetFileReader>(
      new ParquetFileReader(std::move(file), std::move(footer), options));
}

ParquetFileReader::ParquetFileReader(std::unique_ptr<io::StorageObject> file,
                                     std::shared_ptr<const ParquetFooter> footer,
                                     ReaderOptions options)
    : file_(std::move(file)), options_(options), footer_(std::move(footer)) {
  try {
    schema_ = FileSchema::build(footer_->metadata.schema);
  } catch (const CorruptFile& e) {
    throw CorruptFile(file_->uri() + ": " + e.what());
  }
  for (size_t i = 0; i < footer_->metadata.row_groups.size(); ++i) {
    const RowGroup& group = footer_->metadata.row_groups[i];
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
  const RowGroup& group = footer_->metadata.row_groups.at(static_cast<size_t>(index));
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
  const RowGroup& group = footer_->metadata.row_groups.at(static_cast<size_t>(index));
  std::vector<ColumnChunkData> columns = std::move(memory.columns);
  ColumnChunkReadOptions chunkOptions;
  chunkOptions.verifyChecksums = options_.verifyChecksums;
  const int64_t pagesRead = parquet::readRowGroupRows(
      *file_, index, group, projection.leaves(), selection.rows, selection.offsetIndexes,
      selection.chunkInBuffers, chunkOptions, options_.threads, memory.buffers, columns);
  countIndexedPages(group, projection.leaves(), selection, pagesRead, metrics);
  try {
    return AssembledRowGroup::assemble(std::move(columns), selection.rows.rowCount());
  } catch (const CorruptFile& e) {
    throw CorruptFile(file_->uri() + ": row group " + std::to_string(index) + ": " + e.what());
  }
}

bool ParquetFileReader::materializesLate(const ResolvedProjection& projection,
                                         const BoundPredicate& filter,
                                         const PageSelection& selection) {
  const auto& leaves = projection.leaves();
  const auto& filterLeaves = filter.leaves();
  for (size_t i = 0; i < leaves.size() && i < selection.offsetIndexes.size(); ++i) {
    if (selection.offsetIndexes[i] &&
        std::find(filterLeaves.begin(), filterLeaves.end(), leaves[i]) == filterLeaves.end()) {
      return true;
    }
  }
  return false;
}

AssembledRowGroup ParquetFileReader::readSelectedRows(int index,
                                                      const ResolvedProjection& projection,
                                                      const BoundPredicate& filter,
                                                      const PageSelection& selection,
                                                      ReaderMetrics& metrics, ScanMemory& memory,
                                                      std::vector<int64_t>& rows) {
  const RowGroup& group = footer_->metadata.row_groups.at(static_cast<size_t>(index));
  const auto& leaves = projection.leaves();
  const auto& filterLeaves = filter.leaves();
  ColumnChunkReadOptions chunkOptions;
  chunkOptions.verifyChecksums = options_.verifyChecksums;
  if (memory.buffers.size() < leaves.size()) memory.buffers.resize(leaves.size());
  // The leaves in two parts, each with its page locations and its buffers
  // (moved there and back, so that a chunk read for its headers stays in place).
  struct Part {
    std::vector<size_t> at;
    std::vector<const SchemaNode*> leaves;
    std::vector<std::optional<OffsetIndex>> offsetIndexes;
    std::vector<uint8_t> inBuffers;
    std::vector<ChunkBuffers> buffers;
    std::vector<ColumnChunkData> columns;
  };
  Part filtered;
  Part late;
  for (size_t i = 0; i < leaves.size(); ++i) {
    const bool isFilter =
        std::find(filterLeaves.begin(), filterLeaves.end(), leaves[i]) != filterLeaves.end();
    Part& part = isFilter ? filtered : late;
    part.at.push_back(i);
    part.leaves.push_back(leaves[i]);
    part.offsetIndexes.push_back(i < selection.offsetIndexes.size() ? selection.offsetIndexes[i]
                                                                    : std::nullopt);
    part.inBuffers.push_back(i < selection.chunkInBuffers.size() ? selection.chunkInBuffers[i] : 0);
    part.buffers.push_back(std::move(memory.buffers[i]));
  }
  // The filter's columns decode into the previous group's filter columns; the
  // columns handed out (late ones, then the filter's trimmed) into its others.
  filtered.columns = std::move(memory.filterColumns);
  std::vector<ColumnChunkData> spare = std::move(memory.columns);
  while (!spare.empty() && late.columns.size() < late.leaves.size()) {
    late.columns.push_back(std::move(spare.back()));
    spare.pop_back();
  }
  auto giveBack = [&](Part& part) {
    for (size_t k = 0; k < part.at.size(); ++k) {
      memory.buffers[part.at[k]] = std::move(part.buffers[k]);
    }
  };
  auto assembled = [&](std::vector<ColumnChunkData> columns, int64_t numRows) {
    try {
      return AssembledRowGroup::assemble(std::move(columns), numRows);
    } catch (const CorruptFile& e) {
      throw CorruptFile(file_->uri() + ": row group " + std::to_string(index) + ": " + e.what());
    }
  };

  int64_t pagesRead = 0;
  AssembledRowGroup filterGroup;
  RawVector<int64_t> selected;
  try {
    pagesRead += parquet::readRowGroupRows(*file_, index, group, filtered.leaves, selection.rows,
                                           filtered.offsetIndexes, filtered.inBuffers, chunkOptions,
                                           options_.threads, filtered.buffers, filtered.columns);
    filterGroup = assembled(std::move(filtered.columns), selection.rows.rowCount());
    selected = selectRows(filter, filterGroup, &group);
    // The selected rows, as rows of the row group.
    const bool allRows = selection.rows.rowCount() == group.num_rows;
    const std::vector<int64_t> kept = allRows ? std::vector<int64_t>{} : selection.rows.rows();
    rows.clear();
    rows.reserve(selected.size());
    RowRanges selectedRanges;
    for (const int64_t row : selected) {
      const int64_t inGroup = allRows ? row : kept[static_cast<size_t>(row)];
      rows.push_back(inGroup);
      selectedRanges.add(inGroup, inGroup + 1);
    }
    if (!selected.empty() && !late.leaves.empty()) {
      pagesRead += parquet::readRowGroupRows(*file_, index, group, late.leaves, selectedRanges,
                                             late.offsetIndexes, late.inBuffers, chunkOptions,
                                             options_.threads, late.buffers, late.columns);
    }
  } catch (...) {
    giveBack(filtered);
    giveBack(late);
    throw;
  }
  giveBack(filtered);
  giveBack(late);
  countIndexedPages(group, leaves, selection, pagesRead, metrics);
  // The filter's columns trimmed to the selected rows, the others as read (none
  // when no row is selected).
  std::vector<ColumnChunkData> columns;
  if (!selected.empty()) columns = std::move(late.columns);
  memory.filterColumns = filterGroup.releaseColumns();
  for (const ColumnChunkData& column : memory.filterColumns) {
    ColumnChunkData reuse;
    if (!spare.empty()) {
      reuse = std::move(spare.back());
      spare.pop_back();
    }
    columns.push_back(keepRows(column, selected, std::move(reuse)));
  }
  return assembled(std::move(columns), static_cast<int64_t>(selected.size()));
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
