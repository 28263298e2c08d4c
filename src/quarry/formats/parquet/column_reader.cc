#include "quarry/formats/parquet/column_reader.h"

#include <stdexcept>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/page_pruning.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_filter.h"
#include "quarry/formats/parquet/row_group_reads.h"
#include "quarry/formats/parquet/row_selection.h"
#include "quarry/formats/parquet/scan_memory.h"

namespace quarry::parquet {

namespace {

/// The row groups whose midpoint lies in every byte range (ColumnReaders take no other row limit).
RowGroupPlan planSplit(const ParquetFileReader& file, std::vector<ByteRange> byteRanges, bool hasFilter) {
  RowLimits limits;
  limits.byteRanges = std::move(byteRanges);
  return planRowGroups(file.metadata(), limits, hasFilter, file.uri());
}

}  // namespace

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
    : file_(file),
      projection_(std::move(projection)),
      filter_(std::move(filter)),
      decision_(file_, projection_, projectedLeaves_, filter_, planSplit(file_, std::move(byteRanges), filter_.has_value()),
                // Row groups outside the split are counted by the reader of the split that holds them.
                RowGroupDecisionOptions{.countPagesOutsideByteRange = false, .rowLimits = false}, buffers_,
                metrics_) {
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
  while (std::optional<RowGroupRead> read = decision_.next()) {
    const int index = read->index;
    const RowGroup& group = *read->group;
    const std::span<const SchemaNode* const> leaves = read->decoded->leaves();
    std::optional<PageSelection>& selection = read->selection;
    io::StorageObject& storage = file_.storage();
    std::vector<ColumnChunkData> columns = std::move(spare_);
    const uint64_t bytesBefore = storage.bytesRead();
    const uint64_t requestsBefore = storage.requestCount();
    if (selection) {
      const int64_t pagesRead =
          readRowGroupRows(storage, index, group, leaves, selection->rows, selection->offsetIndexes,
                           selection->chunkInBuffers, options, file_.options().threads, buffers_, columns);
      countIndexedPages(group, leaves, *selection, pagesRead, metrics_);
    } else {
      readRowGroupChunks(storage, index, group, leaves, options, file_.options().threads, buffers_, columns);
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
    currentFirstRow_ = read->firstRow;
    if (selection) {
      currentRows_ = selection->rows;
    } else {
      currentRows_.reset();
    }
    if (!read->everyRow) {
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

int64_t ColumnReaders::rowCount() const {
  if (!current_) return 0;
  return selectionApart_ ? static_cast<int64_t>(selected_.size()) : current_->numRows();
}

void ColumnReaders::rowPositions(int64_t offset, int64_t count, int64_t* out) const {
  if (!current_) {
    throw InvalidArgument("ColumnReaders: call nextBatch() before asking for row positions");
  }
  const bool selection = selectionApart_ || currentIsSelection_;
  // The decoded rows are the group's, or a page selection's in order: walk its
  // ranges once, the batch's rows being ascending.
  const std::vector<RowRanges::Range>* ranges = currentRows_ ? &currentRows_->ranges() : nullptr;
  size_t range = 0;
  int64_t before = 0;  // decoded rows in the ranges before `range`
  for (int64_t k = 0; k < count; ++k) {
    const int64_t decoded = selection ? selected_[static_cast<size_t>(offset + k)] : offset + k;
    int64_t inGroup = decoded;
    if (ranges != nullptr) {
      auto length = [&](size_t r) { return (*ranges)[r].end - (*ranges)[r].first; };
      while (range < ranges->size() && decoded >= before + length(range)) {
        before += length(range);
        ++range;
      }
      if (range >= ranges->size()) throw InvalidArgument("ColumnReaders: a row past the rows read");
      inGroup = (*ranges)[range].first + (decoded - before);
    }
    out[k] = currentFirstRow_ + inGroup;
  }
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
