#include "quarry/formats/parquet/row_reader.h"

#include "quarry/common/error.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_filter.h"
#include "quarry/formats/parquet/statistics_pruning.h"

namespace quarry::parquet {
namespace {

/// The data pages of `leaves`' chunks in `group`, as their encoding_stats count
/// them (0 for a chunk without them).
int64_t dataPagesOf(const RowGroup& group, const std::vector<const SchemaNode*>& leaves) {
  int64_t pages = 0;
  for (const SchemaNode* leaf : leaves) {
    const auto index = static_cast<size_t>(leaf->leafIndex);
    if (index >= group.columns.size() || !group.columns[index].meta_data) continue;
    const auto& stats = group.columns[index].meta_data->encoding_stats;
    if (!stats) continue;
    for (const PageEncodingStats& s : *stats) {
      if (s.page_type == PageType::DATA_PAGE || s.page_type == PageType::DATA_PAGE_V2) pages += s.count;
    }
  }
  return pages;
}

}  // namespace

RowReader::RowReader(ParquetFileReader& file, ResolvedProjection projection,
                     std::optional<BoundPredicate> filter)
    : file_(file), projection_(std::move(projection)), filter_(std::move(filter)) {
  projectedLeaves_.addDecodedLeaves(projection_.leaves());
  if (filter_) projection_.addDecodedLeaves(filter_->leaves());
}

int64_t RowReader::visibleRows() const {
  if (!current_) return 0;
  return everyRow_ ? current_->numRows() : static_cast<int64_t>(selected_.size());
}

bool RowReader::loadNextRowGroup() {
  while (nextRowGroup_ < file_.numRowGroups()) {
    const int index = nextRowGroup_++;
    const RowGroup& metadata = file_.metadata().row_groups[static_cast<size_t>(index)];
    const int64_t firstRow = nextFirstRow_;
    nextFirstRow_ += metadata.num_rows;
    PruningDecision decision = PruningDecision::kSomeMayMatch;
    if (filter_ && file_.options().metadataPruning) {
      decision = decideRowGroup(*filter_, file_.metadata(), static_cast<size_t>(index));
    }
    const int64_t pages = dataPagesOf(metadata, projection_.leaves());
    ++metrics_.rowGroupsTotal;
    metrics_.pagesTotal += pages;
    if (decision == PruningDecision::kNoRowMatches) {
      ++metrics_.rowGroupsPrunedByStatistics;
      metrics_.pagesSkipped += pages;
      continue;
    }
    everyRow_ = !filter_ || decision == PruningDecision::kEveryRowMatches;
    const ResolvedProjection* decoded = &projection_;
    if (filter_ && everyRow_) {
      ++metrics_.rowGroupsMatchedByStatistics;
      decoded = &projectedLeaves_;
      metrics_.pagesSkipped += pages - dataPagesOf(metadata, projectedLeaves_.leaves());
    }
    io::StorageObject& storage = file_.storage();
    const uint64_t bytesBefore = storage.bytesRead();
    const uint64_t requestsBefore = storage.requestCount();
    current_.emplace(file_.readRowGroup(index, *decoded));
    metrics_.bytesFetched += storage.bytesRead() - bytesBefore;
    metrics_.requestsFetched += storage.requestCount() - requestsBefore;
    metrics_.rowsDecoded += current_->numRows();
    rowGroupFirstRow_ = firstRow;
    row_ = -1;
    position_ = -1;
    selected_.clear();
    if (!everyRow_) selected_ = selectRows(*filter_, *current_, &metadata);
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
  row_ = everyRow_ ? position_ : selected_[static_cast<size_t>(position_)];
  ++metrics_.rowsReturned;
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
