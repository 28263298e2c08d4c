#include "quarry/formats/parquet/column_bounds.h"

namespace quarry::parquet {
namespace {

using Kind = LogicalType::Kind;
using Reader = BoundNode::Reader;

bool isFloatingPointColumn(const SchemaNode& leaf) {
  return leaf.physicalType == PhysicalType::FLOAT || leaf.physicalType == PhysicalType::DOUBLE ||
         leaf.logicalType.kind == Kind::FLOAT16;
}

/// Returns whether the column's annotation defines no order for its bounds.
bool annotationWithoutOrder(Kind kind) {
  switch (kind) {
    case Kind::INTERVAL:
    case Kind::GEOMETRY:
    case Kind::GEOGRAPHY:
    case Kind::VARIANT:
    case Kind::LIST:
    case Kind::MAP:
    case Kind::UNKNOWN:  // the NULL annotation
    case Kind::FILE:
    case Kind::UNKNOWN_MEMBER: return true;
    default: return false;
  }
}

/// Returns whether a byte literal's order (unsigned bytes) differs from the
/// order the column's bounds are written in (the value the bytes encode).
bool ordersByValue(const SchemaNode& leaf) {
  const Kind k = leaf.logicalType.kind;
  return k == Kind::DECIMAL || k == Kind::FLOAT16 || k == Kind::TIMESTAMP ||
         leaf.physicalType == PhysicalType::INT96;
}

}  // namespace

bool boundsOrderKnown(const SchemaNode& leaf, std::optional<ColumnOrder> order) {
  // parquet.thrift: without column_orders "the meaning of the min_value and
  // max_value fields ... is undefined"; under an order a reader does not support
  // they "should be ignored".
  if (!order) return false;
  switch (*order) {
    case ColumnOrder::TYPE_ORDER: break;
    case ColumnOrder::IEEE_754_TOTAL_ORDER:
      if (!isFloatingPointColumn(leaf)) return false;
      break;
    case ColumnOrder::INT96_TIMESTAMP_ORDER:  // INT96 bounds are ignored whatever the order
    default: return false;
  }
  if (leaf.annotationDropped) return false;
  if (leaf.physicalType == PhysicalType::INT96) return false;
  // A TIMESTAMP over FIXED_LEN_BYTE_ARRAY(12) has INT96's layout and INT96's problem:
  // no byte order follows the instant when the nanoseconds run past one day.
  if (leaf.physicalType == PhysicalType::FIXED_LEN_BYTE_ARRAY && leaf.logicalType.kind == Kind::TIMESTAMP) {
    return false;
  }
  for (const SchemaNode* n = &leaf; n != nullptr; n = n->parent) {
    if (annotationWithoutOrder(n->logicalType.kind) && (n == &leaf || n->logicalType.kind == Kind::VARIANT)) {
      return false;
    }
  }
  return true;
}

std::optional<ColumnOrder> declaredColumnOrder(const FileMetaData& metadata, int32_t leafIndex) {
  if (!metadata.column_orders || leafIndex < 0 ||
      static_cast<size_t>(leafIndex) >= metadata.column_orders->size()) {
    return std::nullopt;
  }
  return (*metadata.column_orders)[static_cast<size_t>(leafIndex)];
}

UnitStatistics chunkStatistics(const FileMetaData& metadata, const ColumnChunk& chunk,
                               const SchemaNode& leaf, int64_t rowCount) {
  UnitStatistics out;
  out.rowCount = rowCount;
  // A required leaf holds a value in every row, whatever statistics say (or
  // do not say: some writers record no null count).
  if (leaf.maxDefinitionLevel == 0) out.nullCount = 0;
  if (!chunk.meta_data) return out;
  const ColumnMetaData& meta = *chunk.meta_data;
  if (meta.geospatial_statistics) out.geospatial = &*meta.geospatial_statistics;
  if (!meta.statistics) return out;
  const Statistics& s = *meta.statistics;
  if (leaf.maxDefinitionLevel > 0) out.nullCount = s.null_count;
  if (isFloatingPointColumn(leaf)) out.nanCount = s.nan_count;
  // The deprecated min / max are never read: they are ordered by signed
  // comparison whatever the column's type, and are superseded by min_value / max_value.
  if (boundsOrderKnown(leaf, declaredColumnOrder(metadata, leaf.leafIndex))) {
    if (s.min_value) out.min = *s.min_value;
    if (s.max_value) out.max = *s.max_value;
  }
  return out;
}

UnitStatistics pageHeaderStatistics(const FileMetaData& metadata, const Statistics& stats,
                                    const SchemaNode& leaf, int64_t pageRows) {
  UnitStatistics out;
  out.rowCount = pageRows;
  // A count the page cannot hold says nothing (as in a ColumnIndex).
  auto count = [&](std::optional<int64_t> n) -> std::optional<int64_t> {
    if (!n || *n < 0 || *n > pageRows) return std::nullopt;
    return n;
  };
  out.nullCount = leaf.maxDefinitionLevel == 0 ? 0 : count(stats.null_count);
  if (isFloatingPointColumn(leaf)) out.nanCount = count(stats.nan_count);
  // As for a chunk: min_value / max_value only, never the deprecated min / max.
  if (boundsOrderKnown(leaf, declaredColumnOrder(metadata, leaf.leafIndex))) {
    if (stats.min_value) out.min = *stats.min_value;
    if (stats.max_value) out.max = *stats.max_value;
  }
  return out;
}

UnitStatistics pageStatistics(const FileMetaData& metadata, const ColumnIndex& index, size_t page,
                              const SchemaNode& leaf, int64_t pageRows) {
  UnitStatistics out;
  out.rowCount = pageRows;
  auto count = [&](const std::optional<std::vector<int64_t>>& counts) -> std::optional<int64_t> {
    if (!counts || (*counts)[page] < 0 || (*counts)[page] > pageRows) return std::nullopt;
    return (*counts)[page];
  };
  out.nullCount = count(index.null_counts);
  if (isFloatingPointColumn(leaf)) out.nanCount = count(index.nan_counts);
  if (index.null_pages[page]) {
    // "If true, a page contains only null values": its min / max are placeholders.
    // A null page of a column that cannot be null, or whose null count says
    // otherwise, is a defect of the index: nothing of the page is then known.
    if (leaf.maxDefinitionLevel == 0 || (out.nullCount && *out.nullCount != pageRows)) {
      UnitStatistics unknown;
      unknown.rowCount = pageRows;
      return unknown;
    }
    out.nullCount = pageRows;
    return out;
  }
  if (leaf.maxDefinitionLevel == 0) out.nullCount = 0;  // a required leaf: as for a chunk
  if (boundsOrderKnown(leaf, declaredColumnOrder(metadata, leaf.leafIndex))) {
    out.min = index.min_values[page];
    out.max = index.max_values[page];
  }
  return out;
}

UnitStatistics restrictTo(const UnitStatistics& stats, int64_t rows) {
  UnitStatistics out = stats;
  out.rowCount = rows;
  auto noneOrAll = [&](std::optional<int64_t> count) -> std::optional<int64_t> {
    if (!count) return std::nullopt;
    if (*count == 0) return 0;
    if (*count == stats.rowCount) return rows;
    return std::nullopt;
  };
  out.nullCount = noneOrAll(stats.nullCount);
  out.nanCount = noneOrAll(stats.nanCount);
  return out;
}

KeyBounds decodeBounds(const BoundNode& node, const UnitStatistics& stats) {
  const Reader reader = node.reader;
  if (reader == Reader::kInt96Nanos || reader == Reader::kFixed12Nanos) return {};
  if (reader == Reader::kBytes && node.node != nullptr && ordersByValue(*node.node)) return {};
  KeyBounds out;
  if (stats.min) {
    out.min = plainKey(reader, *stats.min);
    if (!out.min) return {};
  }
  if (stats.max) {
    out.max = plainKey(reader, *stats.max);
    if (!out.max) return {};
  }
  if (isFloatingPoint(reader)) {
    // TYPE_ORDER forbids a NaN bound; under IEEE_754_TOTAL_ORDER it marks a unit
    // of NaN values only. Either way the pair brackets no non-NaN value.
    if ((out.min && std::get<int64_t>(*out.min) == kNaNKey) ||
        (out.max && std::get<int64_t>(*out.max) == kNaNKey)) {
      return {};
    }
  }
  if (out.min && out.max && compareKeys(reader, *out.min, *out.max) > 0) return {};
  if (isFloatingPoint(reader)) {
    constexpr int64_t kPositiveZero = 0;   // totalOrderKey(+0.0)
    constexpr int64_t kNegativeZero = -1;  // totalOrderKey(-0.0)
    if (out.min && std::get<int64_t>(*out.min) == kPositiveZero) out.min = ColumnKey{kNegativeZero};
    if (out.max && std::get<int64_t>(*out.max) == kNegativeZero) out.max = ColumnKey{kPositiveZero};
  }
  return out;
}

}  // namespace quarry::parquet
