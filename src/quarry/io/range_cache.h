#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "quarry/io/storage.h"

/// Bytes of an object read by one reader and wanted again by the next reader of
/// the same object version: a Parquet page index read to decide an aggregate
/// page by page, then by the scan of the pages left undecided (one request
/// fewer per such row group, a round trip on remote storage).
namespace quarry::io {

/// A bounded, thread-safe cache of byte ranges keyed by object identity (URI,
/// size, version): an object rewritten in between has another key.
class ByteRangeCache {
 public:
  explicit ByteRangeCache(uint64_t capacityBytes) : capacityBytes_(capacityBytes) {}

  /// Returns the key of `object`'s current identity.
  static std::string keyOf(const StorageObject& object);

  /// Keeps `bytes`, read at `offset` of the object `key` names (the least
  /// recently kept ranges go first when the capacity is passed).
  void put(const std::string& key, uint64_t offset, std::vector<uint8_t> bytes);
  /// Copies [offset, offset + out.size()) of object `key` into `out` when one
  /// kept range holds all of it; false otherwise (`out` untouched).
  bool copy(const std::string& key, uint64_t offset, std::span<uint8_t> out) const;

 private:
  struct Entry {
    std::string key;
    uint64_t offset;
    std::vector<uint8_t> bytes;
  };
  uint64_t capacityBytes_;
  uint64_t heldBytes_ = 0;
  mutable std::mutex mutex_;
  std::list<Entry> entries_;  // most recently kept first
};

/// A StorageObject reading through `inner` whose readAt is served from `cache`
/// where a kept range holds the bytes and, with `keepReads`, whose other readAt
/// results are kept there. readRanges (data pages) and readTail (footers) pass
/// through, neither served nor kept. Requests and bytes count what `inner` read.
class RangeCachingObject final : public StorageObject {
 public:
  RangeCachingObject(std::unique_ptr<StorageObject> inner, ByteRangeCache& cache, bool keepReads)
      : inner_(std::move(inner)),
        cache_(cache),
        key_(ByteRangeCache::keyOf(*inner_)),
        keepReads_(keepReads) {}

  const std::string& uri() const override { return inner_->uri(); }
  uint64_t size() const override { return inner_->size(); }
  void readAt(uint64_t offset, std::span<uint8_t> out) override;
  void readRanges(std::span<const ReadRange> ranges) override { inner_->readRanges(ranges); }
  std::vector<uint8_t> readTail(uint64_t length) override { return inner_->readTail(length); }
  std::optional<std::string> version() const override { return inner_->version(); }
  void checkUnchanged() const override { inner_->checkUnchanged(); }
  uint64_t requestCount() const override { return inner_->requestCount(); }
  uint64_t bytesRead() const override { return inner_->bytesRead(); }

 private:
  std::unique_ptr<StorageObject> inner_;
  ByteRangeCache& cache_;
  std::string key_;
  bool keepReads_;
};

}  // namespace quarry::io
