#include "tests/io/s3_test_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>

#include "quarry/common/percent_decoding.h"
#include "quarry/io/sigv4.h"

namespace quarry::testing {

using io::HttpHeaderList;

struct S3TestServer::Request {
  std::string method;
  std::string target;  // "/bucket/key?query" as sent
  HttpHeaderList headers;

  std::optional<std::string> header(std::string_view name) const {
    for (const auto& [n, v] : headers) {
      if (n.size() == name.size() &&
          std::equal(n.begin(), n.end(), name.begin(),
                     [](char a, char b) { return std::tolower(a) == std::tolower(b); })) {
        return v;
      }
    }
    return std::nullopt;
  }
};

namespace {

struct Response {
  int status = 200;
  HttpHeaderList headers;
  std::string body;
  bool headOnly = false;
};

const char* reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 206:
      return "Partial Content";
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 416:
      return "Range Not Satisfiable";
    case 503:
      return "Service Unavailable";
    default:
      return "Error";
  }
}

std::string xmlEscape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

Response s3Error(int status, std::string_view code, std::string_view message,
                 std::string_view resource) {
  Response r;
  r.status = status;
  r.headers.emplace_back("Content-Type", "application/xml");
  r.body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + xmlEscape(code) +
           "</Code><Message>" + xmlEscape(message) + "</Message><Resource>" + xmlEscape(resource) +
           "</Resource><RequestId>quarry-test</RequestId></Error>";
  return r;
}

std::optional<uint64_t> number(std::string_view text) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::map<std::string, std::string> parseQuery(std::string_view query) {
  std::map<std::string, std::string> out;
  size_t start = 0;
  while (start < query.size()) {
    size_t end = query.find('&', start);
    if (end == std::string_view::npos) end = query.size();
    const std::string_view param = query.substr(start, end - start);
    const size_t eq = param.find('=');
    out[percentDecode(param.substr(0, eq))] =
        eq == std::string_view::npos ? "" : percentDecode(param.substr(eq + 1));
    start = end + 1;
  }
  return out;
}

std::string hexOf(std::string_view text) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const char c : text) {
    out.push_back(kDigits[static_cast<unsigned char>(c) >> 4]);
    out.push_back(kDigits[static_cast<unsigned char>(c) & 0xF]);
  }
  return out;
}

std::string unhex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

std::string etagOf(const std::vector<uint8_t>& bytes) {
  uint64_t hash = 1469598103934665603ULL;  // FNV-1a: an ETag only needs to change with the bytes
  for (const uint8_t b : bytes) hash = (hash ^ b) * 1099511628211ULL;
  char buffer[24];
  std::snprintf(buffer, sizeof(buffer), "\"%016llx\"", static_cast<unsigned long long>(hash));
  return buffer;
}

bool sendAll(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// Checks the Authorization header the way S3 does; returns the refusal, or nullopt.
std::optional<Response> verifySignature(const HttpHeaderList& headers, const std::string& method,
                                        const std::string& target,
                                        const S3TestServerOptions& options,
                                        std::string_view resource,
                                        const std::optional<std::string>& authorization) {
  if (!authorization) {
    if (options.allowAnonymous) return std::nullopt;
    return s3Error(403, "AccessDenied", "Anonymous access is forbidden for this bucket", resource);
  }
  // AWS4-HMAC-SHA256 Credential=AKID/20240101/us-east-1/s3/aws4_request, SignedHeaders=a;b,
  // Signature=hex
  constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256 ";
  const std::string& auth = *authorization;
  const auto field = [&](std::string_view name) -> std::string {
    const size_t at = auth.find(std::string(name) + "=");
    if (at == std::string::npos) return {};
    const size_t start = at + name.size() + 1;
    const size_t end = auth.find(',', start);
    return auth.substr(start, end == std::string::npos ? std::string::npos : end - start);
  };
  const std::string credential = field("Credential");
  const std::string signedHeaderNames = field("SignedHeaders");
  const std::string signature = field("Signature");
  const auto malformed = [&](std::string_view why) {
    return s3Error(400, "AuthorizationHeaderMalformed", why, resource);
  };
  if (!auth.starts_with(kAlgorithm) || credential.empty() || signedHeaderNames.empty() ||
      signature.empty()) {
    return malformed("The authorization header is malformed");
  }
  // Credential = key id / date / region / service / aws4_request
  std::vector<std::string> scope;
  for (size_t start = 0;;) {
    const size_t slash = credential.find('/', start);
    scope.push_back(
        credential.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  if (scope.size() != 5 || scope[4] != "aws4_request" || scope[3] != "s3") {
    return malformed("The credential scope is malformed");
  }
  if (scope[0] != options.accessKeyId) {
    return s3Error(403, "InvalidAccessKeyId",
                   "The AWS Access Key Id you provided does not exist in our records.", resource);
  }
  if (scope[2] != options.region) {
    return malformed("the region '" + scope[2] + "' is wrong; expecting '" + options.region + "'");
  }
  const auto headerValues = [&](std::string_view lowerName) {
    std::vector<std::string> values;
    for (const auto& [name, value] : headers) {
      std::string lower = name;
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](char c) { return std::tolower(c); });
      if (lower == lowerName) values.push_back(value);
    }
    return values;
  };
  const auto amzDate = headerValues("x-amz-date");
  const auto payloadHash = headerValues("x-amz-content-sha256");
  if (amzDate.size() != 1 || !amzDate[0].starts_with(scope[1])) {
    return s3Error(403, "AccessDenied",
                   "x-amz-date is missing or does not match the credential scope", resource);
  }
  if (payloadHash.size() != 1) {
    return s3Error(400, "InvalidRequest",
                   "Missing required header for this request: x-amz-content-sha256", resource);
  }
  io::HttpHeaderList signedHeaders;
  bool signsHost = false;
  for (size_t start = 0; start <= signedHeaderNames.size();) {
    size_t end = signedHeaderNames.find(';', start);
    if (end == std::string::npos) end = signedHeaderNames.size();
    const std::string name = signedHeaderNames.substr(start, end - start);
    signsHost = signsHost || name == "host";
    const auto values = headerValues(name);
    if (values.empty())
      return s3Error(403, "AccessDenied", "a signed header was not sent: " + name, resource);
    for (const auto& value : values) signedHeaders.emplace_back(name, value);
    start = end + 1;
  }
  if (!signsHost) return malformed("SignedHeaders must include host");
  const io::CanonicalRequest canonical =
      io::canonicalRequest(method, target, signedHeaders, payloadHash[0]);
  const std::string expected = io::sigv4Signature(
      options.secretAccessKey, scope[1], scope[2], scope[3],
      io::stringToSign(amzDate[0], io::credentialScope(scope[1], scope[2], scope[3]),
                       canonical.text));
  if (expected != signature) {
    return s3Error(403, "SignatureDoesNotMatch",
                   "The request signature we calculated does not match the signature you provided. "
                   "Check your key and signing method.",
                   resource);
  }
  return std::nullopt;
}

}  // namespace

S3TestServer::S3TestServer(S3TestServerOptions options)
    : options_(std::move(options)), faults_(options_.faults), random_(options_.faults.seed) {
  listenFd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listenFd_ < 0)
    throw std::runtime_error(std::string("S3TestServer: socket: ") + std::strerror(errno));
  const int one = 1;
  ::setsockopt(listenFd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;  // a free port
  if (::bind(listenFd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      ::listen(listenFd_, 64) != 0) {
    const std::string error = std::strerror(errno);
    ::close(listenFd_);
    throw std::runtime_error("S3TestServer: bind/listen on 127.0.0.1: " + error);
  }
  socklen_t length = sizeof(address);
  ::getsockname(listenFd_, reinterpret_cast<sockaddr*>(&address), &length);
  port_ = ntohs(address.sin_port);
  acceptThread_ = std::thread([this] { acceptLoop(); });
}

S3TestServer::~S3TestServer() {
  stopping_ = true;
  ::shutdown(listenFd_, SHUT_RDWR);
  acceptThread_.join();
  ::close(listenFd_);
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mutex_);
    for (const int fd : connections_) ::shutdown(fd, SHUT_RDWR);
    threads.swap(connectionThreads_);
  }
  for (auto& thread : threads) thread.join();
}

std::string S3TestServer::endpointUrl() const {
  return "http://127.0.0.1:" + std::to_string(port_);
}

void S3TestServer::putObject(const std::string& bucket, const std::string& key,
                             std::vector<uint8_t> bytes) {
  std::lock_guard lock(mutex_);
  etags_[bucket + '/' + key] = etagOf(bytes);
  buckets_[bucket][key] = std::move(bytes);
}

void S3TestServer::serveDirectory(const std::string& bucket,
                                  const std::filesystem::path& directory) {
  std::lock_guard lock(mutex_);
  auto& objects = buckets_[bucket];
  for (const auto& entry : std::filesystem::recursive_directory_iterator(directory)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    const std::string key = std::filesystem::relative(entry.path(), directory).generic_string();
    etags_[bucket + '/' + key] = etagOf(bytes);
    objects[key] = std::move(bytes);
  }
}

void S3TestServer::setFaults(const S3TestServerFaults& faults) {
  std::lock_guard lock(mutex_);
  faults_ = faults;
  random_.seed(faults.seed);
}

void S3TestServer::acceptLoop() {
  while (!stopping_) {
    const int fd = ::accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (stopping_) return;
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return;
    }
    std::lock_guard lock(mutex_);
    if (stopping_) {
      ::close(fd);
      return;
    }
    // Without TCP_NODELAY a small answer can wait for the client's delayed ACK (40 ms).
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    connections_.push_back(fd);
    connectionThreads_.emplace_back([this, fd] { serveConnection(fd); });
  }
}

void S3TestServer::closeConnection(int fd, bool reset) {
  std::lock_guard lock(mutex_);
  std::erase(connections_, fd);
  if (reset) {
    const linger hard{1, 0};  // close with RST instead of FIN
    ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof(hard));
  }
  ::close(fd);
}

void S3TestServer::serveConnection(int fd) {
  std::string buffer;
  char chunk[8192];
  while (!stopping_) {
    size_t headerEnd;
    while ((headerEnd = buffer.find("\r\n\r\n")) == std::string::npos) {
      const ssize_t n = ::recv(fd, chunk, sizeof(chunk), 0);
      if (n <= 0 || buffer.size() > (1 << 20)) {
        closeConnection(fd, false);
        return;
      }
      buffer.append(chunk, static_cast<size_t>(n));
    }
    Request request;
    const std::string head = buffer.substr(0, headerEnd);
    buffer.erase(0, headerEnd + 4);
    size_t lineEnd = head.find("\r\n");
    const std::string requestLine = head.substr(0, lineEnd);
    const size_t space1 = requestLine.find(' ');
    const size_t space2 = requestLine.find(' ', space1 + 1);
    if (space1 == std::string::npos || space2 == std::string::npos) {
      closeConnection(fd, false);
      return;
    }
    request.method = requestLine.substr(0, space1);
    request.target = requestLine.substr(space1 + 1, space2 - space1 - 1);
    while (lineEnd != std::string::npos) {
      const size_t start = lineEnd + 2;
      lineEnd = head.find("\r\n", start);
      const std::string line =
          head.substr(start, lineEnd == std::string::npos ? std::string::npos : lineEnd - start);
      const size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      size_t valueStart = colon + 1;
      while (valueStart < line.size() && line[valueStart] == ' ') ++valueStart;
      request.headers.emplace_back(line.substr(0, colon), line.substr(valueStart));
    }
    // A request body (none expected) is read and dropped so that the next request parses.
    if (auto length = request.header("Content-Length"); length && number(*length)) {
      const uint64_t n = *number(*length);
      while (buffer.size() < n) {
        const ssize_t got = ::recv(fd, chunk, sizeof(chunk), 0);
        if (got <= 0) {
          closeConnection(fd, false);
          return;
        }
        buffer.append(chunk, static_cast<size_t>(got));
      }
      buffer.erase(0, n);
    }
    requests_.fetch_add(1);
    {
      std::lock_guard lock(mutex_);
      log_.push_back(request.method + " " + request.target);
    }
    if (!answer(fd, request)) return;
    const auto connection = request.header("Connection");
    if (connection && (*connection == "close" || *connection == "Close")) {
      closeConnection(fd, false);
      return;
    }
  }
  closeConnection(fd, false);
}

bool S3TestServer::answer(int fd, const Request& request) {
  enum class Fault { kNone, kUnavailable, kTruncated, kReset };
  Fault fault = Fault::kNone;
  std::chrono::milliseconds latency{0};
  {
    std::lock_guard lock(mutex_);
    latency = faults_.latency;
    const double draw = std::uniform_real_distribution<double>(0.0, 1.0)(random_);
    if (draw < faults_.serviceUnavailable) {
      fault = Fault::kUnavailable;
    } else if (draw < faults_.serviceUnavailable + faults_.truncatedBody) {
      fault = Fault::kTruncated;
    } else if (draw <
               faults_.serviceUnavailable + faults_.truncatedBody + faults_.connectionReset) {
      fault = Fault::kReset;
    }
  }
  if (latency.count() > 0) std::this_thread::sleep_for(latency);
  if (fault != Fault::kNone) faultsInjected_.fetch_add(1);
  if (fault == Fault::kReset) {
    closeConnection(fd, true);
    return false;
  }

  const size_t question = request.target.find('?');
  const std::string path = percentDecode(request.target.substr(0, question));
  const auto query = parseQuery(question == std::string::npos
                                    ? std::string_view()
                                    : std::string_view(request.target).substr(question + 1));
  const size_t slash = path.find('/', 1);
  const std::string bucket =
      path.substr(1, slash == std::string::npos ? std::string::npos : slash - 1);
  const std::string key = slash == std::string::npos ? "" : path.substr(slash + 1);

  Response response;
  if (fault == Fault::kUnavailable) {
    response = s3Error(503, "SlowDown", "Please reduce your request rate.", path);
  } else if (auto refused = verifySignature(request.headers, request.method, request.target,
                                            options_, path, request.header("Authorization"))) {
    response = std::move(*refused);
  } else if (request.method != "GET" && request.method != "HEAD") {
    response = s3Error(400, "NotImplemented", "the test server serves GET and HEAD only", path);
  } else {
    std::lock_guard lock(mutex_);
    const auto bucketIt = buckets_.find(bucket);
    if (bucketIt == buckets_.end()) {
      response = s3Error(404, "NoSuchBucket", "The specified bucket does not exist", path);
    } else if (key.empty()) {
      if (query.count("list-type") == 0 || query.at("list-type") != "2") {
        response =
            s3Error(400, "NotImplemented", "only ListObjectsV2 (list-type=2) is served", path);
      } else {
        const std::string prefix = query.count("prefix") ? query.at("prefix") : "";
        uint64_t maxKeys = 1000;
        if (query.count("max-keys"))
          maxKeys = std::clamp<uint64_t>(number(query.at("max-keys")).value_or(1000), 1, 1000);
        const auto& objects = bucketIt->second;
        auto it = objects.lower_bound(prefix);
        std::string token;
        if (query.count("continuation-token")) {
          token = query.at("continuation-token");
          it = objects.upper_bound(unhex(token));
        }
        std::string contents;
        uint64_t count = 0;
        std::string lastKey;
        for (; it != objects.end() && it->first.starts_with(prefix) && count < maxKeys;
             ++it, ++count) {
          contents += "<Contents><Key>" + xmlEscape(it->first) +
                      "</Key><LastModified>2024-01-01T00:00:00.000Z"
                      "</LastModified><ETag>" +
                      xmlEscape(etags_.at(bucket + '/' + it->first)) + "</ETag><Size>" +
                      std::to_string(it->second.size()) +
                      "</Size><StorageClass>STANDARD</StorageClass></Contents>";
          lastKey = it->first;
        }
        const bool truncated = it != objects.end() && it->first.starts_with(prefix);
        response.headers.emplace_back("Content-Type", "application/xml");
        response.body =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>" +
            xmlEscape(bucket) + "</Name><Prefix>" + xmlEscape(prefix) + "</Prefix><KeyCount>" +
            std::to_string(count) + "</KeyCount><MaxKeys>" + std::to_string(maxKeys) +
            "</MaxKeys><IsTruncated>" + (truncated ? "true" : "false") + "</IsTruncated>" +
            (token.empty() ? ""
                           : "<ContinuationToken>" + xmlEscape(token) + "</ContinuationToken>") +
            contents +
            (truncated ? "<NextContinuationToken>" + hexOf(lastKey) + "</NextContinuationToken>"
                       : "") +
            "</ListBucketResult>";
        listPages_.fetch_add(1);
      }
    } else if (const auto objectIt = bucketIt->second.find(key);
               objectIt == bucketIt->second.end()) {
      response = s3Error(404, "NoSuchKey", "The specified key does not exist.", path);
    } else {
      const std::vector<uint8_t>& bytes = objectIt->second;
      const uint64_t size = bytes.size();
      uint64_t first = 0;
      uint64_t last = size == 0 ? 0 : size - 1;
      bool partial = false;
      bool satisfiable = true;
      if (auto range = request.header("Range"); range && range->starts_with("bytes=")) {
        const std::string spec = range->substr(6);
        const size_t dash = spec.find('-');
        partial = true;
        if (dash == 0) {  // bytes=-n: the last n bytes
          const uint64_t n = number(spec.substr(1)).value_or(0);
          satisfiable = n > 0 && size > 0;
          first = size - std::min(n, size);
        } else {
          first = number(spec.substr(0, dash)).value_or(UINT64_MAX);
          if (dash + 1 < spec.size())
            last = std::min(last, number(spec.substr(dash + 1)).value_or(0));
          satisfiable = first < size && first <= last;
        }
      }
      response.headers.emplace_back("ETag", etags_.at(bucket + '/' + key));
      response.headers.emplace_back("Last-Modified", "Mon, 01 Jan 2024 00:00:00 GMT");
      response.headers.emplace_back("Accept-Ranges", "bytes");
      if (!satisfiable) {
        response = s3Error(416, "InvalidRange", "The requested range is not satisfiable", path);
        response.headers.emplace_back("Content-Range", "bytes */" + std::to_string(size));
      } else {
        if (partial) {
          response.status = 206;
          response.headers.emplace_back("Content-Range", "bytes " + std::to_string(first) + "-" +
                                                             std::to_string(last) + "/" +
                                                             std::to_string(size));
        }
        if (size > 0)
          response.body.assign(bytes.begin() + static_cast<ptrdiff_t>(first),
                               bytes.begin() + static_cast<ptrdiff_t>(last + 1));
      }
      response.headOnly = request.method == "HEAD";
    }
  }

  std::string head =
      "HTTP/1.1 " + std::to_string(response.status) + " " + reason(response.status) + "\r\n";
  for (const auto& [name, value] : response.headers) head += name + ": " + value + "\r\n";
  head += "Content-Length: " + std::to_string(response.body.size()) + "\r\n";
  head += "x-amz-request-id: quarry-test\r\n\r\n";
  if (fault == Fault::kTruncated && response.body.size() >= 2) {
    // Content-Length promises the whole body; half of it arrives, then the connection ends.
    sendAll(fd, head);
    sendAll(fd, std::string_view(response.body).substr(0, response.body.size() / 2));
    closeConnection(fd, false);
    return false;
  }
  if (!response.headOnly) head += response.body;  // one send: head and body in the same segments
  if (!sendAll(fd, head)) {
    closeConnection(fd, false);
    return false;
  }
  return true;
}

void S3TestServer::configure(ScopedEnvironment& environment, bool withCredentials) const {
  environment.set("AWS_ENDPOINT_URL", endpointUrl());
  environment.set("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/quarry-credentials");
  environment.set("AWS_CONFIG_FILE", "/nonexistent/quarry-config");
  if (withCredentials) {
    environment.set("AWS_ACCESS_KEY_ID", options_.accessKeyId);
    environment.set("AWS_SECRET_ACCESS_KEY", options_.secretAccessKey);
    environment.set("AWS_REGION", options_.region);
  } else {
    environment.unset("AWS_ACCESS_KEY_ID");
    environment.unset("AWS_SECRET_ACCESS_KEY");
  }
  for (const char* name : {"AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_ENDPOINT_URL_S3"})
    environment.unset(name);
}

std::vector<std::string> S3TestServer::requestLog() {
  std::lock_guard lock(mutex_);
  return log_;
}

void S3TestServer::clearRequestLog() {
  std::lock_guard lock(mutex_);
  log_.clear();
}

}  // namespace quarry::testing
