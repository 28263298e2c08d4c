#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quarry/io/aws_config.h"
#include "quarry/io/http_client.h"
#include "quarry/io/http_storage.h"
#include "quarry/io/storage.h"

/// Objects behind s3:// URIs: an HttpStorageObject on the URL the configuration maps the
/// URI to (s3_uri.h), every attempt signed with SigV4 (sigv4.h) unless the configuration
/// has no credentials (public buckets). Opening costs one request, as for HTTP.
namespace quarry::io {

struct S3StorageOptions {
  HttpStorageOptions http;
  /// The HTTP client; the process-wide libcurl client when null.
  std::shared_ptr<HttpClient> client;
  /// The configuration; resolved from the environment and ~/.aws when empty.
  std::optional<AwsConfig> config;
  /// ListObjectsV2's max-keys; the server's default (1000) when empty.
  std::optional<uint32_t> listPageSize;
  /// The clock requests are signed at (tests pin it).
  std::function<std::chrono::system_clock::time_point()> clock;
};

/// Opens the object at an s3://bucket/key URI with one request; throws IoError naming the
/// URI (never a credential) when it cannot be read, InvalidArgument for a malformed URI.
std::unique_ptr<StorageObject> openS3Object(const std::string& uri);
std::unique_ptr<StorageObject> openS3Object(const std::string& uri,
                                            const S3StorageOptions& options);

/// Lists the objects matching an s3:// glob (s3://bucket/data/**/*.parquet) with
/// ListObjectsV2, narrowed to the key prefix before the first wildcard and followed
/// through every continuation token; returns s3:// URIs sorted by key. A URI without
/// wildcards is returned as it is, unlisted.
std::vector<std::string> listS3(const std::string& globUri);
std::vector<std::string> listS3(const std::string& globUri, const S3StorageOptions& options);

/// An object a listing found: its s3:// URI, with the size and ETag the listing
/// gave (nullopt when the listing gave no ETag, or the URI was not listed).
struct ListedObject {
  std::string uri;
  std::optional<ObjectIdentity> identity;
};
/// listS3, with each object's identity: a URI without wildcards is returned as it
/// is, without one.
std::vector<ListedObject> listS3Objects(const std::string& globUri);
std::vector<ListedObject> listS3Objects(const std::string& globUri,
                                        const S3StorageOptions& options);

/// Opens s3:// URIs.
class S3StorageProvider : public StorageProvider {
 public:
  explicit S3StorageProvider(S3StorageOptions options = {}) : options_(std::move(options)) {}
  std::unique_ptr<StorageObject> open(const std::string& uri) override {
    return openS3Object(uri, options_);
  }

 private:
  S3StorageOptions options_;
};

}  // namespace quarry::io
