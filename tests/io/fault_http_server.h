#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

/// A small HTTP/1.1 server for the fault tests: it serves one object at every path,
/// with byte ranges (first-last, first-, -suffix) and keep-alive, and answers the
/// requests its FaultPlan picks with a failure instead: 503, a body cut short (the
/// connection closed mid-body, or a Content-Length that agrees with the short body
/// but not with Content-Range), a wrong Content-Range, no answer at all, or a reset.
/// It listens on 127.0.0.1, on a port the kernel chose, until destroyed.
namespace quarry::testing {

enum class Fault {
  kNone,
  kServiceUnavailable,  // 503 with a short text body
  kClosedMidBody,       // headers promise the range; half the body, then close
  kShortBody,           // Content-Length matches the half body sent; Content-Range does not
  kWrongContentRange,   // the right length, but one byte further on
  kNoAnswer,            // the connection closes without a response
  kReset,               // the connection is reset (RST) without a response
};

class FaultHttpServer {
 public:
  /// Picks the fault for the request numbered `index` (0, 1, ... in arrival order).
  using FaultPlan = std::function<Fault(uint64_t index)>;

  FaultHttpServer(std::vector<uint8_t> object, FaultPlan plan)
      : object_(std::move(object)), plan_(std::move(plan)) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
        ::listen(listener_, 64) != 0 || ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      return;
    }
    port_ = ntohs(address.sin_port);
    acceptor_ = std::thread([this] { acceptLoop(); });
  }

  ~FaultHttpServer() {
    stopping_ = true;
    if (listener_ >= 0) ::shutdown(listener_, SHUT_RDWR);
    if (acceptor_.joinable()) acceptor_.join();
    {
      std::lock_guard lock(mutex_);
      for (int fd : connections_) ::shutdown(fd, SHUT_RDWR);
    }
    for (auto& thread : workers_) thread.join();
    if (listener_ >= 0) ::close(listener_);
  }

  FaultHttpServer(const FaultHttpServer&) = delete;
  FaultHttpServer& operator=(const FaultHttpServer&) = delete;

  bool running() const { return port_ != 0; }
  uint16_t port() const { return port_; }
  std::string url(const std::string& path = "object.parquet") const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/" + path;
  }
  /// Returns how many requests arrived (answered or failed).
  uint64_t requestCount() const { return requests_.load(); }
  /// Returns how many requests were answered with a fault.
  uint64_t faultCount() const { return faults_.load(); }

 private:
  void acceptLoop() {
    while (!stopping_) {
      const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) {
        if (stopping_ || errno != EINTR) return;
        continue;
      }
      std::lock_guard lock(mutex_);
      connections_.push_back(fd);
      workers_.emplace_back([this, fd] { serve(fd); });
    }
  }

  static bool sendAll(int fd, const char* data, size_t size) {
    while (size > 0) {
      const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
      if (n <= 0) return false;
      data += n;
      size -= static_cast<size_t>(n);
    }
    return true;
  }

  void closeConnection(int fd, bool reset) {
    if (reset) {
      linger hard{1, 0};
      ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof(hard));
    }
    std::lock_guard lock(mutex_);
    connections_.erase(std::find(connections_.begin(), connections_.end(), fd));
    ::close(fd);
  }

  /// Answers the requests of one connection until it closes or a fault closes it.
  void serve(int fd) {
    std::string buffer;
    char chunk[4096];
    while (true) {
      size_t end;
      while ((end = buffer.find("\r\n\r\n")) == std::string::npos) {
        const ssize_t n = ::recv(fd, chunk, sizeof(chunk), 0);
        if (n <= 0) return closeConnection(fd, false);
        buffer.append(chunk, static_cast<size_t>(n));
      }
      const std::string head = buffer.substr(0, end);
      buffer.erase(0, end + 4);
      const Fault fault = plan_ ? plan_(requests_++) : (requests_++, Fault::kNone);
      if (fault != Fault::kNone) ++faults_;
      if (fault == Fault::kNoAnswer || fault == Fault::kReset) return closeConnection(fd, fault == Fault::kReset);
      if (!answer(fd, head, fault)) return closeConnection(fd, false);
    }
  }

  /// Returns the value of header `name` (given in lower case) in a request head.
  static std::string headerValue(const std::string& head, const std::string& name) {
    std::string lower = head;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    const size_t at = lower.find("\r\n" + name + ":");
    if (at == std::string::npos) return "";
    size_t start = at + 3 + name.size();
    while (start < head.size() && head[start] == ' ') ++start;
    return head.substr(start, head.find("\r\n", start) - start);
  }

  /// Writes one answer; returns false when the connection must close afterwards.
  bool answer(int fd, const std::string& head, Fault fault) {
    const bool isHead = head.starts_with("HEAD ");
    if (fault == Fault::kServiceUnavailable) {
      const std::string response =
          "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 9\r\n\r\nSlow Down";
      return sendAll(fd, response.data(), response.size());
    }
    const uint64_t size = object_.size();
    uint64_t first = 0;
    uint64_t last = size == 0 ? 0 : size - 1;
    const std::string range = headerValue(head, "range");
    bool partial = false;
    if (range.starts_with("bytes=")) {
      const std::string spec = range.substr(6);
      const size_t dash = spec.find('-');
      if (dash == 0) {
        const uint64_t n = std::min<uint64_t>(std::stoull(spec.substr(1)), size);
        first = size - n;
      } else {
        first = std::stoull(spec.substr(0, dash));
        if (dash + 1 < spec.size()) last = std::min<uint64_t>(std::stoull(spec.substr(dash + 1)), last);
      }
      if (size == 0 || first >= size || first > last) {
        const std::string response = "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */" +
                                     std::to_string(size) + "\r\nContent-Length: 0\r\n\r\n";
        return sendAll(fd, response.data(), response.size());
      }
      partial = true;
    }
    uint64_t length = size == 0 ? 0 : last - first + 1;
    uint64_t shownFirst = first;
    if (fault == Fault::kWrongContentRange && first + length < size) ++shownFirst;
    std::string response = partial ? "HTTP/1.1 206 Partial Content\r\n" : "HTTP/1.1 200 OK\r\n";
    response += "ETag: \"fault-server-v1\"\r\nAccept-Ranges: bytes\r\n";
    if (partial) {
      response += "Content-Range: bytes " + std::to_string(shownFirst) + "-" + std::to_string(shownFirst + length - 1) +
                  "/" + std::to_string(size) + "\r\n";
    }
    uint64_t sent = length;
    if (fault == Fault::kClosedMidBody || fault == Fault::kShortBody) sent = length / 2;
    const uint64_t contentLength = fault == Fault::kShortBody ? sent : length;
    response += "Content-Length: " + std::to_string(contentLength) + "\r\n\r\n";
    if (!isHead) {
      const auto begin = object_.begin() + static_cast<ptrdiff_t>(shownFirst);
      response.append(begin, begin + static_cast<ptrdiff_t>(sent));
    }
    if (!sendAll(fd, response.data(), response.size())) return false;
    return fault != Fault::kClosedMidBody;
  }

  std::vector<uint8_t> object_;
  FaultPlan plan_;
  int listener_ = -1;
  uint16_t port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<uint64_t> requests_{0};
  std::atomic<uint64_t> faults_{0};
  std::thread acceptor_;
  std::mutex mutex_;
  std::vector<int> connections_;
  std::vector<std::thread> workers_;
};

}  // namespace quarry::testing
