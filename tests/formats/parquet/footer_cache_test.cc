#include "quarry/formats/parquet/footer_cache.h"

#include <gtest/gtest.h>

#include "quarry/common/error.h"
#include "quarry/io/http_storage.h"
#include "tests/io/fake_http_client.h"
#include "tests/support/testdata.h"

namespace quarry::parquet {
namespace {

using quarry::testing::FakeHttpClient;

std::vector<uint8_t> fileBytes(const char* name) {
  return quarry::testing::readFileBytes(quarry::testing::parquetTestingDir() / "data" / name);
}

/// An HTTP object over `client`, as a remote open would make it.
struct RemoteFile {
  RemoteFile(std::shared_ptr<FakeHttpClient> client, const std::string& uri, uint64_t tailBytes = 64 * 1024) {
    io::HttpStorageOptions options;
    options.tailBytes = tailBytes;
    object = std::make_unique<io::HttpStorageObject>(uri, uri, std::move(client), options);
  }
  std::function<std::optional<std::string>()> version() const {
    return [this] { return object->etag(); };
  }
  std::unique_ptr<io::HttpStorageObject> object;
};

/// Makes `client` answer with ETag `etag` instead of the fake's own.
void answerWithEtag(FakeHttpClient& client, const std::string& etag) {
  client.always([&client, etag](const io::HttpRequest& request) {
    auto response = client.serve(request);
    for (auto& [name, value] : response.headers) {
      if (name == "ETag") value = etag;
    }
    return response;
  });
}

TEST(FooterCacheTest, TheSameUriSizeAndVersionIsAHit) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  auto client = std::make_shared<FakeHttpClient>(fileBytes("alltypes_plain.parquet"));
  FooterCache cache;
  RemoteFile first(client, "http://h.test/a.parquet");
  const auto footer = cache.read(*first.object, first.version());
  RemoteFile second(client, "http://h.test/a.parquet");
  EXPECT_EQ(cache.read(*second.object, second.version()), footer);
  EXPECT_EQ(footer->metadata.num_rows, 8);
  EXPECT_EQ(cache.stats().hits, 1u);
  EXPECT_EQ(cache.stats().misses, 1u);
  EXPECT_EQ(cache.stats().entries, 1u);
  // Another URI with the same bytes is another file.
  RemoteFile other(client, "http://h.test/b.parquet");
  EXPECT_NE(cache.read(*other.object, other.version()), footer);
  EXPECT_EQ(cache.stats().entries, 2u);
}

TEST(FooterCacheTest, FindReturnsAKeptFooterWithoutARequest) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const std::vector<uint8_t> bytes = fileBytes("alltypes_plain.parquet");
  auto client = std::make_shared<FakeHttpClient>(bytes);
  FooterCache cache;
  const std::string uri = "http://h.test/a.parquet";
  EXPECT_EQ(cache.find(uri, bytes.size(), "x"), nullptr);
  RemoteFile first(client, uri);
  const auto footer = cache.read(*first.object, first.version());
  const std::string etag = first.object->etag().value_or("");
  const size_t requests = client->requests().size();
  EXPECT_EQ(cache.find(uri, bytes.size(), etag), footer);
  EXPECT_EQ(client->requests().size(), requests);
  // Any other size, version or URI is not that footer.
  EXPECT_EQ(cache.find(uri, bytes.size() + 1, etag), nullptr);
  EXPECT_EQ(cache.find(uri, bytes.size(), etag + "2"), nullptr);
  EXPECT_EQ(cache.find("http://h.test/b.parquet", bytes.size(), etag), nullptr);
}

TEST(FooterCacheTest, ANewVersionIsAMiss) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  auto client = std::make_shared<FakeHttpClient>(fileBytes("alltypes_plain.parquet"));
  FooterCache cache;
  RemoteFile first(client, "http://h.test/a.parquet");
  const auto footer = cache.read(*first.object, first.version());
  answerWithEtag(*client, "\"v2\"");
  RemoteFile rewritten(client, "http://h.test/a.parquet");
  EXPECT_NE(cache.read(*rewritten.object, rewritten.version()), footer);
  EXPECT_EQ(cache.stats().hits, 0u);
  EXPECT_EQ(cache.stats().misses, 2u);
}

TEST(FooterCacheTest, DecodeOptionsArePartOfTheKey) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  auto client = std::make_shared<FakeHttpClient>(fileBytes("alltypes_plain.parquet"));
  FooterCache cache;
  RemoteFile file(client, "http://h.test/a.parquet");
  FileMetaDataOptions noStatistics;
  noStatistics.statistics = false;
  const auto full = cache.read(*file.object, file.version());
  const auto lean = cache.read(*file.object, file.version(), noStatistics);
  EXPECT_NE(full, lean);
  EXPECT_EQ(cache.read(*file.object, file.version(), noStatistics), lean);
  EXPECT_EQ(cache.stats().entries, 2u);
}

TEST(FooterCacheTest, AnObjectWithoutAVersionIsNeverKept) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  auto client = std::make_shared<FakeHttpClient>(fileBytes("alltypes_plain.parquet"));
  FooterCache cache;
  RemoteFile file(client, "http://h.test/a.parquet");
  cache.read(*file.object, [] { return std::optional<std::string>(); });
  cache.read(*file.object, nullptr);
  EXPECT_EQ(cache.stats().misses, 2u);
  EXPECT_EQ(cache.stats().entries, 0u);
}

TEST(FooterCacheTest, AHitSavesTheSecondRequestOfALargeFooter) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  auto client = std::make_shared<FakeHttpClient>(fileBytes("alltypes_plain.parquet"));
  FooterCache cache;
  // A 16-byte first read cannot hold the footer: a miss needs a second request.
  RemoteFile first(client, "http://h.test/a.parquet", 16);
  cache.read(*first.object, first.version());
  EXPECT_EQ(first.object->requestCount(), 2u);
  RemoteFile second(client, "http://h.test/a.parquet", 16);
  cache.read(*second.object, second.version());
  EXPECT_EQ(second.object->requestCount(), 1u);
}

TEST(FooterCacheTest, EvictsTheLeastRecentlyUsedBeyondItsCapacity) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  auto client = std::make_shared<FakeHttpClient>(fileBytes("alltypes_plain.parquet"));
  FooterCache probe;
  RemoteFile sizing(client, "http://h.test/0.parquet");
  probe.read(*sizing.object, sizing.version());
  const uint64_t entryBytes = probe.stats().bytes;  // the URIs below have the same length
  FooterCache cache(entryBytes * 2);
  const auto read = [&](const char* uri) {
    RemoteFile file(client, uri);
    cache.read(*file.object, file.version());
  };
  read("http://h.test/1.parquet");
  read("http://h.test/2.parquet");
  read("http://h.test/1.parquet");  // 1 is now the most recent
  read("http://h.test/3.parquet");  // evicts 2
  EXPECT_EQ(cache.stats().entries, 2u);
  EXPECT_LE(cache.stats().bytes, entryBytes * 2);
  const uint64_t misses = cache.stats().misses;
  read("http://h.test/1.parquet");
  EXPECT_EQ(cache.stats().misses, misses);
  read("http://h.test/2.parquet");
  EXPECT_EQ(cache.stats().misses, misses + 1);
}

TEST(FooterCacheTest, FailuresAreNotCached) {
  auto client = std::make_shared<FakeHttpClient>(std::vector<uint8_t>(100, 'x'));
  FooterCache cache;
  for (int i = 0; i < 2; ++i) {
    RemoteFile file(client, "http://h.test/bad.parquet");
    EXPECT_THROW(cache.read(*file.object, file.version()), CorruptFile);
  }
  EXPECT_EQ(cache.stats().entries, 0u);
  EXPECT_EQ(cache.stats().misses, 2u);
}

}  // namespace
}  // namespace quarry::parquet
