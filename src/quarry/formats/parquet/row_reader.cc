#include "quarry/formats/parquet/row_reader.h"

#include "quarry/common/error.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_filter.h"

namespace quarry::parquet {

RowReader::RowReader(ParquetFileReader& file, ResolvedProjection projection,
                     std::optional<BoundPredicate> filter)
    : file_(file), projection_(std::move(projection)), filter_(std::move(filter)) {
  if (filter_) projection_.addDecodedLeaves(filter_->leaves());
}

int64_t RowReader::visibleRows() const {
  if (!current_) return 0;
  return filter_ ? static_cast<int64_t>(selected_.size()) : current_->numRows();
}

bool RowReader::loadNextRowGroup() {
  while (nextRowGroup_ < file_.numRowGroups()) {
    const int index = nextRowGroup_++;
    current_.emplace(file_.readRowGroup(index, projection_));
    rowGroupFirstRow_ = nextFirstRow_;
    nextFirstRow_ += current_->numRows();
    row_ = -1;
    position_ = -1;
    if (filter_) {
      selected_ = selectRows(*filter_, *current_, &file_.metadata().row_groups[static_cast<size_t>(index)]);
    }
    if (visibleRows() > 0) return true;
  }
  current_.reset();
  return false;
}

bool RowReader::next() {
  if (!current_ || position_ + 1 >= visibleRows()) {
    if (!loadNextRowGroup()) return false;
  }
  ++position_;
  row_ = filter_ ? selected_[static_cast<size_t>(position_)] : position_;
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
  return std::make_unique<RowReader>(file_, std::move(projection), std::move(bound));
}

}  // namespace quarry::parquet
