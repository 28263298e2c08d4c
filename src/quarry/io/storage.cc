#include "quarry/io/storage.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "quarry/common/error.h"
#include "quarry/io/http_client.h"
#include "quarry/io/http_storage.h"
#include "quarry/io/local_storage.h"
#include "quarry/io/s3_storage.h"

namespace quarry::io {

void StorageObject::readRanges(std::span<const ReadRange> ranges) {
  for (const ReadRange& range : ranges) readAt(range.offset, range.out);
}

std::vector<uint8_t> StorageObject::readTail(uint64_t length) {
  const uint64_t total = size();
  const uint64_t n = std::min(length, total);
  std::vector<uint8_t> out(n);
  readAt(total - n, out);
  return out;
}

namespace {

std::unique_ptr<StorageObject> open(const std::string& uri, const std::optional<ObjectIdentity>& known) {
  static constexpr std::string_view kFileScheme = "file://";
  if (uri.starts_with(kFileScheme))
    return LocalStorageProvider().open(uri.substr(kFileScheme.size()), known);
  const auto schemeEnd = uri.find("://");
  if (schemeEnd == std::string::npos) return LocalStorageProvider().open(uri, known);
  // Schemes are case-insensitive (RFC 3986); paths and keys are not.
  std::string scheme = uri.substr(0, schemeEnd);
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (scheme == "http" || scheme == "https") {
    HttpStorageOptions options;
    options.known = known;
    return HttpStorageProvider(options).open(uri);
  }
  if (scheme == "s3") {
    S3StorageOptions options;
    options.http.known = known;
    return openS3Object(uri, options);
  }
  throw IoError(redactUri(uri) + ": the scheme '" + scheme + "' is not supported");
}

}  // namespace

bool isRemoteUri(std::string_view uri) {
  const auto schemeEnd = uri.find("://");
  if (schemeEnd == std::string_view::npos) return false;
  std::string scheme(uri.substr(0, schemeEnd));
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return scheme == "http" || scheme == "https" || scheme == "s3";
}

std::unique_ptr<StorageObject> openObject(const std::string& uri) {
  return open(uri, std::nullopt);
}

std::unique_ptr<StorageObject> openObject(const std::string& uri, const ObjectIdentity& known) {
  return open(uri, known);
}

}  // namespace quarry::io
