// The remote metadata cache (issue 29): "Footers and listings of `s3://` ...
// files kept in the metadata cache, keyed by URI and the ETag and size the
// listing ... returns; an object whose ETag or size changed is read again; an S3
// listing is always repeated". Acceptance: "the second run of a query over 32 S3
// objects makes zero footer requests (asserted on the server log); after one
// object is replaced, exactly that footer is read again."
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "quarry/engine/query_engine.h"
#include "tests/engine/fragment_test_support.h"
#include "tests/io/s3_test_server.h"
#include "tests/support/build_paths.h"
#include "tests/support/curl_client.h"
#include "tests/support/scoped_environment.h"
#include "tests/support/temp_dir.h"

namespace quarry::engine {
namespace {

constexpr int kObjects = 32;

std::vector<uint8_t> fixtureBytes(const std::string& name) {
  std::ifstream in(std::string(QUARRY_SOURCE_DIR) + "/tests/fixtures/engine_source/" + name,
                   std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::string key(int i) {
  return "data/part-" + std::string(i < 10 ? "0" : "") + std::to_string(i) + ".parquet";
}

class RemoteMetadataCache : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.valid());
    const std::vector<uint8_t> a = fixtureBytes("schema_a.parquet");
    ASSERT_FALSE(a.empty());
    for (int i = 0; i < kObjects; ++i) server_.putObject("bucket", key(i), a);
    server_.configure(environment_);
  }

  struct Outcome {
    std::vector<std::string> rows;
    uint64_t listings = 0;
    /// The objects any request read (a footer, a page), by key.
    std::set<std::string> objectsRead;
    uint64_t objectRequests = 0;
  };

  /// Runs `tail` over the 32 objects with the cache under dir_ (or none).
  Outcome run(const std::string& tail, bool cached = true, int64_t listingTtlNs = 0) {
    server_.clearRequestLog();
    QueryOptions options;
    options.metadataCacheDirectory = cached ? (dir_.path() / "cache").string() : "";
    options.remoteListingTtlNs = listingTtlNs;
    const PreparedQuery prepared =
        prepareQuery("FROM \"s3://bucket/data/*.parquet\"" + tail, options);
    Outcome out;
    executeQuery(prepared, [&](const Page& page) { testing::appendRows(page, out.rows); });
    for (const std::string& request : server_.requestLog()) {
      if (request.find("list-type=2") != std::string::npos) {
        ++out.listings;
        continue;
      }
      const size_t at = request.find("/bucket/");
      if (at == std::string::npos) continue;
      ++out.objectRequests;
      out.objectsRead.insert(request.substr(at + 8));
    }
    return out;
  }

  quarry::testing::TempDir dir_{"quarry_remote_cache"};
  quarry::testing::S3TestServerOptions options_;
  quarry::testing::S3TestServer server_{options_};
  quarry::testing::ScopedEnvironment environment_;
};

TEST_F(RemoteMetadataCache, ASecondRunReadsNoFooterAndAReplacedObjectIsReadAgain) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  // Answered from the footers' statistics: the only object requests are footer reads.
  const std::string query = " | STATS n = COUNT(*), hi = MAX(id)";
  const Outcome first = run(query);
  EXPECT_EQ(first.listings, 1u);
  EXPECT_EQ(first.objectsRead.size(), static_cast<size_t>(kObjects));
  ASSERT_EQ(first.rows.size(), 1u);

  const Outcome second = run(query);
  EXPECT_EQ(second.listings, 1u) << "an S3 listing is always repeated";
  EXPECT_EQ(second.objectRequests, 0u) << "every footer came from the cache";
  EXPECT_EQ(second.rows, first.rows);

  // One object replaced by another file: another ETag (and size) in the listing.
  const std::vector<uint8_t> a2 = fixtureBytes("schema_a2.parquet");
  ASSERT_FALSE(a2.empty());
  server_.putObject("bucket", key(7), a2);
  const Outcome third = run(query);
  EXPECT_EQ(third.listings, 1u);
  EXPECT_EQ(third.objectsRead, (std::set<std::string>{key(7)}));
  // The same answer as without any cache.
  EXPECT_EQ(third.rows, run(query, false).rows);
  EXPECT_NE(third.rows, first.rows);

  // And once more: the replaced object's footer is now cached too.
  EXPECT_EQ(run(query).objectRequests, 0u);
}

TEST_F(RemoteMetadataCache, ScansOfCachedFootersReadTheSameRows) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  // A scan: each object's pages are read whatever the cache holds, its footer only
  // when the cache does not hold it.
  const std::string query = " | WHERE id >= 1 | STATS n = COUNT(*), s = SUM(amount) BY name";
  const Outcome uncached = run(query, false);
  run(query);  // fills the cache
  const Outcome cached = run(query);
  EXPECT_EQ(cached.rows, uncached.rows);
  EXPECT_EQ(cached.rows, (std::vector<std::string>{"32|40.00|a"}));
  EXPECT_EQ(cached.objectsRead.size(), static_cast<size_t>(kObjects));
  EXPECT_LT(cached.objectRequests, uncached.objectRequests);
}

// "an S3 listing is always repeated (it is how changes are seen) unless the user
// opts into a listing TTL."
TEST_F(RemoteMetadataCache, AListingTtlTheUserOptsIntoSparesTheListing) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  const std::string query = " | STATS n = COUNT(*), hi = MAX(id)";
  constexpr int64_t kMinute = int64_t{60} * 1'000'000'000;
  const Outcome first = run(query, true, kMinute);
  EXPECT_EQ(first.listings, 1u);
  // Within the minute: neither a listing nor a footer.
  const Outcome second = run(query, true, kMinute);
  EXPECT_EQ(second.listings, 0u);
  EXPECT_EQ(second.objectRequests, 0u);
  EXPECT_EQ(second.rows, first.rows);
  // Without the opt-in the same cache lists again, and so does a listing older
  // than the time to live.
  EXPECT_EQ(run(query).listings, 1u);
  EXPECT_EQ(run(query, true, 1).listings, 1u);
  // A new object is seen once the listing is repeated.
  server_.putObject("bucket", key(kObjects), fixtureBytes("schema_a.parquet"));
  EXPECT_EQ(run(query, true, kMinute).rows, first.rows);  // the remembered listing
  const Outcome relisted = run(query);
  EXPECT_NE(relisted.rows, first.rows);
  EXPECT_EQ(relisted.rows, run(query, false).rows);
}

}  // namespace
}  // namespace quarry::engine
