#include "quarry/io/s3_storage.h"

#include "quarry/common/error.h"
#include "quarry/common/uri_redaction.h"
#include "quarry/io/s3_uri.h"
#include "quarry/io/sigv4.h"

namespace quarry::io {

std::unique_ptr<StorageObject> openS3Object(const std::string& uri) {
  return openS3Object(uri, S3StorageOptions{});
}

std::unique_ptr<StorageObject> openS3Object(const std::string& uri,
                                            const S3StorageOptions& options) {
  const S3Location location = parseS3Uri(uri);
  if (location.key.empty() || location.key.ends_with('/')) {
    throw InvalidArgument(redactUri(uri) +
                          ": names a bucket or a folder, not an object (expected s3://bucket/key)");
  }
  const AwsConfig config = options.config ? *options.config : resolveAwsConfig();
  const std::string url = s3ObjectUrl(s3Endpoint(config, location.bucket), location);
  std::shared_ptr<HttpClient> client =
      options.client ? options.client : curlHttpClient(options.http.client);

  std::function<void(HttpRequest&)> sign;
  if (!config.credentials.anonymous()) {
    SigV4Options signing;
    signing.region = config.region;
    auto clock = options.clock ? options.clock : [] { return std::chrono::system_clock::now(); };
    // The hook owns a copy of the credentials; it is called again for every retry, so a
    // retried request carries a fresh x-amz-date.
    sign = [credentials = config.credentials, signing, clock](HttpRequest& request) {
      signRequest(request.method, request.url, request.headers, credentials, signing, clock());
    };
  }
  HttpStorageOptions http = options.http;
  http.refusalNote = unsignedRequestNote(config);
  auto object = std::make_unique<HttpStorageObject>(uri, url, std::move(client), std::move(http),
                                                    std::move(sign));
  object->size();  // the one request opening costs; a missing object or a refusal fails here
  return object;
}

}  // namespace quarry::io
