#include "quarry/formats/parquet/column_reader.h"

#include <limits>
#include <stdexcept>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/page_pruning.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_filter.h"
#include "quarry/formats/parquet/row_group_reads.h"
#include "quarry/formats/parquet/row_selection.h"
#include "quarry/formats/parquet/scan_memory.h"
#include "quarry/formats/parquet/row_group_pruning.h"

namespace quarry::parquet {

std::vector<const NodeSlots*> ColumnBatch::nesting() const {
  std::vector<const NodeSlots*> path;
  for (const SchemaNode* n = leaf_; n != nullptr && !n->isRoot(); n = n->parent) {
    path.insert(path.begin(), group_->slots(n));
  }
  return path;
}

ColumnReaders::ColumnReaders(ParquetFileReader& file, ResolvedProjection projection,
                             std::optional<BoundPredicate> filter,
                             std::vector<ByteRange> byteRanges)
    : file_(file), projection_(std::move(projection)), filter_(std::move(filter)) {
  RowLimits limits;
  limits.byteRanges = std::move(byteRanges);
  inByteRange_ = planRowGroups(file_.metadata(), limits, filter_.has_value(), file_.uri()).inByteRange;
  projectedLeaves_.addDecodedLeaves(projection_.leaves());
  if (filter_) projection_.addDecodedLeaves(filter_->leaves());
  ScanMemory memory = takeScanMemory();
  buffers_ = std::move(memory.buffers);
  spare_ = std::move(memory.columns);
}

ColumnReaders::~ColumnReaders() {
  releaseCurrent();
  keepScanMemory(ScanMemory{std::move(buffers_), std::move(spare_), {}});
}

void ColumnReaders::releaseCurrent() {
  if (!current_) return;
  if (currentIsSelection_) {
    selectionSpare_ = current_->releaseColumns();
  } else {
    spare_ = current_->releaseColumns();
  }
  current_.reset();
  currentIsSelection_ = false;
  selectionApart_ = false;
}

bool ColumnReaders::nextBatch() {
  ColumnChunkReadOptions options;
  options.verifyChecksums = file_.options().verifyChecksums;
  options.dictionaryIds = file_.options().dictionaryIds;
  // The previous batch is done with once this is called: its memory is reused.
  releaseCurrent();
  while (nextRowGroup_ < file_.numRowGroups()) {
    const int index = nextRowGroup_++;
    ++metrics_.rowGroupsTotal;
    const RowGroup& group = file_.metadata().row_groups[static_cast<size_t>(index)];
    // Decided from the footer before statistics, as RowReader decides it. Its
    // pages are not counted: another split's reader counts them.
    if (!inByteRange_[static_cast<size_t>(index)]) {
      ++metrics_.rowGroupsOutsideByteRange;
      continue;
    }
    // Pages as RowReader counts them: of every chunk the filtered read needs.
    const int64_t pages = dataPagesFromEncodingStats(group, projection_.leaves());
    metrics_.pagesTotal += pages;
    io::StorageObject& storage = file_.storage();
    // Statistics, the page index, then Bloom filters and dictionaries
    // (row_group_pruning.h), as RowReader decides.
    std::optional<PageSelection> selection;
    bool pagesSelected = false;
    auto selectPagesFirst = [&]() -> uint64_t {
      // Only a page index proper: page-header statistics need the chunk's data
      // pages, which a Bloom filter may spare.
      if (!hasPageIndex(file_.metadata(), index, filter_->leaves())) {
        return std::numeric_limits<uint64_t>::max();
      }
      selection = selectPages(*filter_, file_.metadata(), storage, index, projection_.leaves(),
                              buffers_, metrics_);
      pagesSelected = true;
      return bytesToRead(group, projection_.leaves(), selection);
    };
    const int64_t pagesTotalBefore = metrics_.pagesTotal - pages;
    const int64_t pagesSkippedBefore = metrics_.pagesSkipped;
    const PruningDecision decision =
        filter_ ? decideAndCount(*filter_, file_.metadata(), storage, index, file_.options(),
                                 metrics_, selectPagesFirst)
                : PruningDecision::kSomeMayMatch;
    if (decision == PruningDecision::kNoRowMatches) {
      metrics_.pagesSkipped = pagesSkippedBefore + (metrics_.pagesTotal - pagesTotalBefore);
      continue;
    }
    const bool everyRow = !filter_ || decision == PruningDecision::kEveryRowMatches;
    const ResolvedProjection& decoded = everyRow ? projectedLeaves_ : projection_;
    if (everyRow) {
      metrics_.pagesSkipped += pages - dataPagesFromEncodingStats(group, decoded.leaves());
      selection.reset();
    }
    // selectPages counts the bytes it reads itself.
    if (!everyRow && file_.options().metadataPruning && !pagesSelected) {
      selection = selectPages(*filter_, file_.metadata(), storage, index, decoded.leaves(),
                              buffers_, metrics_);
    }
    if (restriction_) {
      if (selection) {
        selection->rows = selection->rows.intersect(*restriction_);
      } else {
        selection = restrictedSelection(index, decoded.leaves());
      }
    }
    if (selection && selection->rows.empty()) {
      ++metrics_.rowGroupsPrunedByPageIndex;
      metrics_.pagesSkipped += unindexedDataPages(group, decoded.leaves(), *selection);
      continue;
    }
    std::vector<ColumnChunkData> columns = std::move(spare_);
    const uint64_t bytesBefore = storage.bytesRead();
    const uint64_t requestsBefore = storage.requestCount();
    if (selection) {
      const int64_t pagesRead =
          readRowGroupRows(storage, index, group, decoded.leaves(), selection->rows,
                           selection->offsetIndexes, selection->chunkInBuffers, options,
                           file_.options().threads, buffers_, columns);
      countIndexedPages(group, decoded.leaves(), *selection, pagesRead, metrics_);
    } else {
      readRowGroupChunks(storage, index, group, decoded.leaves(), options,
                         file_.options().threads, buffers_, columns);
    }
    metrics_.bytesFetched += storage.bytesRead() - bytesBefore;
    metrics_.requestsFetched += storage.requestCount() - requestsBefore;
    const int64_t rows = selection ? selection->rows.rowCount() : group.num_rows;
    try {
      current_.emplace(AssembledRowGroup::assemble(std::move(columns), rows));
    } catch (const CorruptFile& e) {
      throw CorruptFile(file_.uri() + ": row group " + std::to_string(index) + ": " + e.what());
    }
    ++metrics_.rowGroupsRead;
    metrics_.rowsDecoded += current_->numRows();
    if (!everyRow) {
      selected_ = selectRows(*filter_, *current_, &group);
      if (static_cast<int64_t>(selected_.size()) < current_->numRows() && file_.options().selectionVector) {
        selectionApart_ = true;
      } else if (static_cast<int64_t>(selected_.size()) < current_->numRows()) {
        AssembledRowGroup kept = keepRows(*current_, selected_, projectedLeaves_.leaves(),
                                          std::move(selectionSpare_));
        spare_ = current_->releaseColumns();
        current_.emplace(std::move(kept));
        currentIsSelection_ = true;
      }
    }
    if (rowCount() > 0) {
      metrics_.rowsReturned += rowCount();
      return true;
    }
    releaseCurrent();
  }
  return false;
}

PageSelection ColumnReaders::restrictedSelection(int rowGroup,
                                                 std::span<const SchemaNode* const> leaves) {
  io::StorageObject& storage = file_.storage();
  const RowGroup& group = file_.metadata().row_groups[static_cast<size_t>(rowGroup)];
  const uint64_t bytes = storage.bytesRead();
  const uint64_t requests = storage.requestCount();
  RowGroupPageIndex index = readPageIndex(storage, file_.metadata(), rowGroup, leaves, {});
  metrics_.bytesFetched += storage.bytesRead() - bytes;
  metrics_.requestsFetched += storage.requestCount() - requests;
  PageSelection selection;
  selection.rows = RowRanges::all(group.num_rows).intersect(*restriction_);
  selection.chunkInBuffers.assign(leaves.size(), 0);
  selection.offsetIndexes.reserve(leaves.size());
  for (ChunkPageIndex& leaf : index.leaves)
    selection.offsetIndexes.push_back(std::move(leaf.offsetIndex));
  return selection;
}

int64_t ColumnReaders::rowCount() const {
  if (!current_) return 0;
  return selectionApart_ ? static_cast<int64_t>(selected_.size()) : current_->numRows();
}

ColumnBatch ColumnReaders::column(size_t index) const {
  if (index >= projection_.columnOrder().size()) {
    throw std::out_of_range("column index " + std::to_string(index) + " is past the " +
                            std::to_string(projection_.columnOrder().size()) + " projected columns");
  }
  if (!current_) throw InvalidArgument("ColumnReaders: call nextBatch() before reading a column");
  return ColumnBatch(&*current_, projection_.columnOrder()[index]);
}

}  // namespace quarry::parquet
