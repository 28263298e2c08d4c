#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "quarry/formats/parquet/column_chunk_reader.h"
#include "quarry/formats/parquet/page_pruning.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_reader.h"
#include "quarry/formats/predicate/filter_predicate.h"
#include "quarry/io/http_storage.h"
#include "quarry/io/local_storage.h"
#include "tests/formats/parquet/parquet_fixture_writer.h"
#include "tests/formats/parquet/pruning_fixture.h"
#include "tests/io/nginx_server.h"
#include "tests/support/fixture_file.h"
#include "tests/support/temp_dir.h"

// Request counts of row-group reads over HTTP, counted by nginx: a row group's
// projected chunks cost one request when they lie near each other, and page
// skipping fetches the surviving pages only.
namespace quarry::io {
namespace {

using namespace quarry::parquet::testing;
using quarry::testing::NginxServer;
using quarry::testing::TempDir;
using quarry::testing::writeFileBytes;
using P = parquet::FilterPredicate;
using parquet::PhysicalType;

#define START_NGINX(server, root) \
  QUARRY_SKIP_WITHOUT_NGINX();    \
  NginxServer server(root);       \
  ASSERT_TRUE(server.running()) << "nginx did not start: " << server.startError()

HttpStorageOptions testOptions() {
  HttpStorageOptions options;
  options.client.connectTimeout = std::chrono::milliseconds(2000);
  options.client.requestTimeout = std::chrono::milliseconds(10000);
  options.retry.baseDelay = std::chrono::milliseconds(1);
  options.retry.maxDelay = std::chrono::milliseconds(5);
  return options;
}

/// A byte range a request of the access log asked for: [first, last], or a suffix.
struct LoggedRange {
  uint64_t first = 0;
  uint64_t last = 0;
  bool suffix = false;
};

/// Returns the Range header of every request nginx logged, in order.
std::vector<LoggedRange> loggedRanges(const NginxServer& server, size_t expected) {
  server.requestCountReaching(expected);
  std::vector<LoggedRange> out;
  std::istringstream log(server.accessLog());
  for (std::string line; std::getline(log, line);) {
    const size_t at = line.find("\"bytes=");
    EXPECT_NE(at, std::string::npos) << line;
    if (at == std::string::npos) continue;
    const std::string spec = line.substr(at + 7, line.find('"', at + 1) - at - 7);
    const size_t dash = spec.find('-');
    LoggedRange range;
    if (dash == 0) {
      range.suffix = true;
    } else {
      range.first = std::stoull(spec.substr(0, dash));
      range.last = std::stoull(spec.substr(dash + 1));
    }
    out.push_back(range);
  }
  return out;
}

/// 20 INT32 columns c0..c19 in `groups` row groups of `rows` rows; c<k> of row r is r * 100 + k.
std::vector<uint8_t> wideFile(int groups, int32_t rows) {
  ParquetFixtureWriter w;
  for (int k = 0; k < 20; ++k)
    w.column(required(leafElement("c" + std::to_string(k), PhysicalType::INT32)));
  int32_t next = 0;
  for (int g = 0; g < groups; ++g) {
    std::vector<FixtureChunk> chunks;
    for (int32_t k = 0; k < 20; ++k) {
      std::vector<Raw> values;
      for (int32_t r = next; r < next + rows; ++r) values.push_back(i32(r * 100 + k));
      chunks.push_back(FixtureChunk{std::move(values), std::nullopt, std::nullopt});
    }
    w.rowGroup(std::move(chunks));
    next += rows;
  }
  return w.bytes();
}

/// Returns (c3, c7) of every row of `file`.
std::vector<std::pair<int32_t, int32_t>> readC3C7(parquet::ParquetFileReader& file) {
  std::vector<std::pair<int32_t, int32_t>> out;
  auto rows = file.rowReader(parquet::ColumnProjection::columns("c3", "c7"));
  while (rows->next()) out.emplace_back(rows->getInt("c3"), rows->getInt("c7"));
  return out;
}

TEST(HttpCoalescedReadsTest, TwoOfTwentyColumnsWithSmallGapsCostOneRequestPerRowGroup) {
  // 40 KB chunks: the 64 KiB tail read at open holds the footer, no chunk of c3 or c7.
  constexpr int kGroups = 3;
  TempDir dir("quarry_coalesce");
  const auto bytes = wideFile(kGroups, 10'000);
  writeFileBytes(dir.path() / "wide.parquet", bytes);
  START_NGINX(server, dir.path());

  auto local = parquet::ParquetFileReader::open((dir.path() / "wide.parquet").string());
  const auto expected = readC3C7(*local);
  ASSERT_EQ(expected.size(), 30'000u);
  EXPECT_EQ(expected[12'345], std::make_pair(1'234'503, 1'234'507));

  auto remote = parquet::ParquetFileReader::open(
      HttpStorageProvider(testOptions()).open(server.url("wide.parquet")));
  EXPECT_EQ(remote->storage().requestCount(), 1u);  // open
  EXPECT_EQ(readC3C7(*remote), expected);
  EXPECT_EQ(remote->storage().requestCount(), 1u + kGroups);

  // Each row group's request reads from c3's first byte to c7's last: c4..c6 are
  // read through (120 KB, far below latency x bandwidth), nothing else is.
  const auto ranges = loggedRanges(server, 1 + kGroups);
  ASSERT_EQ(ranges.size(), 1u + kGroups) << server.accessLog();
  EXPECT_TRUE(ranges[0].suffix);
  for (int g = 0; g < kGroups; ++g) {
    const auto& group = local->metadata().row_groups[static_cast<size_t>(g)];
    const auto c3 = parquet::columnChunkRange(*group.columns[3].meta_data);
    const auto c7 = parquet::columnChunkRange(*group.columns[7].meta_data);
    EXPECT_EQ(ranges[1 + static_cast<size_t>(g)].first, c3.offset) << "row group " << g;
    EXPECT_EQ(ranges[1 + static_cast<size_t>(g)].last, c7.offset + c7.length - 1)
        << "row group " << g;
  }
}

TEST(HttpCoalescedReadsTest, GapsLongerThanLatencyTimesBandwidthAreSeparateRequests) {
  constexpr int kGroups = 2;
  TempDir dir("quarry_coalesce");
  writeFileBytes(dir.path() / "wide.parquet", wideFile(kGroups, 10'000));
  START_NGINX(server, dir.path());
  HttpStorageOptions options = testOptions();
  options.coalesce.latency = std::chrono::microseconds(0);  // no gap is worth reading
  options.coalesce.maxConcurrentRequests = 2;
  auto local = parquet::ParquetFileReader::open((dir.path() / "wide.parquet").string());
  auto remote = parquet::ParquetFileReader::open(
      HttpStorageProvider(options).open(server.url("wide.parquet")));
  EXPECT_EQ(readC3C7(*remote), readC3C7(*local));
  EXPECT_EQ(remote->storage().requestCount(), 1u + 2 * kGroups);
  EXPECT_EQ(server.requestCountReaching(1 + 2 * kGroups), 1u + 2 * kGroups) << server.accessLog();
}

TEST(HttpCoalescedReadsTest, PageHeaderStatisticsCostNoExtraRequest) {
  // x records its pages' bounds in their headers only (no page index), y has no
  // index either: x's chunk, fetched for its headers, and y's, read whole in any
  // case, come in one request per row group, as they would with no statistics.
  constexpr int kGroups = 2;
  ParquetFixtureWriter w;
  w.column(required(leafElement("x", PhysicalType::INT32)))
      .column(required(leafElement("y", PhysicalType::INT32)));
  for (int g = 0; g < kGroups; ++g) {
    std::vector<Raw> x;
    std::vector<Raw> y;
    // 160 KB chunks: the 64 KiB tail read at open holds none of group 0's.
    for (int32_t r = 0; r < 40'000; ++r) {
      x.push_back(i32(g * 40'000 + r));
      y.push_back(i32(-r));
    }
    FixtureChunk headers = pagedInt32(x, {10'000, 10'000, 10'000, 10'000});
    for (FixturePage& page : headers.pageIndex) {
      parquet::Statistics s;
      s.min_value = page.min;
      s.max_value = page.max;
      s.null_count = 0;
      page.headerStatistics = s;
    }
    headers.offsetIndex = false;
    w.rowGroup({headers, FixtureChunk{y, std::nullopt, std::nullopt}});
  }
  TempDir dir("quarry_coalesce");
  writeFileBytes(dir.path() / "headers.parquet", w.bytes());
  START_NGINX(server, dir.path());
  auto remote = parquet::ParquetFileReader::open(
      HttpStorageProvider(testOptions()).open(server.url("headers.parquet")));
  auto rows = remote->rowReader(parquet::ColumnProjection::columns("y"), P::eq("x", 15'000));
  int returned = 0;
  while (rows->next()) {
    EXPECT_EQ(rows->getInt("y"), -15'000);
    ++returned;
  }
  EXPECT_EQ(returned, 1);
  EXPECT_GT(rows->metrics().pagesSkipped, 0);  // x's pages other than [10000, 20000)
  // The open, then one request a row group (x and y together; group 1 is ruled
  // out by its page headers, which are only known once its chunk is read).
  EXPECT_EQ(remote->storage().requestCount(), 1u + kGroups);
}

/// Of column x, 100 pages of 1,000 rows (x = 3 x row), of y 50 pages of 2,000
/// rows (y = row): pages of the two columns end at different rows.
std::vector<uint8_t> pagedFile() {
  constexpr int32_t kRows = 100'000;
  ParquetFixtureWriter w;
  w.column(required(leafElement("x", PhysicalType::INT32)))
      .column(required(leafElement("y", PhysicalType::INT32)));
  FixtureChunk x;
  FixtureChunk y;
  for (int32_t r = 0; r < kRows; ++r) {
    x.values.push_back(i32(r * 3));
    y.values.push_back(i32(r));
  }
  for (int32_t p = 0; p < 100; ++p) {
    x.pageIndex.push_back(FixturePage{1'000, i32(p * 3'000), i32(p * 3'000 + 2'997), 0});
  }
  for (int32_t p = 0; p < 50; ++p) {
    y.pageIndex.push_back(FixturePage{2'000, i32(p * 2'000), i32(p * 2'000 + 1'999), 0});
  }
  w.rowGroup({x, y});
  return w.bytes();
}

/// The byte ranges [offset, end) of the pages of `leaf` in row group 0 that hold none of rows
/// [first, end).
std::vector<std::pair<uint64_t, uint64_t>> skippedPages(parquet::ParquetFileReader& file,
                                                        size_t leaf, int64_t first, int64_t end,
                                                        int64_t groupRows) {
  const parquet::SchemaNode* node = &file.schema().leaf(leaf);
  const auto index = parquet::readPageIndex(file.storage(), file.metadata(), 0, {&node, 1}, {});
  const auto& pages = index.leaves.at(0).offsetIndex.value().page_locations;
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (size_t i = 0; i < pages.size(); ++i) {
    const int64_t pageEnd = i + 1 < pages.size() ? pages[i + 1].first_row_index : groupRows;
    if (pageEnd > first && pages[i].first_row_index < end) continue;
    out.emplace_back(pages[i].offset, pages[i].offset + pages[i].compressed_page_size);
  }
  return out;
}

TEST(HttpCoalescedReadsTest, APageIndexPrunedReadFetchesOnlyTheSurvivingPages) {
  TempDir dir("quarry_coalesce");
  writeFileBytes(dir.path() / "paged.parquet", pagedFile());
  START_NGINX(server, dir.path());
  // Rows 50,000..50,099: page 50 of x, page 25 of y.
  const auto filter = P::and_(P::gtEq("x", 150'000), P::lt("x", 150'300));
  auto local = parquet::ParquetFileReader::open((dir.path() / "paged.parquet").string());
  std::vector<std::pair<uint64_t, uint64_t>> skipped =
      skippedPages(*local, 0, 50'000, 50'100, 100'000);
  const auto skippedY = skippedPages(*local, 1, 50'000, 50'100, 100'000);
  ASSERT_EQ(skipped.size(), 99u);
  ASSERT_EQ(skippedY.size(), 49u);
  skipped.insert(skipped.end(), skippedY.begin(), skippedY.end());

  auto readRows = [&](parquet::ParquetFileReader& file) {
    std::vector<std::pair<int32_t, int32_t>> out;
    auto rows = file.rowReader(parquet::ColumnProjection::columns("x", "y"), filter);
    while (rows->next()) out.emplace_back(rows->getInt("x"), rows->getInt("y"));
    EXPECT_EQ(rows->metrics().pagesSkipped, 99 + 49);
    return out;
  };
  const auto expected = readRows(*local);
  ASSERT_EQ(expected.size(), 100u);
  EXPECT_EQ(expected.front(), std::make_pair(150'000, 50'000));

  // The two surviving pages lie 200 KB apart, which the default policy would read
  // through; without gap merging, each is a request of its own and no skipped byte
  // is fetched.
  HttpStorageOptions options = testOptions();
  options.coalesce.latency = std::chrono::microseconds(0);
  auto remote = parquet::ParquetFileReader::open(
      HttpStorageProvider(options).open(server.url("paged.parquet")));
  EXPECT_EQ(readRows(*remote), expected);
  const size_t requests = remote->storage().requestCount();
  const auto ranges = loggedRanges(server, requests);
  ASSERT_EQ(ranges.size(), requests) << server.accessLog();
  size_t pageRequests = 0;
  for (const LoggedRange& r : ranges) {
    if (r.suffix) continue;
    for (const auto& [from, to] : skipped) {
      EXPECT_TRUE(r.last < from || r.first >= to)
          << "bytes " << r.first << "-" << r.last << " touch a skipped page [" << from << ", " << to
          << ")";
    }
    const auto y = parquet::columnChunkRange(*local->metadata().row_groups[0].columns[1].meta_data);
    if (r.first < y.offset + y.length) {
      ++pageRequests;
    }
  }
  EXPECT_EQ(pageRequests, 2u) << server.accessLog();
}

TEST(HttpCoalescedReadsTest, WithTheDefaultPolicyOneColumnsSurvivingPagesAreExactlyOneRequest) {
  TempDir dir("quarry_coalesce");
  writeFileBytes(dir.path() / "paged.parquet", pagedFile());
  START_NGINX(server, dir.path());
  auto local = parquet::ParquetFileReader::open((dir.path() / "paged.parquet").string());
  const parquet::SchemaNode* x = &local->schema().leaf(0);
  const auto index = parquet::readPageIndex(local->storage(), local->metadata(), 0, {&x, 1}, {});
  const auto& pages = index.leaves.at(0).offsetIndex.value().page_locations;

  // Rows 50,500..51,499: pages 50 and 51 of x, adjacent.
  auto remote = parquet::ParquetFileReader::open(
      HttpStorageProvider(testOptions()).open(server.url("paged.parquet")));
  auto rows = remote->rowReader(parquet::ColumnProjection::columns("x"),
                                P::and_(P::gtEq("x", 151'500), P::lt("x", 154'500)));
  int64_t count = 0;
  while (rows->next()) ++count;
  EXPECT_EQ(count, 1'000);
  const auto ranges = loggedRanges(server, remote->storage().requestCount());
  std::vector<LoggedRange> data;
  for (const LoggedRange& r : ranges) {
    if (!r.suffix &&
        r.first < static_cast<uint64_t>(pages.back().offset + pages.back().compressed_page_size)) {
      data.push_back(r);
    }
  }
  ASSERT_EQ(data.size(), 1u) << server.accessLog();
  EXPECT_EQ(data[0].first, static_cast<uint64_t>(pages[50].offset));
  EXPECT_EQ(data[0].last,
            static_cast<uint64_t>(pages[51].offset + pages[51].compressed_page_size - 1));
}

}  // namespace
}  // namespace quarry::io
