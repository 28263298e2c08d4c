#pragma once

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/source/external_source_resolver.h"
#include "quarry/engine/source/format_reader.h"

/// An in-memory FormatReader for engine tests: each "file" is a list of pages
/// (one split per page) under a name, read by column name as a real reader does.
namespace quarry::engine::testing {

class MemoryFormatReader final : public FormatReader {
 public:
  /// Adds a file of `pages` with `schema`; each page is one split.
  void add(const std::string& uri, Schema schema, std::vector<Page> pages) {
    files_[uri] = File{std::move(schema), std::move(pages)};
  }

  const std::string& name() const override { return name_; }

  /// Splits carry statistics computed from their pages (rows, null counts, and
  /// min / max of int64, double and string columns) unless `withStatistics` is
  /// false; `uncountable` names columns whose null count is left unknown.
  bool withStatistics = false;
  std::vector<std::string> uncountable;
  /// Pages ("uri:index") whose split carries no statistics at all, even from metadata().
  std::vector<std::string> withoutStatistics;
  AggregatePushdownSupport pushdown = AggregatePushdownSupport::kNone;
  /// metadata() calls so far (footer reads).
  mutable std::atomic<int> metadataCalls{0};

  SourceMetadata metadata(const std::string& uri) const override {
    ++metadataCalls;
    const File& file = files_.at(uri);
    SourceMetadata metadata;
    metadata.schema = file.schema;
    for (size_t i = 0; i < file.pages.size(); ++i) {
      FileSplit split;
      split.uri = uri;
      split.start = i;
      split.length = 1;
      split.format = name_;
      split.units = 1;
      const std::string unit = uri + ":" + std::to_string(i);
      if (std::find(withoutStatistics.begin(), withoutStatistics.end(), unit) == withoutStatistics.end()) {
        split.statistics = std::make_shared<const SourceStatistics>(statisticsOf(file.schema, file.pages[i]));
      }
      metadata.splits.push_back(split);
    }
    return metadata;
  }

  LocalSupplier read(const FileSplit& split, const ReadRequest& request) const override {
    const File& file = files_.at(split.uri);
    const Page& page = file.pages.at(split.start);
    std::vector<Block> blocks;
    for (const std::string& column : request.columns) {
      const int index = fieldIndex(file.schema, column);
      blocks.push_back(index < 0 ? Block::nulls(request.outputSchema.at(blocks.size()).type, page.positionCount())
                                 : page.block(index));
    }
    if (request.metrics != nullptr) ++request.metrics->splits;
    auto out = std::make_shared<std::optional<Page>>(Page(std::move(blocks), page.positionCount()));
    {
      std::lock_guard<std::mutex> lock(mutex_);
      reads_.push_back(request);
    }
    return [out]() -> std::optional<Page> {
      std::optional<Page> next = std::move(*out);
      out->reset();
      return next;
    };
  }

  AggregatePushdownSupport aggregatePushdownSupport() const override { return pushdown; }

  SourceStatistics statisticsOf(const Schema& schema, const Page& page) const {
    SourceStatistics stats;
    stats.rowCount = static_cast<int64_t>(page.positionCount());
    for (size_t c = 0; c < schema.size(); ++c) {
      ColumnStatistics column;
      const Block& block = page.block(c);
      int64_t nulls = 0;
      for (size_t r = 0; r < block.size(); ++r) {
        if (block.isNull(r)) {
          ++nulls;
          continue;
        }
        StatisticValue v;
        switch (schema[c].type.kind) {
          case TypeKind::kInt64:
            v = block.values<int64_t>()[r];
            break;
          case TypeKind::kInt32:
            v = int64_t{block.values<int32_t>()[r]};
            break;
          case TypeKind::kDouble:
            v = block.values<double>()[r];
            break;
          default:
            v = std::string(block.bytes(r));
            break;
        }
        if (!column.min || *compareStatisticValues(v, *column.min) < 0) column.min = v;
        if (!column.max || *compareStatisticValues(v, *column.max) > 0) column.max = v;
      }
      if (std::find(uncountable.begin(), uncountable.end(), schema[c].name) == uncountable.end()) {
        column.nullCount = nulls;
      }
      stats.columns[schema[c].name] = column;
    }
    return stats;
  }

  /// The requests read() was given, in order of the calls.
  std::vector<ReadRequest> reads() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return reads_;
  }

  /// A ResolvedSource over the files named (first_file_wins: the first file's schema).
  ResolvedSource resolve(const std::vector<std::string>& uris) const {
    ResolvedSource source;
    for (const std::string& uri : uris) {
      SourceMetadata m = metadata(uri);
      if (!withStatistics) {
        for (FileSplit& split : m.splits) split.statistics.reset();
      }
      source.files.push_back({uri, this, std::move(m)});
    }
    source.schema = files_.at(uris.front()).schema;
    return source;
  }

 private:
  struct File {
    Schema schema;
    std::vector<Page> pages;
  };
  std::string name_ = "memory";
  mutable std::mutex mutex_;
  mutable std::vector<ReadRequest> reads_;
  std::map<std::string, File> files_;
};

/// A block of int64 values; std::nullopt is null.
inline Block int64Block(const std::vector<std::optional<int64_t>>& values) {
  Block block(DataType::int64());
  for (const auto& v : values) v ? block.append<int64_t>(*v) : block.appendNull();
  return block;
}

inline Block doubleBlock(const std::vector<std::optional<double>>& values) {
  Block block(DataType::float64());
  for (const auto& v : values) v ? block.append<double>(*v) : block.appendNull();
  return block;
}

inline Block stringBlock(const std::vector<std::optional<std::string>>& values) {
  Block block(DataType::string());
  for (const auto& v : values) v ? block.appendBytes(*v) : block.appendNull();
  return block;
}

}  // namespace quarry::engine::testing
