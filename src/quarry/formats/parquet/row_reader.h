#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "quarry/common/raw_vector.h"
#include "quarry/formats/parquet/bound_predicate.h"
#include "quarry/formats/parquet/column_projection.h"
#include "quarry/formats/parquet/reader_metrics.h"
#include "quarry/formats/parquet/record_assembly.h"
#include "quarry/formats/parquet/row_group_decision.h"
#include "quarry/formats/parquet/row_limits.h"
#include "quarry/formats/parquet/scan_memory.h"
#include "quarry/formats/parquet/row_values.h"

/// Row-at-a-time reading of a Parquet file: row groups are decoded column by
/// column (in parallel) and assembled; the reader then steps through their rows.
/// With a filter, each row group is first decided from its metadata
/// (row_group_decision.h; statistics_pruning.h, unless
/// ReaderOptions::metadataPruning is off): one no
/// row of which can match is skipped without reading any of its bytes, and one
/// every row of which matches is read without its filter-only columns and
/// without evaluating the filter row by row. Row limits and byte ranges
/// (row_limits.h) are planned from the footer: row groups outside the byte range
/// or before skip(n) / tail(n) are passed over unread, and once head(n) rows are
/// returned no further row group is read.
namespace quarry::parquet {

class ParquetFileReader;

class RowReader {
 public:
  /// Reads the rows `filter` selects (every row without one). The filter's
  /// columns outside the projection are decoded but are not fields of the row.
  /// Throws InvalidArgument for `limits` rejected together or with the filter.
  RowReader(ParquetFileReader& file, ResolvedProjection projection,
            std::optional<BoundPredicate> filter = std::nullopt, const RowLimits& limits = {});
  /// Leaves the decoding memory to the next reader on this thread (scan_memory.h).
  ~RowReader();
  RowReader(const RowReader&) = delete;
  RowReader& operator=(const RowReader&) = delete;

  /// Advances to the next row; returns false after the last one.
  bool next();

  /// Returns the current row as a struct of the projected top-level fields.
  PqStruct row() const;
  size_t getFieldCount() const { return projection_.root().children.size(); }
  const std::string& getFieldName(size_t index) const { return row().getFieldName(index); }
  FieldValue field(size_t index) const { return row().field(index); }
  FieldValue field(std::string_view name) const { return row().field(name); }

  bool isNull(std::string_view name) const { return field(name).isNull(); }
  bool isNull(size_t index) const { return field(index).isNull(); }
  int32_t getInt(std::string_view name) const { return field(name).getInt(); }
  int32_t getInt(size_t index) const { return field(index).getInt(); }
  int64_t getLong(std::string_view name) const { return field(name).getLong(); }
  int64_t getLong(size_t index) const { return field(index).getLong(); }
  double getDouble(std::string_view name) const { return field(name).getDouble(); }
  std::string getString(std::string_view name) const { return field(name).getString(); }
  std::string getString(size_t index) const { return field(index).getString(); }

  const ResolvedProjection& projection() const { return projection_; }
  /// Returns the index of the current row in the file.
  int64_t rowIndex() const {
    return rowGroupFirstRow_ + (pageRows_.empty() ? row_ : pageRows_[static_cast<size_t>(row_)]);
  }
  /// Returns what the reader has pruned, fetched, decoded and returned so far.
  const ReaderMetrics& metrics() const { return metrics_; }

 private:
  bool loadNextRowGroup();
  /// Returns the number of rows to visit in the current row group.
  int64_t visibleRows() const;

  ParquetFileReader& file_;
  /// The projection, whose decoded leaves include the filter's columns.
  ResolvedProjection projection_;
  /// The projected leaves only: what a row group every row of which matches decodes.
  ResolvedProjection projectedLeaves_;
  std::optional<BoundPredicate> filter_;
  ReaderMetrics metrics_;
  /// Chunk buffers and column vectors reused from one row group to the next.
  ScanMemory memory_;
  /// Which row groups, rows and pages are read (row_group_decision.h).
  RowGroupDecision decision_;
  std::optional<AssembledRowGroup> current_;
  /// With a filter: the current row group's selected rows; next() walks them.
  RawVector<int64_t> selected_;
  /// Whether every row of the current row group is returned (no filter, or its
  /// statistics prove every row matches); selected_ is then unused.
  bool everyRow_ = true;
  /// Rows of the current row group before the first one returned (skip / tail).
  int64_t firstVisible_ = 0;
  /// Rows head(n) still lets next() return.
  std::optional<int64_t> remaining_;
  int64_t position_ = -1;
  int64_t row_ = -1;
  int64_t rowGroupFirstRow_ = 0;
  /// When the page index left only some rows of the current row group: their
  /// indices in the row group (the assembled group holds only them).
  std::vector<int64_t> pageRows_;
};

}  // namespace quarry::parquet

namespace quarry::parquet {

/// The builder shape of the spec: file->buildRowReader().projection(p).filter(f).build(),
/// with the row limits and byte-range splits of row_limits.h.
class RowReaderBuilder {
 public:
  explicit RowReaderBuilder(ParquetFileReader& file) : file_(file) {}
  RowReaderBuilder& projection(ColumnProjection projection) {
    projection_ = std::move(projection);
    return *this;
  }
  RowReaderBuilder& filter(FilterPredicate filter) {
    filter_ = std::move(filter);
    return *this;
  }
  /// Returns at most `n` rows (matching rows, with a filter). Throws InvalidArgument when n < 0.
  RowReaderBuilder& head(int64_t n) {
    RowLimits::requireCount("head", n);
    limits_.head = n;
    return *this;
  }
  /// Starts at row `n` of the row groups read (without a filter only). Throws
  /// InvalidArgument when n < 0; build() when n is past the rows.
  RowReaderBuilder& skip(int64_t n) {
    RowLimits::requireCount("skip", n);
    limits_.skip = n;
    return *this;
  }
  /// Reads the file's last `n` rows (without a filter, skip or byte range only).
  /// Throws InvalidArgument when n < 0.
  RowReaderBuilder& tail(int64_t n) {
    RowLimits::requireCount("tail", n);
    limits_.tail = n;
    return *this;
  }
  /// Reads only the row groups whose midpoint lies in [start, end); each call
  /// intersects another range, and end < start selects nothing.
  RowReaderBuilder& byteRange(int64_t start, int64_t end) {
    limits_.byteRanges.push_back(ByteRange{start, end});
    return *this;
  }
  /// Resolves the projection and binds the filter to the file's schema; throws
  /// InvalidArgument for a column or literal the file cannot take, and for row
  /// limits rejected together (row_limits.h).
  std::unique_ptr<RowReader> build();

 private:
  ParquetFileReader& file_;
  ColumnProjection projection_ = ColumnProjection::all();
  std::optional<FilterPredicate> filter_;
  RowLimits limits_;
};

}  // namespace quarry::parquet
