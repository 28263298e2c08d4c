#include "quarry/formats/parquet/footer_cache.h"

namespace quarry::parquet {
namespace {

/// Returns the cache key: every field that decides the decoded footer, NUL-separated
/// (a URI holds no NUL, so no two keys run together).
std::string keyOf(const std::string& uri, uint64_t size, const std::string& version,
                  const FileMetaDataOptions& options) {
  std::string key = uri;
  key += '\0';
  key += std::to_string(size);
  key += '\0';
  key += version;
  key += '\0';
  key += options.statistics ? 'S' : 's';
  key += options.keyValueMetadata ? 'K' : 'k';
  for (bool want : options.wantColumn) key += want ? '1' : '0';
  return key;
}

}  // namespace

std::shared_ptr<const ParquetFooter> FooterCache::read(io::StorageObject& file,
                                                       const std::function<std::optional<std::string>()>& versionOf,
                                                       const FileMetaDataOptions& options) {
  // size() first: for remote objects it is the request that also learns the version.
  const uint64_t size = file.size();
  const std::optional<std::string> version = versionOf ? versionOf() : std::nullopt;
  if (!version) {
    {
      std::lock_guard lock(mutex_);
      ++stats_.misses;
    }
    return std::make_shared<const ParquetFooter>(readFooter(file, options));
  }
  const std::string key = keyOf(file.uri(), size, *version, options);
  {
    std::lock_guard lock(mutex_);
    if (const auto found = index_.find(key); found != index_.end()) {
      entries_.splice(entries_.begin(), entries_, found->second);
      ++stats_.hits;
      return found->second->footer;
    }
    ++stats_.misses;
  }
  // Decoded outside the lock: two threads missing the same key both decode, and the
  // second insert finds the first's entry.
  auto footer = std::make_shared<const ParquetFooter>(readFooter(file, options));
  const uint64_t bytes = footer->metadataLength + key.size();
  if (bytes > capacityBytes_) return footer;
  std::lock_guard lock(mutex_);
  if (index_.find(key) == index_.end()) {
    entries_.push_front(Entry{key, footer, bytes});
    index_.emplace(key, entries_.begin());
    stats_.bytes += bytes;
    ++stats_.entries;
    evictLocked();
  }
  return footer;
}

std::shared_ptr<const ParquetFooter> FooterCache::find(const std::string& uri, uint64_t size,
                                                       const std::string& version,
                                                       const FileMetaDataOptions& options) {
  const std::string key = keyOf(uri, size, version, options);
  std::lock_guard lock(mutex_);
  const auto found = index_.find(key);
  if (found == index_.end()) return nullptr;
  entries_.splice(entries_.begin(), entries_, found->second);
  ++stats_.hits;
  return found->second->footer;
}

void FooterCache::evictLocked() {
  while (stats_.bytes > capacityBytes_ && !entries_.empty()) {
    const Entry& last = entries_.back();
    stats_.bytes -= last.bytes;
    --stats_.entries;
    index_.erase(last.key);
    entries_.pop_back();
  }
}

FooterCache::Stats FooterCache::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void FooterCache::clear() {
  std::lock_guard lock(mutex_);
  entries_.clear();
  index_.clear();
  stats_.entries = 0;
  stats_.bytes = 0;
}

FooterCache& FooterCache::shared() {
  // Never destroyed: freeing thousands of decoded footers at exit would only delay it.
  static auto* cache = new FooterCache;
  return *cache;
}

}  // namespace quarry::parquet
