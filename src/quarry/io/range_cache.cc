#include "quarry/io/range_cache.h"

#include <algorithm>
#include <cstring>

namespace quarry::io {

std::string ByteRangeCache::keyOf(const StorageObject& object) {
  std::string key = object.uri();
  key += '\0';
  key += std::to_string(object.size());
  key += '\0';
  key += object.version().value_or("");
  return key;
}

void ByteRangeCache::put(const std::string& key, uint64_t offset, std::vector<uint8_t> bytes) {
  const uint64_t size = bytes.size() + key.size();
  if (size > capacityBytes_) return;
  std::lock_guard lock(mutex_);
  entries_.push_front(Entry{key, offset, std::move(bytes)});
  heldBytes_ += size;
  while (heldBytes_ > capacityBytes_) {
    const Entry& last = entries_.back();
    heldBytes_ -= last.bytes.size() + last.key.size();
    entries_.pop_back();
  }
}

bool ByteRangeCache::copy(const std::string& key, uint64_t offset, std::span<uint8_t> out) const {
  std::lock_guard lock(mutex_);
  for (const Entry& e : entries_) {
    if (e.key != key || offset < e.offset || out.size() > e.bytes.size() ||
        offset - e.offset > e.bytes.size() - out.size()) {
      continue;
    }
    if (!out.empty()) std::memcpy(out.data(), e.bytes.data() + (offset - e.offset), out.size());
    return true;
  }
  return false;
}

void RangeCachingObject::readAt(uint64_t offset, std::span<uint8_t> out) {
  if (cache_.copy(key_, offset, out)) return;
  inner_->readAt(offset, out);
  if (keepReads_) cache_.put(key_, offset, std::vector<uint8_t>(out.begin(), out.end()));
}

}  // namespace quarry::io
