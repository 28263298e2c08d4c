#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <thread>

#include "quarry/common/error.h"
#include "quarry/io/http_storage.h"
#include "quarry/io/local_storage.h"
#include "tests/io/fault_http_server.h"
#include "tests/io/nginx_server.h"
#include "tests/io/rendered_rows.h"
#include "tests/support/testdata.h"

// Remote reads through a server that fails: every read must return the exact bytes
// or a clear IoError, never wrong bytes.
namespace quarry::io {
namespace {

using quarry::testing::Fault;
using quarry::testing::FaultHttpServer;

HttpStorageOptions fastOptions(int attempts = 8) {
  HttpStorageOptions options;
  options.client.connectTimeout = std::chrono::milliseconds(1000);
  options.client.requestTimeout = std::chrono::milliseconds(5000);
  options.retry.maxAttempts = attempts;
  options.retry.baseDelay = std::chrono::milliseconds(1);
  options.retry.maxDelay = std::chrono::milliseconds(4);
  return options;
}

std::vector<uint8_t> randomBytes(size_t n, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<uint8_t> bytes(n);
  for (auto& b : bytes) b = static_cast<uint8_t>(random());
  return bytes;
}

/// A plan failing about `percent503` % of requests with 503 and `percentTruncated` %
/// with a truncated body (half of them cut by a closed connection, half by a short
/// Content-Length), drawn from a fixed seed.
FaultHttpServer::FaultPlan randomPlan(int percent503, int percentTruncated, uint64_t seed) {
  auto random = std::make_shared<std::mt19937_64>(seed);
  auto mutex = std::make_shared<std::mutex>();
  return [=](uint64_t) {
    std::lock_guard lock(*mutex);
    const int draw = static_cast<int>((*random)() % 100);
    if (draw < percent503) return Fault::kServiceUnavailable;
    if (draw < percent503 + percentTruncated) {
      return draw % 2 == 0 ? Fault::kClosedMidBody : Fault::kShortBody;
    }
    return Fault::kNone;
  };
}

TEST(HttpFaultTest, ReadsExactBytesThroughEveryKindOfFault) {
  const std::vector<uint8_t> object = randomBytes(256 * 1024, 7);
  FaultHttpServer server(object, [](uint64_t i) {
    if (i == 0) return Fault::kNone;
    if (i % 10 == 3) return Fault::kServiceUnavailable;
    if (i % 20 == 7) return Fault::kClosedMidBody;
    if (i % 20 == 13) return Fault::kShortBody;
    if (i % 25 == 5) return Fault::kWrongContentRange;
    if (i % 30 == 17) return Fault::kNoAnswer;
    if (i % 40 == 21) return Fault::kReset;
    return Fault::kNone;
  });
  ASSERT_TRUE(server.running());
  // About a third of all requests fail, so a read may meet several faults in a row:
  // enough attempts that running out of them is a one-in-a-million event.
  auto file = HttpStorageProvider(fastOptions(16)).open(server.url());
  ASSERT_EQ(file->size(), object.size());
  std::atomic<int> wrong{0};
  std::atomic<uint64_t> remoteReads{0};
  const uint64_t cachedTailStart = object.size() - fastOptions().tailBytes;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937_64 random(100 + t);
      for (int i = 0; i < 60; ++i) {
        const size_t length = 1 + random() % 20000;
        const uint64_t offset = random() % (object.size() - length);
        std::vector<uint8_t> out(length);
        file->readAt(offset, out);
        remoteReads += offset < cachedTailStart;
        if (!std::equal(out.begin(), out.end(), object.begin() + static_cast<ptrdiff_t>(offset))) ++wrong;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GT(server.faultCount(), 20u);
  // The object counts the reads it served (retries are not reads), the server every attempt.
  EXPECT_EQ(file->requestCount(), 1u + remoteReads.load());
  EXPECT_GE(server.requestCount(), file->requestCount() + server.faultCount());
}

TEST(HttpFaultTest, EveryQueryIsExactWithTenPercent503AndFivePercentTruncated) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto dir = quarry::testing::parquetTestingDir() / "data";
  uint64_t faults = 0;
  uint64_t seed = 1;
  for (const char* name : {"alltypes_plain.parquet", "alltypes_tiny_pages.parquet", "nested_structs.rust.parquet",
                           "delta_byte_array.parquet", "datapage_v2.snappy.parquet", "nested_lists.snappy.parquet",
                           "lz4_raw_compressed_larger.parquet", "byte_stream_split.zstd.parquet"}) {
    const auto path = dir / name;
    if (!std::filesystem::exists(path)) continue;
    FaultHttpServer server(quarry::testing::readFileBytes(path), randomPlan(10, 5, seed++));
    ASSERT_TRUE(server.running());
    const std::string local = quarry::testing::renderRows(LocalStorageProvider().open(path.string()));
    // These files are small: read as they would be, each is a request or two and
    // few faults land. A short tail and 4 KiB requests make each file tens of
    // requests, sent concurrently, so the faults hit chunk reads split and merged.
    HttpStorageOptions options = fastOptions();
    options.tailBytes = 1024;
    options.coalesce.maxRequestBytes = 4096;
    const std::string remote = quarry::testing::renderRows(HttpStorageProvider(options).open(server.url()));
    EXPECT_EQ(remote, local) << name;
    EXPECT_EQ(local.find("ERROR"), std::string::npos) << name << ": " << local;
    faults += server.faultCount();
  }
  EXPECT_GT(faults, 10u);
}

TEST(HttpFaultTest, ExhaustedRetriesNameTheUriTheRangeAndWhatTheServerSaid) {
  FaultHttpServer server(randomBytes(1000, 1), [](uint64_t) { return Fault::kServiceUnavailable; });
  ASSERT_TRUE(server.running());
  try {
    HttpStorageProvider(fastOptions(3)).open(server.url());
    FAIL() << "no IoError";
  } catch (const IoError& e) {
    EXPECT_STREQ(e.what(), (server.url() +
                            ": reading the last 65536 bytes failed (after 3 attempts): the server answered "
                            "HTTP 503: Slow Down")
                               .c_str());
  }
  EXPECT_EQ(server.requestCount(), 3u);
}

TEST(HttpFaultTest, ATruncatedBodyOnEveryAttemptIsAnErrorNotShortData) {
  FaultHttpServer server(randomBytes(100000, 2), [](uint64_t i) { return i == 0 ? Fault::kNone : Fault::kShortBody; });
  ASSERT_TRUE(server.running());
  auto file = HttpStorageProvider(fastOptions(2)).open(server.url());
  std::vector<uint8_t> out(1000);
  try {
    file->readAt(10, out);
    FAIL() << "no IoError";
  } catch (const IoError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(server.url() + ": reading bytes [10, 1010) failed (after 2 attempts): the body has 500 "
                                          "bytes where Content-Range 'bytes 10-1009/100000' promises 1000 (truncated)"),
              std::string::npos)
        << message;
  }
}

TEST(HttpFaultTest, AServerThatGoesAwayIsAClearErrorNamingTheUri) {
  auto server = std::make_unique<FaultHttpServer>(randomBytes(200000, 3), nullptr);
  ASSERT_TRUE(server->running());
  const std::string url = server->url();
  auto file = HttpStorageProvider(fastOptions(3)).open(url);
  server.reset();  // the port closes; pooled connections are cut
  std::vector<uint8_t> out(100);
  const auto start = std::chrono::steady_clock::now();
  try {
    file->readAt(0, out);
    FAIL() << "no IoError";
  } catch (const IoError& e) {
    const std::string message = e.what();
    EXPECT_TRUE(message.starts_with(url + ": reading bytes [0, 100) failed (after 3 attempts): GET " + url)) << message;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(HttpFaultTest, AServerThatNeverAnswersTimesOutAsConfigured) {
  // A socket that listens but never accepts: connections complete in the kernel, no byte comes back.
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  ASSERT_EQ(::listen(listener, 16), 0);
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
  const std::string url = "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/slow.parquet";
  HttpStorageOptions options = fastOptions(2);
  options.client.requestTimeout = std::chrono::milliseconds(200);
  const auto start = std::chrono::steady_clock::now();
  try {
    HttpStorageProvider(options).open(url);
    FAIL() << "no IoError";
  } catch (const IoError& e) {
    const std::string message = e.what();
    EXPECT_TRUE(message.starts_with(url + ": reading the last 65536 bytes failed (after 2 attempts): GET " + url))
        << message;
    EXPECT_NE(message.find("request timeout 200 ms"), std::string::npos) << message;
  }
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_GE(elapsed, std::chrono::milliseconds(400));
  EXPECT_LT(elapsed, std::chrono::milliseconds(1500));
  ::close(listener);
}

}  // namespace
}  // namespace quarry::io
