#include "quarry/formats/parquet/column_reader.h"

#include <stdexcept>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/parquet_file_reader.h"

namespace quarry::parquet {

std::vector<const NodeSlots*> ColumnBatch::nesting() const {
  std::vector<const NodeSlots*> path;
  for (const SchemaNode* n = leaf_; n != nullptr && !n->isRoot(); n = n->parent) {
    path.insert(path.begin(), group_->slots(n));
  }
  return path;
}

ColumnReaders::ColumnReaders(ParquetFileReader& file, ResolvedProjection projection)
    : file_(file), projection_(std::move(projection)) {}

bool ColumnReaders::nextBatch() {
  while (nextRowGroup_ < file_.numRowGroups()) {
    current_.emplace(file_.readRowGroup(nextRowGroup_++, projection_));
    if (current_->numRows() > 0) return true;
  }
  current_.reset();
  return false;
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
