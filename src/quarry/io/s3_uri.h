#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "quarry/io/aws_config.h"

/// s3:// URIs and the HTTP URLs they map to. With an endpoint configured (an S3-compatible
/// server such as a local test server or MinIO) requests are path-style,
/// http://127.0.0.1:9000/bucket/key; against AWS they are virtual-hosted,
/// https://bucket.s3.us-east-1.amazonaws.com/key, unless the bucket name cannot be a DNS
/// label under TLS (dots, upper case, underscores), which forces path-style.
namespace quarry::io {

struct S3Location {
  std::string bucket;
  std::string key;  // without leading '/'; may be empty (the bucket itself) or a prefix
};

/// Parses "s3://bucket/key"; throws InvalidArgument naming the URI when it is not one.
S3Location parseS3Uri(std::string_view uri);

/// Returns whether `uri` starts with s3:// (any case of the scheme).
bool isS3Uri(std::string_view uri);

/// The server requests are sent to, and how buckets are addressed on it.
struct S3Endpoint {
  std::string scheme;    // "http" or "https"
  std::string host;      // with ":port" when the endpoint has one
  std::string basePath;  // a path prefix of the endpoint URL, "" or "/prefix"
  bool pathStyle = false;
};

/// Returns the endpoint `config` sends requests for `bucket` to; throws InvalidArgument
/// naming the endpoint URL when it is not http(s)://host[:port][/path].
S3Endpoint s3Endpoint(const AwsConfig& config, std::string_view bucket);

/// Returns the URL of an object, its key encoded by SigV4's rule ('/' kept).
std::string s3ObjectUrl(const S3Endpoint& endpoint, const S3Location& location);

/// Returns the URL of one ListObjectsV2 page of `bucket` under `prefix`.
std::string s3ListUrl(const S3Endpoint& endpoint, std::string_view bucket, std::string_view prefix,
                      std::string_view continuationToken, std::optional<uint32_t> maxKeys);

}  // namespace quarry::io
