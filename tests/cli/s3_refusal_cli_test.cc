// Issue 26, item 9: an S3 request refused because it went unsigned (no credentials
// found) says so, and where credentials were looked for, in quarry's own message.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/cli/quarry_run.h"
#include "tests/io/s3_test_server.h"
#include "tests/support/build_paths.h"
#include "tests/support/curl_client.h"
#include "tests/support/scoped_environment.h"

namespace quarry::cli {
namespace {

namespace fs = std::filesystem;
using quarry::testing::runQuarry;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(S3RefusalCli, AnUnsignedS3RequestThatIsRefusedSaysSo) {
  // Issue 26: "an S3 403 with no credentials in the environment does not say that the
  // request went unsigned".
  QUARRY_S3_CLIENT_OR_SKIP(client);
  quarry::testing::S3TestServer server;
  server.serveDirectory("bucket", fs::path(QUARRY_SOURCE_DIR) / "data" / "sample");
  quarry::testing::ScopedEnvironment environment;
  server.configure(environment, /*withCredentials=*/false);
  const auto run = runQuarry({"print", "s3://bucket/trips.parquet", "--head", "1"});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_TRUE(contains(run.err, "403")) << run.err;
  EXPECT_TRUE(contains(run.err, "the request was sent unsigned")) << run.err;
  EXPECT_TRUE(contains(run.err, "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")) << run.err;
  EXPECT_TRUE(contains(run.err, "/nonexistent/quarry-credentials")) << run.err;
}

}  // namespace
}  // namespace quarry::cli
