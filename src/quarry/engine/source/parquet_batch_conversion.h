#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "quarry/engine/data/block.h"
#include "quarry/engine/data/data_type.h"
#include "quarry/formats/parquet/column_reader.h"

/// ColumnReaders' batches as engine blocks: how a Parquet leaf's values become
/// the engine's, in the type ParquetFormatReader::engineType (a flat leaf) or
/// listType (a list read through its element leaf) gives. The Parquet scan
/// converts with it, and so does the Arrow export of a ColumnReaders
/// (quarry/arrow.h).
namespace quarry::engine {

/// The rows of a batch a block takes: [offset, offset + count), or, when the
/// reader keeps a selection apart, the selected rows at [offset, offset + count).
struct BatchRows {
  int64_t offset = 0;
  int64_t count = 0;
  const int64_t* selected = nullptr;  // null: every row of the batch
  int64_t operator[](size_t k) const {
    return selected != nullptr ? selected[k] : offset + static_cast<int64_t>(k);
  }
};

/// Converts one column's batches, in order.
class ParquetColumnConversion {
 public:
  /// `uri` names the file in errors.
  ParquetColumnConversion(DataType type, std::string uri)
      : type_(std::move(type)), uri_(std::move(uri)) {}

  const DataType& type() const { return type_; }

  /// Returns `rows` of `batch` as a block of type(). A chunk read as dictionary
  /// ids (ReaderOptions::dictionaryIds) of a string or binary type becomes a
  /// dictionary block over the engine's copy of the chunk's dictionary, made once
  /// for the batches that share it. A value the type cannot hold (an INT96 out of
  /// range, a decimal too wide) throws naming the file and the column.
  Block convert(const parquet::ColumnBatch& batch, const BatchRows& rows);

  /// The engine copy of the last Parquet dictionary the column's blocks used (the
  /// Parquet one is held, so its address is not reused while cached).
  struct DictionaryCache {
    std::shared_ptr<const parquet::Dictionary> parquet;
    std::shared_ptr<const ByteDictionary> engine;
  };

 private:
  DataType type_;
  std::string uri_;
  DictionaryCache dictionary_;
};

}  // namespace quarry::engine
