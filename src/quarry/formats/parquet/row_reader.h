#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "quarry/formats/parquet/bound_predicate.h"
#include "quarry/formats/parquet/column_projection.h"
#include "quarry/formats/parquet/reader_metrics.h"
#include "quarry/formats/parquet/record_assembly.h"
#include "quarry/formats/parquet/row_values.h"

/// Row-at-a-time reading of a Parquet file: row groups are decoded column by
/// column (in parallel) and assembled; the reader then steps through their rows.
/// With a filter, each row group is first decided from its statistics
/// (statistics_pruning.h, unless ReaderOptions::metadataPruning is off): one no
/// row of which can match is skipped without reading any of its bytes, and one
/// every row of which matches is read without its filter-only columns and
/// without evaluating the filter row by row.
namespace quarry::parquet {

class ParquetFileReader;

class RowReader {
 public:
  /// Reads the rows `filter` selects (every row without one). The filter's
  /// columns outside the projection are decoded but are not fields of the row.
  RowReader(ParquetFileReader& file, ResolvedProjection projection,
            std::optional<BoundPredicate> filter = std::nullopt);

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
  int64_t rowIndex() const { return rowGroupFirstRow_ + row_; }
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
  int nextRowGroup_ = 0;
  std::optional<AssembledRowGroup> current_;
  std::optional<BoundPredicate> filter_;
  /// With a filter: the current row group's selected rows; next() walks them.
  std::vector<int64_t> selected_;
  /// Whether every row of the current row group is returned (no filter, or its
  /// statistics prove every row matches); selected_ is then unused.
  bool everyRow_ = true;
  ReaderMetrics metrics_;
  int64_t position_ = -1;
  int64_t row_ = -1;
  int64_t rowGroupFirstRow_ = 0;
  int64_t nextFirstRow_ = 0;
};

}  // namespace quarry::parquet

namespace quarry::parquet {

/// The builder shape of the spec: file->buildRowReader().projection(p).filter(f).build().
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
  /// Resolves the projection and binds the filter to the file's schema; throws
  /// InvalidArgument for a column or literal the file cannot take.
  std::unique_ptr<RowReader> build();

 private:
  ParquetFileReader& file_;
  ColumnProjection projection_ = ColumnProjection::all();
  std::optional<FilterPredicate> filter_;
};

}  // namespace quarry::parquet
