#include "quarry/io/s3_storage.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "quarry/common/error.h"
#include "quarry/engine/query_engine.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "tests/formats/parquet/pruning_fixture.h"
#include "tests/io/rendered_rows.h"
#include "tests/io/s3_test_server.h"
#include "tests/support/curl_client.h"
#include "tests/support/scoped_environment.h"
#include "tests/support/testdata.h"

namespace quarry::io {
namespace {

using testing::ScopedEnvironment;

class S3StorageTest : public ::testing::Test {
 protected:
  S3StorageOptions options(std::shared_ptr<HttpClient> client) const {
    S3StorageOptions out;
    AwsConfig config;
    config.endpointUrl = server_.endpointUrl();
    config.credentials = {serverOptions_.accessKeyId, serverOptions_.secretAccessKey, ""};
    out.config = config;
    out.client = std::move(client);
    out.http.retry.baseDelay = std::chrono::milliseconds(1);
    out.http.retry.maxDelay = std::chrono::milliseconds(20);
    out.http.retry.maxAttempts = 8;
    return out;
  }

  /// Configures the process as the AWS CLI would be for the test server.
  void pointEnvironmentAtServer(ScopedEnvironment& environment) const {
    environment.set("AWS_ENDPOINT_URL", server_.endpointUrl());
    environment.set("AWS_ACCESS_KEY_ID", serverOptions_.accessKeyId);
    environment.set("AWS_SECRET_ACCESS_KEY", serverOptions_.secretAccessKey);
    environment.set("AWS_REGION", serverOptions_.region);
    for (const char* name : {"AWS_ENDPOINT_URL_S3", "AWS_SESSION_TOKEN", "AWS_PROFILE"})
      environment.unset(name);
  }

  testing::S3TestServerOptions serverOptions_;
  testing::S3TestServer server_{serverOptions_};
};

std::vector<uint8_t> bytesOf(std::string_view text) {
  return {text.begin(), text.end()};
}

TEST_F(S3StorageTest, OpeningCostsOneRequestAndReadsRanges) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  server_.putObject("bucket", "dir/file name.bin", bytesOf("0123456789abcdefghij"));
  auto object = openS3Object("s3://bucket/dir/file name.bin", options(client));
  EXPECT_EQ(object->size(), 20u);
  EXPECT_EQ(object->requestCount(), 1u);
  EXPECT_EQ(server_.requestCount(), 1u);
  const auto tail = object->readTail(4);
  EXPECT_EQ(std::string(tail.begin(), tail.end()), "ghij");
  std::vector<uint8_t> out(3);
  object->readAt(2, out);  // inside the cached tail (the whole object): no request
  EXPECT_EQ(std::string(out.begin(), out.end()), "234");
  EXPECT_EQ(object->uri(), "s3://bucket/dir/file name.bin");
}

TEST_F(S3StorageTest, AKnownIdentityOpensWithoutARequestAndStillDetectsAChange) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  std::vector<uint8_t> bytes(300000, 7);
  server_.putObject("bucket", "k", bytes);
  auto first = openS3Object("s3://bucket/k", options(client));
  const ObjectIdentity known{first->size(), first->version()};
  ASSERT_TRUE(known.version.has_value()) << "the test server sends an ETag";
  const uint64_t before = server_.requestCount();

  // A split knows its file's size and ETag from the footer read that made it:
  // reopening costs nothing, the first read is the first request.
  S3StorageOptions reopen = options(client);
  reopen.http.known = known;
  auto second = openS3Object("s3://bucket/k", reopen);
  EXPECT_EQ(second->size(), bytes.size());
  EXPECT_EQ(server_.requestCount(), before);
  std::vector<uint8_t> out(100);
  second->readAt(1000, out);
  EXPECT_EQ(out, std::vector<uint8_t>(100, 7));
  EXPECT_EQ(server_.requestCount(), before + 1);

  // The object replaced since: the answer's ETag differs, and nothing is mixed.
  bytes[0] = 8;
  server_.putObject("bucket", "k", bytes);
  auto stale = openS3Object("s3://bucket/k", reopen);
  try {
    stale->readAt(1000, out);
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("s3://bucket/k"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("changed"), std::string::npos) << e.what();
  }
}

TEST_F(S3StorageTest, LargeObjectsAreReadByRange) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  std::vector<uint8_t> bytes(300000);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7 + i / 256);
  server_.putObject("bucket", "big", bytes);
  auto object = openS3Object("s3://bucket/big", options(client));
  EXPECT_EQ(object->size(), bytes.size());
  std::vector<uint8_t> out(1000);
  object->readAt(12345, out);
  EXPECT_TRUE(std::equal(out.begin(), out.end(), bytes.begin() + 12345));
  EXPECT_EQ(object->requestCount(), 2u);
}

TEST_F(S3StorageTest, MissingObjectIsAnIoErrorNamingTheUri) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  server_.putObject("bucket", "present", bytesOf("x"));
  try {
    openS3Object("s3://bucket/absent.parquet", options(client));
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("s3://bucket/absent.parquet"), std::string::npos) << message;
    EXPECT_NE(message.find("404"), std::string::npos) << message;
  }
}

TEST_F(S3StorageTest, WrongSecretFailsNamingTheUriNeverTheSecret) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  server_.putObject("bucket", "k.parquet", bytesOf("data"));
  S3StorageOptions wrong = options(client);
  wrong.config->credentials.secretAccessKey = "wrongSECRET/value+1";
  wrong.config->credentials.sessionToken = "session-TOKEN-value";
  try {
    openS3Object("s3://bucket/k.parquet", wrong);
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("s3://bucket/k.parquet"), std::string::npos) << message;
    EXPECT_NE(message.find("403"), std::string::npos) << message;
    EXPECT_NE(message.find("SignatureDoesNotMatch"), std::string::npos) << message;
    EXPECT_EQ(message.find("wrongSECRET"), std::string::npos) << message;
    EXPECT_EQ(message.find("session-TOKEN-value"), std::string::npos) << message;
    EXPECT_EQ(message.find(serverOptions_.secretAccessKey), std::string::npos) << message;
  }
}

TEST_F(S3StorageTest, UnsignedRequestsAreRefusedUnlessTheBucketIsPublic) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  server_.putObject("bucket", "k", bytesOf("data"));
  S3StorageOptions anonymous = options(client);
  anonymous.config->credentials = {};
  EXPECT_THROW(openS3Object("s3://bucket/k", anonymous), IoError);

  testing::S3TestServerOptions publicOptions;
  publicOptions.allowAnonymous = true;
  testing::S3TestServer publicServer(publicOptions);
  publicServer.putObject("public", "k", bytesOf("open data"));
  anonymous.config->endpointUrl = publicServer.endpointUrl();
  EXPECT_EQ(openS3Object("s3://public/k", anonymous)->size(), 9u);
}

TEST_F(S3StorageTest, ARefusedUnsignedRequestSaysItWentUnsignedAndWhereCredentialsWereSought) {
  // Issue 26: "an S3 403 with no credentials in the environment does not say that
  // the request went unsigned".
  QUARRY_S3_CLIENT_OR_SKIP(client);
  server_.putObject("bucket", "private.parquet", bytesOf("data"));
  ScopedEnvironment environment;
  server_.configure(environment, /*withCredentials=*/false);
  const auto expectExplained = [](const std::string& message) {
    EXPECT_NE(message.find("403"), std::string::npos) << message;
    EXPECT_NE(message.find("sent unsigned"), std::string::npos) << message;
    EXPECT_NE(message.find("AWS_ACCESS_KEY_ID"), std::string::npos) << message;
    EXPECT_NE(message.find("/nonexistent/quarry-credentials"), std::string::npos) << message;
    EXPECT_NE(message.find("/nonexistent/quarry-config"), std::string::npos) << message;
    EXPECT_NE(message.find("'default'"), std::string::npos) << message;
  };
  try {
    openS3Object("s3://bucket/private.parquet");
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("s3://bucket/private.parquet"), std::string::npos) << e.what();
    expectExplained(e.what());
  }
  try {
    listS3("s3://bucket/*.parquet");
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    expectExplained(e.what());
  }

  // Signed requests refused (a wrong secret) say nothing of the kind.
  S3StorageOptions wrong = options(client);
  wrong.config->credentials.secretAccessKey = "wrong";
  try {
    openS3Object("s3://bucket/private.parquet", wrong);
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()).find("unsigned"), std::string::npos) << e.what();
  }
}

TEST_F(S3StorageTest, ConfigurationComesFromTheEnvironment) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  server_.putObject("bucket", "env.bin", bytesOf("from env"));
  ScopedEnvironment environment;
  pointEnvironmentAtServer(environment);
  EXPECT_EQ(openS3Object("s3://bucket/env.bin")->size(), 8u);
  EXPECT_EQ(openObject("s3://bucket/env.bin")->size(), 8u);  // the scheme dispatch reaches S3
}

/// A file of one REQUIRED INT32 column x: `groups` row groups of 10 rows, group g
/// holding base + 10g .. base + 10g + 9, with exact bounds.
std::vector<uint8_t> rowGroupsFile(int32_t base, int groups) {
  using namespace quarry::parquet;
  using namespace quarry::parquet::testing;
  ParquetFixtureWriter w;
  w.column(required(leafElement("x", PhysicalType::INT32)));
  for (int g = 0; g < groups; ++g) {
    std::vector<Raw> values;
    for (int32_t i = 0; i < 10; ++i) values.push_back(i32(base + 10 * g + i));
    w.rowGroup({FixtureChunk{values, boundsOf(i32(base + 10 * g), i32(base + 10 * g + 9), 0), std::nullopt}});
  }
  return w.bytes();
}

TEST_F(S3StorageTest, AQueryReadsEachFooterOnceAndOnlyTheRowGroupsItNeeds) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  for (int f = 0; f < 3; ++f) {
    server_.putObject("bucket", "t/part-" + std::to_string(f) + ".parquet", rowGroupsFile(1000 * f, 4));
  }
  ScopedEnvironment environment;
  pointEnvironmentAtServer(environment);

  const uint64_t before = server_.requestCount();
  engine::PreparedQuery query =
      engine::prepareQuery("FROM \"s3://bucket/t/*.parquet\" | WHERE x == 1023 | KEEP x", {});
  // One listing, then one request per file: its tail, which holds the footer.
  EXPECT_EQ(server_.requestCount() - before, 1u + 3u);
  ASSERT_EQ(query.metrics->files, 3u);
  std::vector<int32_t> rows;
  engine::executeQuery(query, [&](const engine::Page& page) {
    for (size_t i = 0; i < page.positionCount(); ++i) rows.push_back(page.block(0).values<int32_t>()[i]);
  });
  EXPECT_EQ(rows, std::vector<int32_t>{1023});
  // The 12 splits (a row group each) reopen their files without a request (the size
  // and ETag are known from the footer read, the footer is cached); the footers
  // prune 11 of them, and the one left reads its chunk in one request.
  EXPECT_EQ(server_.requestCount() - before, 1u + 3u + 1u);
}

TEST_F(S3StorageTest, ServerDownFailsQuicklyNamingTheUri) {
  QUARRY_S3_CLIENT_OR_SKIP(client);
  S3StorageOptions down = options(client);
  {
    testing::S3TestServer stopped(serverOptions_);
    down.config->endpointUrl = stopped.endpointUrl();
  }  // the port is closed now
  const auto start = std::chrono::steady_clock::now();
  try {
    openS3Object("s3://bucket/k.parquet", down);
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("s3://bucket/k.parquet"), std::string::npos) << message;
    EXPECT_EQ(message.find(serverOptions_.secretAccessKey), std::string::npos) << message;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

// Files whose rows decode to more than this are compared byte for byte instead of row
// by row: rendering large_string_map.brotli.parquet alone takes a minute, and what is
// tested here is the transport, which the bytes show as well.
constexpr int64_t kMaxRenderedBytes = 16 << 20;

bool decodesToMoreThanTheLimit(const std::filesystem::path& path) {
  try {
    auto file = parquet::ParquetFileReader::open(path.string());
    int64_t decodedBytes = 0;
    for (const auto& group : file->metadata().row_groups) decodedBytes += group.total_byte_size;
    return decodedBytes > kMaxRenderedBytes;
  } catch (const std::exception&) {
    return false;  // a file without readable footer is rendered: both reads must fail alike
  }
}

std::string allBytes(std::unique_ptr<StorageObject> object) {
  std::vector<uint8_t> bytes(object->size());
  object->readAt(0, bytes);
  return std::string(bytes.begin(), bytes.end());
}

void expectEveryFileReadsAsLocally(testing::S3TestServer& server, const S3StorageOptions& options) {
  const auto data = quarry::testing::parquetTestingDir() / "data";
  server.serveDirectory("testing", data);
  parquet::ReaderOptions oneThread;
  oneThread.threads = 1;  // which defect a bad file reports first must not depend on timing
  size_t files = 0;
  for (const auto& path : quarry::testing::filesUnder(data, ".parquet")) {
    const std::string key = std::filesystem::relative(path, data).generic_string();
    const bool large = decodesToMoreThanTheLimit(path);
    std::string local;
    std::string remote;
    try {
      local = large ? allBytes(openObject(path.string()))
                    : quarry::testing::renderRows(openObject(path.string()), oneThread);
      remote = large ? allBytes(openS3Object("s3://testing/" + key, options))
                     : quarry::testing::renderRows(openS3Object("s3://testing/" + key, options),
                                                   oneThread);
    } catch (const std::exception& e) {
      remote = std::string("open failed: ") + e.what();
    }
    // EXPECT_EQ would print both renderings in full on a mismatch.
    EXPECT_TRUE(remote == local) << key << ": " << remote.size() << " bytes over S3, "
                                 << local.size() << " locally; over S3 it starts "
                                 << remote.substr(0, 300);
    ++files;
  }
  EXPECT_GT(files, 50u);
}

TEST_F(S3StorageTest, EveryParquetTestingFileReadsTheSameRowsAsLocally) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  QUARRY_S3_CLIENT_OR_SKIP(client);
  expectEveryFileReadsAsLocally(server_, options(client));
}

TEST_F(S3StorageTest, ExactRowsDespite503sAndTruncatedBodies) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  QUARRY_S3_CLIENT_OR_SKIP(client);
  // 10 % of requests answered 503 SlowDown, 5 % with a body cut short (issue 6, Acceptance).
  server_.setFaults({std::chrono::milliseconds(0), 0.10, 0.05, 0.0, 42});
  expectEveryFileReadsAsLocally(server_, options(client));
  EXPECT_GT(server_.faultsInjected(), 10u);
}

}  // namespace
}  // namespace quarry::io
