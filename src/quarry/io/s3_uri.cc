#include "quarry/io/s3_uri.h"

#include <algorithm>
#include <cctype>

#include "quarry/common/error.h"
#include "quarry/common/uri_redaction.h"
#include "quarry/io/sigv4.h"

namespace quarry::io {
namespace {

constexpr std::string_view kScheme = "s3://";

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// A bucket can be a host name label under *.s3.amazonaws.com with TLS only when it is
// lowercase letters, digits and hyphens (a dot would not match the wildcard certificate).
bool isVirtualHostable(std::string_view bucket) {
  if (bucket.size() < 3 || bucket.size() > 63) return false;
  if (bucket.front() == '-' || bucket.back() == '-') return false;
  return std::all_of(bucket.begin(), bucket.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

}  // namespace

bool isS3Uri(std::string_view uri) {
  return uri.size() >= kScheme.size() && equalsIgnoringCase(uri.substr(0, kScheme.size()), kScheme);
}

S3Location parseS3Uri(std::string_view uri) {
  if (!isS3Uri(uri)) throw InvalidArgument("not an s3:// URI: " + redactUri(uri));
  const std::string_view rest = uri.substr(kScheme.size());
  const size_t slash = rest.find('/');
  S3Location out;
  out.bucket = std::string(rest.substr(0, slash));
  if (slash != std::string_view::npos) out.key = std::string(rest.substr(slash + 1));
  if (out.bucket.empty()) {
    throw InvalidArgument("the s3:// URI names no bucket (expected s3://bucket/key): " +
                          redactUri(uri));
  }
  if (out.bucket.find_first_of("?#") != std::string::npos) {
    throw InvalidArgument("the bucket name of an s3:// URI cannot hold '?' or '#': " +
                          redactUri(uri));
  }
  return out;
}

S3Endpoint s3Endpoint(const AwsConfig& config, std::string_view bucket) {
  S3Endpoint out;
  if (config.endpointUrl.empty()) {
    out.scheme = "https";
    out.pathStyle =
        config.addressingStyle == S3AddressingStyle::kPath ||
        (config.addressingStyle == S3AddressingStyle::kAuto && !isVirtualHostable(bucket));
    out.host = "s3." + config.region + ".amazonaws.com";
    return out;
  }
  const std::string& url = config.endpointUrl;
  const size_t schemeEnd = url.find("://");
  const std::string scheme = schemeEnd == std::string::npos ? "" : url.substr(0, schemeEnd);
  if (scheme != "http" && scheme != "https") {
    throw InvalidArgument("the S3 endpoint URL must be http(s)://host[:port][/path], not " + redactUri(url));
  }
  out.scheme = scheme;
  const std::string rest = url.substr(schemeEnd + 3);
  const size_t slash = rest.find('/');
  out.host = rest.substr(0, slash);
  if (slash != std::string::npos) out.basePath = rest.substr(slash);
  while (out.basePath.ends_with('/')) out.basePath.pop_back();
  if (out.host.empty() || out.basePath.find_first_of("?#") != std::string::npos) {
    throw InvalidArgument("the S3 endpoint URL must be http(s)://host[:port][/path], not " + redactUri(url));
  }
  // S3-compatible servers (MinIO, test servers) rarely have wildcard DNS for buckets.
  out.pathStyle = config.addressingStyle != S3AddressingStyle::kVirtual;
  return out;
}

namespace {

std::string bucketBase(const S3Endpoint& endpoint, std::string_view bucket) {
  if (endpoint.pathStyle) {
    return endpoint.scheme + "://" + endpoint.host + endpoint.basePath + "/" +
           awsUriEncode(bucket, false);
  }
  return endpoint.scheme + "://" + std::string(bucket) + "." + endpoint.host + endpoint.basePath;
}

}  // namespace

std::string s3ObjectUrl(const S3Endpoint& endpoint, const S3Location& location) {
  return bucketBase(endpoint, location.bucket) + "/" + awsUriEncode(location.key, true);
}

std::string s3ListUrl(const S3Endpoint& endpoint, std::string_view bucket, std::string_view prefix,
                      std::string_view continuationToken, std::optional<uint32_t> maxKeys) {
  std::string url = bucketBase(endpoint, bucket) + "/?list-type=2";
  if (!continuationToken.empty()) {
    url += "&continuation-token=" + awsUriEncode(continuationToken, false);
  }
  if (maxKeys) url += "&max-keys=" + std::to_string(*maxKeys);
  url += "&prefix=" + awsUriEncode(prefix, false);
  return url;
}

}  // namespace quarry::io
