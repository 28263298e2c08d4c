#include "quarry/engine/source/parquet_split_scan.h"

#include <algorithm>
#include <memory>

#include "quarry/common/error.h"
#include "quarry/engine/source/parquet_batch_conversion.h"
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
  return cache.read(
      object, [&object] { return std::optional<std::string>(object.version().value_or("")); });
}

namespace {

parquet::RowRanges rowsOf(const std::vector<RowSpan>& spans) {
  parquet::RowRanges out;
  for (const RowSpan& span : spans) out.add(span.first, span.end);
  return out;
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
    options.threads = 1;             // the engine runs splits in parallel
    options.selectionVector = true;  // the conversion gathers the filter's rows: no copy before it
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
      std::optional<DataType> type =
          leaf != nullptr ? ParquetFormatReader::engineType(*leaf) : std::nullopt;
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
    conversions_.clear();
    for (const DataType& type : fileTypes_) conversions_.emplace_back(type, uri);
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
    ranges.push_back(
        {static_cast<int64_t>(std::min(split_.start, kMaxOffset)), static_cast<int64_t>(end)});
    if (projected.empty() && (filter || wantsRowPositions_)) {
      // Rows are counted from a decoded column: a column of the filter, which is
      // decoded anyway, else the first the engine reads.
      for (const auto* leaves : {&filter->leaves(), &schema.leaves()}) {
        auto readable =
            std::find_if(leaves->begin(), leaves->end(), [](const parquet::SchemaNode* leaf) {
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
    auto resolved =
        parquet::ResolvedProjection::resolve(parquet::ColumnProjection::columns(projected), schema);
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
    return conversions_[i].convert(batch, rows);
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
    metrics.rowGroupsTotal +=
        delta(now.rowGroupsTotal - now.rowGroupsOutsideByteRange,
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
  /// Per requested column, its conversion (and last dictionary).
  std::vector<ParquetColumnConversion> conversions_;
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
