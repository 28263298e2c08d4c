#pragma once

#include <memory>
#include <string>

#include "quarry/common/error.h"
#include "quarry/io/http_client.h"

/// The libcurl HTTP client the S3 and HTTP tests talk to their local servers
/// with. libcurl is loaded on demand: without it those tests skip loudly.
namespace quarry::testing {

/// Returns the libcurl client, or null with `why` saying why there is none.
inline std::shared_ptr<io::HttpClient> curlClientOrNull(std::string& why) {
  try {
    return io::curlHttpClient();
  } catch (const Unsupported& e) {
    why = e.what();
    return nullptr;
  }
}

}  // namespace quarry::testing

/// Declares `client`, the libcurl client, or skips the test loudly without one.
#define QUARRY_S3_CLIENT_OR_SKIP(client)                          \
  std::string whyNoClient;                                        \
  auto client = ::quarry::testing::curlClientOrNull(whyNoClient); \
  if (!client) GTEST_SKIP() << "SKIPPED LOUDLY: no HTTP client: " << whyNoClient
