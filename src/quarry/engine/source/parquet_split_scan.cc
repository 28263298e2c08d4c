#include "quarry/engine/source/parquet_split_scan.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "quarry/common/big_endian.h"
#include "quarry/common/error.h"
#include "quarry/engine/source/parquet_format_reader.h"
#include "quarry/engine/source/parquet_list_column.h"
#include "quarry/engine/source/split_scan.h"
#include "quarry/formats/parquet/bound_predicate.h"
#include "quarry/formats/parquet/column_reader.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_limits.h"
#include "quarry/io/storage.h"

namespace quarry::engine {

std::shared_ptr<const parquet::ParquetFooter> cachedFooter(parquet::FooterCache& cache,
                                                           io::StorageObject& object) {
  // The engine reads a file's footer for its metadata, then again for each split:
  // the uri, size and version (an HTTP ETag, a local file's mtime) identify it.
  return cache.read(object, [&object] { return std::optional<std::string>(object.version().value_or("")); });
}

namespace {

using parquet::LogicalType;
using parquet::PhysicalType;
using LKind = LogicalType::Kind;

template <typename T>
T littleEndian(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

double halfToDouble(uint16_t h) {
  const int sign = (h >> 15) & 1;
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  double v = 0;
  if (exponent == 0) {
    v = std::ldexp(mantissa, -24);
  } else if (exponent == 31) {
    v = mantissa == 0 ? INFINITY : NAN;
  } else {
    v = std::ldexp(mantissa + 1024, exponent - 25);
  }
  return sign ? -v : v;
}

double bigEndianDecimalToDouble(std::string_view bytes, int32_t scale) {
  const bool negative = !bytes.empty() && static_cast<uint8_t>(bytes[0]) >= 0x80;
  // The magnitude of the two's complement value, accumulated in long double.
  long double magnitude = 0;
  if (negative) {
    // -x = ~x + 1: accumulate the complement, then add one.
    for (char c : bytes) magnitude = magnitude * 256 + static_cast<uint8_t>(~static_cast<uint8_t>(c));
    magnitude += 1;
  } else {
    for (char c : bytes) magnitude = magnitude * 256 + static_cast<uint8_t>(c);
  }
  const long double v = magnitude / std::pow(10.0L, scale);
  return static_cast<double>(negative ? -v : v);
}

parquet::RowRanges rowsOf(const std::vector<RowSpan>& spans) {
  parquet::RowRanges out;
  for (const RowSpan& span : spans) out.add(span.first, span.end);
  return out;
}

/// How one leaf's values become an engine block.
struct LeafConversion {
  const parquet::SchemaNode* leaf = nullptr;
  DataType type;
};

/// The rows of a batch a page takes: [offset, offset + count), or, when the
/// reader keeps a selection apart, the selected rows at [offset, offset + count).
struct BatchRows {
  int64_t offset = 0;
  int64_t count = 0;
  const int64_t* selected = nullptr;  // null: every row of the batch
  int64_t operator[](size_t k) const {
    return selected != nullptr ? selected[k] : offset + static_cast<int64_t>(k);
  }
};

/// Sets `out` (of the leaf's engine type) to `rows` of `batch`, each value
/// through `convert(denseIndex)`, written straight into the block's storage (a
/// null's position holds zero).
template <typename T, typename Convert>
void fillFixed(const parquet::ColumnBatch& batch, const BatchRows& rows, Block& out, Convert convert) {
  const parquet::ColumnChunkData& data = batch.data();
  const size_t n = static_cast<size_t>(rows.count);
  std::vector<T> values(n);
  if (data.definitionLevels.empty() && data.valueCount == batch.rowCount()) {
    if (rows.selected == nullptr) {
      for (size_t k = 0; k < n; ++k) values[k] = convert(rows.offset + static_cast<int64_t>(k));
    } else {
      for (size_t k = 0; k < n; ++k) values[k] = convert(rows.selected[k]);
    }
    out = Block::fromValues(out.type(), std::move(values));
    return;
  }
  const int64_t* index = batch.valueIndex().data();
  std::vector<uint8_t> validity(n, 1);
  bool anyNull = false;
  for (size_t k = 0; k < n; ++k) {
    const int64_t v = index[rows[k]];
    if (v < 0) {
      validity[k] = 0;
      anyNull = true;
    } else {
      values[k] = convert(v);
    }
  }
  out = Block::fromValues(out.type(), std::move(values), anyNull ? std::move(validity) : std::vector<uint8_t>{});
}

void fillBytes(const parquet::ColumnBatch& batch, const BatchRows& rows, Block& out) {
  const parquet::ColumnChunkData& data = batch.data();
  const size_t n = static_cast<size_t>(rows.count);
  out.reserve(n);
  if (data.definitionLevels.empty() && data.valueCount == batch.rowCount()) {
    if (data.valueWidth == 0 && rows.selected == nullptr) {  // BYTE_ARRAY: one copy of the run's bytes
      out.appendBytesRun(reinterpret_cast<const char*>(data.byteData.data()),
                         std::span<const int64_t>(data.offsets.data() + rows.offset, n + 1));
      return;
    }
    for (size_t k = 0; k < n; ++k) out.appendBytes(data.bytes(rows[k]));
    return;
  }
  std::span<const int64_t> index = batch.valueIndex();
  std::vector<uint8_t> validity(n, 1);
  bool anyNull = false;
  for (size_t k = 0; k < n; ++k) {
    const int64_t v = index[static_cast<size_t>(rows[k])];
    if (v < 0) {
      out.appendBytes({});
      validity[k] = 0;
      anyNull = true;
    } else {
      out.appendBytes(data.bytes(v));
    }
  }
  if (anyNull) out.setValidity(std::move(validity));
}

/// The engine copy of the last Parquet dictionary a column's blocks used: the
/// pages of one row group share it (the Parquet one is held, so its address is
/// not reused while cached).
struct DictionaryCache {
  std::shared_ptr<const parquet::Dictionary> parquet;
  std::shared_ptr<const ByteDictionary> engine;
};

/// `rows` of a chunk in the dictionary form as a dictionary block; ids were
/// checked against the dictionary when decoded.
Block fillDictionaryIds(const parquet::ColumnBatch& batch, const DataType& type, const BatchRows& rows,
                        DictionaryCache& cache) {
  const parquet::ColumnChunkData& data = batch.data();
  if (cache.parquet != data.dictionary) {
    auto dictionary = std::make_shared<ByteDictionary>();
    dictionary->offsets.reserve(data.dictionary->count + 1);
    dictionary->data.reserve(data.dictionary->bytes.size());
    for (size_t k = 0; k < data.dictionary->count; ++k) dictionary->append(data.dictionary->entry(k));
    cache.parquet = data.dictionary;
    cache.engine = std::move(dictionary);
  }
  const size_t n = static_cast<size_t>(rows.count);
  std::vector<uint32_t> ids(n);
  const uint32_t* from = data.dictionaryIds.data();
  if (data.definitionLevels.empty() && data.valueCount == batch.rowCount()) {
    if (rows.selected == nullptr) {
      std::copy(from + rows.offset, from + rows.offset + rows.count, ids.begin());
    } else {
      for (size_t k = 0; k < n; ++k) ids[k] = from[rows.selected[k]];
    }
    return Block::fromDictionary(type, cache.engine, std::move(ids));
  }
  std::span<const int64_t> index = batch.valueIndex();
  std::vector<uint8_t> validity(n, 1);
  for (size_t k = 0; k < n; ++k) {
    const int64_t v = index[static_cast<size_t>(rows[k])];
    ids[k] = v < 0 ? 0 : from[v];
    validity[k] = v >= 0;
  }
  return Block::fromDictionary(type, cache.engine, std::move(ids), std::move(validity));
}

/// `rows` of `batch` as a block of `type` (the leaf's engine type).
Block convertBatch(const parquet::ColumnBatch& batch, const DataType& type, const BatchRows& rows,
                   const std::string& uri, DictionaryCache& dictionaryCache) {
  const parquet::SchemaNode& leaf = batch.leaf();
  const parquet::ColumnChunkData& data = batch.data();
  Block out(type);
  // A type without values, or a chunk of nulls only (ColumnChunkData::allNull).
  if (type.kind == TypeKind::kNull || data.allNull) return Block::nulls(type, static_cast<size_t>(rows.count));
  switch (*leaf.physicalType) {
    case PhysicalType::BOOLEAN: {
      auto v = data.values<uint8_t>();
      fillFixed<uint8_t>(batch, rows, out, [&](int64_t i) { return v[i]; });
      return out;
    }
    case PhysicalType::INT32: {
      auto v = data.values<int32_t>();
      switch (type.kind) {
        case TypeKind::kInt64:  // INT(32, unsigned)
          fillFixed<int64_t>(batch, rows, out,
                             [&](int64_t i) { return int64_t{static_cast<uint32_t>(v[i])}; });
          return out;
        case TypeKind::kTime:  // TIME(MILLIS)
          fillFixed<int64_t>(batch, rows, out, [&](int64_t i) { return int64_t{v[i]}; });
          return out;
        case TypeKind::kDecimal:
          fillFixed<Int128>(batch, rows, out, [&](int64_t i) { return Int128{v[i]}; });
          return out;
        default:  // int32, date; INT(8|16, unsigned) values are their int32 values
          fillFixed<int32_t>(batch, rows, out, [&](int64_t i) { return v[i]; });
          return out;
      }
    }
    case PhysicalType::INT64: {
      auto v = data.values<int64_t>();
      switch (type.kind) {
        case TypeKind::kUInt64:
          fillFixed<uint64_t>(batch, rows, out,
                              [&](int64_t i) { return static_cast<uint64_t>(v[i]); });
          return out;
        case TypeKind::kDecimal:
          fillFixed<Int128>(batch, rows, out, [&](int64_t i) { return Int128{v[i]}; });
          return out;
        default:  // int64, time, timestamp
          fillFixed<int64_t>(batch, rows, out, [&](int64_t i) { return v[i]; });
          return out;
      }
    }
    case PhysicalType::INT96: {
      const uint8_t* base = data.fixedValues.data();
      fillFixed<int64_t>(batch, rows, out, [&](int64_t i) {
        const uint8_t* p = base + i * 12;
        const int64_t nanosOfDay = littleEndian<int64_t>(p);
        const int64_t julianDay = littleEndian<int32_t>(p + 8);
        constexpr int64_t kUnixEpochJulianDay = 2440588;
        constexpr int64_t kNanosPerDay = 86'400'000'000'000;
        int64_t nanos = 0;
        if (__builtin_mul_overflow(julianDay - kUnixEpochJulianDay, kNanosPerDay, &nanos) ||
            __builtin_add_overflow(nanos, nanosOfDay, &nanos)) {
          throw InvalidArgument(uri + ": column " + leaf.path + ": the INT96 timestamp (day " +
                                std::to_string(julianDay) + ", nanosecond " +
                                std::to_string(nanosOfDay) +
                                ") is outside the range of timestamp(ns)");
        }
        return nanos;
      });
      return out;
    }
    case PhysicalType::FLOAT: {
      auto v = data.values<float>();
      fillFixed<double>(batch, rows, out, [&](int64_t i) { return double{v[i]}; });
      return out;
    }
    case PhysicalType::DOUBLE: {
      auto v = data.values<double>();
      fillFixed<double>(batch, rows, out, [&](int64_t i) { return v[i]; });
      return out;
    }
    case PhysicalType::BYTE_ARRAY:
    case PhysicalType::FIXED_LEN_BYTE_ARRAY: {
      if (type.kind == TypeKind::kDecimal) {
        // Fixed width: one dispatch on it per batch, not per value.
        const uint8_t* base = data.fixedValues.data();
        if (data.valueWidth > 0 && withByteWidth(data.valueWidth, [&]<size_t W>() {
              fillFixed<Int128>(batch, rows, out,
                                [&](int64_t i) { return bigEndianInt128<W>(base + i * W); });
            })) {
          return out;
        }
        fillFixed<Int128>(batch, rows, out, [&](int64_t i) {
          const std::string_view b = data.bytes(i);
          if (b.size() > 16) {
            throw CorruptFile(uri + ": column " + leaf.path + ": a " + type.toString() +
                              " value of " + std::to_string(b.size()) + " bytes");
          }
          return bigEndianInt128(reinterpret_cast<const uint8_t*>(b.data()), b.size());
        });
        return out;
      }
      if (type.kind == TypeKind::kDouble && leaf.logicalType.kind == LKind::DECIMAL) {
        const int32_t scale = leaf.logicalType.scale;
        fillFixed<double>(batch, rows, out,
                          [&](int64_t i) { return bigEndianDecimalToDouble(data.bytes(i), scale); });
        return out;
      }
      if (type.kind == TypeKind::kDouble) {  // FLOAT16
        fillFixed<double>(batch, rows, out, [&](int64_t i) {
          const std::string_view b = data.bytes(i);
          return halfToDouble(static_cast<uint16_t>(static_cast<uint8_t>(b[0]) |
                                                    (static_cast<uint8_t>(b[1]) << 8)));
        });
        return out;
      }
      if (data.dictionary) return fillDictionaryIds(batch, type, rows, dictionaryCache);
      fillBytes(batch, rows, out);
      return out;
    }
  }
  throw Unsupported(uri + ": column " + leaf.path + ": an unknown physical type");
}

/// `rows` of a list column's `batch` as a block of `type` (a list type): the
/// rows' element slots converted as a flat column's rows are, in one pass.
Block convertListBatch(const parquet::ColumnBatch& batch, const DataType& type,
                       const BatchRows& rows, const std::string& uri,
                       DictionaryCache& dictionaryCache) {
  ListRows shape = listRows(batch, rows.offset, rows.count, rows.selected);
  const BatchRows elementRows{shape.firstSlot, shape.slotCount,
                              shape.gathered ? shape.slots.data() : nullptr};
  Block elements = convertBatch(batch, type.elementType(), elementRows, uri, dictionaryCache);
  return Block::fromList(type, std::move(shape.offsets), std::move(elements),
                         std::move(shape.validity));
}

/// One split's scan of a Parquet file: ColumnReaders' batches (split_scan.h runs them).
class ParquetSplitScan final : public SplitScan {
 public:
  ParquetSplitScan(const ParquetFormatReader& owner, FileSplit split, ReadRequest request)
      : SplitScan(std::move(split), std::move(request)), owner_(owner) {}

 private:
  void open() override {
    const std::string& uri = split_.uri;
    // The split knows the file's identity from the footer read that made it: a
    // remote file then opens without a request, its footer from the cache.
    std::unique_ptr<io::StorageObject> object = openSplitFile(split_);
    // Rows left by a page-by-page decision: its page index read is served again.
    if (!split_.rows.empty()) {
      object = std::make_unique<io::RangeCachingObject>(std::move(object), owner_.pageIndexBytes(),
                                                        false);
    }
    auto footer = cachedFooter(owner_.footerCache(), *object);
    parquet::ReaderOptions options;
    options.threads = 1;  // the engine runs splits in parallel
    options.selectionVector = true;  // convertBatch gathers the filter's rows: no copy before it
    options.dictionaryIds = true;    // string columns become dictionary blocks
    file_ = parquet::ParquetFileReader::open(std::move(object), footer, options);
    fileSize_ = file_->storage().size();
    const parquet::FileSchema& schema = file_->schema();

    // Per requested column: a ColumnReaders position, or what to produce instead.
    std::vector<std::string> projected;
    resolveColumns([&](size_t, const std::string& name) -> std::optional<FileColumn> {
      const parquet::SchemaNode* node = findNode(schema, name);
      if (node == nullptr) return std::nullopt;
      // A flat leaf, or the node of a list column, read through its element leaf.
      const parquet::SchemaNode* leaf = node->isLeaf() ? node : nullptr;
      std::optional<DataType> type = leaf != nullptr ? ParquetFormatReader::engineType(*leaf) : std::nullopt;
      if (!type) {
        leaf = parquetListElement(*node);
        type = leaf != nullptr ? ParquetFormatReader::listType(*node) : std::nullopt;
      }
      if (!type) return std::nullopt;
      const int source = static_cast<int>(projected.size());
      projected.push_back(leaf->path);
      leaves_.push_back(leaf);
      return FileColumn{source, *type};
    });
    dictionaries_.resize(sources_.size());
    std::optional<parquet::BoundPredicate> filter;
    if (request_.filter) {
      try {
        filter = parquet::BoundPredicate::bind(*request_.filter, schema);
      } catch (const InvalidArgument&) {
        filter.reset();  // best effort: every row; the planner rechecks above
      }
    }
    std::vector<parquet::ByteRange> ranges;
    constexpr uint64_t kMaxOffset = static_cast<uint64_t>(INT64_MAX);
    const uint64_t end = split_.length > kMaxOffset - std::min(split_.start, kMaxOffset)
                             ? kMaxOffset
                             : split_.start + split_.length;
    ranges.push_back({static_cast<int64_t>(std::min(split_.start, kMaxOffset)),
                      static_cast<int64_t>(end)});
    if (projected.empty() && (filter || wantsRowPositions_)) {
      // Rows are counted from a decoded column: a column of the filter, which is
      // decoded anyway, else the first the engine reads.
      for (const auto* leaves : {&filter->leaves(), &schema.leaves()}) {
        auto readable = std::find_if(leaves->begin(), leaves->end(), [](const parquet::SchemaNode* leaf) {
          return ParquetFormatReader::engineType(*leaf).has_value();
        });
        if (readable != leaves->end()) {
          projected.push_back((*readable)->path);
          break;
        }
      }
      if (projected.empty()) filter.reset();
      if (projected.empty() && wantsRowPositions_) {
        throw Unsupported(uri + ": no column the engine reads to give row positions (" +
                          kRowPositionColumn + ") by");
      }
    }
    if (projected.empty()) {
      // Nothing to decode: the kept row groups' row counts make the pages.
      parquet::RowLimits limits;
      limits.byteRanges = ranges;
      const auto plan = parquet::planRowGroups(file_->metadata(), limits, false, uri);
      for (size_t g = 0; g < plan.inByteRange.size(); ++g) {
        if (!plan.inByteRange[g]) continue;
        const int64_t rows = file_->metadata().row_groups[g].num_rows;
        countOnlyRows_.push_back(
            split_.rows.empty()
                ? rows
                : rowsOf(split_.rows).intersect(parquet::RowRanges::all(rows)).rowCount());
      }
      if (request_.metrics) request_.metrics->rowGroupsTotal += countOnlyRows_.size();
      countOnly_ = true;
      return;
    }
    auto resolved = parquet::ResolvedProjection::resolve(
        parquet::ColumnProjection::columns(projected), schema);
    readers_ = std::make_unique<parquet::ColumnReaders>(*file_, std::move(resolved),
                                                        std::move(filter), std::move(ranges));
    if (!split_.rows.empty()) readers_->restrictRows(rowsOf(split_.rows));
  }

  static const parquet::SchemaNode* findNode(const parquet::FileSchema& schema,
                                             const std::string& name) {
    try {
      return schema.find(name);
    } catch (const InvalidArgument&) {
      return nullptr;  // an ambiguous path: not a column the engine exposes
    }
  }

  bool advanceReader() override {
    if (countOnly_) return nextCountOnly_ < countOnlyRows_.size();
    return readers_->nextBatch();
  }

  int64_t batchRows() override {
    if (countOnly_) return countOnlyRows_[nextCountOnly_++];
    return readers_->rowCount();
  }

  Block fileColumn(size_t i, int64_t offset, int64_t count) override {
    BatchRows rows{offset, count, nullptr};
    const std::span<const int64_t> selected = readers_->selectedRows();
    if (!selected.empty()) rows.selected = selected.data() + offset;
    const parquet::ColumnBatch batch = readers_->column(static_cast<size_t>(sources_[i]));
    if (fileTypes_[i].isList()) return convertListBatch(batch, fileTypes_[i], rows, split_.uri, dictionaries_[i]);
    return convertBatch(batch, fileTypes_[i], rows, split_.uri, dictionaries_[i]);
  }

  Block rowPositions(int64_t offset, int64_t count) override {
    std::vector<int64_t> positions(static_cast<size_t>(count));
    readers_->rowPositions(offset, count, positions.data());
    return Block::fromValues(DataType::int64(), std::move(positions));
  }

  void publishTo(ScanMetrics& metrics) override {
    if (!readers_) return;
    const parquet::ReaderMetrics& now = readers_->metrics();
    auto delta = [](int64_t a, int64_t b) { return static_cast<uint64_t>(a - b); };
    metrics.rowGroupsTotal += delta(now.rowGroupsTotal - now.rowGroupsOutsideByteRange,
                               published_.rowGroupsTotal - published_.rowGroupsOutsideByteRange);
    metrics.rowGroupsPrunedByStatistics +=
        delta(now.rowGroupsPrunedByStatistics, published_.rowGroupsPrunedByStatistics);
    metrics.rowGroupsPrunedByBloom +=
        delta(now.rowGroupsPrunedByBloomFilter, published_.rowGroupsPrunedByBloomFilter);
    metrics.rowGroupsPrunedByDictionary +=
        delta(now.rowGroupsPrunedByDictionary, published_.rowGroupsPrunedByDictionary);
    metrics.pagesTotal += delta(now.pagesTotal, published_.pagesTotal);
    metrics.pagesSkipped += delta(now.pagesSkipped, published_.pagesSkipped);
    metrics.rowsDecoded += delta(now.rowsDecoded, published_.rowsDecoded);
    published_ = now;
    storage_.publish(file_->storage(), metrics);
  }

  void closeReader() override {
    readers_.reset();
    // The pages returned came from the file as opened: a write since then could
    // have mixed versions into them (io::StorageObject::checkUnchanged).
    if (file_) file_->storage().checkUnchanged();
  }

  const ParquetFormatReader& owner_;
  std::unique_ptr<parquet::ParquetFileReader> file_;
  std::unique_ptr<parquet::ColumnReaders> readers_;
  /// Per requested column, its last dictionary.
  std::vector<DictionaryCache> dictionaries_;
  std::vector<const parquet::SchemaNode*> leaves_;
  bool countOnly_ = false;
  std::vector<int64_t> countOnlyRows_;
  size_t nextCountOnly_ = 0;
  parquet::ReaderMetrics published_;
};

}  // namespace

LocalSupplier scanParquetSplit(const ParquetFormatReader& owner, const FileSplit& split,
                               const ReadRequest& request) {
  auto scan = std::make_shared<ParquetSplitScan>(owner, split, request);
  return [scan]() { return scan->next(); };
}

}  // namespace quarry::engine
