#include "quarry/engine/source/parquet_file_statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/column_bounds.h"

namespace quarry::engine {
namespace {

using parquet::LogicalType;
using parquet::PhysicalType;
using Kind = LogicalType::Kind;

template <typename T>
T littleEndian(std::string_view bytes) {
  T v{};
  std::memcpy(&v, bytes.data(),
              sizeof v);  // Parquet PLAIN is little-endian, as are quarry's targets
  return v;
}

std::optional<StatisticValue> decodeFloating(double v, bool totalOrder) {
  if (std::isnan(v)) return std::nullopt;
  if (v == 0.0 && !totalOrder) return std::nullopt;
  return v;
}

// Decodes one PLAIN bound of `leaf`; nullopt when no StatisticValue carries it
// exactly.
std::optional<StatisticValue> decodeBound(const parquet::SchemaNode& leaf, std::string_view bytes,
                                          std::optional<bool> exact, bool totalOrder) {
  if (exact && !*exact) return std::nullopt;  // a writer that says it truncated
  const LogicalType& logical = leaf.logicalType;
  switch (*leaf.physicalType) {
    case PhysicalType::BOOLEAN:
      if (bytes.size() != 1 || static_cast<uint8_t>(bytes[0]) > 1) return std::nullopt;
      return bytes[0] == 1;
    case PhysicalType::INT32: {
      if (bytes.size() != 4) return std::nullopt;
      const int32_t v = littleEndian<int32_t>(bytes);
      if (logical.kind == Kind::NONE) return int64_t{v};
      if (logical.kind == Kind::INTEGER) {
        return logical.isSigned ? int64_t{v} : int64_t{static_cast<uint32_t>(v)};
      }
      if (logical.kind == Kind::DATE) return Date{v};
      return std::nullopt;
    }
    case PhysicalType::INT64: {
      if (bytes.size() != 8) return std::nullopt;
      const int64_t v = littleEndian<int64_t>(bytes);
      if (logical.kind == Kind::NONE) return v;
      if (logical.kind == Kind::INTEGER) {
        if (logical.isSigned || v >= 0) return v;
        return std::nullopt;  // an unsigned value past int64
      }
      if (logical.kind == Kind::TIMESTAMP && logical.isAdjustedToUTC) {
        const int64_t perSecond = logical.unit == parquet::TimeUnit::MILLIS   ? 1'000
                                  : logical.unit == parquet::TimeUnit::MICROS ? 1'000'000
                                                                              : 1'000'000'000;
        return Instant::ofEpochUnits(v, perSecond);
      }
      return std::nullopt;
    }
    case PhysicalType::FLOAT:
      if (bytes.size() != 4 || logical.kind != Kind::NONE) return std::nullopt;
      return decodeFloating(littleEndian<float>(bytes), totalOrder);
    case PhysicalType::DOUBLE:
      if (bytes.size() != 8 || logical.kind != Kind::NONE) return std::nullopt;
      return decodeFloating(littleEndian<double>(bytes), totalOrder);
    case PhysicalType::BYTE_ARRAY:
    case PhysicalType::FIXED_LEN_BYTE_ARRAY: {
      // Writers truncate byte-string bounds: only a bound marked exact counts.
      if (!exact) return std::nullopt;
      const bool bytesOrdered = logical.kind == Kind::NONE || logical.kind == Kind::STRING ||
                                logical.kind == Kind::ENUM || logical.kind == Kind::JSON ||
                                logical.kind == Kind::BSON;
      if (!bytesOrdered) return std::nullopt;
      if (*leaf.physicalType == PhysicalType::FIXED_LEN_BYTE_ARRAY &&
          bytes.size() != static_cast<size_t>(leaf.typeLength)) {
        return std::nullopt;
      }
      return std::string(bytes);
    }
    case PhysicalType::INT96:
      return std::nullopt;
  }
  return std::nullopt;
}

bool underRepeatedField(const parquet::SchemaNode& leaf) {
  return leaf.maxRepetitionLevel > 0;
}

}  // namespace

ColumnStatistics ParquetFileStatistics::chunk(const parquet::FileMetaData& metadata,
                                              const parquet::SchemaNode& leaf,
                                              const parquet::RowGroup& rowGroup) {
  if (!leaf.isLeaf() || leaf.leafIndex < 0 ||
      static_cast<size_t>(leaf.leafIndex) >= rowGroup.columns.size()) {
    return {};
  }
  const parquet::ColumnChunk& columnChunk = rowGroup.columns[static_cast<size_t>(leaf.leafIndex)];
  const parquet::UnitStatistics unit =
      parquet::chunkStatistics(metadata, columnChunk, leaf, rowGroup.num_rows);
  std::optional<bool> minExact, maxExact;
  if (columnChunk.meta_data && columnChunk.meta_data->statistics) {
    minExact = columnChunk.meta_data->statistics->is_min_value_exact;
    maxExact = columnChunk.meta_data->statistics->is_max_value_exact;
  }
  return fromUnit(metadata, leaf, unit, minExact, maxExact);
}

ColumnStatistics ParquetFileStatistics::fromUnit(const parquet::FileMetaData& metadata,
                                                 const parquet::SchemaNode& leaf,
                                                 const parquet::UnitStatistics& unit,
                                                 std::optional<bool> minExact,
                                                 std::optional<bool> maxExact) {
  ColumnStatistics out;
  if (!leaf.isLeaf() || underRepeatedField(leaf)) return out;
  const int64_t rows = unit.rowCount;
  if (unit.nullCount && *unit.nullCount >= 0 && *unit.nullCount <= rows) {
    out.nullCount = unit.nullCount;
  }
  if (out.nullCount && *out.nullCount == rows) return out;  // all null: no bound needed
  const bool floating =
      *leaf.physicalType == PhysicalType::FLOAT || *leaf.physicalType == PhysicalType::DOUBLE;
  if (floating && unit.nanCount != std::optional<int64_t>{0}) return out;
  if (!unit.min || !unit.max) return out;
  const bool totalOrder = parquet::declaredColumnOrder(metadata, leaf.leafIndex) ==
                          parquet::ColumnOrder::IEEE_754_TOTAL_ORDER;
  auto min = decodeBound(leaf, *unit.min, minExact, totalOrder);
  auto max = decodeBound(leaf, *unit.max, maxExact, totalOrder);
  if (min && max) {
    const auto order = compareStatisticValues(*min, *max);
    if (!order || *order > 0) return out;  // reversed bounds bracket nothing
  }
  out.min = std::move(min);
  out.max = std::move(max);
  return out;
}

SourceStatistics ParquetFileStatistics::extractRowGroups(const parquet::FileMetaData& metadata,
                                                         const parquet::FileSchema& schema,
                                                         size_t first, size_t count) {
  const size_t groups = metadata.row_groups.size();
  first = std::min(first, groups);
  const size_t last = first + std::min(count, groups - first);
  const std::vector<const parquet::SchemaNode*>& leaves = schema.leaves();
  // Each column is merged across the row groups in place (what merge() does for two
  // units with the same columns), without a map per row group.
  std::vector<ColumnStatistics> columns(leaves.size());
  SourceStatistics out;
  for (size_t g = first; g < last; ++g) {
    const parquet::RowGroup& rowGroup = metadata.row_groups[g];
    for (size_t i = 0; i < leaves.size(); ++i) {
      ColumnStatistics part = chunk(metadata, *leaves[i], rowGroup);
      columns[i] = g == first ? std::move(part)
                              : mergeColumn(columns[i], out.rowCount, part, rowGroup.num_rows);
    }
    int64_t rows = 0;
    if (__builtin_add_overflow(out.rowCount, rowGroup.num_rows, &rows)) {
      throw CorruptFile("row counts " + std::to_string(out.rowCount) + " and " +
                        std::to_string(rowGroup.num_rows) + " overflow when merged");
    }
    out.rowCount = rows;
  }
  for (size_t i = 0; i < leaves.size(); ++i) {
    // No row group: every column is empty, so all-null.
    if (first == last && !underRepeatedField(*leaves[i])) columns[i].nullCount = 0;
    out.columns.emplace(leaves[i]->path, std::move(columns[i]));
  }
  return out;
}

SourceStatistics ParquetFileStatistics::extract(const parquet::FileMetaData& metadata,
                                                const parquet::FileSchema& schema) {
  return extractRowGroups(metadata, schema, 0, metadata.row_groups.size());
}

}  // namespace quarry::engine
