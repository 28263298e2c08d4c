#include "quarry/formats/parquet/row_reader.h"

#include <algorithm>
#include <limits>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/page_pruning.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_filter.h"
#include "quarry/formats/parquet/row_group_pruning.h"
#include "quarry/formats/parquet/statistics_pruning.h"

namespace quarry::parquet {

RowReader::RowReader(ParquetFileReader& file, ResolvedProjection projection,
                     std::optional<BoundPredicate> filter, const RowLimits& limits)
    : file_(file), projection_(std::move(projection)), filter_(std::move(filter)) {
  plan_ = planRowGroups(file_.metadata(), limits, filter_.has_value(), file_.uri());
  remaining_ = plan_.maxRows;
  projectedLeaves_.addDecodedLeaves(projection_.leaves());
  if (filter_) projection_.addDecodedLeaves(filter_->leaves());
  memory_ = takeScanMemory();
}

RowReader::~RowReader() {
  if (current_) memory_.columns = current_->releaseColumns();
  keepScanMemory(std::move(memory_));
}

int64_t RowReader::visibleRows() const {
  if (!current_) return 0;
  return everyRow_ ? current_->numRows() - firstVisible_ : static_cast<int64_t>(selected_.size());
}

bool RowReader::loadNextRowGroup() {
  while (nextRowGroup_ < file_.numRowGroups()) {
    const int index = nextRowGroup_++;
    const RowGroup& metadata = file_.metadata().row_groups[static_cast<size_t>(index)];
    const int64_t firstRow = nextFirstRow_;
    nextFirstRow_ += metadata.num_rows;
    const int64_t pages = dataPagesFromEncodingStats(metadata, projection_.leaves());
    ++metrics_.rowGroupsTotal;
    metrics_.pagesTotal += pages;
    // Byte ranges and skip / tail are decided from the footer before statistics:
    // a row group they pass over is never read, whatever its statistics say.
    if (!plan_.inByteRange[static_cast<size_t>(index)]) {
      ++metrics_.rowGroupsOutsideByteRange;
      metrics_.pagesSkipped += pages;
      continue;
    }
    const int64_t keptFirstRow = keptRowsBefore_;
    keptRowsBefore_ += metadata.num_rows;
    if (keptRowsBefore_ <= plan_.firstRow) {
      ++metrics_.rowGroupsSkippedByLimit;
      metrics_.pagesSkipped += pages;
      continue;
    }
    const int64_t leadingRows = std::max<int64_t>(0, plan_.firstRow - keptFirstRow);
    io::StorageObject& storage = file_.storage();
    // Statistics, then the page index, which may rule out some pages or all
    // (page_pruning.h), then Bloom filters where they could still pay, and
    // dictionary pages (row_group_pruning.h).
    std::optional<PageSelection> selection;
    bool pagesSelected = false;
    auto selectPagesFirst = [&]() -> uint64_t {
      // Only a page index proper: page-header statistics need the chunk's data
      // pages, which a Bloom filter may spare.
      if (!hasPageIndex(file_.metadata(), index, filter_->leaves())) {
        return std::numeric_limits<uint64_t>::max();
      }
      selection = selectPages(*filter_, file_.metadata(), storage, index, projection_.leaves(),
                              memory_.buffers, metrics_);
      pagesSelected = true;
      return bytesToRead(metadata, projection_.leaves(), selection);
    };
    const int64_t pagesTotalBefore = metrics_.pagesTotal - pages;
    const int64_t pagesSkippedBefore = metrics_.pagesSkipped;
    const PruningDecision decision =
        filter_ ? decideAndCount(*filter_, file_.metadata(), storage, index, file_.options(),
                                 metrics_, selectPagesFirst)
                : PruningDecision::kSomeMayMatch;
    if (decision == PruningDecision::kNoRowMatches) {
      // Every page of the group counted so far (from encoding_stats or an index read) is skipped.
      metrics_.pagesSkipped = pagesSkippedBefore + (metrics_.pagesTotal - pagesTotalBefore);
      continue;
    }
    everyRow_ = !filter_ || decision == PruningDecision::kEveryRowMatches;
    const ResolvedProjection* decoded = &projection_;
    if (filter_ && everyRow_) {
      decoded = &projectedLeaves_;
      metrics_.pagesSkipped += pages - dataPagesFromEncodingStats(metadata, projectedLeaves_.leaves());
      selection.reset();
    }
    if (filter_ && !everyRow_ && file_.options().metadataPruning && !pagesSelected) {
      selection = selectPages(*filter_, file_.metadata(), storage, index, decoded->leaves(),
                              memory_.buffers, metrics_);
    }
    // Without a filter, a head that ends inside the group needs its leading rows
    // only: they are read as a selection, which decodes the chunks of columns that
    // are not repeated only as far as the last of them (a few rows of a group of
    // billions cost a few rows). Bounded so that the row map stays small.
    constexpr int64_t kMaxLeadingRows = 1 << 16;
    if (!filter_ && !selection && remaining_ && *remaining_ > 0 &&
        leadingRows + *remaining_ < metadata.num_rows &&
        leadingRows + *remaining_ <= kMaxLeadingRows) {
      selection.emplace();
      selection->rows.add(0, leadingRows + *remaining_);
    }
    if (selection && selection->rows.empty()) {
      ++metrics_.rowGroupsPrunedByPageIndex;
      metrics_.pagesSkipped += unindexedDataPages(metadata, decoded->leaves(), *selection);
      continue;
    }
    const uint64_t bytesBefore = storage.bytesRead();
    const uint64_t requestsBefore = storage.requestCount();
    pageRows_.clear();
    // The previous group's columns are decoded into again.
    if (current_) {
      memory_.columns = current_->releaseColumns();
      current_.reset();
    }
    // With a filter and columns that have an OffsetIndex beside the filter's,
    // the filter's columns are decoded and the rows selected first, then only
    // the pages of the others that hold a selected row are read.
    const bool late = selection && !everyRow_ &&
                      ParquetFileReader::materializesLate(*decoded, *filter_, *selection);
    int64_t rowsDecoded = 0;
    if (late) {
      current_.emplace(file_.readSelectedRows(index, *decoded, *filter_, *selection, metrics_,
                                              memory_, pageRows_));
      rowsDecoded = selection->rows.rowCount();
    } else if (selection) {
      current_.emplace(file_.readRowGroupRows(index, *decoded, *selection, metrics_, memory_));
      // Every row kept (page-header statistics ruled none out): rows map to themselves.
      if (selection->rows.rowCount() < metadata.num_rows) pageRows_ = selection->rows.rows();
      rowsDecoded = current_->numRows();
    } else {
      current_.emplace(file_.readRowGroup(index, *decoded, memory_));
      rowsDecoded = current_->numRows();
    }
    metrics_.bytesFetched += storage.bytesRead() - bytesBefore;
    metrics_.requestsFetched += storage.requestCount() - requestsBefore;
    metrics_.rowsDecoded += rowsDecoded;
    ++metrics_.rowGroupsRead;
    rowGroupFirstRow_ = firstRow;
    row_ = -1;
    position_ = -1;
    firstVisible_ = leadingRows;
    selected_.clear();
    // Rows read late are the selected ones already.
    if (late) everyRow_ = true;
    if (!everyRow_) {
      selected_ = selectRows(*filter_, *current_, &metadata);
      selected_.erase(selected_.begin(), std::lower_bound(selected_.begin(), selected_.end(), leadingRows));
    }
    if (visibleRows() > 0) return true;
  }
  if (current_) memory_.columns = current_->releaseColumns();
  current_.reset();
  return false;
}

bool RowReader::next() {
  // Once head(n) rows are returned nothing more is fetched.
  if (remaining_ && *remaining_ == 0) return false;
  if (!current_ || position_ + 1 >= visibleRows()) {
    if (!loadNextRowGroup()) return false;
  }
  ++position_;
  row_ = everyRow_ ? firstVisible_ + position_ : selected_[static_cast<size_t>(position_)];
  ++metrics_.rowsReturned;
  if (remaining_) --*remaining_;
  return true;
}

PqStruct RowReader::row() const {
  if (!current_ || row_ < 0) throw InvalidArgument("RowReader: call next() before reading a row");
  return PqStruct(&*current_, &projection_.root(), row_);
}

std::unique_ptr<RowReader> RowReaderBuilder::build() {
  auto projection = ResolvedProjection::resolve(projection_, file_.schema());
  std::optional<BoundPredicate> bound;
  if (filter_) bound = BoundPredicate::bind(*filter_, file_.schema());
  return std::make_unique<RowReader>(file_, std::move(projection), std::move(bound), limits_);
}

}  // namespace quarry::parquet
