#include "quarry/io/s3_list.h"

#include <algorithm>
#include <charconv>

#include "quarry/common/error.h"
#include "quarry/common/uri_redaction.h"
#include "quarry/io/glob.h"
#include "quarry/io/http_client.h"
#include "quarry/io/s3_storage.h"
#include "quarry/io/s3_uri.h"
#include "quarry/io/sigv4.h"

namespace quarry::io {
namespace {

void appendUtf8(std::string& out, uint32_t codePoint) {
  if (codePoint < 0x80) {
    out.push_back(static_cast<char>(codePoint));
  } else if (codePoint < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (codePoint >> 6)));
    out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
  } else if (codePoint < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (codePoint >> 12)));
    out.push_back(static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (codePoint >> 18)));
    out.push_back(static_cast<char>(0x80 | ((codePoint >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
  }
}

// Returns the text of the first <tag>...</tag> in `xml` at or after `from`, with the
// position after its end tag; npos when there is none.
std::pair<std::string_view, size_t> element(std::string_view xml, std::string_view tag,
                                            size_t from) {
  const std::string open = "<" + std::string(tag) + ">";
  const std::string close = "</" + std::string(tag) + ">";
  const size_t start = xml.find(open, from);
  if (start == std::string_view::npos) return {{}, std::string_view::npos};
  const size_t end = xml.find(close, start + open.size());
  if (end == std::string_view::npos) return {{}, std::string_view::npos};
  return {xml.substr(start + open.size(), end - start - open.size()), end + close.size()};
}

std::string describeXml(std::string_view xml) {
  std::string out(xml.substr(0, 200));
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  return out;
}

}  // namespace

std::string decodeXmlText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '&') {
      out.push_back(text[i]);
      continue;
    }
    const size_t semi = text.find(';', i);
    if (semi == std::string_view::npos || semi - i > 12) {
      out.push_back('&');
      continue;
    }
    const std::string_view name = text.substr(i + 1, semi - i - 1);
    if (name == "amp")
      out.push_back('&');
    else if (name == "lt")
      out.push_back('<');
    else if (name == "gt")
      out.push_back('>');
    else if (name == "quot")
      out.push_back('"');
    else if (name == "apos")
      out.push_back('\'');
    else if (name.size() > 1 && name[0] == '#') {
      const bool hex = name[1] == 'x' || name[1] == 'X';
      const std::string_view digits = name.substr(hex ? 2 : 1);
      uint32_t codePoint = 0;
      const auto [end, error] =
          std::from_chars(digits.data(), digits.data() + digits.size(), codePoint, hex ? 16 : 10);
      if (error != std::errc() || end != digits.data() + digits.size() || codePoint > 0x10FFFF) {
        out.push_back('&');
        continue;
      }
      appendUtf8(out, codePoint);
    } else {
      out.push_back('&');
      continue;
    }
    i = semi;
  }
  return out;
}

S3ListPage parseListObjectsV2(std::string_view xml, const std::string& uri) {
  if (xml.find("</ListBucketResult>") == std::string_view::npos) {
    throw IoError(
        redactUri(uri) + ": the ListObjectsV2 answer is not a complete ListBucketResult: " + describeXml(xml));
  }
  S3ListPage page;
  for (size_t at = 0;;) {
    const auto [contents, next] = element(xml, "Contents", at);
    if (next == std::string_view::npos) break;
    at = next;
    const auto [key, keyEnd] = element(contents, "Key", 0);
    if (keyEnd == std::string_view::npos) {
      throw IoError(redactUri(uri) +
                    ": a ListObjectsV2 <Contents> entry has no <Key>: " + describeXml(contents));
    }
    S3ListedObject object{decodeXmlText(key), 0, {}};
    const auto [size, sizeEnd] = element(contents, "Size", 0);
    if (sizeEnd != std::string_view::npos) {
      std::from_chars(size.data(), size.data() + size.size(), object.size);
    }
    object.etag = decodeXmlText(element(contents, "ETag", 0).first);
    page.objects.push_back(std::move(object));
  }
  page.truncated = element(xml, "IsTruncated", 0).first == "true";
  page.nextContinuationToken = decodeXmlText(element(xml, "NextContinuationToken", 0).first);
  if (page.truncated && page.nextContinuationToken.empty()) {
    throw IoError(redactUri(uri) + ": the ListObjectsV2 answer is truncated but has no NextContinuationToken");
  }
  return page;
}

std::vector<std::string> listS3(const std::string& globUri) {
  return listS3(globUri, S3StorageOptions{});
}

std::vector<std::string> listS3(const std::string& globUri, const S3StorageOptions& options) {
  std::vector<std::string> out;
  for (ListedObject& object : listS3Objects(globUri, options)) out.push_back(std::move(object.uri));
  return out;
}

std::vector<ListedObject> listS3Objects(const std::string& globUri) {
  return listS3Objects(globUri, S3StorageOptions{});
}

std::vector<ListedObject> listS3Objects(const std::string& globUri,
                                        const S3StorageOptions& options) {
  const S3Location location = parseS3Uri(globUri);
  if (!hasGlob(location.key)) return {ListedObject{globUri, std::nullopt}};
  if (hasGlob(location.bucket)) {
    throw InvalidArgument(redactUri(globUri) + ": wildcards in the bucket name are not supported");
  }
  const AwsConfig config = options.config ? *options.config : resolveAwsConfig();
  const S3Endpoint endpoint = s3Endpoint(config, location.bucket);
  std::shared_ptr<HttpClient> client =
      options.client ? options.client : curlHttpClient(options.http.client);
  SigV4Options signing;
  signing.region = config.region;
  const auto now = [&] {
    return options.clock ? options.clock() : std::chrono::system_clock::now();
  };

  const std::string prefix(globLiteralPrefix(location.key));
  const std::string bucketUri = "s3://" + location.bucket + "/";
  std::vector<ListedObject> out;
  std::string token;
  const int maxAttempts = std::max(options.http.retry.maxAttempts, 1);
  for (int page = 1;; ++page) {
    const std::string url =
        s3ListUrl(endpoint, location.bucket, prefix, token, options.listPageSize);
    const std::string what =
        redactUri(globUri) + ": listing keys under '" + prefix + "' (page " + std::to_string(page) + ")";
    std::optional<S3ListPage> result;
    std::string failure;
    for (int attempt = 1; !result; ++attempt) {
      HttpRequest request;
      request.url = url;
      signRequest(request.method, request.url, request.headers, config.credentials, signing, now());
      bool retriable = false;
      std::optional<std::chrono::milliseconds> retryAfter;
      try {
        const HttpResponse response = client->send(request);
        if (response.status == 200) {
          const std::string_view body(reinterpret_cast<const char*>(response.body.data()),
                                      response.body.size());
          try {
            result = parseListObjectsV2(body, globUri);
          } catch (const IoError& e) {
            failure = e.what();
            retriable = true;  // a body cut short
          }
        } else {
          const std::string_view body(reinterpret_cast<const char*>(response.body.data()),
                                      response.body.size());
          const auto code = element(body, "Code", 0).first;
          const auto message = element(body, "Message", 0).first;
          failure = "the server answered HTTP " + std::to_string(response.status) +
                    (code.empty() ? std::string() : ": " + decodeXmlText(code)) +
                    (message.empty() ? std::string() : ": " + decodeXmlText(message));
          if (response.status == 401 || response.status == 403) {
            const std::string note = unsignedRequestNote(config);
            if (!note.empty()) failure += "; " + note;
          }
          retriable = RetryPolicy::isRetriable(response.status);
          const auto header = response.header("Retry-After");
          if (header && (response.status == 429 || response.status == 503)) {
            retryAfter = RetryPolicy::parseRetryAfter(*header, std::chrono::system_clock::now());
          }
        }
      } catch (const HttpTransportError& e) {
        failure = e.what();
        retriable = e.retriable();
      }
      if (result) break;
      if (!retriable || attempt >= maxAttempts) {
        throw IoError(what + " failed" +
                      (attempt > 1 ? " (after " + std::to_string(attempt) + " attempts)" : "") +
                      ": " + failure);
      }
      options.http.retry.sleepBeforeRetry(attempt, retryAfter);
    }
    for (const S3ListedObject& object : result->objects) {
      if (!globMatch(location.key, object.key)) continue;
      std::optional<ObjectIdentity> identity;
      if (!object.etag.empty()) identity = ObjectIdentity{object.size, object.etag};
      out.push_back(ListedObject{bucketUri + object.key, std::move(identity)});
    }
    if (!result->truncated) break;
    token = result->nextContinuationToken;
  }
  std::sort(out.begin(), out.end(),
            [](const ListedObject& a, const ListedObject& b) { return a.uri < b.uri; });
  return out;
}

}  // namespace quarry::io
