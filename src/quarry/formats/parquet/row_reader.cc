#include "quarry/formats/parquet/row_reader.h"

#include <algorithm>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_filter.h"

namespace quarry::parquet {

RowReader::RowReader(ParquetFileReader& file, ResolvedProjection projection,
                     std::optional<BoundPredicate> filter, const RowLimits& limits)
    : file_(file),
      projection_(std::move(projection)),
      filter_(std::move(filter)),
      decision_(file_, projection_, projectedLeaves_, filter_,
                planRowGroups(file_.metadata(), limits, filter_.has_value(), file_.uri()), {}, memory_.buffers,
                metrics_) {
  remaining_ = decision_.plan().maxRows;
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
  while (std::optional<RowGroupRead> read = decision_.next()) {
    const int index = read->index;
    const RowGroup& metadata = *read->group;
    const ResolvedProjection* decoded = read->decoded;
    std::optional<PageSelection>& selection = read->selection;
    everyRow_ = read->everyRow;
    io::StorageObject& storage = file_.storage();
    // Without a filter, a head that ends inside the group needs its leading rows
    // only: they are read as a selection, which decodes the chunks of columns that
    // are not repeated only as far as the last of them (a few rows of a group of
    // billions cost a few rows). Bounded so that the row map stays small.
    constexpr int64_t kMaxLeadingRows = 1 << 16;
    const int64_t leadingRows = read->leadingRows;
    if (!filter_ && !selection && remaining_ && *remaining_ > 0 &&
        leadingRows + *remaining_ < metadata.num_rows &&
        leadingRows + *remaining_ <= kMaxLeadingRows) {
      selection.emplace();
      selection->rows.add(0, leadingRows + *remaining_);
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
    rowGroupFirstRow_ = read->firstRow;
    row_ = -1;
    position_ = -1;
    firstVisible_ = read->leadingRows;
    selected_.clear();
    // Rows read late are the selected ones already.
    if (late) everyRow_ = true;
    if (!everyRow_) {
      selected_ = selectRows(*filter_, *current_, &metadata);
      selected_.erase(selected_.begin(),
                      std::lower_bound(selected_.begin(), selected_.end(), read->leadingRows));
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
