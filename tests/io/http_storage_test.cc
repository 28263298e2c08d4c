#include "quarry/io/http_storage.h"

#include <gtest/gtest.h>

#include <thread>

#include "quarry/common/error.h"
#include "tests/io/fake_http_client.h"

namespace quarry::io {
namespace {

using quarry::testing::countingBytes;
using quarry::testing::FakeHttpClient;
using quarry::testing::statusResponse;

constexpr const char* kUrl = "http://example.test/f.parquet";

HttpStorageOptions fastOptions(uint64_t tailBytes = 64) {
  HttpStorageOptions options;
  options.tailBytes = tailBytes;
  options.retry.maxAttempts = 3;
  options.retry.baseDelay = std::chrono::milliseconds(1);
  options.retry.maxDelay = std::chrono::milliseconds(1);
  return options;
}

std::vector<uint8_t> slice(const std::vector<uint8_t>& bytes, size_t offset, size_t length) {
  return std::vector<uint8_t>(bytes.begin() + static_cast<ptrdiff_t>(offset),
                              bytes.begin() + static_cast<ptrdiff_t>(offset + length));
}

std::vector<uint8_t> readAt(StorageObject& object, uint64_t offset, size_t length) {
  std::vector<uint8_t> out(length);
  object.readAt(offset, out);
  return out;
}

TEST(HttpStorageObjectTest, SizeCostsOneSuffixRequestWhoseBytesAreKept) {
  auto client = std::make_shared<FakeHttpClient>(countingBytes(1000));
  HttpStorageObject object(kUrl, kUrl, client, fastOptions(64));
  EXPECT_EQ(client->requestCount(), 0u);  // constructing sends nothing
  EXPECT_EQ(object.size(), 1000u);
  EXPECT_EQ(object.size(), 1000u);
  ASSERT_EQ(client->requestCount(), 1u);
  EXPECT_EQ(client->requests()[0].headers[0].second, "bytes=-64");
  // Reads inside the cached tail cost nothing, including the footer reader's readTail.
  EXPECT_EQ(object.readTail(8), slice(client->object(), 992, 8));
  EXPECT_EQ(object.readTail(64), slice(client->object(), 936, 64));
  EXPECT_EQ(readAt(object, 940, 20), slice(client->object(), 940, 20));
  EXPECT_EQ(client->requestCount(), 1u);
  EXPECT_EQ(object.requestCount(), 1u);
  EXPECT_EQ(object.bytesRead(), 64u);
  EXPECT_EQ(object.etag(), "\"v1\"");
}

TEST(HttpStorageObjectTest, ReadTailFirstAsksForExactlyThatTail) {
  auto client = std::make_shared<FakeHttpClient>(countingBytes(1000));
  HttpStorageObject object(kUrl, kUrl, client, fastOptions(64));
  EXPECT_EQ(object.readTail(200), slice(client->object(), 800, 200));
  EXPECT_EQ(object.size(), 1000u);
  ASSERT_EQ(client->requestCount(), 1u);
  EXPECT_EQ(client->requests()[0].headers[0].second, "bytes=-200");
}

TEST(HttpStorageObjectTest, ALongerTailFetchesOnlyTheMissingBytes) {
  auto client = std::make_shared<FakeHttpClient>(countingBytes(1000));
  HttpStorageObject object(kUrl, kUrl, client, fastOptions(64));
  object.size();
  EXPECT_EQ(object.readTail(300), slice(client->object(), 700, 300));
  ASSERT_EQ(client->requestCount(), 2u);
  EXPECT_EQ(client->requests()[1].headers[0].second, "bytes=700-935");
  // The longer tail is kept.
  EXPECT_EQ(readAt(object, 700, 10), slice(client->object(), 700, 10));
  EXPECT_EQ(client->requestCount(), 2u);
  EXPECT_EQ(object.bytesRead(), 300u);
}

TEST(HttpStorageObjectTest, AnObjectSmallerThanTheTailIsReadOnce) {
  auto client = std::make_shared<FakeHttpClient>(countingBytes(50));
  HttpStorageObject object(kUrl, kUrl, client, fastOptions(64));
  EXPECT_EQ(object.size(), 50u);
  EXPECT_EQ(object.readTail(1000), client->object());
  EXPECT_EQ(readAt(object, 0, 50), client->object());
  EXPECT_EQ(client->requestCount(), 1u);
}

TEST(HttpStorageObjectTest, ReadsBeforeTheTailAreOneRangeRequestEach) {
  auto client = std::make_shared<FakeHttpClient>(countingBytes(1000));
  HttpStorageObject object(kUrl, kUrl, client, fastOptions(64));
  EXPECT_EQ(readAt(object, 4, 100), slice(client->object(), 4, 100));  // first: the tail, then the range
  EXPECT_EQ(readAt(object, 900, 60), slice(client->object(), 900, 60));  // straddles the tail: one request
  ASSERT_EQ(client->requestCount(), 3u);
  EXPECT_EQ(client->requests()[1].headers[0].second, "bytes=4-103");
  EXPECT_EQ(client->requests()[2].headers[0].second, "bytes=900-959");
  EXPECT_EQ(object.requestCount(), 3u);
  EXPECT_EQ(object.bytesRead(), 64u + 100u + 60u);
}

TEST(HttpStorageObjectTest, AReadPastTheEndNamesTheObjectAndSendsNothing) {
  auto client = std::make_shared<FakeHttpClient>(countingBytes(100));
  HttpStorageObject object(kUrl, kUrl, client, fastOptions());
  object.size();
  std::vector<uint8_t> out(10);
  try {
    object.readAt(95, out);
    FAIL() << "no IoError";
  } catch (const IoError& e) {
    EXPECT_STREQ(e.what(), "http://example.test/f.parquet: read of bytes [95, 105) is past the end of the object "
                           "(100 bytes)");
  }
  EXPECT_EQ(client->requestCount(), 1u);
}

TEST(HttpStorageObjectTest, AChangedObjectIsAnErrorNotMixedBytes) {
  auto client = std::make_shared<FakeHttpClient>(countingBytes(1000));
  HttpStorageObject object(kUrl, kUrl, client, fastOptions());
  object.size();
  client->then([&client](const HttpRequest& request) {
    auto response = client->serve(request);
    for (auto& [name, value] : response.headers) {
      if (name == "ETag") value = "\"v2\"";
    }
    return response;
  });
  std::vector<uint8_t> out(10);
  try {
    object.readAt(0, out);
    FAIL() << "no IoError";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("changed while being read"), std::string::npos) << e.what();
  }
}

TEST(HttpStorageObjectTest, AMissingObjectIsAnIoErrorNamingIt) {
  auto client = std::make_shared<FakeHttpClient>(countingBytes(10));
  client->always([](const HttpRequest&) { return statusResponse(404, "Not Found"); });
  HttpStorageProvider provider(fastOptions(), client);
  try {
    provider.open("http://user:pw@example.test/missing.parquet?token=abc");
    FAIL() << "no IoError";
  } catch (const IoError& e) {
    EXPECT_STREQ(e.what(), "http://***@example.test/missing.parquet?token=***: reading the last 64 bytes "
                           "failed: the server answered HTTP 404: Not Found");
  }
}

TEST(HttpStorageObjectTest, UriIsRedacted) {
  auto client = std::make_shared<FakeHttpClient>(countingBytes(10));
  HttpStorageObject object("https://k:secret@h.test/a?sig=1", "https://k:secret@h.test/a?sig=1", client);
  EXPECT_EQ(object.uri(), "https://***@h.test/a?sig=***");
}

TEST(HttpStorageObjectTest, ConcurrentReadsGetTheirOwnBytes) {
  auto client = std::make_shared<FakeHttpClient>(countingBytes(1 << 16));
  HttpStorageObject object(kUrl, kUrl, client, fastOptions(1024));
  constexpr int kThreads = 8;
  constexpr int kReads = 50;
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kReads; ++i) {
        const uint64_t offset = static_cast<uint64_t>((t * 7919 + i * 104729) % ((1 << 16) - 600));
        const size_t length = static_cast<size_t>(1 + (t * 31 + i * 17) % 599);
        if (readAt(object, offset, length) != slice(client->object(), offset, length)) ++wrong;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  // One tail request, however many threads raced to make it.
  size_t suffixRequests = 0;
  for (const auto& request : client->requests()) suffixRequests += request.headers[0].second.starts_with("bytes=-");
  EXPECT_EQ(suffixRequests, 1u);
  EXPECT_EQ(object.requestCount(), client->requestCount());
}

}  // namespace
}  // namespace quarry::io
