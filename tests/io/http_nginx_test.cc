#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/io/http_client.h"
#include "quarry/io/http_storage.h"
#include "quarry/io/local_storage.h"
#include "tests/io/nginx_server.h"
#include "tests/io/rendered_rows.h"
#include "tests/support/temp_dir.h"
#include "tests/support/testdata.h"

// Remote storage against a real server: nginx serving parquet-testing's files.
namespace quarry::io {
namespace {

using quarry::testing::NginxServer;
using quarry::testing::TempDir;
using quarry::testing::parquetTestingDir;

#define START_NGINX(server, root)                                                 \
  QUARRY_SKIP_WITHOUT_NGINX();                                                    \
  NginxServer server(root);                                                       \
  ASSERT_TRUE(server.running()) << "nginx did not start: " << server.startError()

HttpStorageOptions testOptions() {
  HttpStorageOptions options;
  options.client.connectTimeout = std::chrono::milliseconds(2000);
  options.client.requestTimeout = std::chrono::milliseconds(10000);
  options.retry.baseDelay = std::chrono::milliseconds(1);
  options.retry.maxDelay = std::chrono::milliseconds(5);
  return options;
}

TEST(HttpNginxTest, CurlClientSendsHeadersAndReturnsStatusHeadersAndBody) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  START_NGINX(server, parquetTestingDir() / "data");
  auto client = curlHttpClient();
  HttpRequest request;
  request.url = server.url("alltypes_plain.parquet");
  request.headers = {{"Range", "bytes=0-3"}};
  const HttpResponse response = client->send(request);
  EXPECT_EQ(response.status, 206);
  EXPECT_EQ(std::string(response.body.begin(), response.body.end()), "PAR1");
  const auto size = std::filesystem::file_size(parquetTestingDir() / "data/alltypes_plain.parquet");
  EXPECT_EQ(response.header("content-range"), "bytes 0-3/" + std::to_string(size));
  EXPECT_TRUE(response.header("ETag"));

  request.method = "HEAD";
  request.headers.clear();
  const HttpResponse head = client->send(request);
  EXPECT_EQ(head.status, 200);
  EXPECT_TRUE(head.body.empty());
  EXPECT_EQ(head.header("Content-Length"), std::to_string(size));

  request.method = "GET";
  request.url = server.url("no-such-file.parquet");
  EXPECT_EQ(client->send(request).status, 404);  // a status is returned, not thrown
}

TEST(HttpNginxTest, OpeningASmallFileCostsOneRequest) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  START_NGINX(server, parquetTestingDir() / "data");
  for (const char* name : {"alltypes_plain.parquet", "nested_structs.rust.parquet", "alltypes_tiny_pages.parquet"}) {
    auto object = HttpStorageProvider(testOptions()).open(server.url(name));
    io::StorageObject& storage = *object;
    auto file = parquet::ParquetFileReader::open(std::move(object));
    EXPECT_EQ(storage.requestCount(), 1u) << name;
    EXPECT_EQ(file->metadata().row_groups.empty(), false) << name;
  }
  EXPECT_EQ(server.requestCountReaching(3), 3u) << server.accessLog();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // nothing more arrives
  EXPECT_EQ(server.requestCount(), 3u) << server.accessLog();
}

TEST(HttpNginxTest, OpenObjectDispatchesHttpUrls) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  START_NGINX(server, parquetTestingDir() / "data");
  auto object = openObject(server.url("alltypes_plain.parquet"));
  EXPECT_EQ(object->size(), std::filesystem::file_size(parquetTestingDir() / "data/alltypes_plain.parquet"));
  EXPECT_EQ(object->uri(), server.url("alltypes_plain.parquet"));
  auto upper = openObject("HTTP://127.0.0.1:" + std::to_string(server.port()) + "/alltypes_plain.parquet");
  EXPECT_EQ(upper->size(), object->size());
  EXPECT_THROW(openObject("ftp://127.0.0.1/x.parquet"), IoError);
}

TEST(HttpNginxTest, AMissingFileIsAnIoErrorSayingNotFound) {
  START_NGINX(server, std::filesystem::temp_directory_path());
  const std::string url = server.url("quarry-no-such-file.parquet");
  try {
    parquet::ParquetFileReader::open(url);
    FAIL() << "no IoError";
  } catch (const IoError& e) {
    const std::string message = e.what();
    EXPECT_TRUE(message.starts_with(url + ": reading the last 65536 bytes failed: the server answered HTTP 404"))
        << message;
  }
}

TEST(HttpNginxTest, EmptyAndTinyFilesAreReadLikeLocalOnes) {
  const TempDir dir("quarry_http_root");
  ASSERT_TRUE(dir.valid());
  const std::filesystem::path& root = dir.path();
  std::ofstream(root / "empty.parquet").flush();
  std::ofstream(root / "tiny.parquet") << "PAR1";
  {
    START_NGINX(server, root);
    for (const char* name : {"empty.parquet", "tiny.parquet"}) {
      auto object = openObject(server.url(name));
      EXPECT_EQ(object->size(), std::filesystem::file_size(root / name)) << name;
      const std::string local = quarry::testing::renderRows(LocalStorageProvider().open((root / name).string()));
      const std::string remote = quarry::testing::renderRows(std::move(object));
      EXPECT_EQ(remote, local) << name;
      EXPECT_TRUE(remote.starts_with("ERROR")) << remote;
    }
  }
}

/// Files whose row groups decode to more than this are compared by footer only.
constexpr int64_t kMaxDecodedBytes = 256 << 20;

/// Returns the uncompressed size of a file's row groups per its footer (0 when unreadable).
int64_t decodedBytes(const std::filesystem::path& path) {
  try {
    int64_t total = 0;
    const auto file = parquet::ParquetFileReader::open(path.string());
    for (const auto& group : file->metadata().row_groups) {
      total += group.total_byte_size;
    }
    return total;
  } catch (const std::exception&) {
    return 0;
  }
}

TEST(HttpNginxTest, EveryParquetTestingFileReadsTheSameOverHttp) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto dir = parquetTestingDir() / "data";
  START_NGINX(server, dir);
  size_t files = 0;
  size_t rejected = 0;
  size_t footersOnly = 0;
  for (const auto& path : quarry::testing::filesUnder(dir, ".parquet")) {
    const std::string name = std::filesystem::relative(path, dir).string();
    ++files;
    if (decodedBytes(path) > kMaxDecodedBytes) {
      // Decoding such a file takes tens of seconds wherever its bytes come from; the
      // footer, the part HTTP storage serves differently (the cached tail), is compared.
      ++footersOnly;
      auto local = parquet::ParquetFileReader::open(path.string());
      auto remote = parquet::ParquetFileReader::open(HttpStorageProvider(testOptions()).open(server.url(name)));
      EXPECT_EQ(remote->metadata().num_rows, local->metadata().num_rows) << name;
      EXPECT_EQ(remote->metadata().row_groups.size(), local->metadata().row_groups.size()) << name;
      EXPECT_EQ(remote->storage().requestCount(), 1u) << name;
      continue;
    }
    std::string local = quarry::testing::renderRows(LocalStorageProvider().open(path.string()));
    // Rows are read with the default threads (concurrent range reads); which defect a
    // rejected file reports first depends on thread timing, so those are read with one.
    parquet::ReaderOptions options;
    if (local.find("ERROR") != std::string::npos) {
      ++rejected;
      options.threads = 1;
      local = quarry::testing::renderRows(LocalStorageProvider().open(path.string()), options);
    }
    std::string remote;
    try {
      remote = quarry::testing::renderRows(HttpStorageProvider(testOptions()).open(server.url(name)), options);
    } catch (const std::exception& e) {
      remote = std::string("open failed: ") + e.what();
    }
    EXPECT_EQ(remote, local) << name;
  }
  EXPECT_GT(files, 50u);
  std::printf("[          ] %zu files read over HTTP: %zu rejected as locally, %zu compared by footer only\n",
              files, rejected, footersOnly);
}

TEST(HttpNginxTest, EveryBadDataFileIsRejectedTheSameOverHttp) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto dir = parquetTestingDir() / "bad_data";
  START_NGINX(server, dir);
  size_t files = 0;
  parquet::ReaderOptions oneThread;
  oneThread.threads = 1;  // the first defect found, not the first thread to find one
  for (const auto& path : quarry::testing::filesUnder(dir, ".parquet")) {
    const std::string name = std::filesystem::relative(path, dir).string();
    const std::string local = quarry::testing::renderRows(LocalStorageProvider().open(path.string()), oneThread);
    const std::string remote =
        quarry::testing::renderRows(HttpStorageProvider(testOptions()).open(server.url(name)), oneThread);
    EXPECT_EQ(remote, local) << name;
    ++files;
  }
  EXPECT_GT(files, 0u);
}

TEST(HttpNginxTest, ServerDownIsAClearErrorWithinTheTimeout) {
  const uint16_t port = quarry::testing::pickFreePort();  // nobody listens there now
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/data/x.parquet";
  HttpStorageOptions options = testOptions();
  options.retry.maxAttempts = 3;
  const auto start = std::chrono::steady_clock::now();
  try {
    HttpStorageProvider(options).open(url);
    FAIL() << "no IoError";
  } catch (const IoError& e) {
    const std::string message = e.what();
    EXPECT_TRUE(message.starts_with(url + ": reading the last 65536 bytes failed (after 3 attempts): GET " + url))
        << message;
    EXPECT_NE(message.find("Could"), std::string::npos) << message;  // "Couldn't connect to server"
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

}  // namespace
}  // namespace quarry::io
