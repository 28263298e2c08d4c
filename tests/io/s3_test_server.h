#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/scoped_environment.h"

/// An S3-compatible server for the tests: path-style requests on 127.0.0.1 (a free
/// port), objects from memory or from a directory per bucket, SigV4 verified strictly
/// (a wrong secret gets 403 SignatureDoesNotMatch), GET and HEAD with Range (suffix
/// ranges too) and ListObjectsV2 with pagination. Faults are injected on request:
/// latency, 503 SlowDown, bodies cut short, connections reset; which request fails is
/// drawn from a seeded generator so that a failing run can be replayed.
namespace quarry::testing {

struct S3TestServerFaults {
  std::chrono::milliseconds latency{0};  // before every answer
  double serviceUnavailable = 0;         // fraction of requests answered 503 SlowDown
  double truncatedBody = 0;    // fraction whose body stops halfway (then the connection closes)
  double connectionReset = 0;  // fraction answered with a TCP reset
  uint64_t seed = 1;
};

struct S3TestServerOptions {
  std::string accessKeyId = "AKIDQUARRYTEST";
  std::string secretAccessKey = "quarry+test/secret-KEY";
  std::string region = "us-east-1";
  bool allowAnonymous = false;  // unsigned requests are refused unless set
  S3TestServerFaults faults;
};

class S3TestServer {
 public:
  /// Starts listening; throws std::runtime_error when no socket can be bound.
  explicit S3TestServer(S3TestServerOptions options = {});
  /// Stops accepting, closes every connection and joins the threads.
  ~S3TestServer();
  S3TestServer(const S3TestServer&) = delete;
  S3TestServer& operator=(const S3TestServer&) = delete;

  uint16_t port() const { return port_; }
  /// Returns "http://127.0.0.1:<port>", the value for AWS_ENDPOINT_URL.
  std::string endpointUrl() const;
  /// Points the AWS configuration quarry reads at this server, in `environment`:
  /// AWS_ENDPOINT_URL, the options' credentials and region (none, for unsigned
  /// requests, when `withCredentials` is false), no credentials or config file,
  /// no session token, profile or S3-only endpoint.
  void configure(ScopedEnvironment& environment, bool withCredentials = true) const;

  /// Stores an object in memory.
  void putObject(const std::string& bucket, const std::string& key, std::vector<uint8_t> bytes);
  /// Loads every regular file under `directory` as an object of `bucket`, keyed by its
  /// path relative to the directory ('/'-separated).
  void serveDirectory(const std::string& bucket, const std::filesystem::path& directory);

  /// Replaces the fault settings (the generator restarts from the new seed).
  void setFaults(const S3TestServerFaults& faults);

  /// Returns how many requests arrived (faulted ones included).
  uint64_t requestCount() const { return requests_.load(); }
  /// Returns how many ListObjectsV2 requests were answered with a page.
  uint64_t listPagesServed() const { return listPages_.load(); }
  /// Returns how many requests had a fault injected.
  uint64_t faultsInjected() const { return faultsInjected_.load(); }
  /// Every request that arrived, in order, as "METHOD target" ("GET
  /// /bucket?list-type=2&prefix=data%2F", "HEAD /bucket/key"), faulted ones included.
  std::vector<std::string> requestLog();
  void clearRequestLog();

 private:
  struct Request;
  void acceptLoop();
  void serveConnection(int fd);
  /// Returns false when the connection must close.
  bool answer(int fd, const Request& request);
  void closeConnection(int fd, bool reset);

  S3TestServerOptions options_;
  int listenFd_ = -1;
  uint16_t port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread acceptThread_;

  std::mutex mutex_;  // guards everything below
  std::map<std::string, std::map<std::string, std::vector<uint8_t>>> buckets_;
  /// Each object's ETag by bucket + '/' + key, computed once when it is stored.
  std::map<std::string, std::string> etags_;
  std::vector<int> connections_;
  std::vector<std::thread> connectionThreads_;
  S3TestServerFaults faults_;
  std::mt19937_64 random_;
  std::vector<std::string> log_;

  std::atomic<uint64_t> requests_{0};
  std::atomic<uint64_t> listPages_{0};
  std::atomic<uint64_t> faultsInjected_{0};
};

}  // namespace quarry::testing
