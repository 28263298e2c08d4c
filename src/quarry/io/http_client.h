#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/common/uri_redaction.h"
#include "quarry/io/retry_policy.h"

/// HTTP as the remote storage providers see it: one request in, one response out,
/// and the retried, checked byte-range read that http:// and s3:// objects build on.
namespace quarry::io {

struct HttpRequest {
  std::string method = "GET";
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;  // sent in this order
  std::vector<uint8_t> body;                                 // sent when not empty
};

struct HttpResponse {
  long status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // names as received
  std::vector<uint8_t> body;
  /// Returns the value of the first header named `name` (case-insensitive), or nullopt.
  std::optional<std::string> header(std::string_view name) const;
};

struct HttpClientOptions {
  std::chrono::milliseconds connectTimeout{5000};
  std::chrono::milliseconds requestTimeout{30000};
};

/// Signals that a request got no complete HTTP response (refused, reset, timed out, cut short).
/// `retriable` says whether sending it again may succeed (a refused connection may; a
/// malformed URL or an unknown host will not).
class HttpTransportError : public IoError {
 public:
  HttpTransportError(const std::string& message, bool retriable)
      : IoError(message), retriable_(retriable) {}
  bool retriable() const { return retriable_; }

 private:
  bool retriable_;
};

/// Sends one HTTP request; throws IoError (naming the URL, never credentials) on a transport failure.
/// A non-2xx status is returned, not thrown: callers decide.
class HttpClient {
 public:
  virtual ~HttpClient() = default;
  virtual HttpResponse send(const HttpRequest& request) = 0;
};

/// Returns the process-wide libcurl client (connections reused, thread-safe: one easy handle per
/// thread). Clients with other options are separate; the first call with given options creates it.
std::shared_ptr<HttpClient> curlHttpClient(const HttpClientOptions& options = {});

/// A byte range to read: `length` bytes at `offset`, or with `suffix` the last `length` bytes.
struct RangeRequest {
  uint64_t offset;
  uint64_t length;
  bool suffix = false;  // suffix: last `length` bytes
};

struct RangeResponse {
  std::vector<uint8_t> body;
  uint64_t objectSize;
  std::optional<std::string> etag;
};

/// Reads a byte range of an HTTP object with retries (retry_policy): `prepare` is called on every attempt
/// to let S3 sign the request (it adds headers; may be empty for plain HTTP).
/// Checks the status (206, or 200 for a whole-object read), the Content-Range and that the body has exactly the
/// requested length (a truncated body is retried). Errors name the URI, the range and what the server
/// said, then `refusalNote` when the server refused the request (HTTP 401 or 403).
RangeResponse fetchRange(HttpClient& client, const std::string& uri, const std::string& url,
                         const RangeRequest& range, const std::function<void(HttpRequest&)>& prepare,
                         const RetryPolicy& policy, std::string_view refusalNote = {});

/// A parsed `Content-Range: bytes first-last/complete` header (complete may be "*").
struct ContentRange {
  uint64_t first = 0;
  uint64_t last = 0;  // inclusive
  std::optional<uint64_t> completeLength;
};

/// Parses a Content-Range header value; returns nullopt when it is not `bytes a-b/n` or `bytes a-b/*`
/// with a <= b < n. (`bytes */n`, sent with 416, is parsed by parseUnsatisfiedRange.)
std::optional<ContentRange> parseContentRange(std::string_view value);

/// Parses the `bytes */n` form a server sends with 416 Range Not Satisfiable; returns n.
std::optional<uint64_t> parseUnsatisfiedRange(std::string_view value);

}  // namespace quarry::io
