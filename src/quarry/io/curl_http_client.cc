#include <map>
#include <mutex>
#include <utility>

#include "quarry/io/curl_library.h"
#include "quarry/io/http_client.h"

// The libcurl HttpClient. An easy handle keeps its connections open between
// transfers, so handles are pooled rather than created per request: a reader that
// fetches one range after another reuses one TCP (and TLS) connection, and
// concurrent readers each take a handle of their own from the pool.
namespace quarry::io {
namespace {

constexpr size_t kMaxIdleHandles = 16;
constexpr long kMaxRedirects = 5;

struct Transfer {
  HttpResponse response;
};

size_t onBody(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  auto& body = transfer->response.body;
  body.insert(body.end(), reinterpret_cast<uint8_t*>(data), reinterpret_cast<uint8_t*>(data) + size * count);
  return size * count;
}

size_t onHeader(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  std::string_view line(data, size * count);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.starts_with("HTTP/")) {
    // A status line starts a new response (after a redirect or a 100 Continue):
    // only the headers of the last one describe the body.
    transfer->response.headers.clear();
    return size * count;
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return size * count;
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  transfer->response.headers.emplace_back(std::string(line.substr(0, colon)), std::string(value));
  return size * count;
}

/// Returns whether sending again may succeed after libcurl failed with `code`.
bool isRetriable(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_SSL_CONNECT_ERROR:
      return true;
    default:
      return false;
  }
}

class CurlHttpClient : public HttpClient {
 public:
  explicit CurlHttpClient(HttpClientOptions options) : options_(options), curl_(curlLibrary()) {}
  ~CurlHttpClient() override {
    for (CURL* handle : idle_) curl_.easyCleanup(handle);
  }
  CurlHttpClient(const CurlHttpClient&) = delete;
  CurlHttpClient& operator=(const CurlHttpClient&) = delete;

  HttpResponse send(const HttpRequest& request) override {
    Handle handle(*this);
    curl_slist* headers = nullptr;
    for (const auto& [name, value] : request.headers) {
      // "Name;" is libcurl's spelling of a header sent with an empty value.
      const std::string line = value.empty() ? name + ";" : name + ": " + value;
      curl_slist* appended = curl_.slistAppend(headers, line.c_str());
      if (appended == nullptr) {
        curl_.slistFreeAll(headers);
        throw HttpTransportError(request.method + " " + redactUri(request.url) + ": out of memory for headers", false);
      }
      headers = appended;
    }
    Transfer transfer;
    char error[CURL_ERROR_SIZE] = {};
    CURL* h = handle.get();
    curl_.easyReset(h);
    curl_.easySetopt(h, CURLOPT_URL, request.url.c_str());
    curl_.easySetopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_.easySetopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_.easySetopt(h, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM: threads read in parallel
    curl_.easySetopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connectTimeout.count()));
    curl_.easySetopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.requestTimeout.count()));
    curl_.easySetopt(h, CURLOPT_FOLLOWLOCATION, 1L);
    curl_.easySetopt(h, CURLOPT_MAXREDIRS, kMaxRedirects);
    curl_.easySetopt(h, CURLOPT_ERRORBUFFER, error);
    curl_.easySetopt(h, CURLOPT_HTTPHEADER, headers);
    curl_.easySetopt(h, CURLOPT_WRITEFUNCTION, &onBody);
    curl_.easySetopt(h, CURLOPT_WRITEDATA, static_cast<void*>(&transfer));
    curl_.easySetopt(h, CURLOPT_HEADERFUNCTION, &onHeader);
    curl_.easySetopt(h, CURLOPT_HEADERDATA, static_cast<void*>(&transfer));
    if (request.method == "HEAD") {
      curl_.easySetopt(h, CURLOPT_NOBODY, 1L);
    } else if (request.method != "GET") {
      curl_.easySetopt(h, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    }
    if (!request.body.empty()) {
      curl_.easySetopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
      curl_.easySetopt(h, CURLOPT_POSTFIELDS, static_cast<const void*>(request.body.data()));
    }
    const CURLcode code = curl_.easyPerform(h);
    curl_.slistFreeAll(headers);
    // The handle must not keep pointers into this frame's buffers once it is pooled.
    curl_.easySetopt(h, CURLOPT_ERRORBUFFER, static_cast<char*>(nullptr));
    curl_.easySetopt(h, CURLOPT_HTTPHEADER, static_cast<curl_slist*>(nullptr));
    if (code != CURLE_OK) {
      std::string message = request.method + " " + redactUri(request.url) + ": " + curl_.easyStrerror(code);
      if (error[0] != '\0') message += std::string(": ") + error;
      if (code == CURLE_OPERATION_TIMEDOUT) {
        message += " (connect timeout " + std::to_string(options_.connectTimeout.count()) +
                   " ms, request timeout " + std::to_string(options_.requestTimeout.count()) + " ms)";
      }
      throw HttpTransportError(message, isRetriable(code));
    }
    long status = 0;
    curl_.easyGetinfo(h, CURLINFO_RESPONSE_CODE, &status);
    transfer.response.status = status;
    return std::move(transfer.response);
  }

 private:
  /// Borrows a pooled easy handle for one transfer and gives it back afterwards.
  class Handle {
   public:
    explicit Handle(CurlHttpClient& client) : client_(client) {
      {
        std::lock_guard lock(client_.mutex_);
        if (!client_.idle_.empty()) {
          handle_ = client_.idle_.back();
          client_.idle_.pop_back();
          return;
        }
      }
      handle_ = client_.curl_.easyInit();
      if (handle_ == nullptr) throw HttpTransportError("libcurl could not create a transfer handle", false);
    }
    ~Handle() {
      std::lock_guard lock(client_.mutex_);
      if (client_.idle_.size() < kMaxIdleHandles) {
        client_.idle_.push_back(handle_);
      } else {
        client_.curl_.easyCleanup(handle_);
      }
    }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    CURL* get() const { return handle_; }

   private:
    CurlHttpClient& client_;
    CURL* handle_ = nullptr;
  };

  HttpClientOptions options_;
  const CurlLibrary& curl_;
  std::mutex mutex_;
  std::vector<CURL*> idle_;
};

}  // namespace

std::shared_ptr<HttpClient> curlHttpClient(const HttpClientOptions& options) {
  static std::mutex mutex;
  static std::map<std::pair<int64_t, int64_t>, std::shared_ptr<HttpClient>> clients;
  std::lock_guard lock(mutex);
  auto& client = clients[{options.connectTimeout.count(), options.requestTimeout.count()}];
  if (!client) client = std::make_shared<CurlHttpClient>(options);
  return client;
}

}  // namespace quarry::io
