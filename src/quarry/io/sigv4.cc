#include "quarry/io/sigv4.h"

#include <algorithm>
#include <array>
#include <ctime>

#include "quarry/common/error.h"
#include "quarry/common/percent_decoding.h"

namespace quarry::io {
namespace {

constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256";

char toLower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string lowercase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), toLower);
  return out;
}

bool isUnreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

// Trims the value and folds each run of spaces or tabs inside it into one space.
std::string canonicalHeaderValue(std::string_view value) {
  std::string out;
  bool pendingSpace = false;
  for (const char c : value) {
    if (c == ' ' || c == '\t') {
      pendingSpace = !out.empty();
      continue;
    }
    if (pendingSpace) out.push_back(' ');
    pendingSpace = false;
    out.push_back(c);
  }
  return out;
}

std::string canonicalQuery(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> params;
  size_t start = 0;
  while (start <= query.size()) {
    size_t end = query.find('&', start);
    if (end == std::string_view::npos) end = query.size();
    const std::string_view param = query.substr(start, end - start);
    if (!param.empty()) {
      const size_t eq = param.find('=');
      const std::string_view name = param.substr(0, eq);
      const std::string_view value = eq == std::string_view::npos ? "" : param.substr(eq + 1);
      params.emplace_back(awsUriEncode(percentDecode(name), false),
                          awsUriEncode(percentDecode(value), false));
    }
    start = end + 1;
  }
  std::sort(params.begin(), params.end());
  std::string out;
  for (const auto& [name, value] : params) {
    if (!out.empty()) out.push_back('&');
    out += name;
    out.push_back('=');
    out += value;
  }
  return out;
}

// Headers a transport adds or rewrites on its own: signing them would break the
// signature whenever a proxy or the client library touches them.
bool isTransportHeader(std::string_view lowerName) {
  static constexpr std::array<std::string_view, 9> kNames = {
      "authorization", "user-agent", "accept-encoding",   "connection",     "expect",
      "keep-alive",    "te",         "transfer-encoding", "x-amzn-trace-id"};
  return std::find(kNames.begin(), kNames.end(), lowerName) != kNames.end();
}

std::span<const uint8_t> bytesOf(std::string_view text) {
  return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

}  // namespace

std::string awsUriEncode(std::string_view bytes, bool keepSlash) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(bytes.size());
  for (const char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    if (isUnreserved(c) || (keepSlash && c == '/')) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(kDigits[c >> 4]);
      out.push_back(kDigits[c & 0xF]);
    }
  }
  return out;
}

CanonicalRequest canonicalRequest(std::string_view method, std::string_view target,
                                  const HttpHeaderList& headers, std::string_view payloadHash) {
  const size_t question = target.find('?');
  std::string_view path = target.substr(0, question);
  const std::string_view query =
      question == std::string_view::npos ? std::string_view() : target.substr(question + 1);
  if (path.empty()) path = "/";

  // Values of a repeated header are joined with commas in the order they were sent.
  std::vector<std::pair<std::string, std::string>> merged;
  for (const auto& [name, value] : headers) {
    std::string lower = lowercase(name);
    std::string canonicalValue = canonicalHeaderValue(value);
    auto it = std::find_if(merged.begin(), merged.end(),
                           [&](const auto& entry) { return entry.first == lower; });
    if (it == merged.end()) {
      merged.emplace_back(std::move(lower), std::move(canonicalValue));
    } else {
      it->second += ',';
      it->second += canonicalValue;
    }
  }
  std::stable_sort(merged.begin(), merged.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });

  CanonicalRequest out;
  out.text.append(method).append("\n");
  out.text += awsUriEncode(percentDecode(path), true);
  out.text += '\n';
  out.text += canonicalQuery(query);
  out.text += '\n';
  for (const auto& [name, value] : merged) {
    out.text += name;
    out.text += ':';
    out.text += value;
    out.text += '\n';
    if (!out.signedHeaders.empty()) out.signedHeaders += ';';
    out.signedHeaders += name;
  }
  out.text += '\n';
  out.text += out.signedHeaders;
  out.text += '\n';
  out.text.append(payloadHash);
  return out;
}

std::string credentialScope(std::string_view date, std::string_view region,
                            std::string_view service) {
  std::string out(date);
  out.append("/").append(region).append("/").append(service).append("/aws4_request");
  return out;
}

std::string stringToSign(std::string_view amzDate, std::string_view scope,
                         std::string_view canonicalRequestText) {
  std::string out(kAlgorithm);
  out.append("\n").append(amzDate).append("\n").append(scope).append("\n");
  out += hexEncode(sha256(canonicalRequestText));
  return out;
}

Sha256Digest signingKey(std::string_view secret, std::string_view date, std::string_view region,
                        std::string_view service) {
  std::string seed = "AWS4";
  seed.append(secret);
  const Sha256Digest dateKey = hmacSha256(bytesOf(seed), date);
  std::fill(seed.begin(), seed.end(), '\0');  // the secret does not linger in freed memory
  const Sha256Digest regionKey = hmacSha256(dateKey, region);
  const Sha256Digest serviceKey = hmacSha256(regionKey, service);
  return hmacSha256(serviceKey, "aws4_request");
}

std::string sigv4Signature(std::string_view secret, std::string_view date, std::string_view region,
                           std::string_view service, std::string_view stringToSignText) {
  return hexEncode(hmacSha256(signingKey(secret, date, region, service), stringToSignText));
}

std::string amzDate(std::chrono::system_clock::time_point time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm utc{};
  ::gmtime_r(&seconds, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y%m%dT%H%M%SZ", &utc);
  return buffer;
}

std::pair<std::string, std::string> hostAndTarget(std::string_view url) {
  const size_t schemeEnd = url.find("://");
  if (schemeEnd == std::string_view::npos) {
    throw InvalidArgument("cannot sign a request to a URL without scheme: " + std::string(url));
  }
  const std::string scheme = lowercase(url.substr(0, schemeEnd));
  const std::string_view rest = url.substr(schemeEnd + 3);
  const size_t targetStart = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, targetStart);
  if (const size_t at = authority.rfind('@'); at != std::string_view::npos) {
    authority = authority.substr(at + 1);
  }
  std::string host(authority);
  if ((scheme == "http" && host.ends_with(":80")) ||
      (scheme == "https" && host.ends_with(":443"))) {
    host.erase(host.rfind(':'));
  }
  std::string target =
      targetStart == std::string_view::npos ? "/" : std::string(rest.substr(targetStart));
  if (target.front() == '?') target.insert(target.begin(), '/');
  if (const size_t hash = target.find('#'); hash != std::string::npos) target.erase(hash);
  return {lowercase(host), target};
}

void signRequest(std::string_view method, std::string_view url, HttpHeaderList& headers,
                 const AwsCredentials& credentials, const SigV4Options& options,
                 std::chrono::system_clock::time_point now) {
  if (credentials.anonymous()) return;
  auto [host, target] = hostAndTarget(url);
  const std::string dateTime = amzDate(now);
  const std::string date = dateTime.substr(0, 8);

  // Headers from an earlier attempt are replaced: a retried request is signed afresh.
  std::erase_if(headers, [](const auto& header) {
    const std::string lower = lowercase(header.first);
    return lower == "authorization" || lower == "x-amz-date" || lower == "x-amz-content-sha256" ||
           lower == "x-amz-security-token";
  });
  headers.emplace_back("x-amz-date", dateTime);
  if (options.contentSha256Header)
    headers.emplace_back("x-amz-content-sha256", options.payloadHash);
  if (!credentials.sessionToken.empty()) {
    headers.emplace_back("x-amz-security-token", credentials.sessionToken);
  }

  HttpHeaderList signedHeaders;
  bool hasHost = false;
  for (const auto& header : headers) {
    const std::string lower = lowercase(header.first);
    if (isTransportHeader(lower)) continue;
    hasHost = hasHost || lower == "host";
    signedHeaders.push_back(header);
  }
  if (!hasHost) signedHeaders.emplace_back("host", host);

  const CanonicalRequest canonical =
      canonicalRequest(method, target, signedHeaders, options.payloadHash);
  const std::string scope = credentialScope(date, options.region, options.service);
  const std::string signature =
      sigv4Signature(credentials.secretAccessKey, date, options.region, options.service,
                     stringToSign(dateTime, scope, canonical.text));
  std::string authorization(kAlgorithm);
  authorization.append(" Credential=").append(credentials.accessKeyId).append("/").append(scope);
  authorization.append(", SignedHeaders=").append(canonical.signedHeaders);
  authorization.append(", Signature=").append(signature);
  headers.emplace_back("Authorization", std::move(authorization));
}

}  // namespace quarry::io
