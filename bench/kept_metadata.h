#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "quarry/formats/orc/orc_file_reader.h"
#include "quarry/formats/parquet/footer_cache.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/io/storage.h"

/// The cache state of the in-process benchmarks (scan_benchmark, filter_benchmark,
/// orc_scan_benchmark), chosen with `--metadata uncached|cached`:
///   uncached  every open reads and decodes the file's footer (Parquet) or tail and
///             schema (ORC): a user's first query, the headline figure;
///   cached    the untimed warm-up run reads them once and every later open takes
///             them from memory: a repeated query, answered by quarry's FooterCache
///             (and, across processes, its metadata cache). The timed runs then
///             read no footer and decode none.
/// The drivers pair "cached" with DuckDB's `parquet_metadata_cache = true`.
namespace quarry::bench {

class KeptMetadata {
 public:
  explicit KeptMetadata(bool keep) : keep_(keep) {}

  bool keeps() const { return keep_; }

  std::unique_ptr<parquet::ParquetFileReader> openParquet(const std::string& uri,
                                                          parquet::ReaderOptions options) {
    if (!keep_) return parquet::ParquetFileReader::open(uri, options);
    std::unique_ptr<io::StorageObject> object = io::openObject(uri);
    // The product's cache, keyed as the engine keys it: uri, size and version (a
    // local file's modification time).
    auto footer = footers_.read(*object, [&object] { return object->version(); });
    return parquet::ParquetFileReader::open(std::move(object), std::move(footer), options);
  }

  std::unique_ptr<orc::OrcFileReader> openOrc(const std::string& uri) {
    if (!keep_) return orc::OrcFileReader::open(uri);
    std::unique_ptr<io::StorageObject> object = io::openObject(uri);
    std::shared_ptr<const orc::OrcFileMeta> meta;
    {
      std::lock_guard lock(mutex_);
      if (auto found = orcTails_.find(uri); found != orcTails_.end()) meta = found->second;
    }
    if (!meta) {
      meta = orc::readOrcFileMeta(*object);
      std::lock_guard lock(mutex_);
      orcTails_.emplace(uri, meta);
    }
    return std::make_unique<orc::OrcFileReader>(std::move(object), std::move(meta));
  }

  /// Parses the value of `--metadata`; nullopt for anything but the two states.
  static std::optional<bool> parseState(const std::string& value) {
    if (value == "uncached") return false;
    if (value == "cached") return true;
    return std::nullopt;
  }

 private:
  bool keep_;
  parquet::FooterCache footers_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const orc::OrcFileMeta>> orcTails_;
};

}  // namespace quarry::bench
