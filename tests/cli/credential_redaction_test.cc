// No command prints a credential a URL carries (common/uri_redaction.h): the
// user-info (user and password) and its query values (X-Amz-Signature and the like)
// are "***" in errors, headers, plans and profiles of inspect, print, convert,
// schema, query and explain. Each command runs against a port nothing listens on
// (every path ends in an error naming the URI), then against nginx serving the
// sample file (every path that prints the URI).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli/quarry_run.h"
#include "tests/io/nginx_server.h"
#include "tests/support/build_paths.h"

namespace quarry::cli {
namespace {

using quarry::testing::runQuarry;

constexpr const char* kSecrets[] = {"alice", "hunter2pass", "sigvalue42", "credvalue42",
                                    "tokenvalue42"};

/// `url` (http://host:port/path) with a password and a presigned query string.
std::string withCredentials(const std::string& url) {
  return "http://alice:hunter2pass@" + url.substr(std::string("http://").size()) +
         "?X-Amz-Credential=credvalue42&X-Amz-Signature=sigvalue42&X-Amz-Security-Token="
         "tokenvalue42";
}

std::vector<std::vector<std::string>> everyCommand(const std::string& uri) {
  const std::string from = "FROM \"" + uri + "\"";
  return {{"inspect", uri},
          {"inspect", "--json", uri},
          {"inspect", "rowgroups", uri, uri},
          {"print", "--head", "2", uri},
          {"print", "--format", "json", "--head", "2", uri},
          {"convert", "--to", "csv", "--head", "2", uri},
          {"schema", uri},
          {"schema", "--format", "json", uri},
          {"query", from + " | STATS n = COUNT(*)"},
          {"query", "--profile", from + " | KEEP vendor | LIMIT 2"},
          {"query", from + " | KEEP no_such_column"},
          {"query", from + " | WHERE"},
          {"explain", from + " | LIMIT 2"}};
}

/// Runs every command on `uri`; returns how many exited 0.
int expectNoSecretPrinted(const std::string& uri) {
  int succeeded = 0;
  for (const std::vector<std::string>& args : everyCommand(uri)) {
    const auto run = runQuarry(args);
    std::string command;
    for (const std::string& arg : args) command += arg + " ";
    SCOPED_TRACE(command);
    const std::string printed = run.out + run.err;
    for (const char* secret : kSecrets) {
      EXPECT_EQ(printed.find(secret), std::string::npos) << secret << " printed:\n" << printed;
    }
    // Still named: the host and the parameters' names stay.
    if (run.exitCode != 0) {
      EXPECT_NE(run.err.find("127.0.0.1"), std::string::npos) << run.err;
    }
    succeeded += run.exitCode == 0 ? 1 : 0;
  }
  return succeeded;
}

TEST(CredentialRedaction, NoCommandPrintsAUrlsCredentialsWhenItFails) {
  const std::string uri = withCredentials(
      "http://127.0.0.1:" + std::to_string(quarry::testing::pickFreePort()) + "/trips.parquet");
  EXPECT_EQ(expectNoSecretPrinted(uri), 0) << "nothing listens there";
  // What is shown instead.
  const auto run = runQuarry({"schema", uri});
  EXPECT_NE(run.err.find("http://***@127.0.0.1"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("X-Amz-Signature=***"), std::string::npos) << run.err;
}

TEST(CredentialRedaction, NoCommandPrintsAUrlsCredentialsWhenItSucceeds) {
  using quarry::testing::NginxServer;
  if (!NginxServer::available()) GTEST_SKIP() << "SKIPPED LOUDLY: nginx not installed";
  NginxServer server(std::string(QUARRY_SOURCE_DIR) + "/data/sample");
  ASSERT_TRUE(server.running()) << "nginx did not start: " << server.startError();
  const std::string uri = withCredentials(server.url("trips.parquet"));
  // All but the two queries written to fail (an unknown column, a syntax error).
  EXPECT_EQ(expectNoSecretPrinted(uri), static_cast<int>(everyCommand(uri).size()) - 2);
  const auto headers = runQuarry({"inspect", "rowgroups", uri, uri});
  ASSERT_EQ(headers.exitCode, 0) << headers.err;
  EXPECT_NE(headers.out.find("== http://***@127.0.0.1:"), std::string::npos) << headers.out;
}

}  // namespace
}  // namespace quarry::cli
