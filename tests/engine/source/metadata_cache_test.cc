// MetadataCache (engine/source/metadata_cache.h): its file's encoding, and the
// resolver reusing listings and footers only while the files and directories
// keep their stamps. Fixtures: tests/fixtures/engine_source (schema_a and
// schema_a2 are both 533 bytes: id 1 and id 2; schema_d: id 5).
#include "quarry/engine/source/metadata_cache.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iterator>
#include <thread>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "quarry/common/error.h"
#include "quarry/common/thread_pool.h"
#include "quarry/engine/source/external_source_resolver.h"
#include "quarry/io/glob.h"
#include "tests/engine/source/source_test_support.h"
#include "tests/support/testdata.h"

namespace quarry::engine {
namespace {

using testing::fixture;

/// The secret the file-format tests key their files with.
const MetadataCache::Secret& testSecret() {
  static const MetadataCache::Secret secret = [] {
    MetadataCache::Secret s{};
    for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<uint8_t>(i * 29 + 3);
    return s;
  }();
  return secret;
}

SourceMetadata sampleMetadata() {
  SourceMetadata m;
  m.schema = {{"id", DataType::int64()},
              {"amount", DataType::decimal(12, 4)},
              {"ts", DataType::timestamp(TimeUnit::kNanos, false)},
              {"tags", DataType::list(DataType::string())}};
  m.unreadColumns = {{"m", "a MAP"}};
  auto statistics = std::make_shared<SourceStatistics>();
  statistics->rowCount = 10;
  statistics->columns["id"] = ColumnStatistics{0, int64_t{-3}, int64_t{99}};
  statistics->columns["ts"] = ColumnStatistics{2, Instant{5, 7}, Instant{9, 0}};
  statistics->columns["amount"] = ColumnStatistics{std::nullopt, std::nullopt, 1.5};
  m.statistics = statistics;
  m.fileSize = 4096;
  FileSplit whole;
  whole.uri = "/data/x.parquet";
  whole.format = "parquet";
  whole.start = 4;
  whole.length = 4000;
  whole.units = 1;
  whole.fileSize = 4096;
  whole.fileVersion = "mtime:123";
  whole.statistics = statistics;
  FileSplit own = whole;
  own.statistics = std::make_shared<SourceStatistics>(SourceStatistics{3, {}});
  own.rows = {{0, 2}, {5, 6}};
  FileSplit none = whole;
  none.statistics = nullptr;
  m.splits = {whole, own, none};
  return m;
}

TEST(MetadataCacheFile, EncodesAndDecodesEveryField) {
  const SourceMetadata m = sampleMetadata();
  const std::vector<uint8_t> metadataBytes = MetadataCache::encodeMetadata(m);
  const SourceMetadata back = MetadataCache::decodeMetadata(metadataBytes);
  EXPECT_EQ(back.schema, m.schema);
  ASSERT_EQ(back.unreadColumns.size(), 1u);
  EXPECT_EQ(back.unreadColumns[0].what, "a MAP");
  ASSERT_TRUE(back.statistics);
  EXPECT_EQ(*back.statistics, *m.statistics);
  EXPECT_EQ(back.fileSize, 4096u);
  EXPECT_EQ(back.splits, m.splits);
  // A split whose statistics are the file's shares them again after decoding.
  EXPECT_EQ(back.splits[0].statistics, back.statistics);

  MetadataCache::Contents contents;
  contents.key = "the key";
  io::LocalStamp directory{1, 2, 4096, 10, 11, 040755};
  contents.listings.push_back({"data/*.parquet", {{{"data/", directory}}, {"data/x.parquet"}, 0}});
  // A remote listing: no directory, the time it was listed.
  contents.listings.push_back({"s3://b/*.orc", {{}, {"s3://b/y.orc"}, 1'700'000'000'000'000'000}});
  MetadataCache::FileEntry file{
      "data/x.parquet", {1, 3, 4096, 12, 13, 0100644}, {}, "parquet", metadataBytes};
  // A remote object's entry: its size, and the ETag its listing gave.
  io::LocalStamp sized;
  sized.size = 512;
  contents.files = {file, MetadataCache::FileEntry{"s3://b/y.orc", sized, "\"e1\"", "orc", {}}};
  const std::vector<uint8_t> bytes = MetadataCache::encode(contents, testSecret());
  const MetadataCache::Contents decoded = MetadataCache::decode(bytes, testSecret());
  EXPECT_EQ(decoded.key, "the key");
  ASSERT_EQ(decoded.listings.size(), 2u);
  EXPECT_EQ(decoded.listings[0].second.listedAtNs, 0);
  EXPECT_EQ(decoded.listings[1].first, "s3://b/*.orc");
  EXPECT_EQ(decoded.listings[1].second.listedAtNs, 1'700'000'000'000'000'000);
  EXPECT_EQ(decoded.listings[1].second.matches, std::vector<std::string_view>{"s3://b/y.orc"});
  EXPECT_EQ(decoded.listings[0].first, "data/*.parquet");
  EXPECT_EQ(decoded.listings[0].second.directories, contents.listings[0].second.directories);
  EXPECT_EQ(decoded.listings[0].second.matches, std::vector<std::string_view>{"data/x.parquet"});
  // Files keep their order: the clause's, which makes finding one a comparison.
  ASSERT_EQ(decoded.files.size(), 2u);
  const MetadataCache::FileEntry& entry = decoded.files[0];
  EXPECT_EQ(entry.uri, "data/x.parquet");
  EXPECT_EQ(entry.stamp, file.stamp);
  EXPECT_EQ(entry.format, "parquet");
  EXPECT_TRUE(std::equal(entry.metadata.begin(), entry.metadata.end(), metadataBytes.begin(),
                         metadataBytes.end()));
  EXPECT_TRUE(entry.version.empty());
  EXPECT_EQ(decoded.files[1].uri, "s3://b/y.orc");
  EXPECT_EQ(decoded.files[1].stamp.size, 512u);
  EXPECT_EQ(decoded.files[1].version, "\"e1\"");
  EXPECT_EQ(decoded.files[1].format, "orc");
  // Decoding copies nothing: every view points into the bytes decoded.
  const auto inBytes = [&](std::string_view view) {
    const auto* p = reinterpret_cast<const uint8_t*>(view.data());
    return p >= bytes.data() && p + view.size() <= bytes.data() + bytes.size();
  };
  EXPECT_TRUE(inBytes(decoded.key));
  EXPECT_TRUE(inBytes(decoded.files[0].uri));
  EXPECT_TRUE(inBytes(decoded.listings[0].second.matches[0]));
}

std::string corruptionOf(std::span<const uint8_t> bytes) {
  try {
    MetadataCache::decode(bytes, testSecret());
  } catch (const CorruptFile& e) {
    return e.what();
  }
  return "(decoded)";
}

// decode "throw[s] CorruptFile naming the field for anything [it does] not accept:
// a wrong magic, version, length or keyed hash, a truncated or out-of-range field, a
// duplicate pattern or column, trailing bytes."
TEST(MetadataCacheFile, RefusesBytesItDidNotWrite) {
  MetadataCache::Contents contents;
  contents.key = "k";
  contents.files.push_back(MetadataCache::FileEntry{"a.parquet", {}, {}, "parquet", {}});
  const std::vector<uint8_t> good = MetadataCache::encode(contents, testSecret());
  EXPECT_NO_THROW(MetadataCache::decode(good, testSecret()));

  std::vector<uint8_t> bad = good;
  bad[0] = 'X';
  EXPECT_NE(corruptionOf(bad).find("not a quarry metadata cache"), std::string::npos);
  bad = good;
  bad[8] = 9;
  EXPECT_NE(corruptionOf(bad).find("unknown version 9"), std::string::npos);
  bad = good;
  bad[8] = 2;  // the format before keyed hashes
  EXPECT_NE(corruptionOf(bad).find("unknown version 2"), std::string::npos);
  bad = good;
  bad.pop_back();
  EXPECT_NE(corruptionOf(bad).find("length"), std::string::npos);
  bad = good;
  bad.back() ^= 1;
  EXPECT_NE(corruptionOf(bad).find("keyed hash mismatch"), std::string::npos);
  EXPECT_NE(corruptionOf(std::span<const uint8_t>(good).first(10)).find("truncated header"),
            std::string::npos);

  // Past a valid header: the payload's own fields.
  constexpr ptrdiff_t kHeader = 8 + 8 + 8 + 16;  // magic, version, length, keyed hash
  std::vector<uint8_t> payload(good.begin() + kHeader, good.end());
  payload.push_back(0);
  EXPECT_NE(corruptionOf(MetadataCache::frame(payload, testSecret())).find("1 trailing bytes"),
            std::string::npos);
  payload.pop_back();
  payload.resize(payload.size() - 3);
  EXPECT_NE(corruptionOf(MetadataCache::frame(payload, testSecret())).find("metadata cache: truncated"),
            std::string::npos);
  std::vector<uint8_t> huge(good.begin() + kHeader, good.begin() + kHeader + 8 + 1);  // the key "k"
  for (int i = 0; i < 8; ++i) huge.push_back(0xff);  // a listing count no file could hold
  EXPECT_NE(corruptionOf(MetadataCache::frame(huge, testSecret())).find("listing count"), std::string::npos);
  MetadataCache::Contents twice = contents;
  twice.listings = {{"*.parquet", {}}, {"*.parquet", {}}};
  EXPECT_NE(corruptionOf(MetadataCache::encode(twice, testSecret())).find("duplicate pattern"),
            std::string::npos);

  std::vector<uint8_t> metadata = MetadataCache::encodeMetadata(sampleMetadata());
  metadata[8 + 8 + 2] = 200;  // the first column's type kind
  try {
    MetadataCache::decodeMetadata(metadata);
    ADD_FAILURE() << "decoded an unknown type kind";
  } catch (const CorruptFile& e) {
    EXPECT_NE(std::string(e.what()).find("unknown type kind 200"), std::string::npos) << e.what();
  }
}

/// Files under a temporary directory, settled (older than the stamps' margin)
/// before each test's first query, and a cache directory of their own.
class MetadataCacheTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = std::filesystem::temp_directory_path() /
            ("quarry-metadata-cache-" + std::to_string(::getpid()));
    std::filesystem::remove_all(root_);
    copy("schema_a.parquet", "data/p=1/x.parquet");
    copy("schema_a2.parquet", "data/p=2/x.parquet");
    copy("schema_a.parquet", "blobs/first");  // no extension: the format comes from the magic
    copy("schema_a.parquet", "shift/p=2/x.parquet");
    copy("schema_a2.parquet", "shift/p=3/x.parquet");
    copy("schema_a.parquet", "twice/p=1/x.parquet");
    copy("schema_a2.parquet", "twice/p=2/x.parquet");
    copy("schema_a.parquet", "listed/p=1/x.parquet");
    copy("schema_a2.parquet", "listed/p=2/x.parquet");
    copy("schema_a.parquet", "forged/x.parquet");
    copy("schema_a.parquet", "fifo/x.parquet");
    copy("schema_a.parquet", "open/x.parquet");
    settle();
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(root_); }

  static void copy(const std::string& fixtureName, const std::string& to) {
    std::filesystem::create_directories((root_ / to).parent_path());
    std::filesystem::copy_file(fixture(fixtureName), root_ / to,
                               std::filesystem::copy_options::overwrite_existing);
  }
  static void settle() {
    std::this_thread::sleep_for(std::chrono::nanoseconds(io::kSettleMarginNs) +
                                std::chrono::milliseconds(100));
  }
  static std::string at(const std::string& relative) { return (root_ / relative).generic_string(); }

  ResolvedSource resolve(const std::string& pattern) {
    ResolveOptions options;
    options.metadataCacheDirectory =
        at("cache/" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    return ExternalSourceResolver::resolve({pattern}, options);
  }
  static std::vector<bool> fromCache(const ResolvedSource& source) {
    std::vector<bool> out;
    for (const ResolvedFile& file : source.files) out.push_back(file.metadata.fromMetadataCache);
    return out;
  }
  static int64_t maxId(const ResolvedFile& file) {
    return std::get<int64_t>(*file.metadata.statistics->find("id")->max);
  }
  std::vector<std::filesystem::path> cacheFiles() {
    std::vector<std::filesystem::path> out;
    const auto dir =
        root_ / "cache" / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    if (!std::filesystem::exists(dir)) return out;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().filename() != "secret") out.push_back(entry.path());
    }
    return out;
  }
  std::filesystem::path cacheDirectory() const {
    return root_ / "cache" / ::testing::UnitTest::GetInstance()->current_test_info()->name();
  }
  /// The secret the resolver keyed this test's cache with.
  MetadataCache::Secret secret() const {
    MetadataCache::Secret out{};
    std::ifstream in(cacheDirectory() / "secret", std::ios::binary);
    in.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(out.size()));
    EXPECT_EQ(in.gcount(), static_cast<std::streamsize>(out.size()));
    return out;
  }

  static std::filesystem::path root_;
};

std::filesystem::path MetadataCacheTest::root_;

// "Nothing is reused unless a fresh look proves it unchanged": the second query
// takes every footer from the cache, equal to what the files gave; a file
// rewritten in place (same size, same inode) is read again, as are a directory
// given a new file and one that lost a file.
TEST_F(MetadataCacheTest, ReusesFootersAndListingsOnlyWhileNothingChanged) {
  const std::string pattern = at("data/*/*.parquet");
  const ResolvedSource first = resolve(pattern);
  ASSERT_EQ(first.files.size(), 2u);
  EXPECT_EQ(fromCache(first), (std::vector<bool>{false, false}));
  EXPECT_GT(first.files[0].metadata.requests, 0u);
  ASSERT_EQ(cacheFiles().size(), 1u);
  EXPECT_EQ(cacheFiles()[0].extension(), ".qmc");

  const ResolvedSource second = resolve(pattern);
  ASSERT_EQ(second.files.size(), 2u);
  EXPECT_EQ(fromCache(second), (std::vector<bool>{true, true}));
  EXPECT_EQ(second.schema, first.schema);
  for (size_t i = 0; i < 2; ++i) {
    const SourceMetadata& a = first.files[i].metadata;
    const SourceMetadata& b = second.files[i].metadata;
    EXPECT_EQ(second.files[i].uri, first.files[i].uri);
    EXPECT_EQ(second.files[i].reader->name(), "parquet");
    EXPECT_EQ(b.requests, 0u);
    EXPECT_EQ(b.bytesRead, 0u);
    EXPECT_EQ(b.schema, a.schema);
    EXPECT_EQ(b.fileSize, a.fileSize);
    EXPECT_EQ(*b.statistics, *a.statistics);
    EXPECT_EQ(b.splits, a.splits);
  }
  EXPECT_EQ(maxId(second.files[0]), 1);

  // Rewritten in place with other rows of the same size: the times tell.
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  {
    std::ifstream in(fixture("schema_a2.parquet"), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream out(at("data/p=1/x.parquet"), std::ios::binary | std::ios::in | std::ios::out);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  const ResolvedSource rewritten = resolve(pattern);
  EXPECT_EQ(fromCache(rewritten), (std::vector<bool>{false, true}));
  EXPECT_EQ(maxId(rewritten.files[0]), 2);
  // Changed less than the margin ago: not recorded, read again next time.
  EXPECT_EQ(fromCache(resolve(pattern)), (std::vector<bool>{false, true}));

  copy("schema_d.parquet", "data/p=3/x.parquet");
  const ResolvedSource added = resolve(pattern);
  ASSERT_EQ(added.files.size(), 3u);
  EXPECT_EQ(added.files[2].uri, at("data/p=3/x.parquet"));
  EXPECT_EQ(maxId(added.files[2]), 5);

  std::filesystem::remove(root_ / "data/p=2/x.parquet");
  const ResolvedSource removed = resolve(pattern);
  ASSERT_EQ(removed.files.size(), 2u);
  EXPECT_EQ(removed.files[1].uri, at("data/p=3/x.parquet"));
}

// "the cache keeps its files in [the clause's] order, so that finding one is a
// comparison (an index is built the first time a file is elsewhere)": a new file
// that sorts first moves every other one, and they are still recalled.
TEST_F(MetadataCacheTest, FindsFilesTheClauseNowListsElsewhere) {
  const std::string pattern = at("shift/*/*.parquet");
  EXPECT_EQ(fromCache(resolve(pattern)), (std::vector<bool>{false, false}));
  EXPECT_EQ(fromCache(resolve(pattern)), (std::vector<bool>{true, true}));
  copy("schema_d.parquet", "shift/p=1/x.parquet");
  const ResolvedSource moved = resolve(pattern);
  ASSERT_EQ(moved.files.size(), 3u);
  EXPECT_EQ(fromCache(moved), (std::vector<bool>{false, true, true}));
  EXPECT_EQ(maxId(moved.files[0]), 5);
  EXPECT_EQ(maxId(moved.files[1]), 1);
  EXPECT_EQ(maxId(moved.files[2]), 2);
}

// "Takes, in one loop on `pool` (or here when null), everything the cache will be
// asked about ... a second caller for the same entry (a file the clause lists
// twice) decodes it again": with one thread or two, a clause naming a file twice
// recalls it twice, each time with the metadata its footer gave.
TEST_F(MetadataCacheTest, PreparesOnAPoolOrHereAndHandsOutEachFileAsOftenAsListed) {
  const std::vector<std::string> patterns = {at("twice/*/*.parquet"), at("twice/p=1/x.parquet"),
                                             at("blobs/*")};
  for (const int threads : {1, 2}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    ResolveOptions options;
    options.threads = threads;
    options.metadataCacheDirectory =
        at("cache/" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
           std::to_string(threads));
    const ResolvedSource read = ExternalSourceResolver::resolve(patterns, options);
    const ResolvedSource recalled = ExternalSourceResolver::resolve(patterns, options);
    ASSERT_GE(read.files.size(), 3u);
    ASSERT_EQ(recalled.files.size(), read.files.size());
    EXPECT_EQ(recalled.files[0].uri, recalled.files[read.files.size() - 2].uri)
        << "the file the clause names twice";
    for (size_t i = 0; i < read.files.size(); ++i) {
      SCOPED_TRACE(read.files[i].uri);
      EXPECT_FALSE(read.files[i].metadata.fromMetadataCache);
      EXPECT_TRUE(recalled.files[i].metadata.fromMetadataCache);
      EXPECT_EQ(recalled.files[i].uri, read.files[i].uri);
      EXPECT_EQ(MetadataCache::encodeMetadata(recalled.files[i].metadata),
                MetadataCache::encodeMetadata(read.files[i].metadata));
    }
  }
  // A new first file moves the others: both mentions of p=1 now find its first
  // entry through the index, and each still gets the whole of its metadata.
  copy("schema_d.parquet", "twice/p=0/x.parquet");
  ResolveOptions options;
  options.metadataCacheDirectory =
      at("cache/" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
         "2");
  const ResolvedSource moved = ExternalSourceResolver::resolve(patterns, options);
  ASSERT_EQ(moved.files.size(), 5u);
  EXPECT_EQ(fromCache(moved), (std::vector<bool>{false, true, true, true, true}));
  EXPECT_EQ(moved.files[1].uri, moved.files[3].uri);
  EXPECT_EQ(MetadataCache::encodeMetadata(moved.files[3].metadata),
            MetadataCache::encodeMetadata(moved.files[1].metadata));
  EXPECT_EQ(maxId(moved.files[0]), 5);
  EXPECT_EQ(maxId(moved.files[1]), 1);
  EXPECT_EQ(maxId(moved.files[3]), 1);
}

// "recall then compares the stamps taken here": a listing is recalled, prepared or
// not, while its directories keep their stamps, and not once one of them changed.
TEST_F(MetadataCacheTest, RecallsAListingWhileItsDirectoriesKeepTheirStamps) {
  const std::string pattern = at("listed/*/*.parquet");
  const std::string dir =
      at("cache/" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
  io::GlobListing listing;
  const std::vector<std::string> matches = io::globLocal(pattern, nullptr, &listing);
  ASSERT_EQ(matches.size(), 2u);
  ASSERT_EQ(listing.directories.size(), 3u) << "listed/, listed/p=1/, listed/p=2/, all settled";
  {
    MetadataCache cache(dir, "key");
    cache.remember(pattern, listing, matches);
    const std::vector<std::string_view> none;
    cache.save(none);
  }
  ThreadPool pool(2);
  for (ThreadPool* on : {static_cast<ThreadPool*>(nullptr), &pool}) {
    MetadataCache prepared(dir, "key");
    prepared.prepare(on);
    EXPECT_EQ(prepared.recall(pattern, nullptr), matches);
    MetadataCache unprepared(dir, "key");
    EXPECT_EQ(unprepared.recall(pattern, nullptr), matches);
  }
  copy("schema_d.parquet", "listed/p=2/y.parquet");
  MetadataCache prepared(dir, "key");
  prepared.prepare(&pool);
  EXPECT_EQ(prepared.recall(pattern, nullptr), std::nullopt);
  MetadataCache unprepared(dir, "key");
  EXPECT_EQ(unprepared.recall(pattern, nullptr), std::nullopt);
}

// "A file that is ... corrupt (its checksum or any field) is an empty cache: the
// clause is resolved from the files and the cache rewritten."
TEST_F(MetadataCacheTest, ACorruptCacheIsReadAgainFromTheFiles) {
  const std::string pattern = at("blobs/*");
  EXPECT_EQ(fromCache(resolve(pattern)), std::vector<bool>{false});
  const ResolvedSource cached = resolve(pattern);
  EXPECT_EQ(fromCache(cached), std::vector<bool>{true});
  // Named by neither option nor extension: the format recorded, not the magic, says Parquet.
  EXPECT_EQ(cached.files[0].reader->name(), "parquet");

  ASSERT_EQ(cacheFiles().size(), 1u);
  const std::filesystem::path file = cacheFiles()[0];
  std::string bytes;
  {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  bytes[bytes.size() / 2] ^= 0x40;
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  const ResolvedSource again = resolve(pattern);
  EXPECT_EQ(fromCache(again), std::vector<bool>{false});
  EXPECT_EQ(again.files[0].metadata.statistics->rowCount, 1);
  EXPECT_EQ(fromCache(resolve(pattern)), std::vector<bool>{true}) << "rewritten whole";
}

// "At most kMaxFiles clauses are kept; saving evicts the least recently written
// (and temporary files an interrupted save left over an hour before)."
TEST_F(MetadataCacheTest, SavingKeepsAtMostTheNewestClauses) {
  const std::filesystem::path dir =
      root_ / "cache" / ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::filesystem::create_directories(dir);
  const auto old = std::filesystem::file_time_type::clock::now() - std::chrono::hours(2);
  for (size_t i = 0; i < MetadataCache::kMaxFiles + 10; ++i) {
    const std::filesystem::path file = dir / ("old" + std::to_string(i) + ".qmc");
    std::ofstream(file) << "x";
    std::filesystem::last_write_time(file, old + std::chrono::seconds(i));
  }
  std::ofstream(dir / ".qmc-abandoned") << "x";
  std::filesystem::last_write_time(dir / ".qmc-abandoned", old);
  std::ofstream(dir / ".qmc-inflight") << "x";  // another query's save, under way

  EXPECT_EQ(fromCache(resolve(at("blobs/*"))), std::vector<bool>{false});
  const std::vector<std::filesystem::path> left = cacheFiles();
  size_t caches = 0;
  for (const auto& file : left) caches += file.extension() == ".qmc" ? 1 : 0;
  EXPECT_EQ(caches, MetadataCache::kMaxFiles);
  EXPECT_FALSE(std::filesystem::exists(dir / "old0.qmc")) << "the oldest go first";
  EXPECT_FALSE(std::filesystem::exists(dir / "old10.qmc"));
  EXPECT_TRUE(std::filesystem::exists(dir / "old11.qmc"));
  EXPECT_FALSE(std::filesystem::exists(dir / ".qmc-abandoned"));
  EXPECT_TRUE(std::filesystem::exists(dir / ".qmc-inflight"));
  EXPECT_EQ(fromCache(resolve(at("blobs/*"))), std::vector<bool>{true}) << "the new clause is kept";
}

std::vector<uint8_t> readBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

constexpr size_t kHeaderBytes = 8 + 8 + 8 + 16;  // magic, version, length, keyed hash

/// A cache file around `payload` as the format lays it out, with a bare XXH3-128
/// checksum where the keyed hash goes: what anyone can compute.
std::vector<uint8_t> bareFrame(std::span<const uint8_t> payload) {
  std::vector<uint8_t> out;
  auto u64 = [&out](uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  for (char c : std::string_view("QUARRYMC")) out.push_back(static_cast<uint8_t>(c));
  u64(3);
  u64(payload.size());
  const XXH128_hash_t hash = XXH3_128bits(payload.data(), payload.size());
  u64(hash.low64);
  u64(hash.high64);
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

/// The cache file `bytes` (keyed with `secret`) with every file claiming ids up
/// to `maxId`, framed by `frame`: a forged entry.
std::vector<uint8_t> forged(std::span<const uint8_t> bytes, const MetadataCache::Secret& secret,
                            int64_t maxId,
                            const std::function<std::vector<uint8_t>(std::span<const uint8_t>)>& frame) {
  MetadataCache::Contents contents = MetadataCache::decode(bytes, secret);
  std::deque<std::vector<uint8_t>> blobs;
  for (MetadataCache::FileEntry& file : contents.files) {
    SourceMetadata metadata = MetadataCache::decodeMetadata(file.metadata);
    auto statistics = std::make_shared<SourceStatistics>(*metadata.statistics);
    statistics->columns["id"].max = maxId;
    metadata.statistics = statistics;
    file.metadata = blobs.emplace_back(MetadataCache::encodeMetadata(metadata));
  }
  const std::vector<uint8_t> keyed = MetadataCache::encode(contents, secret);
  return frame(std::span(keyed).subspan(kHeaderBytes));
}

// "authenticate entries with a keyed hash": an entry whose bare checksum is valid
// (anyone can compute one) changes no answer; the same forgery keyed with the
// user's secret would, which only the secret's reader can make.
TEST_F(MetadataCacheTest, AForgedEntryWithAValidBareChecksumIsRejected) {
  const std::string pattern = at("forged/*.parquet");
  EXPECT_EQ(fromCache(resolve(pattern)), std::vector<bool>{false});
  ASSERT_EQ(cacheFiles().size(), 1u);
  const std::filesystem::path file = cacheFiles()[0];
  const std::vector<uint8_t> genuine = readBytes(file);

  writeBytes(file, forged(genuine, secret(), 99, bareFrame));
  const ResolvedSource bare = resolve(pattern);
  EXPECT_EQ(fromCache(bare), std::vector<bool>{false});
  EXPECT_EQ(maxId(bare.files[0]), 1);

  MetadataCache::Secret other = secret();
  other[0] ^= 1;
  writeBytes(file, forged(genuine, secret(), 99, [&](std::span<const uint8_t> payload) {
               return MetadataCache::frame(payload, other);
             }));
  const ResolvedSource otherKey = resolve(pattern);
  EXPECT_EQ(fromCache(otherKey), std::vector<bool>{false});
  EXPECT_EQ(maxId(otherKey.files[0]), 1);

  // The forgery itself is one the cache would believe with the right key.
  const MetadataCache::Secret own = secret();
  writeBytes(file, forged(readBytes(file), own, 99, [&](std::span<const uint8_t> payload) {
               return MetadataCache::frame(payload, own);
             }));
  const ResolvedSource keyed = resolve(pattern);
  EXPECT_EQ(fromCache(keyed), std::vector<bool>{true});
  EXPECT_EQ(maxId(keyed.files[0]), 99);
}

// "A FIFO, a symlink and a foreign-owned file at a cache path do not hang or
// alter answers": each is passed over (O_NONBLOCK, O_NOFOLLOW, the owner checked),
// the footer read again, and the cache written anew in its place.
TEST_F(MetadataCacheTest, AFifoASymlinkOrAForeignFileAtTheCachePathChangesNoAnswer) {
  const std::string pattern = at("fifo/*.parquet");
  EXPECT_EQ(fromCache(resolve(pattern)), std::vector<bool>{false});
  ASSERT_EQ(cacheFiles().size(), 1u);
  const std::filesystem::path file = cacheFiles()[0];
  const MetadataCache::Secret own = secret();
  // Believed if it were read: keyed with the user's own secret.
  const std::vector<uint8_t> believable =
      forged(readBytes(file), own, 99, [&](std::span<const uint8_t> payload) {
        return MetadataCache::frame(payload, own);
      });

  std::filesystem::remove(file);
  ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0);
  auto resolved = std::async(std::launch::async, [&] { return resolve(pattern); });
  if (resolved.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
    ADD_FAILURE() << "the query hangs on a FIFO at the cache path";
    const int writer = ::open(file.c_str(), O_WRONLY | O_NONBLOCK);  // lets the reader go
    if (writer >= 0) ::close(writer);
  }
  const ResolvedSource fromFifo = resolved.get();
  EXPECT_EQ(fromCache(fromFifo), std::vector<bool>{false});
  EXPECT_EQ(maxId(fromFifo.files[0]), 1);
  EXPECT_TRUE(std::filesystem::is_regular_file(std::filesystem::symlink_status(file)))
      << "saved in the FIFO's place";

  const std::filesystem::path elsewhere = root_ / "believable.qmc";
  writeBytes(elsewhere, believable);
  std::filesystem::remove(file);
  std::filesystem::create_symlink(elsewhere, file);
  const ResolvedSource fromLink = resolve(pattern);
  EXPECT_EQ(fromCache(fromLink), std::vector<bool>{false});
  EXPECT_EQ(maxId(fromLink.files[0]), 1);

  if (::geteuid() != 0) GTEST_SKIP() << "*** a file of another owner needs root to make ***";
  std::filesystem::remove(file);
  writeBytes(file, believable);
  ASSERT_EQ(::chown(file.c_str(), 4242, 4242), 0);
  const ResolvedSource fromForeign = resolve(pattern);
  EXPECT_EQ(fromCache(fromForeign), std::vector<bool>{false});
  EXPECT_EQ(maxId(fromForeign.files[0]), 1);
}

// "refuse (warn once on stderr, run uncached) a cache directory writable by
// group/others or not owned by the user": nothing is read from it or written to
// it, and the answer is the files'.
TEST_F(MetadataCacheTest, ADirectoryOthersCanWriteIsNotUsed) {
  const std::string pattern = at("open/*.parquet");
  std::filesystem::create_directories(cacheDirectory());
  ASSERT_EQ(::chmod(cacheDirectory().c_str(), 0777), 0);
  for (int run = 0; run < 2; ++run) {
    const ResolvedSource source = resolve(pattern);
    EXPECT_EQ(fromCache(source), std::vector<bool>{false});
    EXPECT_EQ(maxId(source.files[0]), 1);
  }
  EXPECT_TRUE(std::filesystem::is_empty(cacheDirectory()));

  if (::geteuid() != 0) GTEST_SKIP() << "*** a directory of another owner needs root to make ***";
  ASSERT_EQ(::chmod(cacheDirectory().c_str(), 0700), 0);
  ASSERT_EQ(::chown(cacheDirectory().c_str(), 4242, 4242), 0);
  for (int run = 0; run < 2; ++run) EXPECT_EQ(fromCache(resolve(pattern)), std::vector<bool>{false});
  EXPECT_TRUE(std::filesystem::is_empty(cacheDirectory()));
}

TEST_F(MetadataCacheTest, APatternMatchingNothingIsStillAnErrorNamingIt) {
  for (int run = 0; run < 2; ++run) {
    try {
      resolve(at("data/*/*.orc"));
      ADD_FAILURE() << "resolved a pattern that matches nothing";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(at("data/*/*.orc") + ": the pattern matches no file"),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_TRUE(cacheFiles().empty());
}

TEST_F(MetadataCacheTest, WithoutADirectoryNothingIsKept) {
  ResolveOptions options;
  const ResolvedSource source = ExternalSourceResolver::resolve({at("data/*/*.parquet")}, options);
  EXPECT_FALSE(source.files.empty());
  for (const ResolvedFile& file : source.files) EXPECT_FALSE(file.metadata.fromMetadataCache);
  EXPECT_TRUE(cacheFiles().empty());
}

// Every Parquet file of parquet-testing's data/ and every ORC example that
// resolves: recalled from the cache, its metadata equals what its footer gave
// (schemas of every type, unread columns, statistics, splits).
TEST_F(MetadataCacheTest, RecallsWhatEveryTestFileResolvesTo) {
  std::vector<std::filesystem::path> files =
      quarry::testing::filesUnder(quarry::testing::parquetTestingDir() / "data", ".parquet");
  const std::vector<std::filesystem::path> orc =
      quarry::testing::filesUnder(quarry::testing::testdataDir() / "orc" / "examples", ".orc");
  files.insert(files.end(), orc.begin(), orc.end());
  if (files.empty())
    GTEST_SKIP() << "*** no test data under " << quarry::testing::testdataDir() << " ***";
  size_t compared = 0;
  for (const std::filesystem::path& path : files) {
    SCOPED_TRACE(path.string());
    ResolvedSource read;
    try {
      read = resolve(path.string());
    } catch (const std::exception&) {
      continue;  // a file the resolver refuses is refused again, never cached
    }
    const ResolvedSource recalled = resolve(path.string());
    ASSERT_EQ(recalled.files.size(), 1u);
    const SourceMetadata& a = read.files[0].metadata;
    const SourceMetadata& b = recalled.files[0].metadata;
    EXPECT_TRUE(b.fromMetadataCache);
    EXPECT_EQ(recalled.files[0].reader->name(), read.files[0].reader->name());
    EXPECT_EQ(b.schema, a.schema);
    ASSERT_EQ(b.unreadColumns.size(), a.unreadColumns.size());
    for (size_t i = 0; i < a.unreadColumns.size(); ++i) {
      EXPECT_EQ(b.unreadColumns[i].name, a.unreadColumns[i].name);
      EXPECT_EQ(b.unreadColumns[i].what, a.unreadColumns[i].what);
    }
    ASSERT_EQ(b.statistics == nullptr, a.statistics == nullptr);
    // Statistics and splits compared as their bytes (a NaN bound equals itself there).
    EXPECT_EQ(MetadataCache::encodeMetadata(b), MetadataCache::encodeMetadata(a));
    EXPECT_EQ(b.fileSize, a.fileSize);
    EXPECT_EQ(b.splits.size(), a.splits.size());
    compared += b.fromMetadataCache ? 1 : 0;
  }
  EXPECT_GT(compared, 80u);
  std::printf("[          ] %zu test files recalled from the metadata cache as read\n", compared);
}

TEST(MetadataCacheDirectory, FollowsTheEnvironment) {
  const char* saved = std::getenv("QUARRY_CACHE_DIR");
  const std::string savedValue = saved != nullptr ? saved : "";
  ::setenv("QUARRY_CACHE_DIR", "/somewhere/q/", 1);
  EXPECT_EQ(defaultMetadataCacheDirectory(), "/somewhere/q/metadata");
  ::setenv("QUARRY_CACHE_DIR", "off", 1);
  EXPECT_EQ(defaultMetadataCacheDirectory(), "");
  ::setenv("QUARRY_CACHE_DIR", "", 1);
  EXPECT_EQ(defaultMetadataCacheDirectory(), "");
  ::unsetenv("QUARRY_CACHE_DIR");
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const std::string xdgValue = xdg != nullptr ? xdg : "";
  ::setenv("XDG_CACHE_HOME", "/x", 1);
  EXPECT_EQ(defaultMetadataCacheDirectory(), "/x/quarry/metadata");
  ::unsetenv("XDG_CACHE_HOME");
  ::setenv("HOME", std::getenv("HOME") != nullptr ? std::getenv("HOME") : "/root", 1);
  EXPECT_EQ(defaultMetadataCacheDirectory(),
            std::string(std::getenv("HOME")) + "/.cache/quarry/metadata");
  if (xdg != nullptr) ::setenv("XDG_CACHE_HOME", xdgValue.c_str(), 1);
  if (saved != nullptr) {
    ::setenv("QUARRY_CACHE_DIR", savedValue.c_str(), 1);
  } else {
    ::unsetenv("QUARRY_CACHE_DIR");
  }
}

}  // namespace
}  // namespace quarry::engine
