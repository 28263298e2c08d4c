#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "quarry/io/http_client.h"
#include "quarry/io/read_planner.h"
#include "quarry/io/storage.h"

/// Objects behind http:// and https:// URLs, read with range GETs.
namespace quarry::io {

struct HttpStorageOptions {
  HttpClientOptions client;
  RetryPolicy retry;
  /// How many bytes the first request reads from the end of the object when the
  /// caller did not ask for the tail itself (size() or readAt first). 64 KiB holds
  /// the footer of nearly every Parquet file.
  uint64_t tailBytes = 64 * 1024;
  /// How readRanges merges ranges into requests and how many it sends at once.
  CoalescePolicy coalesce;
  /// The object's size and ETag when an earlier open learnt them: opening then
  /// costs no request (nothing of the tail is cached), and every answer is
  /// checked against them as against a first answer's.
  std::optional<ObjectIdentity> known;
  /// Added to the error when the server refuses a request (HTTP 401 or 403):
  /// S3 says there that the request went unsigned (unsignedRequestNote).
  std::string refusalNote;
};

/// An object read over HTTP. Its first request is a suffix range GET of the tail,
/// which also tells the size (from Content-Range); the tail stays cached, so opening
/// a Parquet file (size, then the footer from the tail) costs one request. Later
/// reads are one range GET each (readRanges: one per planned request, several in
/// flight), retried per the RetryPolicy; reads are thread-safe.
class HttpStorageObject : public StorageObject {
 public:
  /// Reads `url` with `client`; `uri` names the object in errors (credentials are
  /// redacted from it) and `prepare` may add headers to every request (S3 signs there).
  HttpStorageObject(std::string uri, std::string url, std::shared_ptr<HttpClient> client,
                    HttpStorageOptions options = {},
                    std::function<void(HttpRequest&)> prepare = nullptr);

  /// Returns the URI with user-info and query values redacted.
  const std::string& uri() const override { return displayUri_; }
  uint64_t size() const override;
  void readAt(uint64_t offset, std::span<uint8_t> out) override;
  /// Serves ranges inside the cached tail from it; merges the others into requests
  /// (planReads with options.coalesce) and sends those concurrently.
  void readRanges(std::span<const ReadRange> ranges) override;
  std::vector<uint8_t> readTail(uint64_t length) override;
  std::optional<std::string> version() const override { return etag(); }
  uint64_t requestCount() const override { return requests_.load(std::memory_order_relaxed); }
  uint64_t bytesRead() const override { return bytes_.load(std::memory_order_relaxed); }

  /// Returns the object's ETag as the server sent it with the first answer, if any.
  std::optional<std::string> etag() const;

 private:
  /// Fetches the last `length` bytes when nothing is known yet; the caller holds mutex_.
  void fetchTailLocked(uint64_t length) const;
  /// Sends one range request and checks that the object has not changed since the first.
  RangeResponse fetch(const RangeRequest& range) const;
  /// Fetches the tail if nothing is known yet; returns the size and ETag.
  std::pair<uint64_t, std::optional<std::string>> knownSizeAndEtag() const;
  /// Throws IoError unless [offset, offset + length) lies within an object of `size` bytes.
  void checkWithin(uint64_t offset, uint64_t length, uint64_t size) const;
  /// Copies [offset, offset + out.size()) from the cached tail; returns false when
  /// the tail does not hold all of it.
  bool copyFromTail(uint64_t offset, std::span<uint8_t> out) const;
  /// Throws IoError when `response` describes another version of the object than
  /// the first answer did (`size`, `etag`): its bytes must not be mixed with those.
  void checkResponseUnchanged(const RangeResponse& response, uint64_t size,
                              const std::optional<std::string>& etag) const;

  std::string displayUri_;
  std::string url_;
  std::shared_ptr<HttpClient> client_;
  HttpStorageOptions options_;
  std::function<void(HttpRequest&)> prepare_;

  mutable std::mutex mutex_;
  mutable bool known_ = false;  // size_, tail_, etag_ are set
  mutable uint64_t size_ = 0;
  mutable std::vector<uint8_t> tail_;  // the object's last tail_.size() bytes
  mutable std::optional<std::string> etag_;
  mutable std::atomic<uint64_t> requests_{0};
  mutable std::atomic<uint64_t> bytes_{0};
};

/// Opens http:// and https:// URLs.
class HttpStorageProvider : public StorageProvider {
 public:
  explicit HttpStorageProvider(HttpStorageOptions options = {}, std::shared_ptr<HttpClient> client = nullptr);

  /// Opens `uri` with one request (the tail); throws IoError when the server does not
  /// serve it, Unsupported when libcurl cannot be loaded.
  std::unique_ptr<StorageObject> open(const std::string& uri) override;

 private:
  HttpStorageOptions options_;
  std::shared_ptr<HttpClient> client_;
};

}  // namespace quarry::io
