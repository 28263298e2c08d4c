#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/temp_dir.h"

/// nginx (Debian's nginx-light) serving a directory on 127.0.0.1 for the HTTP storage
/// tests: a real server with real range support, keep-alive and an access log that
/// counts the requests quarry sent. Each server lives in a temporary prefix of its own
/// (config, pid, logs, temp paths) and stops with the object.
namespace quarry::testing {

inline constexpr const char* kNginxBinary = "/usr/sbin/nginx";

/// Returns a TCP port on 127.0.0.1 that nobody listened on a moment ago (bind to port
/// 0 and read back the port the kernel chose); a caller racing another process for it
/// retries with a new one.
inline uint16_t pickFreePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof(address);
  uint16_t port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  ::close(fd);
  return port;
}

/// Returns whether something accepts TCP connections on 127.0.0.1:`port`.
inline bool acceptsConnections(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  const bool connected = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
  ::close(fd);
  return connected;
}

inline std::string readWholeFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class NginxServer {
 public:
  static bool available() { return ::access(kNginxBinary, X_OK) == 0; }

  /// Starts nginx serving the files under `root`; check running() (startError() says why not).
  explicit NginxServer(const std::filesystem::path& root) {
    if (!prefixDir_.valid()) {
      error_ = "cannot create a temporary directory";
      return;
    }
    prefix_ = prefixDir_.path();
    std::filesystem::create_directories(prefix_ / "temp");
    constexpr int kPortAttempts = 10;
    for (int attempt = 0; attempt < kPortAttempts && pid_ < 0; ++attempt) {
      const uint16_t port = pickFreePort();
      if (port == 0) continue;
      if (start(root, port)) port_ = port;
      if (!error_.empty() && error_.find("Address already in use") == std::string::npos) break;
    }
  }

  ~NginxServer() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
      int status = 0;
      while (::waitpid(pid_, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
          ::kill(pid_, SIGKILL);
          ::waitpid(pid_, &status, 0);
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    }
  }

  NginxServer(const NginxServer&) = delete;
  NginxServer& operator=(const NginxServer&) = delete;

  bool running() const { return pid_ > 0; }
  const std::string& startError() const { return error_; }
  uint16_t port() const { return port_; }

  /// Returns the URL of `path` (relative to the root, '/'-separated).
  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/" + path;
  }

  /// Returns how many requests nginx has logged (access log lines).
  size_t requestCount() const {
    const std::string log = accessLog();
    return static_cast<size_t>(std::count(log.begin(), log.end(), '\n'));
  }

  /// Returns requestCount() once it reaches `expected` or after `timeout`, whichever is
  /// first: nginx logs a request after sending its answer, so a client may see the
  /// answer a moment before the log line is written.
  size_t requestCountReaching(size_t expected,
                              std::chrono::milliseconds timeout = std::chrono::milliseconds(2000)) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    size_t count = requestCount();
    while (count < expected && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      count = requestCount();
    }
    return count;
  }

  /// Returns the access log: one line per request, "METHOD URI STATUS BYTES RANGE".
  std::string accessLog() const { return readWholeFile(prefix_ / "access.log"); }

 private:
  /// Starts nginx on `port`; returns false with error_ set when it exits or does not listen.
  bool start(const std::filesystem::path& root, uint16_t port) {
    const std::string p = prefix_.string();
    std::ofstream(prefix_ / "nginx.conf")
        << "master_process off;\n"
        << "worker_processes 1;\n"
        << "pid " << p << "/nginx.pid;\n"
        << "error_log " << p << "/error.log warn;\n"
        << "events { worker_connections 256; }\n"
        << "http {\n"
        << "  log_format ranges '$request_method $request_uri $status $body_bytes_sent \"$http_range\"';\n"
        << "  access_log " << p << "/access.log ranges;\n"
        << "  client_body_temp_path " << p << "/temp/body;\n"
        << "  proxy_temp_path " << p << "/temp/proxy;\n"
        << "  fastcgi_temp_path " << p << "/temp/fastcgi;\n"
        << "  uwsgi_temp_path " << p << "/temp/uwsgi;\n"
        << "  scgi_temp_path " << p << "/temp/scgi;\n"
        << "  default_type application/octet-stream;\n"
        << "  server {\n"
        << "    listen 127.0.0.1:" << port << ";\n"
        << "    root " << std::filesystem::absolute(root).string() << ";\n"
        << "  }\n"
        << "}\n";
    std::filesystem::remove(prefix_ / "nginx.pid");
    std::filesystem::remove(prefix_ / "error.log");

    const std::string output = p + "/stderr.log";
    const std::string conf = p + "/nginx.conf";
    const std::string errorLog = p + "/error.log";
    std::vector<std::string> args = {kNginxBinary, "-p", p, "-c", conf, "-e", errorLog, "-g", "daemon off;"};
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
      error_ = std::string("cannot start ") + kNginxBinary + ": " + std::strerror(errno);
      return false;
    }
    if (pid == 0) {
      // Only async-signal-safe calls until exec. nginx dies with the test process, so a
      // test that crashes leaves no server behind.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(127);
      const int fd = ::open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd >= 0) {
        ::dup2(fd, STDOUT_FILENO);
        ::dup2(fd, STDERR_FILENO);
      }
      ::execv(kNginxBinary, argv.data());
      ::_exit(127);
    }
    // nginx writes its pid file after it has bound the port; a connection accepted
    // before that would be some other process's.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (::waitpid(pid, &status, WNOHANG) == pid) {
        error_ = "nginx exited: " + readWholeFile(prefix_ / "stderr.log") + readWholeFile(prefix_ / "error.log");
        return false;
      }
      if (std::filesystem::exists(prefix_ / "nginx.pid") && acceptsConnections(port)) {
        pid_ = pid;
        error_.clear();
        return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    error_ = "nginx did not listen on port " + std::to_string(port) + " within 10 s: " +
             readWholeFile(prefix_ / "error.log");
    return false;
  }

  /// The server's prefix (configuration, logs, pid), removed after it stops.
  TempDir prefixDir_{"quarry_nginx"};
  std::filesystem::path prefix_;
  pid_t pid_ = -1;
  uint16_t port_ = 0;
  std::string error_;
};

}  // namespace quarry::testing

/// Skips the test loudly when nginx is not installed (Debian package nginx-light).
#define QUARRY_SKIP_WITHOUT_NGINX()                                                          \
  do {                                                                                       \
    if (!::quarry::testing::NginxServer::available()) {                                      \
      GTEST_SKIP() << "SKIPPED LOUDLY: " << ::quarry::testing::kNginxBinary                  \
                   << " not found (install the Debian package nginx-light)";                 \
    }                                                                                        \
  } while (0)
