#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "quarry/common/raw_vector.h"
#include "quarry/formats/parquet/bound_predicate.h"
#include "quarry/formats/parquet/column_chunk_reader.h"
#include "quarry/formats/parquet/column_projection.h"
#include "quarry/formats/parquet/page_pruning.h"
#include "quarry/formats/parquet/reader_metrics.h"
#include "quarry/formats/parquet/record_assembly.h"
#include "quarry/formats/parquet/row_group_decision.h"
#include "quarry/formats/parquet/row_limits.h"
#include "quarry/formats/parquet/row_ranges.h"

/// Column-at-a-time reading: each batch holds one row group's values of a leaf
/// column, with the validity and nesting offsets record assembly derived from
/// its levels. ColumnReaders keeps several columns aligned on the same rows.
///
/// With a filter (query-controls.txt, "Exact row filtering in RowReader,
/// ColumnReader(s) and the multi-file reader"), row groups are decided from their
/// metadata by the decision RowReader makes too (row_group_decision.h;
/// statistics_pruning.h, unless ReaderOptions::metadataPruning is off), the others
/// filtered row by row (row_filter.h); a batch then holds only its row group's
/// selected rows (row_selection.h), and a row group with none gives no batch. Where every row
/// is selected, the batch is the decoded row group itself: no copy is made.
namespace quarry::parquet {

class ParquetFileReader;

/// One column's values over the rows of one batch.
class ColumnBatch {
 public:
  ColumnBatch(const AssembledRowGroup* group, const SchemaNode* leaf)
      : group_(group), leaf_(leaf) {}

  const SchemaNode& leaf() const { return *leaf_; }
  /// Rows in the batch.
  int64_t rowCount() const { return group_->numRows(); }
  /// The decoded chunk: dense non-null values (values<T>(), bytes(i)) and levels.
  const ColumnChunkData& data() const { return *group_->column(leaf_); }
  /// Per slot of the leaf: present (1) or null (0). For a flat column, one slot per row.
  std::span<const uint8_t> validity() const { return group_->validity(leaf_); }
  /// Per slot of the leaf: its index among the dense values, or -1 when null.
  std::span<const int64_t> valueIndex() const { return group_->valueIndex(leaf_); }
  /// The nodes from the top-level field down to the leaf, each with its slots;
  /// repeated nodes carry the offsets that nest the slots below them.
  std::vector<const NodeSlots*> nesting() const;

 private:
  const AssembledRowGroup* group_;
  const SchemaNode* leaf_;
};

/// Reads several columns of a file aligned on the same rows, row group by row
/// group. Positions follow ColumnProjection's ColumnReaders order.
class ColumnReaders {
 public:
  /// Reads the rows `filter` selects (every row without one). The filter's
  /// columns outside the projection are decoded for it but are not positions.
  /// With `byteRanges`, only the row groups whose midpoint lies in every range
  /// are read (row_limits.h, planRowGroups: the rule RowReader follows); the
  /// others count in rowGroupsTotal and rowGroupsOutsideByteRange only.
  ColumnReaders(ParquetFileReader& file, ResolvedProjection projection,
                std::optional<BoundPredicate> filter = std::nullopt,
                std::vector<ByteRange> byteRanges = {});
  /// Leaves the reader's decoding memory to the next ColumnReaders made on the
  /// same thread (a scan of many files then reuses it from file to file).
  ~ColumnReaders();
  ColumnReaders(const ColumnReaders&) = delete;
  ColumnReaders& operator=(const ColumnReaders&) = delete;

  /// Reads only `rows` of each row group, numbered within it (a split narrowed
  /// to part of its one row group). Call before the first nextBatch().
  void restrictRows(RowRanges rows) { decision_.restrictRows(std::move(rows)); }

  /// Advances to the next batch (row group with rows); false after the last.
  bool nextBatch();
  /// Returns the number of positions (a column several names select counts at each).
  size_t getColumnCount() const { return projection_.columnOrder().size(); }
  /// Returns position `index`'s batch; throws std::out_of_range past getColumnCount().
  ColumnBatch column(size_t index) const;
  /// Returns the leaf position `index` reads (known before the first batch);
  /// throws std::out_of_range past getColumnCount().
  const SchemaNode& columnLeaf(size_t index) const { return *projection_.columnOrder().at(index); }
  /// Returns the file the reader reads.
  ParquetFileReader& file() const { return file_; }
  /// With ReaderOptions::selectionVector and a filter that kept some of the batch's
  /// rows: the kept rows of the batches' row group, ascending (a batch's columns
  /// then hold every row of it). Empty when every row of the batches is kept.
  std::span<const int64_t> selectedRows() const {
    return selectionApart_ ? std::span<const int64_t>(selected_) : std::span<const int64_t>();
  }
  /// The batch's rows: selectedRows().size() when a selection is apart, else the
  /// batches' rowCount().
  int64_t rowCount() const;
  /// Writes the file's index of each of the batch's rows [offset, offset + count)
  /// to `out`: its row group's first row plus the row's place in the group (the
  /// rows of a page selection and of a filter's selection counted in the group).
  void rowPositions(int64_t offset, int64_t count, int64_t* out) const;
  /// Returns what the reader has pruned, decoded and returned so far (rowsReturned:
  /// the rows of the batches). Page and byte counts are not kept (0).
  const ReaderMetrics& metrics() const { return metrics_; }

 private:
  /// Moves the current batch's chunks to the memory the next batch reuses.
  void releaseCurrent();

  ParquetFileReader& file_;
  /// The projection, whose decoded leaves include the filter's columns.
  ResolvedProjection projection_;
  /// The projected leaves only: what a batch keeps, and what a row group every
  /// row of which matches decodes.
  ResolvedProjection projectedLeaves_;
  std::optional<BoundPredicate> filter_;
  /// Kept from row group to row group: each batch is decoded into the memory of
  /// the one before (its chunks' vectors, read and page buffers).
  std::vector<ChunkBuffers> buffers_;
  std::vector<ColumnChunkData> spare_;
  ReaderMetrics metrics_;
  /// Which row groups, rows and pages are read (row_group_decision.h).
  RowGroupDecision decision_;
  std::optional<AssembledRowGroup> current_;
  /// Whether current_ holds selected rows copied out of the decoded row group.
  bool currentIsSelection_ = false;
  /// Whether current_ is the whole decoded row group and selected_ lists its rows
  /// (ReaderOptions::selectionVector).
  bool selectionApart_ = false;
  /// The current row group's selected rows (with a filter).
  RawVector<int64_t> selected_;
  /// The file's index of the current row group's first row, and the rows of the
  /// group decoded when a page selection read part of it (absent: every row).
  int64_t currentFirstRow_ = 0;
  std::optional<RowRanges> currentRows_;
  /// The chunks of the last selection, whose memory the next one reuses.
  std::vector<ColumnChunkData> selectionSpare_;
};

}  // namespace quarry::parquet
