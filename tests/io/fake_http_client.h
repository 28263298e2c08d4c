#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

#include "quarry/io/http_client.h"

/// An HttpClient answering from memory: an object served with real range semantics,
/// and a script of faults that replace the next answers (503, truncated, wrong range,
/// transport errors). It records every request it was sent.
namespace quarry::testing {

class FakeHttpClient : public io::HttpClient {
 public:
  /// Returns the answer to one request; the default serves object() correctly.
  using Responder = std::function<io::HttpResponse(const io::HttpRequest&)>;

  explicit FakeHttpClient(std::vector<uint8_t> object) : object_(std::move(object)) {}

  /// Answers the next request with `responder` instead of serving the object.
  void then(Responder responder) {
    std::lock_guard lock(mutex_);
    script_.push_back(std::move(responder));
  }
  /// Answers every later request with `responder`.
  void always(Responder responder) {
    std::lock_guard lock(mutex_);
    always_ = std::move(responder);
  }

  io::HttpResponse send(const io::HttpRequest& request) override {
    Responder responder;
    {
      std::lock_guard lock(mutex_);
      requests_.push_back(request);
      if (!script_.empty()) {
        responder = std::move(script_.front());
        script_.pop_front();
      } else {
        responder = always_;
      }
    }
    return responder ? responder(request) : serve(request);
  }

  /// Serves `request` as a compliant server would (206 with Content-Range, 416 past the end).
  io::HttpResponse serve(const io::HttpRequest& request) const {
    io::HttpResponse response;
    response.headers.emplace_back("ETag", "\"v1\"");
    std::string range;
    for (const auto& [name, value] : request.headers) {
      if (name == "Range") range = value;
    }
    const uint64_t size = object_.size();
    if (range.empty()) {
      response.status = 200;
      response.body = object_;
      return response;
    }
    uint64_t first = 0;
    uint64_t last = 0;
    const std::string spec = range.substr(6);  // after "bytes="
    if (spec.front() == '-') {
      const uint64_t n = std::min<uint64_t>(std::stoull(spec.substr(1)), size);
      if (n == 0) return unsatisfiable(response);
      first = size - n;
      last = size - 1;
    } else {
      const size_t dash = spec.find('-');
      first = std::stoull(spec.substr(0, dash));
      last = std::min<uint64_t>(std::stoull(spec.substr(dash + 1)), size - 1);
      if (first >= size) return unsatisfiable(response);
    }
    response.status = 206;
    response.headers.emplace_back("Content-Range", "bytes " + std::to_string(first) + "-" + std::to_string(last) +
                                                       "/" + std::to_string(size));
    response.body.assign(object_.begin() + static_cast<ptrdiff_t>(first),
                         object_.begin() + static_cast<ptrdiff_t>(last + 1));
    return response;
  }

  const std::vector<uint8_t>& object() const { return object_; }
  std::vector<io::HttpRequest> requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
  }
  size_t requestCount() const {
    std::lock_guard lock(mutex_);
    return requests_.size();
  }

 private:
  io::HttpResponse unsatisfiable(io::HttpResponse& response) const {
    response.status = 416;
    response.headers.emplace_back("Content-Range", "bytes */" + std::to_string(object_.size()));
    return response;
  }

  std::vector<uint8_t> object_;
  mutable std::mutex mutex_;
  std::deque<Responder> script_;
  Responder always_;
  std::vector<io::HttpRequest> requests_;
};

/// Returns `n` bytes counting up from 0 (mod 256), so a misplaced byte shows.
inline std::vector<uint8_t> countingBytes(size_t n) {
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(i * 7 + i / 256);
  return bytes;
}

inline io::HttpResponse statusResponse(long status, const std::string& body = "") {
  io::HttpResponse response;
  response.status = status;
  response.body.assign(body.begin(), body.end());
  return response;
}

}  // namespace quarry::testing
