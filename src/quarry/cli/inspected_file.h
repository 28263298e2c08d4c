#pragma once

#include <memory>
#include <string>

#include "quarry/cli/statistic_value.h"
#include "quarry/formats/parquet/footer.h"
#include "quarry/formats/parquet/schema.h"
#include "quarry/io/storage.h"

/// A Parquet file opened for `quarry inspect`: its storage object, footer and
/// schema tree, which every inspect view reads.
namespace quarry::cli {

class InspectedFile {
 public:
  /// Opens `uri`, reads its footer and builds its schema; throws the lower
  /// layers' errors (IoError, CorruptFile, Unsupported for encrypted files).
  static InspectedFile open(const std::string& uri);
  /// Reads the footer and schema of the opened `object`.
  static InspectedFile open(std::unique_ptr<io::StorageObject> object);

  const std::string& uri() const { return object_->uri(); }
  io::StorageObject& object() const { return *object_; }
  uint64_t fileSize() const { return footer_.fileSize; }
  const parquet::FileMetaData& metadata() const { return footer_.metadata; }
  const parquet::FileSchema& schema() const { return schema_; }

  /// Returns the schema leaf of column chunk `column`, or nullptr when a row
  /// group has more chunks than the schema has leaves.
  const parquet::SchemaNode* leaf(size_t column) const;

  /// Returns the dotted path of column chunk `column`: the schema leaf's, else
  /// the chunk's own path_in_schema.
  std::string columnPath(const parquet::ColumnChunk& chunk, size_t column) const;

  /// Returns how the bounds of column chunk `column` are encoded: from the
  /// schema leaf, else from the chunk's physical type alone.
  ValueType valueType(const parquet::ColumnChunk& chunk, size_t column) const;

 private:
  InspectedFile(std::unique_ptr<io::StorageObject> object, parquet::ParquetFooter footer,
                parquet::FileSchema schema)
      : object_(std::move(object)), footer_(std::move(footer)), schema_(std::move(schema)) {}

  std::unique_ptr<io::StorageObject> object_;
  parquet::ParquetFooter footer_;
  parquet::FileSchema schema_;
};

/// Joins strings with `separator` (encoding lists, paths).
std::string join(const std::vector<std::string>& parts, std::string_view separator);

}  // namespace quarry::cli
