#include "quarry/formats/parquet/row_reader.h"

#include "quarry/common/error.h"
#include "quarry/formats/parquet/parquet_file_reader.h"

namespace quarry::parquet {

RowReader::RowReader(ParquetFileReader& file, ResolvedProjection projection)
    : file_(file), projection_(std::move(projection)) {}

bool RowReader::loadNextRowGroup() {
  while (nextRowGroup_ < file_.numRowGroups()) {
    const int index = nextRowGroup_++;
    current_.emplace(file_.readRowGroup(index, projection_));
    rowGroupFirstRow_ = nextFirstRow_;
    nextFirstRow_ += current_->numRows();
    row_ = -1;
    if (current_->numRows() > 0) return true;
  }
  current_.reset();
  return false;
}

bool RowReader::next() {
  if (current_ && row_ + 1 < current_->numRows()) {
    ++row_;
    return true;
  }
  if (!loadNextRowGroup()) return false;
  row_ = 0;
  return true;
}

PqStruct RowReader::row() const {
  if (!current_ || row_ < 0) throw InvalidArgument("RowReader: call next() before reading a row");
  return PqStruct(&*current_, &projection_.root(), row_);
}

}  // namespace quarry::parquet
