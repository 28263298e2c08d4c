#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quarry/formats/parquet/column_projection.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_reader.h"
#include "quarry/formats/predicate/filter_predicate.h"

/// A RowReader over several files read one after another, with the same API.
/// Each file is opened when its first row is needed; the projection is resolved
/// against each file's own schema, so a file missing a projected column fails
/// with that file's name.
namespace quarry::parquet {

class MultiFileRowReader {
 public:
  /// Throws InvalidArgument when `uris` is empty.
  MultiFileRowReader(std::vector<std::string> uris, ColumnProjection projection = ColumnProjection::all(),
                     ReaderOptions options = {});
  /// Reads only the rows `filter` selects; the filter is bound to each file's
  /// schema as the file is opened, so a file that cannot take it fails by name.
  MultiFileRowReader(std::vector<std::string> uris, ColumnProjection projection,
                     FilterPredicate filter, ReaderOptions options = {});

  /// Returns at most `n` rows across all files: once they are returned no further
  /// row group is read and no further file is opened. Throws InvalidArgument when
  /// n < 0 or after the first next().
  MultiFileRowReader& head(int64_t n);

  /// Advances to the next row across files; false after the last row of the last file.
  bool next();

  /// Returns the current row (as RowReader::row()).
  PqStruct row() const { return rows_->row(); }
  FieldValue field(size_t index) const { return rows_->field(index); }
  FieldValue field(std::string_view name) const { return rows_->field(name); }
  size_t getFieldCount() const { return rows_->getFieldCount(); }
  /// Returns the URI of the file the current row comes from.
  const std::string& currentUri() const { return uris_[fileIndex_ - 1]; }
  /// Returns the metrics of every file opened so far, footer reads included.
  ReaderMetrics metrics() const;

 private:
  std::vector<std::string> uris_;
  ColumnProjection projection_;
  ReaderOptions options_;
  std::optional<FilterPredicate> filter_;
  size_t fileIndex_ = 0;
  std::unique_ptr<ParquetFileReader> file_;
  std::unique_ptr<RowReader> rows_;
  /// The metrics of the files already finished, and the footers read.
  ReaderMetrics finished_;
  /// Rows head(n) still lets next() return.
  std::optional<int64_t> remaining_;
};

}  // namespace quarry::parquet
