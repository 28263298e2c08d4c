#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "quarry/common/memory_budget.h"
#include "quarry/common/raw_vector.h"
#include "quarry/formats/parquet/schema.h"

/// The decoded content of one column chunk: its repetition and definition
/// levels and its non-null values stored densely, in the physical type's
/// in-memory form. Record assembly and the typed readers work from this.
namespace quarry::parquet {

/// A chunk's dictionary, in the same dense form as ColumnChunkData's values.
struct Dictionary {
  size_t count = 0;
  size_t width = 0;  // as ColumnChunkData::valueWidth; 0 for BYTE_ARRAY
  RawVector<uint8_t> fixed;
  RawVector<int64_t> offsets;
  RawVector<uint8_t> bytes;
  /// What the entries are charged against the query's memory limit.
  MemoryCharge memory;

  /// Returns BYTE_ARRAY entry `i` (i < count).
  std::string_view entry(size_t i) const {
    return {reinterpret_cast<const char*>(bytes.data()) + offsets[i],
            static_cast<size_t>(offsets[i + 1] - offsets[i])};
  }
};

struct ColumnChunkData {
  const SchemaNode* leaf = nullptr;

  /// Level entries: one per value, null or empty list of the column.
  int64_t levelCount = 0;
  /// Empty when every entry holds a value: the column's maximum definition level
  /// is 0, or (for a column that is not repeated) no entry of the chunk is null;
  /// or when none does (allNull).
  RawVector<int16_t> definitionLevels;
  /// A top-level optional column none of whose entries holds a value, every page's
  /// definition levels one run of 0: the levels are not kept (definitionLevels is
  /// empty) and there are no values. A row group of billions of nulls then costs
  /// nothing to decode.
  bool allNull = false;
  /// Empty when the column's maximum repetition level is 0 (one entry per row).
  RawVector<int16_t> repetitionLevels;

  /// Non-null values, densely stored.
  int64_t valueCount = 0;
  /// Bytes per value for fixed-width types: BOOLEAN 1 (0 or 1), INT32 4, INT64 8,
  /// INT96 12, FLOAT 4, DOUBLE 8, FIXED_LEN_BYTE_ARRAY(n) n; 0 for BYTE_ARRAY.
  size_t valueWidth = 0;
  /// valueCount * valueWidth bytes, little endian as Parquet's PLAIN stores them.
  RawVector<uint8_t> fixedValues;
  /// BYTE_ARRAY: value i is byteData[offsets[i], offsets[i + 1]); valueCount + 1 entries.
  RawVector<int64_t> offsets;
  RawVector<uint8_t> byteData;
  /// BYTE_ARRAY decoded with ColumnChunkReadOptions::dictionaryIds from a chunk
  /// whose data pages are all dictionary-encoded: the chunk's dictionary (shared,
  /// never modified), and per non-null value its index there (valueCount entries,
  /// each checked below dictionary->count when decoded). `offsets` and `byteData`
  /// are then empty. Null otherwise.
  std::shared_ptr<const Dictionary> dictionary;
  RawVector<uint32_t> dictionaryIds;
  /// What the levels and values are charged against the query's memory limit
  /// (memory_budget.h): decoding charges each page's before allocating them.
  MemoryCharge memory;

  /// Returns the values of a fixed-width type as T (T must match valueWidth).
  template <typename T>
  std::span<const T> values() const {
    return {reinterpret_cast<const T*>(fixedValues.data()), static_cast<size_t>(valueCount)};
  }
  /// Returns the bytes of value `i` for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY columns.
  std::string_view bytes(int64_t i) const {
    if (valueWidth == 0) {
      if (dictionary) return dictionary->entry(dictionaryIds[static_cast<size_t>(i)]);
      return {reinterpret_cast<const char*>(byteData.data()) + offsets[i],
              static_cast<size_t>(offsets[i + 1] - offsets[i])};
    }
    return {reinterpret_cast<const char*>(fixedValues.data()) + i * valueWidth, valueWidth};
  }
  /// Returns whether level entry `i` holds a value (its definition level is the maximum).
  bool hasValue(int64_t i) const {
    if (allNull) return false;
    return definitionLevels.empty() || definitionLevels[i] == leaf->maxDefinitionLevel;
  }
};

}  // namespace quarry::parquet
