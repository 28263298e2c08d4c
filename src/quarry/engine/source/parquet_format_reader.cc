#include "quarry/engine/source/parquet_format_reader.h"

#include <memory>

#include "quarry/common/error.h"
#include "quarry/engine/source/file_split_provider.h"
#include "quarry/engine/source/parquet_file_statistics.h"
#include "quarry/engine/source/parquet_list_column.h"
#include "quarry/engine/source/parquet_split_scan.h"
#include "quarry/io/storage.h"

namespace quarry::engine {
namespace {

using parquet::LogicalType;
using parquet::PhysicalType;
using LKind = LogicalType::Kind;

TimeUnit unitOf(parquet::TimeUnit unit) {
  switch (unit) {
    case parquet::TimeUnit::MILLIS:
      return TimeUnit::kMillis;
    case parquet::TimeUnit::MICROS:
      return TimeUnit::kMicros;
    case parquet::TimeUnit::NANOS:
      return TimeUnit::kNanos;
  }
  return TimeUnit::kMicros;
}

DataType decimalOrDouble(const LogicalType& logical) {
  if (logical.precision > 38) return DataType::float64();
  return DataType::decimal(logical.precision, logical.scale);
}

bool underRepeatedField(const parquet::SchemaNode& leaf) {
  return leaf.maxRepetitionLevel > 0;
}

}  // namespace

const std::string& ParquetFormatReader::name() const {
  static const std::string kName = "parquet";
  return kName;
}

std::optional<DataType> ParquetFormatReader::engineType(const parquet::SchemaNode& leaf) {
  if (!leaf.isLeaf() || underRepeatedField(leaf)) return std::nullopt;
  return primitiveType(leaf);
}

std::optional<DataType> ParquetFormatReader::listType(const parquet::SchemaNode& node) {
  const parquet::SchemaNode* element = parquetListElement(node);
  if (element == nullptr) return std::nullopt;
  const std::optional<DataType> type = primitiveType(*element);
  // A list of the null type would hold nothing a query could see: left out.
  if (!type || type->kind == TypeKind::kNull) return std::nullopt;
  return DataType::list(*type);
}

std::optional<DataType> ParquetFormatReader::primitiveType(const parquet::SchemaNode& leaf) {
  if (!leaf.isLeaf()) return std::nullopt;
  const LogicalType& logical = leaf.logicalType;
  if (logical.kind == LKind::UNKNOWN) return DataType::null();
  switch (*leaf.physicalType) {
    case PhysicalType::BOOLEAN:
      return DataType::boolean();
    case PhysicalType::INT32:
      switch (logical.kind) {
        case LKind::INTEGER:
          return !logical.isSigned && logical.bitWidth >= 32 ? DataType::int64() : DataType::int32();
        case LKind::DATE:
          return DataType::date();
        case LKind::TIME:
          return DataType::time(unitOf(logical.unit));
        case LKind::DECIMAL:
          return decimalOrDouble(logical);
        default:
          return DataType::int32();
      }
    case PhysicalType::INT64:
      switch (logical.kind) {
        case LKind::INTEGER:
          return !logical.isSigned && logical.bitWidth == 64 ? DataType::uint64() : DataType::int64();
        case LKind::TIME:
          return DataType::time(unitOf(logical.unit));
        case LKind::TIMESTAMP:
          return DataType::timestamp(unitOf(logical.unit), logical.isAdjustedToUTC);
        case LKind::DECIMAL:
          return decimalOrDouble(logical);
        default:
          return DataType::int64();
      }
    case PhysicalType::INT96:
      return DataType::timestamp(TimeUnit::kNanos, true);
    case PhysicalType::FLOAT:
    case PhysicalType::DOUBLE:
      return DataType::float64();
    case PhysicalType::BYTE_ARRAY:
      switch (logical.kind) {
        case LKind::STRING:
        case LKind::ENUM:
        case LKind::JSON:
          return DataType::string();
        case LKind::DECIMAL:
          return decimalOrDouble(logical);
        default:
          return DataType::binary();
      }
    case PhysicalType::FIXED_LEN_BYTE_ARRAY:
      if (logical.kind == LKind::UUID && leaf.typeLength == 16) return DataType::uuid();
      if (logical.kind == LKind::DECIMAL) return decimalOrDouble(logical);
      if (logical.kind == LKind::FLOAT16 && leaf.typeLength == 2) return DataType::float64();
      return DataType::binary();
  }
  return std::nullopt;
}

Schema ParquetFormatReader::engineSchema(const parquet::FileSchema& schema) {
  Schema out;
  for (const parquet::SchemaNode* leaf : schema.leaves()) {
    if (auto type = engineType(*leaf)) {
      out.push_back({leaf->path, *type});
    } else if (const parquet::SchemaNode* list = parquetListNode(*leaf)) {
      if (auto listed = listType(*list)) out.push_back({list->path, *listed});
    }
  }
  return out;
}

std::vector<UnreadColumn> ParquetFormatReader::unreadColumns(const parquet::FileSchema& schema) {
  std::vector<UnreadColumn> out;
  for (const parquet::SchemaNode* leaf : schema.leaves()) {
    if (engineType(*leaf)) continue;
    if (const parquet::SchemaNode* list = parquetListNode(*leaf); list != nullptr && listType(*list)) continue;
    std::string what;
    const parquet::SchemaNode* column = parquetNestedColumn(*leaf, what);
    if (column == nullptr) continue;
    if (!out.empty() && out.back().name == column->path) continue;  // leaves of one column are adjacent
    out.push_back({column->path, what});
  }
  return out;
}

SourceMetadata ParquetFormatReader::metadata(const std::string& uri) const {
  auto object = io::openObject(uri);
  auto footer = cachedFooter(footers_, *object);
  parquet::FileSchema schema;
  try {
    schema = parquet::FileSchema::build(footer->metadata.schema);
  } catch (const CorruptFile& e) {
    throw CorruptFile(uri + ": " + e.what());
  }
  SourceMetadata out;
  out.schema = engineSchema(schema);
  out.unreadColumns = unreadColumns(schema);
  out.fileSize = object->size();
  out.splits = FileSplitProvider::parquetSplits(uri, footer->metadata, schema);
  // A split of every row group already holds the file's statistics.
  const bool wholeFile = out.splits.size() == 1 && out.splits[0].units == footer->metadata.row_groups.size();
  out.statistics = wholeFile && out.splits[0].statistics
                       ? out.splits[0].statistics
                       : std::make_shared<const SourceStatistics>(
                             ParquetFileStatistics::extract(footer->metadata, schema));
  for (FileSplit& split : out.splits) {
    split.fileSize = out.fileSize;
    split.fileVersion = object->version();
  }
  out.bytesRead = object->bytesRead();
  out.requests = object->requestCount();
  return out;
}

std::vector<FileSplit> ParquetFormatReader::units(const FileSplit& split) const {
  auto object = openSplitFile(split);
  auto footer = cachedFooter(footers_, *object);
  parquet::FileSchema schema;
  try {
    schema = parquet::FileSchema::build(footer->metadata.schema);
  } catch (const CorruptFile& e) {
    throw CorruptFile(split.uri + ": " + e.what());
  }
  SplitOptions oneRowGroupEach;
  oneRowGroupEach.targetSplitBytes = 0;
  return unitsWithin(split, FileSplitProvider::parquetSplits(split.uri, footer->metadata, schema, oneRowGroupEach));
}

LocalSupplier ParquetFormatReader::read(const FileSplit& split, const ReadRequest& request) const {
  return scanParquetSplit(*this, split, request);
}

}  // namespace quarry::engine
