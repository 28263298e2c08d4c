#include <gtest/gtest.h>

#include <chrono>

#include "quarry/common/error.h"
#include "quarry/io/http_client.h"
#include "tests/io/fake_http_client.h"

namespace quarry::io {
namespace {

using quarry::testing::countingBytes;
using quarry::testing::FakeHttpClient;
using quarry::testing::statusResponse;

constexpr const char* kUri = "http://example.test/data/file.parquet";

RetryPolicy fastPolicy(int attempts = 4) {
  RetryPolicy policy;
  policy.maxAttempts = attempts;
  policy.baseDelay = std::chrono::milliseconds(1);
  policy.maxDelay = std::chrono::milliseconds(2);
  return policy;
}

std::vector<uint8_t> slice(const std::vector<uint8_t>& bytes, size_t offset, size_t length) {
  return std::vector<uint8_t>(bytes.begin() + static_cast<ptrdiff_t>(offset),
                              bytes.begin() + static_cast<ptrdiff_t>(offset + length));
}

std::string messageOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const IoError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no IoError thrown";
  return "";
}

// --- Content-Range -----------------------------------------------------------

TEST(ContentRangeTest, ParsesFirstLastAndCompleteLength) {
  const auto range = parseContentRange("bytes 100-199/1000");
  ASSERT_TRUE(range);
  EXPECT_EQ(range->first, 100u);
  EXPECT_EQ(range->last, 199u);
  EXPECT_EQ(range->completeLength, 1000u);
  const auto big = parseContentRange("bytes 0-18446744073709551613/18446744073709551614");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->last, 18446744073709551613u);
}

TEST(ContentRangeTest, AcceptsAnUnknownCompleteLengthAndCaseInsensitiveUnit) {
  const auto range = parseContentRange("  Bytes 5-9/*");
  ASSERT_TRUE(range);
  EXPECT_EQ(range->first, 5u);
  EXPECT_EQ(range->last, 9u);
  EXPECT_FALSE(range->completeLength);
}

TEST(ContentRangeTest, RejectsMalformedOrInconsistentValues) {
  for (const char* value : {"", "bytes", "bytes ", "items 0-1/2", "bytes 0-1", "bytes 5-4/10", "bytes 0-10/10",
                            "bytes -1-2/3", "bytes 0-1/x", "bytes 0-99999999999999999999/1", "bytes */10",
                            "bytes 1 -2/3", "bytes=0-1/2"}) {
    EXPECT_FALSE(parseContentRange(value)) << value;
  }
}

TEST(ContentRangeTest, ParsesTheUnsatisfiedForm) {
  EXPECT_EQ(parseUnsatisfiedRange("bytes */1234"), 1234u);
  EXPECT_EQ(parseUnsatisfiedRange("bytes */0"), 0u);
  EXPECT_FALSE(parseUnsatisfiedRange("bytes 0-1/2"));
  EXPECT_FALSE(parseUnsatisfiedRange("bytes */"));
}

TEST(HttpResponseTest, FindsHeadersCaseInsensitively) {
  HttpResponse response;
  response.headers = {{"content-range", "bytes 0-0/1"}, {"ETag", "\"a\""}, {"Etag", "\"b\""}};
  EXPECT_EQ(response.header("Content-Range"), "bytes 0-0/1");
  EXPECT_EQ(response.header("ETAG"), "\"a\"");
  EXPECT_FALSE(response.header("Location"));
}

// --- fetchRange ----------------------------------------------------------------

TEST(FetchRangeTest, ReadsARangeWithOneRequest) {
  FakeHttpClient client(countingBytes(1000));
  const auto result = fetchRange(client, kUri, kUri, {100, 50}, nullptr, fastPolicy());
  EXPECT_EQ(result.body, slice(client.object(), 100, 50));
  EXPECT_EQ(result.objectSize, 1000u);
  EXPECT_EQ(result.etag, "\"v1\"");
  ASSERT_EQ(client.requestCount(), 1u);
  const auto request = client.requests()[0];
  EXPECT_EQ(request.method, "GET");
  EXPECT_EQ(request.url, kUri);
  ASSERT_EQ(request.headers.size(), 1u);
  EXPECT_EQ(request.headers[0], (std::pair<std::string, std::string>("Range", "bytes=100-149")));
}

TEST(FetchRangeTest, SuffixRangeGivesTheTailAndTheObjectSize) {
  FakeHttpClient client(countingBytes(1000));
  auto result = fetchRange(client, kUri, kUri, {0, 64, true}, nullptr, fastPolicy());
  EXPECT_EQ(result.body, slice(client.object(), 936, 64));
  EXPECT_EQ(result.objectSize, 1000u);
  EXPECT_EQ(client.requests()[0].headers[0].second, "bytes=-64");
  // A suffix longer than the object gives the whole object.
  result = fetchRange(client, kUri, kUri, {0, 5000, true}, nullptr, fastPolicy());
  EXPECT_EQ(result.body, client.object());
  EXPECT_EQ(result.objectSize, 1000u);
}

TEST(FetchRangeTest, SuffixOfAnEmptyObjectIsEmpty) {
  FakeHttpClient client({});
  const auto result = fetchRange(client, kUri, kUri, {0, 64, true}, nullptr, fastPolicy());
  EXPECT_TRUE(result.body.empty());
  EXPECT_EQ(result.objectSize, 0u);
}

TEST(FetchRangeTest, CallsPrepareOnEveryAttempt) {
  FakeHttpClient client(countingBytes(100));
  client.then([](const HttpRequest&) { return statusResponse(503); });
  int calls = 0;
  const auto sign = [&calls](HttpRequest& request) {
    ++calls;
    request.headers.emplace_back("Authorization", "signature-" + std::to_string(calls));
  };
  fetchRange(client, kUri, kUri, {0, 10}, sign, fastPolicy());
  EXPECT_EQ(calls, 2);
  const auto requests = client.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[1].headers.back().second, "signature-2");
  EXPECT_EQ(requests[1].headers.size(), 2u);  // a fresh request each time, not one growing
}

TEST(FetchRangeTest, RetriesServerErrorsThenSucceeds) {
  FakeHttpClient client(countingBytes(1000));
  client.then([](const HttpRequest&) { return statusResponse(503, "Slow Down"); });
  client.then([](const HttpRequest&) { return statusResponse(500); });
  client.then([](const HttpRequest&) { return statusResponse(429); });
  const auto result = fetchRange(client, kUri, kUri, {10, 20}, nullptr, fastPolicy(4));
  EXPECT_EQ(result.body, slice(client.object(), 10, 20));
  EXPECT_EQ(client.requestCount(), 4u);
}

TEST(FetchRangeTest, WaitsAsLongAsRetryAfterAsksWithinTheMaximumDelay) {
  // A 503 or 429 with Retry-After: the retry waits what the server asked for rather than the
  // (shorter) backoff, but never longer than the policy's maxDelay.
  FakeHttpClient client(countingBytes(1000));
  client.then([](const HttpRequest&) {
    HttpResponse response = statusResponse(503, "Slow Down");
    response.headers.emplace_back("Retry-After", "1");
    return response;
  });
  RetryPolicy policy = fastPolicy(2);
  policy.maxDelay = std::chrono::milliseconds(300);
  const auto start = std::chrono::steady_clock::now();
  const auto result = fetchRange(client, kUri, kUri, {10, 20}, nullptr, policy);
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(result.body, slice(client.object(), 10, 20));
  EXPECT_GE(waited, std::chrono::milliseconds(300));  // 1 s asked, capped at maxDelay
  EXPECT_LT(waited, std::chrono::milliseconds(1000));
}

TEST(FetchRangeTest, RetriesATruncatedBody) {
  FakeHttpClient client(countingBytes(1000));
  client.then([&client](const HttpRequest& request) {
    auto response = client.serve(request);
    response.body.resize(response.body.size() / 2);
    return response;
  });
  const auto result = fetchRange(client, kUri, kUri, {0, 400}, nullptr, fastPolicy());
  EXPECT_EQ(result.body, slice(client.object(), 0, 400));
  EXPECT_EQ(client.requestCount(), 2u);
}

TEST(FetchRangeTest, RetriesAWrongContentRange) {
  FakeHttpClient client(countingBytes(1000));
  client.then([&client](const HttpRequest&) {
    HttpRequest shifted;
    shifted.headers = {{"Range", "bytes=101-150"}};
    return client.serve(shifted);
  });
  client.then([](const HttpRequest&) {
    auto response = statusResponse(206, std::string(50, 'x'));
    return response;  // no Content-Range at all
  });
  const auto result = fetchRange(client, kUri, kUri, {100, 50}, nullptr, fastPolicy());
  EXPECT_EQ(result.body, slice(client.object(), 100, 50));
  EXPECT_EQ(client.requestCount(), 3u);
}

TEST(FetchRangeTest, RetriesRetriableTransportErrorsOnly) {
  FakeHttpClient client(countingBytes(100));
  client.then([](const HttpRequest&) -> HttpResponse {
    throw HttpTransportError("GET http://example.test/: Connection reset by peer", true);
  });
  EXPECT_EQ(fetchRange(client, kUri, kUri, {0, 10}, nullptr, fastPolicy()).body, slice(client.object(), 0, 10));
  EXPECT_EQ(client.requestCount(), 2u);

  FakeHttpClient unresolvable(countingBytes(100));
  unresolvable.always([](const HttpRequest&) -> HttpResponse {
    throw HttpTransportError("GET http://nowhere.test/: Couldn't resolve host name", false);
  });
  const std::string message =
      messageOf([&] { fetchRange(unresolvable, kUri, kUri, {0, 10}, nullptr, fastPolicy()); });
  EXPECT_EQ(unresolvable.requestCount(), 1u);
  EXPECT_NE(message.find("Couldn't resolve host name"), std::string::npos) << message;
}

TEST(FetchRangeTest, AcceptsAWholeObjectFromAServerIgnoringRange) {
  FakeHttpClient client(countingBytes(300));
  client.always([&client](const HttpRequest&) { return client.serve(HttpRequest{}); });
  EXPECT_EQ(fetchRange(client, kUri, kUri, {250, 50}, nullptr, fastPolicy()).body, slice(client.object(), 250, 50));
  const auto tail = fetchRange(client, kUri, kUri, {0, 8, true}, nullptr, fastPolicy());
  EXPECT_EQ(tail.body, slice(client.object(), 292, 8));
  EXPECT_EQ(tail.objectSize, 300u);
}

TEST(FetchRangeTest, ExhaustedRetriesNameTheUriTheRangeAndTheServersWords) {
  FakeHttpClient client(countingBytes(1000));
  client.always([](const HttpRequest&) { return statusResponse(503, "<Error><Code>SlowDown</Code></Error>"); });
  const std::string message = messageOf([&] { fetchRange(client, kUri, kUri, {100, 50}, nullptr, fastPolicy(3)); });
  EXPECT_EQ(client.requestCount(), 3u);
  EXPECT_NE(message.find(kUri), std::string::npos) << message;
  EXPECT_NE(message.find("bytes [100, 150)"), std::string::npos) << message;
  EXPECT_NE(message.find("after 3 attempts"), std::string::npos) << message;
  EXPECT_NE(message.find("HTTP 503: SlowDown"), std::string::npos) << message;
}

TEST(FetchRangeTest, ExhaustedRetriesOnTruncationSayTruncated) {
  FakeHttpClient client(countingBytes(1000));
  client.always([&client](const HttpRequest& request) {
    auto response = client.serve(request);
    response.body.pop_back();
    return response;
  });
  const std::string message = messageOf([&] { fetchRange(client, kUri, kUri, {0, 10, true}, nullptr, fastPolicy(2)); });
  EXPECT_NE(message.find("the last 10 bytes"), std::string::npos) << message;
  EXPECT_NE(message.find("truncated"), std::string::npos) << message;
}

TEST(FetchRangeTest, ClientErrorsAreNotRetried) {
  FakeHttpClient client(countingBytes(10));
  client.always([](const HttpRequest&) { return statusResponse(404, "<html>\n  Not   Found\n</html>"); });
  const std::string message = messageOf([&] { fetchRange(client, kUri, kUri, {0, 4}, nullptr, fastPolicy()); });
  EXPECT_EQ(client.requestCount(), 1u);
  EXPECT_NE(message.find("HTTP 404: <html> Not Found </html>"), std::string::npos) << message;
}

TEST(FetchRangeTest, ARangePastTheEndSaysTheObjectSize) {
  FakeHttpClient client(countingBytes(100));
  std::string message = messageOf([&] { fetchRange(client, kUri, kUri, {200, 4}, nullptr, fastPolicy()); });
  EXPECT_NE(message.find("past the end of the object (100 bytes)"), std::string::npos) << message;
  message = messageOf([&] { fetchRange(client, kUri, kUri, {90, 20}, nullptr, fastPolicy()); });
  EXPECT_NE(message.find("past the end of the object (100 bytes)"), std::string::npos) << message;
  EXPECT_EQ(client.requestCount(), 2u);
}

TEST(FetchRangeTest, ErrorsNeverShowCredentials) {
  FakeHttpClient client(countingBytes(10));
  client.always([](const HttpRequest&) {
    return statusResponse(403,
                          "<Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated "
                          "does not match</Message><AWSAccessKeyId>AKIDEXAMPLE</AWSAccessKeyId>"
                          "<StringToSign>AWS4-HMAC-SHA256</StringToSign></Error>");
  });
  const std::string uri = "https://alice:s3cret@example.test/f?X-Amz-Signature=deadbeef";
  const std::string message = messageOf([&] { fetchRange(client, uri, uri, {0, 4}, nullptr, fastPolicy()); });
  EXPECT_NE(message.find("SignatureDoesNotMatch: The request signature"), std::string::npos) << message;
  for (const char* secret : {"s3cret", "alice", "deadbeef", "AKIDEXAMPLE", "StringToSign"}) {
    EXPECT_EQ(message.find(secret), std::string::npos) << secret << " in: " << message;
  }
}

TEST(FetchRangeTest, AnEmptyRangeIsACallersMistake) {
  FakeHttpClient client(countingBytes(10));
  EXPECT_THROW(fetchRange(client, kUri, kUri, {0, 0}, nullptr, fastPolicy()), InvalidArgument);
  EXPECT_EQ(client.requestCount(), 0u);
}

}  // namespace
}  // namespace quarry::io
