#include "quarry/io/s3_list.h"

#include <gtest/gtest.h>

#include "quarry/common/error.h"
#include "quarry/io/s3_storage.h"
#include "tests/io/s3_test_server.h"
#include "tests/support/curl_client.h"

namespace quarry::io {
namespace {

TEST(S3ListTest, ParsesAPageWithEntitiesAndToken) {
  const S3ListPage page = parseListObjectsV2(
      "<?xml version=\"1.0\"?><ListBucketResult><Name>b</Name><IsTruncated>true</IsTruncated>"
      "<Contents><Key>a&amp;b &lt;c&gt; &#x1234;.parquet</Key><Size>12</Size></Contents>"
      "<Contents><Key>d</Key><Size>0</Size></Contents>"
      "<NextContinuationToken>tok&amp;=</NextContinuationToken></ListBucketResult>",
      "s3://b/*");
  ASSERT_EQ(page.objects.size(), 2u);
  EXPECT_EQ(page.objects[0].key, "a&b <c> \xE1\x88\xB4.parquet");
  EXPECT_EQ(page.objects[0].size, 12u);
  EXPECT_TRUE(page.truncated);
  EXPECT_EQ(page.nextContinuationToken, "tok&=");
}

TEST(S3ListTest, CutShortPageIsAnIoErrorNamingTheUri) {
  try {
    parseListObjectsV2("<ListBucketResult><Contents><Key>a</Key>", "s3://bucket/x*");
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("s3://bucket/x*"), std::string::npos) << e.what();
  }
}

S3StorageOptions optionsFor(const testing::S3TestServer& server,
                            const testing::S3TestServerOptions& serverOptions,
                            std::shared_ptr<HttpClient> client) {
  S3StorageOptions options;
  AwsConfig config;
  config.endpointUrl = server.endpointUrl();
  config.region = serverOptions.region;
  config.credentials = {serverOptions.accessKeyId, serverOptions.secretAccessKey, ""};
  options.config = config;
  options.client = std::move(client);
  options.http.retry.baseDelay = std::chrono::milliseconds(1);
  options.http.retry.maxAttempts = 8;
  return options;
}

class S3ListServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* key : {"data/a.parquet", "data/b.parquet", "data/c.csv", "data/2024/d.parquet",
                            "data/2024/01/e.parquet", "data/2025/f.parquet", "other/g.parquet",
                            "data/sp ace+&.parquet"}) {
      server_.putObject("bucket", key, {1, 2, 3});
    }
  }
  testing::S3TestServerOptions serverOptions_;
  testing::S3TestServer server_{serverOptions_};
};

TEST_F(S3ListServerTest, FollowsContinuationTokensAcrossSmallPages) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  S3StorageOptions options = optionsFor(server_, serverOptions_, client);
  options.listPageSize = 2;
  const auto found = listS3("s3://bucket/data/**/*.parquet", options);
  EXPECT_EQ(found, (std::vector<std::string>{
                       "s3://bucket/data/2024/01/e.parquet", "s3://bucket/data/2024/d.parquet",
                       "s3://bucket/data/2025/f.parquet", "s3://bucket/data/a.parquet",
                       "s3://bucket/data/b.parquet", "s3://bucket/data/sp ace+&.parquet"}));
  // The prefix "data/" narrows the listing to 7 keys: 4 pages of 2, "other/" never listed.
  EXPECT_EQ(server_.listPagesServed(), 4u);
}

TEST_F(S3ListServerTest, StarDoesNotDescendAndPrefixNarrowsToTheFirstWildcard) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  const S3StorageOptions options = optionsFor(server_, serverOptions_, client);
  EXPECT_EQ(listS3("s3://bucket/data/*.parquet", options),
            (std::vector<std::string>{"s3://bucket/data/a.parquet", "s3://bucket/data/b.parquet",
                                      "s3://bucket/data/sp ace+&.parquet"}));
  EXPECT_EQ(listS3("s3://bucket/data/202?/*.parquet", options),
            (std::vector<std::string>{"s3://bucket/data/2024/d.parquet",
                                      "s3://bucket/data/2025/f.parquet"}));
  EXPECT_TRUE(listS3("s3://bucket/none/*", options).empty());
}

TEST_F(S3ListServerTest, UriWithoutWildcardIsReturnedUnlisted) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  const S3StorageOptions options = optionsFor(server_, serverOptions_, client);
  EXPECT_EQ(listS3("s3://bucket/data/a.parquet", options),
            (std::vector<std::string>{"s3://bucket/data/a.parquet"}));
  EXPECT_EQ(server_.requestCount(), 0u);
}

TEST_F(S3ListServerTest, ListingSurvivesInjectedFaults) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  S3StorageOptions options = optionsFor(server_, serverOptions_, client);
  options.listPageSize = 1;
  server_.setFaults({std::chrono::milliseconds(0), 0.2, 0.1, 0.05, 7});
  EXPECT_EQ(listS3("s3://bucket/data/**", options).size(), 7u);
  EXPECT_GT(server_.faultsInjected(), 0u);
}

TEST_F(S3ListServerTest, WrongSecretFailsNamingTheUriNotTheSecret) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  S3StorageOptions options = optionsFor(server_, serverOptions_, client);
  options.config->credentials.secretAccessKey = "wrong-SECRET-value";
  try {
    listS3("s3://bucket/data/*", options);
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("s3://bucket/data/*"), std::string::npos) << message;
    EXPECT_NE(message.find("SignatureDoesNotMatch"), std::string::npos) << message;
    EXPECT_EQ(message.find("wrong-SECRET-value"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace quarry::io
