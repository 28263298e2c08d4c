#include "quarry/engine/source/parquet_format_reader.h"

#include <algorithm>
#include <cstdint>
#include <memory>

#include "quarry/common/error.h"
#include "quarry/engine/source/file_split_provider.h"
#include "quarry/engine/source/parquet_file_statistics.h"
#include "quarry/engine/source/parquet_list_column.h"
#include "quarry/engine/source/parquet_split_scan.h"
#include "quarry/formats/parquet/bound_predicate.h"
#include "quarry/formats/parquet/page_pruning.h"
#include "quarry/formats/parquet/row_limits.h"
#include "quarry/io/storage.h"

namespace quarry::engine {
namespace {

using parquet::LogicalType;
using parquet::PhysicalType;
using LKind = LogicalType::Kind;

/// The schema of the file at `uri`; CorruptFile naming the file when its
/// footer's schema is malformed.
parquet::FileSchema schemaOf(const std::string& uri, const parquet::FileMetaData& metadata) {
  try {
    return parquet::FileSchema::build(metadata.schema);
  } catch (const CorruptFile& e) {
    throw CorruptFile(uri + ": " + e.what());
  }
}

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
  const parquet::FileSchema schema = schemaOf(uri, footer->metadata);
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
  object->checkUnchanged();  // the footer read is the file the splits pin
  return out;
}

std::vector<FileSplit> ParquetFormatReader::units(const FileSplit& split) const {
  auto object = openSplitFile(split);
  auto footer = cachedFooter(footers_, *object);
  const parquet::FileSchema schema = schemaOf(split.uri, footer->metadata);
  SplitOptions oneRowGroupEach;
  oneRowGroupEach.targetSplitBytes = 0;
  return unitsWithin(split, FileSplitProvider::parquetSplits(split.uri, footer->metadata, schema, oneRowGroupEach));
}

namespace {

StatisticsDecision statisticsDecision(parquet::PruningDecision decision) {
  switch (decision) {
    case parquet::PruningDecision::kNoRowMatches:
      return StatisticsDecision::kNoRow;
    case parquet::PruningDecision::kEveryRowMatches:
      return StatisticsDecision::kEveryRow;
    case parquet::PruningDecision::kSomeMayMatch:
      break;
  }
  return StatisticsDecision::kSomeRows;
}

/// A null count known of `rows` rows taken from a unit whose statistics are
/// `whole`: only "none" and "all" carry over to a part.
ColumnStatistics nullCountOfPart(const ColumnStatistics& whole, int64_t wholeRows, int64_t rows) {
  ColumnStatistics out;
  if (whole.nullCount == std::optional<int64_t>{0}) out.nullCount = 0;
  if (whole.nullCount == std::optional<int64_t>{wholeRows}) out.nullCount = rows;
  return out;
}

/// Whether `index` gives a chunk's pages and their statistics.
bool paged(const parquet::ChunkPageIndex& index) {
  return index.offsetIndex && index.columnIndex;
}

/// The statistics of `leaf` over rows [first, end) of row group `g`, whose
/// page index for the leaf is `index`; `chunk` is the leaf's chunk statistics,
/// used where the index gives no pages.
ColumnStatistics segmentColumn(const parquet::FileMetaData& metadata, int g,
                               const parquet::SchemaNode& leaf,
                               const parquet::ChunkPageIndex& index, const ColumnStatistics& chunk,
                               int64_t first, int64_t end) {
  if (leaf.maxRepetitionLevel > 0) return {};  // counts of values, not rows
  const parquet::RowGroup& group = metadata.row_groups[static_cast<size_t>(g)];
  const int64_t rows = end - first;
  if (!paged(index)) {
    return rows == group.num_rows ? chunk : nullCountOfPart(chunk, group.num_rows, rows);
  }
  const parquet::OffsetIndex& offsets = *index.offsetIndex;
  const size_t page = parquet::pageAt(offsets, first);
  const int64_t pageRows = parquet::pageRowCount(offsets, page, group.num_rows);
  const ColumnStatistics whole = ParquetFileStatistics::fromUnit(
      metadata, leaf, parquet::pageStatistics(metadata, *index.columnIndex, page, leaf, pageRows));
  const bool wholePage = offsets.page_locations[page].first_row_index == first && pageRows == rows;
  return wholePage ? whole : nullCountOfPart(whole, pageRows, rows);
}

}  // namespace

std::vector<UnitSegment> ParquetFormatReader::segments(const FileSplit& unit,
                                                       const parquet::FilterPredicate& filter,
                                                       std::span<const std::string> columns,
                                                       ScanMetrics* metrics) const {
  if (!unit.rows.empty()) return {};
  // The footer the split was made from, when still cached: a unit without a page
  // index is then decided without opening its file.
  std::unique_ptr<io::StorageObject> object;
  std::shared_ptr<const parquet::ParquetFooter> footer;
  if (unit.fileSize != 0)
    footer = footers_.find(unit.uri, unit.fileSize, unit.fileVersion.value_or(""));
  if (!footer) {
    object = openSplitFile(unit);
    footer = cachedFooter(footers_, *object);
  }
  const parquet::FileMetaData& metadata = footer->metadata;
  // The unit's row group: the one whose midpoint lies in its byte range.
  parquet::RowLimits limits;
  const uint64_t end =
      unit.length > UINT64_MAX - unit.start ? UINT64_MAX : unit.start + unit.length;
  limits.byteRanges.push_back({static_cast<int64_t>(std::min<uint64_t>(unit.start, INT64_MAX)),
                               static_cast<int64_t>(std::min<uint64_t>(end, INT64_MAX))});
  const auto plan = parquet::planRowGroups(metadata, limits, false, unit.uri);
  int g = -1;
  for (size_t i = 0; i < plan.inByteRange.size(); ++i) {
    if (!plan.inByteRange[i]) continue;
    if (g >= 0) return {};  // more than one row group
    g = static_cast<int>(i);
  }
  if (g < 0) return {};
  const parquet::RowGroup& group = metadata.row_groups[static_cast<size_t>(g)];
  if (std::none_of(group.columns.begin(), group.columns.end(), [](const parquet::ColumnChunk& c) {
        return c.column_index_offset && c.offset_index_offset;
      })) {
    return {};
  }
  const parquet::FileSchema schema = schemaOf(unit.uri, metadata);
  std::optional<parquet::BoundPredicate> bound;
  try {
    bound = parquet::BoundPredicate::bind(filter, schema);
  } catch (const InvalidArgument&) {
    return {};
  }
  const auto& filterLeaves = bound->leaves();
  if (!parquet::hasPageIndex(metadata, g, filterLeaves)) return {};

  // The page index of the filter's leaves, then of the other leaves of `columns`.
  std::vector<const parquet::SchemaNode*> indexed(filterLeaves.begin(), filterLeaves.end());
  struct Named {
    std::string name;
    const parquet::SchemaNode* node;  // null: not in the file
    size_t at;                        // its position in `indexed`; npos: not a leaf
  };
  std::vector<Named> named;
  for (const std::string& column : columns) {
    const parquet::SchemaNode* node = nullptr;
    try {
      node = schema.find(column);
    } catch (const InvalidArgument&) {
      node = nullptr;
    }
    size_t at = std::string::npos;
    if (node != nullptr && node->isLeaf()) {
      at = static_cast<size_t>(std::find(indexed.begin(), indexed.end(), node) - indexed.begin());
      if (at == indexed.size()) indexed.push_back(node);
    }
    named.push_back({column, node, at});
  }
  if (!object) object = openSplitFile(unit);
  // Kept for the scan of the segments left undecided, which reads the same page index.
  object = std::make_unique<io::RangeCachingObject>(std::move(object), pageIndexBytes_, true);
  parquet::RowGroupPageIndex index = parquet::readPageIndex(*object, metadata, g, {}, indexed);
  object->checkUnchanged();
  if (metrics != nullptr) StorageReadPublisher().publish(*object, *metrics);
  const std::span<const parquet::ChunkPageIndex> all(index.filterLeaves);
  const std::vector<parquet::DecidedSegment> decided = parquet::decideSegments(
      *bound, metadata, g, all.first(filterLeaves.size()), all.subspan(filterLeaves.size()));
  if (decided.size() < 2) return {};  // nothing finer than the row group
  // The chunk statistics of the leaves the index gives no pages for, once each.
  std::vector<ColumnStatistics> chunks(indexed.size());
  for (size_t i = 0; i < indexed.size(); ++i) {
    if (!paged(index.filterLeaves[i])) {
      chunks[i] = ParquetFileStatistics::chunk(metadata, *indexed[i], group);
    }
  }

  std::vector<UnitSegment> out;
  out.reserve(decided.size());
  for (const parquet::DecidedSegment& d : decided) {
    UnitSegment segment{unit, statisticsDecision(d.decision)};
    segment.split.rows = {{d.first, d.end}};
    segment.split.statistics = nullptr;
    if (segment.decision == StatisticsDecision::kEveryRow) {
      auto stats = std::make_shared<SourceStatistics>();
      stats->rowCount = d.end - d.first;
      for (const Named& n : named) {
        if (n.node == nullptr) continue;  // absent from the file: all null, as the unit says
        ColumnStatistics column;
        if (n.at != std::string::npos) {
          column = segmentColumn(metadata, g, *n.node, index.filterLeaves[n.at], chunks[n.at],
                                 d.first, d.end);
        }
        stats->columns.emplace(n.name, std::move(column));
      }
      segment.split.statistics = std::move(stats);
    }
    out.push_back(std::move(segment));
  }
  return out;
}

LocalSupplier ParquetFormatReader::read(const FileSplit& split, const ReadRequest& request) const {
  return scanParquetSplit(*this, split, request);
}

}  // namespace quarry::engine
