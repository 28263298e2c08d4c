// ByteRangeCache and RangeCachingObject: a page index read to decide an
// aggregate page by page is served again to the scan of the rows it leaves,
// without a second request; nothing is served across object versions.
#include "quarry/io/range_cache.h"

#include <gtest/gtest.h>

#include <numeric>

namespace quarry::io {
namespace {

/// An in-memory object of 1,000 bytes (byte i is i % 251) counting its reads.
class CountingObject final : public StorageObject {
 public:
  explicit CountingObject(std::optional<std::string> version = "v1")
      : version_(std::move(version)) {
    bytes_.resize(1000);
    for (size_t i = 0; i < bytes_.size(); ++i) bytes_[i] = static_cast<uint8_t>(i % 251);
  }
  const std::string& uri() const override { return uri_; }
  uint64_t size() const override { return bytes_.size(); }
  void readAt(uint64_t offset, std::span<uint8_t> out) override {
    ++requests_;
    read_ += out.size();
    std::copy(bytes_.begin() + static_cast<long>(offset),
              bytes_.begin() + static_cast<long>(offset + out.size()), out.begin());
  }
  std::optional<std::string> version() const override { return version_; }
  uint64_t requestCount() const override { return requests_; }
  uint64_t bytesRead() const override { return read_; }

 private:
  std::string uri_ = "mem://object";
  std::optional<std::string> version_;
  std::vector<uint8_t> bytes_;
  uint64_t requests_ = 0, read_ = 0;
};

std::vector<uint8_t> readVia(StorageObject& object, uint64_t offset, size_t length) {
  std::vector<uint8_t> out(length);
  object.readAt(offset, out);
  return out;
}

std::vector<uint8_t> expected(uint64_t offset, size_t length) {
  std::vector<uint8_t> out(length);
  for (size_t i = 0; i < length; ++i) out[i] = static_cast<uint8_t>((offset + i) % 251);
  return out;
}

TEST(RangeCacheTest, AKeptRangeServesTheNextReaderOfTheSameVersion) {
  ByteRangeCache cache(1 << 20);
  RangeCachingObject first(std::make_unique<CountingObject>(), cache, true);
  EXPECT_EQ(readVia(first, 100, 200), expected(100, 200));
  EXPECT_EQ(first.requestCount(), 1u);
  RangeCachingObject second(std::make_unique<CountingObject>(), cache, false);
  EXPECT_EQ(readVia(second, 150, 50), expected(150, 50));    // inside: served
  EXPECT_EQ(readVia(second, 100, 200), expected(100, 200));  // all of it: served
  EXPECT_EQ(second.requestCount(), 0u);
  EXPECT_EQ(readVia(second, 250, 100), expected(250, 100));  // past its end: read
  EXPECT_EQ(second.requestCount(), 1u);
  EXPECT_EQ(second.bytesRead(), 100u);
  // second does not keep what it read.
  RangeCachingObject third(std::make_unique<CountingObject>(), cache, false);
  EXPECT_EQ(readVia(third, 320, 10), expected(320, 10));
  EXPECT_EQ(third.requestCount(), 1u);
}

TEST(RangeCacheTest, AnotherVersionIsAnotherObject) {
  ByteRangeCache cache(1 << 20);
  RangeCachingObject first(std::make_unique<CountingObject>("v1"), cache, true);
  readVia(first, 0, 100);
  RangeCachingObject rewritten(std::make_unique<CountingObject>("v2"), cache, false);
  readVia(rewritten, 0, 100);
  EXPECT_EQ(rewritten.requestCount(), 1u);
}

TEST(RangeCacheTest, TheOldestRangesGoWhenTheCapacityIsPassed) {
  const std::string key = ByteRangeCache::keyOf(CountingObject());
  ByteRangeCache cache(300 + 2 * key.size());
  cache.put(key, 0, expected(0, 150));
  cache.put(key, 500, expected(500, 150));
  std::vector<uint8_t> out(10);
  EXPECT_TRUE(cache.copy(key, 0, out));
  cache.put(key, 800, expected(800, 100));  // passes the capacity: [0, 150) goes
  EXPECT_FALSE(cache.copy(key, 0, out));
  EXPECT_TRUE(cache.copy(key, 500, out));
  EXPECT_TRUE(cache.copy(key, 890, out));
  EXPECT_FALSE(cache.copy(key, 895, out));  // runs past the kept range
  // A range larger than the whole capacity is not kept.
  cache.put(key, 0, expected(0, 900));
  EXPECT_TRUE(cache.copy(key, 500, out));
}

}  // namespace
}  // namespace quarry::io
