#include "quarry/formats/parquet/row_selection.h"

#include <string>

#include "quarry/common/error.h"

namespace quarry::parquet {
namespace {

/// Appends runs of `from`'s dense values to `to`, merging runs that touch so
/// that consecutive kept rows cost one copy.
class ValueCopier {
 public:
  ValueCopier(const ColumnChunkData& from, ColumnChunkData& to) : from_(from), to_(to) {
    to_.dictionary = from_.dictionary;  // the kept rows' indices share it
    if (from_.valueWidth == 0 && !from_.dictionary) to_.offsets.push_back(0);
  }

  /// Adds value `index` (values must come in ascending order).
  void add(int64_t index) {
    if (index == runEnd_) {
      ++runEnd_;
      return;
    }
    flush();
    runBegin_ = index;
    runEnd_ = index + 1;
  }

  void flush() {
    if (runEnd_ > runBegin_) copy(runBegin_, runEnd_);
    runBegin_ = runEnd_ = -1;
  }

 private:
  void copy(int64_t begin, int64_t end) {
    to_.valueCount += end - begin;
    if (from_.valueWidth != 0) {
      const auto width = static_cast<int64_t>(from_.valueWidth);
      appendCopy(to_.fixedValues, from_.fixedValues.data() + begin * width,
                 static_cast<size_t>((end - begin) * width));
      return;
    }
    if (from_.dictionary) {
      appendCopy(to_.dictionaryIds, from_.dictionaryIds.data() + begin, static_cast<size_t>(end - begin));
      return;
    }
    const int64_t shift = to_.offsets.back() - from_.offsets[static_cast<size_t>(begin)];
    for (int64_t i = begin + 1; i <= end; ++i) {
      to_.offsets.push_back(from_.offsets[static_cast<size_t>(i)] + shift);
    }
    const int64_t first = from_.offsets[static_cast<size_t>(begin)];
    appendCopy(to_.byteData, from_.byteData.data() + first,
               static_cast<size_t>(from_.offsets[static_cast<size_t>(end)] - first));
  }

  const ColumnChunkData& from_;
  ColumnChunkData& to_;
  int64_t runBegin_ = -1;
  int64_t runEnd_ = -1;
};

/// A column that is not repeated: level entry i is row i.
void keepFlatRows(const ColumnChunkData& column, std::span<const int64_t> rows,
                  ValueCopier& values, ColumnChunkData& out) {
  out.levelCount = static_cast<int64_t>(rows.size());
  if (column.allNull) {
    out.allNull = true;
    return;
  }
  if (column.definitionLevels.empty()) {
    for (const int64_t row : rows) values.add(row);
    return;
  }
  const int16_t* def = column.definitionLevels.data();
  const int16_t maxDef = column.leaf->maxDefinitionLevel;
  out.definitionLevels.reserve(rows.size());
  int64_t entry = 0;
  int64_t value = 0;  // the dense index of entry `entry`'s value
  size_t nulls = 0;
  for (const int64_t row : rows) {
    for (; entry < row; ++entry) value += def[entry] == maxDef;
    out.definitionLevels.push_back(def[row]);
    if (def[row] == maxDef) {
      values.add(value);
    } else {
      ++nulls;
    }
  }
  if (nulls == 0) out.definitionLevels.clear();
}

/// A repeated column: a row is the run of entries from one of repetition level 0
/// up to the next.
void keepRepeatedRows(const ColumnChunkData& column, std::span<const int64_t> rows,
                      ValueCopier& values, ColumnChunkData& out) {
  const bool hasDef = !column.definitionLevels.empty();
  const int16_t* def = column.definitionLevels.data();
  const int16_t* rep = column.repetitionLevels.data();
  const int16_t maxDef = column.leaf->maxDefinitionLevel;
  int64_t row = -1;
  size_t next = 0;  // the first selected row not reached yet
  bool keep = false;
  int64_t value = 0;
  for (int64_t i = 0; i < column.levelCount; ++i) {
    if (rep[i] == 0) {
      ++row;
      keep = next < rows.size() && rows[next] == row;
      if (keep) {
        ++next;
      } else if (next == rows.size()) {
        break;
      }
    }
    const bool hasValue = !hasDef || def[i] == maxDef;
    if (keep) {
      out.repetitionLevels.push_back(rep[i]);
      if (hasDef) out.definitionLevels.push_back(def[i]);
      ++out.levelCount;
      if (hasValue) values.add(value);
    }
    value += hasValue;
  }
}

}  // namespace

ColumnChunkData keepRows(const ColumnChunkData& column, std::span<const int64_t> rows,
                         ColumnChunkData reuse) {
  ColumnChunkData out = std::move(reuse);
  out.leaf = column.leaf;
  out.valueWidth = column.valueWidth;
  out.levelCount = 0;
  out.valueCount = 0;
  out.definitionLevels.clear();
  out.allNull = false;
  out.repetitionLevels.clear();
  out.fixedValues.clear();
  out.offsets.clear();
  out.byteData.clear();
  out.dictionaryIds.clear();
  ValueCopier values(column, out);
  if (column.repetitionLevels.empty()) {
    keepFlatRows(column, rows, values, out);
  } else {
    keepRepeatedRows(column, rows, values, out);
  }
  values.flush();
  return out;
}

AssembledRowGroup keepRows(const AssembledRowGroup& group, std::span<const int64_t> rows,
                           std::span<const SchemaNode* const> leaves,
                           std::vector<ColumnChunkData> reuse) {
  if (!rows.empty() && (rows.front() < 0 || rows.back() >= group.numRows())) {
    throw InvalidArgument("keepRows: row " +
                          std::to_string(rows.front() < 0 ? rows.front() : rows.back()) +
                          " lies outside the row group's " + std::to_string(group.numRows()) +
                          " rows");
  }
  std::vector<ColumnChunkData> columns = std::move(reuse);
  columns.resize(leaves.size());
  for (size_t i = 0; i < leaves.size(); ++i) {
    const ColumnChunkData* column = group.column(leaves[i]);
    if (column == nullptr) {
      throw InvalidArgument("keepRows: column '" + leaves[i]->path +
                            "' is not decoded in this row group");
    }
    columns[i] = keepRows(*column, rows, std::move(columns[i]));
  }
  return AssembledRowGroup::assemble(std::move(columns), static_cast<int64_t>(rows.size()));
}

}  // namespace quarry::parquet
