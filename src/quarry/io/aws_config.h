#pragma once

#include <functional>
#include <optional>
#include <string>

#include "quarry/io/sigv4.h"

/// Where S3 requests go and how they are signed, resolved from the sources the AWS CLI
/// reads, first match wins:
///   credentials: AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN), then the
///                profile's aws_access_key_id... in the credentials file, then in the config file;
///                none at all = anonymous requests (public buckets)
///   region:      AWS_REGION, AWS_DEFAULT_REGION, the profile's `region`, else us-east-1
///   endpoint:    AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, then (unless
///                AWS_IGNORE_CONFIGURED_ENDPOINT_URLS is true) `s3 = endpoint_url` in the
///                profile's `[services x]` section, in the profile, the profile's `endpoint_url`
/// The profile is AWS_PROFILE (else "default"); the files are AWS_SHARED_CREDENTIALS_FILE
/// (~/.aws/credentials) and AWS_CONFIG_FILE (~/.aws/config), whose sections are named
/// `[profile x]` except `[default]`.
namespace quarry::io {

/// Reads an environment variable; nullopt when unset.
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;

/// Returns the process environment as an EnvironmentLookup.
EnvironmentLookup processEnvironment();

enum class S3AddressingStyle { kAuto, kPath, kVirtual };

struct AwsConfig {
  AwsCredentials credentials;  // empty access key id: anonymous
  std::string region = "us-east-1";
  std::string endpointUrl;  // empty: AWS itself
  std::string profile = "default";
  S3AddressingStyle addressingStyle =
      S3AddressingStyle::kAuto;  // the profile's s3.addressing_style
  /// Where resolveAwsConfig looked for credentials, for the message of a request
  /// refused because it went unsigned; empty for a configuration made by hand.
  std::string credentialSources;
};

/// Resolves the configuration from `environment` and the files it names; throws
/// InvalidArgument when AWS_PROFILE names a profile no file has, or when a source gives
/// an access key without its secret (never quoting either).
AwsConfig resolveAwsConfig(const EnvironmentLookup& environment = processEnvironment());

/// What to add to the error of a request S3 refused (HTTP 401 or 403) when
/// `config` has no credentials: that the request went unsigned, and where
/// credentials were looked for (config.credentialSources). "" when it has some.
std::string unsignedRequestNote(const AwsConfig& config);

}  // namespace quarry::io
