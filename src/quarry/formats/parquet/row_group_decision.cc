#include "quarry/formats/parquet/row_group_decision.h"

#include <algorithm>
#include <limits>

#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_group_pruning.h"

namespace quarry::parquet {

RowGroupDecision::RowGroupDecision(ParquetFileReader& file, const ResolvedProjection& projection,
                                   const ResolvedProjection& projectedLeaves,
                                   const std::optional<BoundPredicate>& filter, RowGroupPlan plan,
                                   RowGroupDecisionOptions options, std::vector<ChunkBuffers>& buffers,
                                   ReaderMetrics& metrics)
    : file_(file),
      projection_(projection),
      projectedLeaves_(projectedLeaves),
      filter_(filter),
      plan_(std::move(plan)),
      options_(options),
      buffers_(buffers),
      metrics_(metrics) {}

std::optional<RowGroupRead> RowGroupDecision::next() {
  while (nextRowGroup_ < file_.numRowGroups()) {
    const int index = nextRowGroup_++;
    const RowGroup& group = file_.metadata().row_groups[static_cast<size_t>(index)];
    const int64_t firstRow = nextFirstRow_;
    nextFirstRow_ += group.num_rows;
    // Pages as the filtered read counts them: of every chunk it needs.
    const int64_t pages = dataPagesFromEncodingStats(group, projection_.leaves());
    ++metrics_.rowGroupsTotal;
    // Byte ranges and skip / tail are decided from the footer before statistics:
    // a row group they pass over is never read, whatever its statistics say.
    if (!plan_.inByteRange[static_cast<size_t>(index)]) {
      ++metrics_.rowGroupsOutsideByteRange;
      if (options_.countPagesOutsideByteRange) {
        metrics_.pagesTotal += pages;
        metrics_.pagesSkipped += pages;
      }
      continue;
    }
    metrics_.pagesTotal += pages;
    const int64_t keptFirstRow = keptRowsBefore_;
    keptRowsBefore_ += group.num_rows;
    if (options_.rowLimits && keptRowsBefore_ <= plan_.firstRow) {
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
      selection = selectPages(*filter_, file_.metadata(), storage, index, projection_.leaves(), buffers_,
                              metrics_);
      pagesSelected = true;
      return bytesToRead(group, projection_.leaves(), selection);
    };
    const int64_t pagesTotalBefore = metrics_.pagesTotal - pages;
    const int64_t pagesSkippedBefore = metrics_.pagesSkipped;
    const PruningDecision decision =
        filter_ ? decideAndCount(*filter_, file_.metadata(), storage, index, file_.options(), metrics_,
                                 selectPagesFirst)
                : PruningDecision::kSomeMayMatch;
    if (decision == PruningDecision::kNoRowMatches) {
      // Every page of the group counted so far (from encoding_stats or an index read) is skipped.
      metrics_.pagesSkipped = pagesSkippedBefore + (metrics_.pagesTotal - pagesTotalBefore);
      continue;
    }
    const bool everyRow = !filter_ || decision == PruningDecision::kEveryRowMatches;
    const ResolvedProjection* decoded = &projection_;
    if (filter_ && everyRow) {
      decoded = &projectedLeaves_;
      metrics_.pagesSkipped += pages - dataPagesFromEncodingStats(group, projectedLeaves_.leaves());
      selection.reset();
    }
    // selectPages counts the bytes it reads itself.
    if (!everyRow && file_.options().metadataPruning && !pagesSelected) {
      selection = selectPages(*filter_, file_.metadata(), storage, index, decoded->leaves(), buffers_, metrics_);
    }
    if (restriction_) {
      if (selection) {
        selection->rows = selection->rows.intersect(*restriction_);
      } else {
        selection = restrictedSelection(index, decoded->leaves());
      }
    }
    if (selection && selection->rows.empty()) {
      ++metrics_.rowGroupsPrunedByPageIndex;
      metrics_.pagesSkipped += unindexedDataPages(group, decoded->leaves(), *selection);
      continue;
    }
    return RowGroupRead{index, &group, firstRow, leadingRows, everyRow, decoded, std::move(selection)};
  }
  return std::nullopt;
}

PageSelection RowGroupDecision::restrictedSelection(int rowGroup, std::span<const SchemaNode* const> leaves) {
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
  for (ChunkPageIndex& leaf : index.leaves) selection.offsetIndexes.push_back(std::move(leaf.offsetIndex));
  return selection;
}

}  // namespace quarry::parquet
