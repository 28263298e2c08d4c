#include "quarry/io/http_storage.h"

#include <algorithm>
#include <cstring>

#include "quarry/common/error.h"

namespace quarry::io {

HttpStorageObject::HttpStorageObject(std::string uri, std::string url, std::shared_ptr<HttpClient> client,
                                     HttpStorageOptions options, std::function<void(HttpRequest&)> prepare)
    : displayUri_(redactUri(uri)),
      url_(std::move(url)),
      client_(std::move(client)),
      options_(options),
      prepare_(std::move(prepare)) {
  if (options_.tailBytes == 0) options_.tailBytes = 1;
  if (options_.known) {
    size_ = options_.known->size;
    etag_ = options_.known->version;
    known_ = true;
  }
}

RangeResponse HttpStorageObject::fetch(const RangeRequest& range) const {
  RangeResponse response = fetchRange(*client_, displayUri_, url_, range, prepare_, options_.retry,
                                      options_.refusalNote);
  requests_.fetch_add(1, std::memory_order_relaxed);
  bytes_.fetch_add(response.body.size(), std::memory_order_relaxed);
  return response;
}

void HttpStorageObject::fetchTailLocked(uint64_t length) const {
  RangeResponse response = fetch(RangeRequest{0, std::max<uint64_t>(length, 1), true});
  size_ = response.objectSize;
  tail_ = std::move(response.body);
  etag_ = std::move(response.etag);
  known_ = true;
}

uint64_t HttpStorageObject::size() const {
  std::lock_guard lock(mutex_);
  if (!known_) fetchTailLocked(options_.tailBytes);
  return size_;
}

std::optional<std::string> HttpStorageObject::etag() const {
  std::lock_guard lock(mutex_);
  return etag_;
}

std::vector<uint8_t> HttpStorageObject::readTail(uint64_t length) {
  std::unique_lock lock(mutex_);
  if (!known_) fetchTailLocked(length);
  const uint64_t n = std::min(length, size_);
  if (n > tail_.size()) {
    // The tail asked for is longer than the one cached: fetch only the bytes before it
    // and keep the longer tail, which the footer reader's next reads fall into.
    const uint64_t start = size_ - n;
    const uint64_t missing = n - tail_.size();
    RangeResponse response = fetch(RangeRequest{start, missing, false});
    if (response.objectSize != size_ || response.etag != etag_) {
      throw IoError(displayUri_ + ": the object changed while being read (it had " + std::to_string(size_) +
                    " bytes, now " + std::to_string(response.objectSize) + ")");
    }
    response.body.insert(response.body.end(), tail_.begin(), tail_.end());
    tail_ = std::move(response.body);
  }
  return std::vector<uint8_t>(tail_.end() - static_cast<ptrdiff_t>(n), tail_.end());
}

std::pair<uint64_t, std::optional<std::string>> HttpStorageObject::knownSizeAndEtag() const {
  std::lock_guard lock(mutex_);
  if (!known_) fetchTailLocked(options_.tailBytes);
  return {size_, etag_};
}

void HttpStorageObject::checkWithin(uint64_t offset, uint64_t length, uint64_t size) const {
  if (offset > size || length > size - offset) {
    throw IoError(displayUri_ + ": read of bytes [" + std::to_string(offset) + ", " +
                  std::to_string(offset + length) + ") is past the end of the object (" + std::to_string(size) +
                  " bytes)");
  }
}

bool HttpStorageObject::copyFromTail(uint64_t offset, std::span<uint8_t> out) const {
  std::lock_guard lock(mutex_);
  const uint64_t tailStart = size_ - tail_.size();
  if (offset < tailStart) return false;
  if (!out.empty()) std::memcpy(out.data(), tail_.data() + (offset - tailStart), out.size());
  return true;
}

void HttpStorageObject::checkResponseUnchanged(const RangeResponse& response, uint64_t size,
                                               const std::optional<std::string>& etag) const {
  if (response.objectSize != size || response.etag != etag) {
    throw IoError(displayUri_ + ": the object changed while being read (it had " + std::to_string(size) +
                  " bytes" + (etag ? " and ETag " + *etag : std::string()) + ", now " +
                  std::to_string(response.objectSize) + " bytes" +
                  (response.etag ? " and ETag " + *response.etag : std::string()) + ")");
  }
}

void HttpStorageObject::readAt(uint64_t offset, std::span<uint8_t> out) {
  const auto [size, etag] = knownSizeAndEtag();
  checkWithin(offset, out.size(), size);
  if (copyFromTail(offset, out)) return;
  RangeResponse response = fetch(RangeRequest{offset, out.size(), false});
  checkResponseUnchanged(response, size, etag);
  std::memcpy(out.data(), response.body.data(), out.size());
}

void HttpStorageObject::readRanges(std::span<const ReadRange> ranges) {
  // Not a structured binding: Clang 14 cannot capture one in the lambda below.
  const auto known = knownSizeAndEtag();
  const uint64_t size = known.first;
  const std::optional<std::string>& etag = known.second;
  std::vector<ReadRange> remote;
  remote.reserve(ranges.size());
  for (const ReadRange& range : ranges) {
    checkWithin(range.offset, range.out.size(), size);
    if (!copyFromTail(range.offset, range.out)) remote.push_back(range);
  }
  const std::vector<PlannedRequest> plan = planReads(remote, options_.coalesce);
  fetchConcurrently(plan.size(), options_.coalesce.maxConcurrentRequests, [&](size_t i) {
    const PlannedRequest& request = plan[i];
    const RangeResponse response = fetch(RangeRequest{request.offset, request.length, false});
    checkResponseUnchanged(response, size, etag);
    scatterRequest(request, response.body, remote);
  });
}

HttpStorageProvider::HttpStorageProvider(HttpStorageOptions options, std::shared_ptr<HttpClient> client)
    : options_(options), client_(std::move(client)) {}

std::unique_ptr<StorageObject> HttpStorageProvider::open(const std::string& uri) {
  if (!client_) client_ = curlHttpClient(options_.client);
  auto object = std::make_unique<HttpStorageObject>(uri, uri, client_, options_);
  object->size();  // the one request that opening costs; it fails here when the object is missing
  return object;
}

}  // namespace quarry::io
