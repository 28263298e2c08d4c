#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "quarry/io/crypto_library.h"

/// AWS Signature Version 4 for request headers, as S3 checks it:
///
///   canonical request = method \n canonical URI \n canonical query \n
///                       canonical headers \n signed header names \n payload hash
///   string to sign    = "AWS4-HMAC-SHA256" \n 20150830T123600Z \n
///                       20150830/us-east-1/service/aws4_request \n hex(sha256(canonical request))
///   signing key       = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, date), region), service),
///   "aws4_request") Authorization     = AWS4-HMAC-SHA256 Credential=<key id>/<scope>,
///   SignedHeaders=host;x-amz-date,
///                       Signature=hex(HMAC(signing key, string to sign))
///
/// The URI path is encoded once (S3's rule, which the generic test-suite cases share
/// whenever the path holds no '%'), query parameters are sorted by encoded name then
/// value, header values are trimmed with inner runs of spaces folded to one.
namespace quarry::io {

using HttpHeaderList = std::vector<std::pair<std::string, std::string>>;

/// Credentials to sign with; an empty access key id means anonymous (unsigned) requests.
struct AwsCredentials {
  std::string accessKeyId;
  std::string secretAccessKey;
  std::string sessionToken;

  bool anonymous() const { return accessKeyId.empty(); }
};

/// The payload hash S3 accepts for a body it need not check (every GET and HEAD).
inline constexpr std::string_view kUnsignedPayload = "UNSIGNED-PAYLOAD";
/// The SHA-256 of the empty string, the payload hash of a request without body.
inline constexpr std::string_view kEmptyPayloadSha256 =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/// Percent-encodes `bytes` by SigV4's rule: every byte but A-Z a-z 0-9 - . _ ~ becomes %XX
/// (uppercase hex); '/' is kept when `keepSlash` (paths) and encoded otherwise (query values).
std::string awsUriEncode(std::string_view bytes, bool keepSlash);

struct CanonicalRequest {
  std::string text;
  std::string signedHeaders;  // "host;x-amz-date"
};

/// Builds the canonical request of `method` on `target` (the path and query as sent,
/// "/key?list-type=2") with `headers` (all of them signed; Host among them).
CanonicalRequest canonicalRequest(std::string_view method, std::string_view target,
                                  const HttpHeaderList& headers, std::string_view payloadHash);

/// Returns "20150830/us-east-1/service/aws4_request".
std::string credentialScope(std::string_view date, std::string_view region,
                            std::string_view service);

/// Returns the string to sign for `canonicalRequestText` at `amzDate` (20150830T123600Z).
std::string stringToSign(std::string_view amzDate, std::string_view scope,
                         std::string_view canonicalRequestText);

/// Derives the signing key of `secret` for one day, region and service.
Sha256Digest signingKey(std::string_view secret, std::string_view date, std::string_view region,
                        std::string_view service);

/// Returns the hex signature of `stringToSignText` under the derived key.
std::string sigv4Signature(std::string_view secret, std::string_view date, std::string_view region,
                           std::string_view service, std::string_view stringToSignText);

/// Formats `time` as SigV4's x-amz-date, 20150830T123600Z (UTC).
std::string amzDate(std::chrono::system_clock::time_point time);

struct SigV4Options {
  std::string region = "us-east-1";
  std::string service = "s3";
  std::string payloadHash = std::string(kUnsignedPayload);
  /// Sends x-amz-content-sha256, which S3 requires and the generic test suite omits.
  bool contentSha256Header = true;
};

/// Splits "scheme://authority/path?query" into the Host header value (the default port
/// dropped, as HTTP clients send it) and the request target ("/path?query").
std::pair<std::string, std::string> hostAndTarget(std::string_view url);

/// Signs a request: adds x-amz-date, x-amz-content-sha256, x-amz-security-token (with a
/// session token) and Authorization to `headers`, signing Host (from `url` unless present)
/// and every header already there but the transport's own (User-Agent, Accept-Encoding,
/// Connection, Expect, ...). Does nothing for anonymous credentials.
void signRequest(std::string_view method, std::string_view url, HttpHeaderList& headers,
                 const AwsCredentials& credentials, const SigV4Options& options,
                 std::chrono::system_clock::time_point now);

}  // namespace quarry::io
