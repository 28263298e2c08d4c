#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "quarry/formats/parquet/footer.h"

/// Decoded footers kept between opens of the same file: a query that opens a remote
/// file again (the next query, another split of the same file) then decodes nothing,
/// and a file whose footer is larger than the first tail read costs one request, not two.
namespace quarry::parquet {

/// A bounded, thread-safe LRU cache of decoded footers keyed by (URI, size, version,
/// decode options). The version (an HTTP ETag, a file's modification time) is what
/// makes a hit safe: a rewritten object has a new one, and an object without one is
/// never kept. The caller passes it: StorageObject has no version accessor (yet).
class FooterCache {
 public:
  /// The process-wide cache's capacity, in bytes of encoded footer metadata.
  static constexpr uint64_t kDefaultCapacityBytes = 64 << 20;

  /// Keeps footers whose encoded metadata adds up to at most `capacityBytes`.
  explicit FooterCache(uint64_t capacityBytes = kDefaultCapacityBytes) : capacityBytes_(capacityBytes) {}

  /// Returns the footer of `file` decoded with `options`: the cached one when the same
  /// URI, size, `version` and options were read before, else readFooter's (kept when
  /// `version` is set). `version` is called after file.size(), by when a remote object
  /// knows its ETag (HttpStorageObject::etag). Throws what readFooter throws; failures
  /// are not cached.
  std::shared_ptr<const ParquetFooter> read(io::StorageObject& file,
                                            const std::function<std::optional<std::string>()>& version,
                                            const FileMetaDataOptions& options = {});

  /// Returns the footer read(...) kept for `uri` with that size, version and
  /// options, or null: no read, no open (a caller that knows a file's identity
  /// from an earlier read asks what its footer says before opening it again).
  std::shared_ptr<const ParquetFooter> find(const std::string& uri, uint64_t size,
                                            const std::string& version,
                                            const FileMetaDataOptions& options = {});

  struct Stats {
    uint64_t hits = 0;
    uint64_t misses = 0;
    uint64_t entries = 0;
    uint64_t bytes = 0;  // encoded metadata of the entries held
  };
  Stats stats() const;

  /// Drops every entry (the counters stay).
  void clear();

  /// Returns the process-wide cache.
  static FooterCache& shared();

 private:
  struct Entry {
    std::string key;
    std::shared_ptr<const ParquetFooter> footer;
    uint64_t bytes;
  };

  /// Drops least recently used entries until the held bytes fit the capacity; mutex_ held.
  void evictLocked();

  uint64_t capacityBytes_;
  mutable std::mutex mutex_;
  std::list<Entry> entries_;  // most recently used first
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
  Stats stats_;
};

}  // namespace quarry::parquet
