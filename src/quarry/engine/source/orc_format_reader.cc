#include "quarry/engine/source/orc_format_reader.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "quarry/common/error.h"
#include "quarry/engine/source/file_split_provider.h"
#include "quarry/engine/source/orc_file_statistics.h"
#include "quarry/engine/source/split_scan.h"
#include "quarry/formats/orc/orc_file_reader.h"

namespace quarry::engine {
namespace {

using OrcKind = orc::TypeKind;

bool underCollection(const orc::OrcType& type) {
  for (const orc::OrcType* p = type.parent; p != nullptr; p = p->parent) {
    if (p->kind != OrcKind::kStruct) return true;
  }
  return false;
}

/// One row's path down to a leaf: the leaf's value index per selected row, or -1.
std::vector<int64_t> leafValueIndexes(const orc::ColumnVector& root, const orc::OrcType& leaf,
                                      const std::vector<uint64_t>& rows,
                                      const orc::ColumnVector*& leafVector) {
  // The vectors from the root's child down to the leaf.
  std::vector<const orc::OrcType*> path;
  for (const orc::OrcType* t = &leaf; t->parent != nullptr; t = t->parent) path.push_back(t);
  std::reverse(path.begin(), path.end());
  std::vector<const orc::ColumnVector*> vectors;
  const orc::ColumnVector* at = &root;
  for (const orc::OrcType* t : path) {
    const auto& children = at->type->children;
    const size_t k = static_cast<size_t>(std::find(children.begin(), children.end(), t) - children.begin());
    at = k < at->children.size() ? at->children[k].get() : nullptr;
    if (at == nullptr) throw std::logic_error("ORC column " + leaf.path + " was not decoded");
    vectors.push_back(at);
  }
  leafVector = at;
  std::vector<int64_t> out(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    uint64_t slot = rows[r];  // the root's slot: the row
    int64_t index = -1;
    for (size_t d = 0; d < vectors.size(); ++d) {
      const orc::ColumnVector& v = *vectors[d];
      if (v.isNull(slot)) {
        index = -1;
        break;
      }
      index = static_cast<int64_t>(v.valueIndex(slot));
      slot = static_cast<uint64_t>(index);  // a struct's value i is its children's slot i
    }
    out[r] = index;
  }
  return out;
}

template <typename T, typename Convert>
Block fill(const DataType& type, const std::vector<int64_t>& index, Convert convert) {
  Block out(type);
  out.reserve(index.size());
  std::vector<uint8_t> validity(index.size(), 1);
  bool anyNull = false;
  for (size_t r = 0; r < index.size(); ++r) {
    if (index[r] < 0) {
      out.append<T>(T{});
      validity[r] = 0;
      anyNull = true;
    } else {
      out.append<T>(convert(static_cast<uint64_t>(index[r])));
    }
  }
  if (anyNull) out.setValidity(std::move(validity));
  return out;
}

Block convertLeaf(const orc::ColumnVector& v, const DataType& type,
                  const std::vector<int64_t>& index, const std::string& what) {
  switch (type.kind) {
    case TypeKind::kBoolean:
      return fill<uint8_t>(type, index, [&](uint64_t i) { return static_cast<uint8_t>(v.longs[i] != 0); });
    case TypeKind::kInt32:
    case TypeKind::kDate:
      return fill<int32_t>(type, index, [&](uint64_t i) { return static_cast<int32_t>(v.longs[i]); });
    case TypeKind::kInt64:
      return fill<int64_t>(type, index, [&](uint64_t i) { return v.longs[i]; });
    case TypeKind::kDouble:
      if (v.type->kind == OrcKind::kDecimal) {  // Hive 0.11: a scale per value
        return fill<double>(type, index, [&](uint64_t i) {
          const int32_t scale = v.decimalScales.empty() ? static_cast<int32_t>(v.type->scale)
                                                        : v.decimalScales[i];
          return static_cast<double>(static_cast<long double>(v.wideDecimals[i]) /
                                     std::pow(10.0L, scale));
        });
      }
      return fill<double>(type, index, [&](uint64_t i) { return v.doubles[i]; });
    case TypeKind::kDecimal:
      if (type.precision <= 18 && v.wideDecimals.empty()) {
        return fill<Int128>(type, index, [&](uint64_t i) { return Int128{v.longs[i]}; });
      }
      return fill<Int128>(type, index, [&](uint64_t i) { return v.wideDecimals[i]; });
    case TypeKind::kTimestamp:
      return fill<int64_t>(type, index, [&](uint64_t i) {
        const int64_t seconds = type.utcAdjusted ? v.longs[i] : v.wallClockSeconds(i);
        int64_t nanos = 0;
        if (__builtin_mul_overflow(seconds, int64_t{1'000'000'000}, &nanos) ||
            __builtin_add_overflow(nanos, int64_t{v.nanos[i]}, &nanos)) {
          throw InvalidArgument(what + ": the timestamp " + std::to_string(seconds) +
                                " s is outside the range of timestamp(ns)");
        }
        return nanos;
      });
    case TypeKind::kString:
    case TypeKind::kBinary: {
      Block out(type);
      out.reserve(index.size());
      std::vector<uint8_t> validity(index.size(), 1);
      bool anyNull = false;
      for (size_t r = 0; r < index.size(); ++r) {
        if (index[r] < 0) {
          out.appendBytes({});
          validity[r] = 0;
          anyNull = true;
        } else {
          const uint64_t i = static_cast<uint64_t>(index[r]);
          out.appendBytes(std::string_view(v.bytes).substr(v.offsets[i], v.offsets[i + 1] - v.offsets[i]));
        }
      }
      if (anyNull) out.setValidity(std::move(validity));
      return out;
    }
    default:
      break;
  }
  throw Unsupported(what + ": the engine cannot read a " + type.toString() + " ORC column");
}

/// One split's scan of an ORC file: OrcRowReader's stripes (split_scan.h runs them).
class OrcSplitScan final : public SplitScan {
 public:
  OrcSplitScan(const OrcFormatReader& owner, FileSplit split, ReadRequest request)
      : SplitScan(std::move(split), std::move(request)), owner_(owner) {}

 private:
  /// The source of every column the file holds: its leaf is leaves_[i].
  static constexpr int kLeaf = 0;

  void open() override {
    auto object = openSplitFile(split_);
    auto meta = owner_.fileMeta(*object);
    file_ = std::make_unique<orc::OrcFileReader>(std::move(object), std::move(meta));
    fileSize_ = file_->file().size();
    const orc::OrcSchema& schema = file_->schema();
    std::vector<std::string> paths;
    leaves_.assign(request_.columns.size(), nullptr);
    resolveColumns([&](size_t i, const std::string& name) -> std::optional<FileColumn> {
      const orc::OrcType* type = schema.find(name);
      if (type == nullptr) return std::nullopt;
      std::optional<DataType> engine = OrcFormatReader::engineType(*type);
      if (!engine) return std::nullopt;
      leaves_[i] = type;
      paths.push_back(name);
      return FileColumn{kLeaf, *engine};
    });
    std::vector<bool> projected(schema.columnCount(), false);
    if (!paths.empty()) projected = file_->project(paths);
    projected[0] = true;
    orc::OrcScanOptions options;
    const uint64_t end = split_.length > UINT64_MAX - split_.start ? UINT64_MAX
                                                                   : split_.start + split_.length;
    options.byteRange = std::make_pair(split_.start, end);
    if (request_.filter) {
      try {
        orc::OrcBoundPredicate::bind(*request_.filter, schema);
        options.filter = request_.filter;
      } catch (const InvalidArgument&) {
        // best effort: every row; the planner rechecks above
      }
    }
    reader_ = std::make_unique<orc::OrcRowReader>(*file_, std::move(projected), options);
  }

  bool advanceReader() override {
    rows_.clear();
    return reader_->nextStripe();
  }

  int64_t batchRows() override {
    rows_ = reader_->selectedSlots();
    leafIndexes_.assign(sources_.size(), {});
    leafVectors_.assign(sources_.size(), nullptr);
    for (size_t i = 0; i < sources_.size(); ++i) {
      if (sources_[i] == kLeaf) {
        leafIndexes_[i] = leafValueIndexes(reader_->root(), *leaves_[i], rows_, leafVectors_[i]);
      }
    }
    return static_cast<int64_t>(rows_.size());
  }

  Block fileColumn(size_t i, int64_t offset, int64_t count) override {
    const auto& all = leafIndexes_[i];
    std::vector<int64_t> part(all.begin() + static_cast<ptrdiff_t>(offset),
                              all.begin() + static_cast<ptrdiff_t>(offset + count));
    return convertLeaf(*leafVectors_[i], fileTypes_[i], part, split_.uri + ": column " + request_.columns[i]);
  }

  void publishTo(ScanMetrics& metrics) override {
    if (!reader_) return;
    const orc::OrcScanMetrics& now = reader_->metrics();
    auto delta = [](int64_t a, int64_t b) { return static_cast<uint64_t>(a - b); };
    metrics.rowGroupsTotal += delta(now.stripesTotal, published_.stripesTotal);
    metrics.rowGroupsPrunedByStatistics +=
        delta(now.stripesPrunedByStatistics + now.stripesPrunedByRowIndex,
              published_.stripesPrunedByStatistics + published_.stripesPrunedByRowIndex);
    metrics.rowGroupsPrunedByBloom +=
        delta(now.stripesPrunedByBloomFilter, published_.stripesPrunedByBloomFilter);
    metrics.rowsDecoded += delta(now.rowsDecoded, published_.rowsDecoded);
    published_ = now;
    storage_.publish(file_->file(), metrics);
  }

  void closeReader() override {
    reader_.reset();
    // The pages returned came from the file as opened (io::StorageObject::checkUnchanged).
    if (file_) file_->file().checkUnchanged();
  }

  const OrcFormatReader& owner_;
  std::unique_ptr<orc::OrcFileReader> file_;
  std::unique_ptr<orc::OrcRowReader> reader_;
  /// Per requested column, its ORC leaf (null for a column the file lacks).
  std::vector<const orc::OrcType*> leaves_;
  std::vector<uint64_t> rows_;
  std::vector<std::vector<int64_t>> leafIndexes_;
  std::vector<const orc::ColumnVector*> leafVectors_;
  orc::OrcScanMetrics published_;
};

}  // namespace

const std::string& OrcFormatReader::name() const {
  static const std::string kName = "orc";
  return kName;
}

std::optional<DataType> OrcFormatReader::engineType(const orc::OrcType& type) {
  if (type.isCompound() || underCollection(type)) return std::nullopt;
  switch (type.kind) {
    case OrcKind::kBoolean:
      return DataType::boolean();
    case OrcKind::kByte:
    case OrcKind::kShort:
    case OrcKind::kInt:
      return DataType::int32();
    case OrcKind::kLong:
      return DataType::int64();
    case OrcKind::kFloat:
    case OrcKind::kDouble:
      return DataType::float64();
    case OrcKind::kDecimal:
      if (type.precision == 0 || type.precision > 38) return DataType::float64();
      return DataType::decimal(static_cast<int32_t>(type.precision), static_cast<int32_t>(type.scale));
    case OrcKind::kString:
    case OrcKind::kChar:
    case OrcKind::kVarchar:
      return DataType::string();
    case OrcKind::kBinary:
      return DataType::binary();
    case OrcKind::kDate:
      return DataType::date();
    case OrcKind::kTimestamp:
      return DataType::timestamp(TimeUnit::kNanos, false);
    case OrcKind::kTimestampInstant:
      return DataType::timestamp(TimeUnit::kNanos, true);
    default:
      return std::nullopt;
  }
}

Schema OrcFormatReader::engineSchema(const orc::OrcSchema& schema) {
  Schema out;
  for (uint32_t id = 1; id < schema.columnCount(); ++id) {
    const orc::OrcType& type = schema.column(id);
    if (auto engine = engineType(type)) out.push_back({type.path, *engine});
  }
  return out;
}

std::vector<UnreadColumn> OrcFormatReader::unreadColumns(const orc::OrcSchema& schema) {
  std::vector<UnreadColumn> out;
  for (uint32_t id = 1; id < schema.columnCount(); ++id) {
    const orc::OrcType& type = schema.column(id);
    if (type.kind != OrcKind::kList && type.kind != OrcKind::kMap && type.kind != OrcKind::kUnion) continue;
    out.push_back({type.path, type.toTypeString()});
    id = type.maximumColumnId;  // its subtree is left out with it
  }
  return out;
}

std::shared_ptr<const orc::OrcFileMeta> OrcFormatReader::fileMeta(io::StorageObject& object) const {
  // Without a version (a server that sends no ETag) a file could change at the
  // same size: its tail is read each time, as the Parquet footer cache does.
  const uint64_t size = object.size();  // a remote object knows its ETag once it knows its size
  const std::optional<std::string> version = object.version();
  if (!version) return orc::readOrcFileMeta(object);
  const std::string key = object.uri() + '\n' + std::to_string(size) + '\n' + *version;
  {
    std::lock_guard<std::mutex> lock(metaMutex_);
    if (auto it = metas_.find(key); it != metas_.end()) return it->second;
  }
  auto meta = orc::readOrcFileMeta(object);
  std::lock_guard<std::mutex> lock(metaMutex_);
  if (metas_.size() >= kMaxCachedFiles) metas_.clear();
  metas_.emplace(key, meta);
  return meta;
}

SourceMetadata OrcFormatReader::metadata(const std::string& uri) const {
  auto object = io::openObject(uri);
  auto meta = fileMeta(*object);
  auto file = std::make_unique<orc::OrcFileReader>(std::move(object), std::move(meta));
  SourceMetadata out;
  out.schema = engineSchema(file->schema());
  out.unreadColumns = unreadColumns(file->schema());
  out.fileSize = file->file().size();
  out.statistics =
      std::make_shared<const SourceStatistics>(OrcFileStatistics::extract(file->tail(), file->schema()));
  out.splits = FileSplitProvider::orcSplits(uri, file->tail(), file->schema());
  for (FileSplit& split : out.splits) {
    split.fileSize = out.fileSize;
    split.fileVersion = file->file().version();
  }
  out.bytesRead = file->file().bytesRead();
  out.requests = file->file().requestCount();
  file->file().checkUnchanged();  // the tail read is the file the splits pin
  return out;
}

std::vector<FileSplit> OrcFormatReader::units(const FileSplit& split) const {
  auto object = openSplitFile(split);
  auto meta = fileMeta(*object);
  auto file = std::make_unique<orc::OrcFileReader>(std::move(object), std::move(meta));
  SplitOptions oneStripeEach;
  oneStripeEach.targetSplitBytes = 0;
  return unitsWithin(split, FileSplitProvider::orcSplits(split.uri, file->tail(), file->schema(), oneStripeEach));
}

LocalSupplier OrcFormatReader::read(const FileSplit& split, const ReadRequest& request) const {
  auto scan = std::make_shared<OrcSplitScan>(*this, split, request);
  return [scan]() { return scan->next(); };
}

}  // namespace quarry::engine
