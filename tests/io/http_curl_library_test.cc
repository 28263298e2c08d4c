#include "quarry/io/curl_library.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "quarry/common/error.h"
#include "tests/support/build_paths.h"

namespace quarry::io {
namespace {

TEST(CurlLibraryTest, LoadsLibcurlOnDemandWithEveryFunction) {
  const CurlLibrary& curl = curlLibrary();
  EXPECT_NE(curl.easyInit, nullptr);
  EXPECT_NE(curl.easySetopt, nullptr);
  EXPECT_NE(curl.slistFreeAll, nullptr);
  EXPECT_STREQ(curl.easyStrerror(CURLE_OK), "No error");
  EXPECT_EQ(&curlLibrary(), &curl);  // loaded once
}

TEST(CurlLibraryTest, AMissingLibcurlIsUnsupportedNamingTheLibrary) {
  try {
    loadCurlLibrary("libcurl-quarry-test-missing.so.4");
    FAIL() << "no Unsupported";
  } catch (const Unsupported& e) {
    const std::string message = e.what();
    EXPECT_TRUE(message.starts_with("http(s) and s3 storage need libcurl, which is loaded on demand, but "
                                    "libcurl-quarry-test-missing.so.4 cannot be loaded (install the package "
                                    "libcurl4): "))
        << message;
  }
}

TEST(CurlLibraryTest, ALibraryWithoutCurlFunctionsIsUnsupported) {
  try {
    loadCurlLibrary("libm.so.6");
    FAIL() << "no Unsupported";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("libm.so.6 has no function curl_global_init"), std::string::npos)
        << e.what();
  }
}

// A local query must not pay for loading libcurl and its dependencies before main.
TEST(CurlLibraryTest, TheQuarryBinaryDoesNotLinkLibcurl) {
  FILE* pipe = ::popen(("ldd '" + std::string(QUARRY_BINARY) + "' 2>&1").c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) output.append(buffer, n);
  const int status = ::pclose(pipe);
  if (status != 0) GTEST_SKIP() << "SKIPPED LOUDLY: ldd failed on " << QUARRY_BINARY << ": " << output;
  EXPECT_EQ(output.find("libcurl"), std::string::npos) << output;
  EXPECT_NE(output.find("libc.so"), std::string::npos) << output;
}

}  // namespace
}  // namespace quarry::io
