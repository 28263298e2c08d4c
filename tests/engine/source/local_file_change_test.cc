// A local file written to in place while a query reads it (io/local_storage.h):
// the read fails naming the file, never returns what mixed versions give.
// Fixtures: tests/fixtures/engine_source (schema_a and schema_a2 are both 533
// bytes: id 1 and id 2; multi_row_groups has 5 row groups of ids).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "quarry/common/error.h"
#include "quarry/engine/source/external_source_resolver.h"
#include "quarry/engine/source/parquet_format_reader.h"
#include "quarry/io/local_stamp.h"
#include "quarry/io/storage.h"
#include "tests/engine/source/source_test_support.h"

namespace quarry::engine {
namespace {

using testing::columns;
using testing::drain;
using testing::fixture;

class LocalFileChangeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("quarry-local-change-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string copy(const std::string& fixtureName, const std::string& to) {
    const std::filesystem::path path = dir_ / to;
    std::filesystem::copy_file(fixture(fixtureName), path,
                               std::filesystem::copy_options::overwrite_existing);
    return path.string();
  }
  /// Writes the bytes of `fixtureName` over `path` in place (same inode), as
  /// `cp new old` does; a moment later, so that the modification time moves.
  static void rewriteInPlace(const std::string& path, const std::string& fixtureName) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::ifstream in(fixture(fixtureName), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream out(path, std::ios::binary | std::ios::in | std::ios::out);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  /// What reading every split of `metadata` to the end throws; "" when nothing.
  static std::string readFailure(const FormatReader& reader, const SourceMetadata& metadata) {
    try {
      for (const FileSplit& split : metadata.splits) drain(reader.read(split, columns({"id"})));
    } catch (const IoError& e) {
      return e.what();
    }
    return "";
  }

  std::filesystem::path dir_;
};

// "a change is an error naming the file ... never a silent answer": the first
// page of a split is read, the file is rewritten in place (its own bytes again:
// whatever was written, the reader cannot know), and the split's end fails.
TEST_F(LocalFileChangeTest, AFileRewrittenWhileASplitIsReadFailsAtTheSplitsEnd) {
  const std::string path = copy("multi_row_groups.parquet", "t.parquet");
  ParquetFormatReader reader;
  const SourceMetadata metadata = reader.metadata(path);
  ASSERT_FALSE(metadata.splits.empty());
  EXPECT_EQ(readFailure(reader, metadata), "") << "unchanged: read to the end";

  LocalSupplier supplier = reader.read(metadata.splits[0], columns({"id"}));
  ASSERT_TRUE(supplier().has_value());
  rewriteInPlace(path, "multi_row_groups.parquet");
  try {
    while (supplier()) {
    }
    ADD_FAILURE() << "the split was read to its end from a file rewritten meanwhile";
  } catch (const IoError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find(path + ": the file changed while it was being read"), 0u) << message;
    EXPECT_NE(message.find("modification time changed"), std::string::npos) << message;
    EXPECT_NE(message.find("run the query again"), std::string::npos) << message;
  }
}

// A split pins the size and version its footer read saw: the file rewritten
// between that read and the scan (same size, other rows) fails the scan's open,
// where it would otherwise give rows the footer's statistics do not describe.
TEST_F(LocalFileChangeTest, AFileRewrittenAfterItsFooterWasReadFailsTheScan) {
  const std::string path = copy("schema_a.parquet", "a.parquet");
  ParquetFormatReader reader;
  const SourceMetadata metadata = reader.metadata(path);
  rewriteInPlace(path, "schema_a2.parquet");
  const std::string message = readFailure(reader, metadata);
  EXPECT_EQ(message.find(path + ": the file changed while it was being read (modification time "
                                "changed); run the query again"),
            0u)
      << message;

  // A size that moved says so.
  const std::string grown = copy("schema_a.parquet", "b.parquet");
  const SourceMetadata before = reader.metadata(grown);
  std::filesystem::resize_file(grown, 600);
  EXPECT_NE(readFailure(reader, before).find("size 533 -> 600"), std::string::npos);
}

// "and before answering from a cached footer": the metadata cache answers with
// the footer of the file it stamped, and the scan checks the file still is that
// one. The file is rewritten in place between the query's resolution (from the
// cache) and its scan.
TEST_F(LocalFileChangeTest, AFileRewrittenAfterItsCachedFooterWasRecalledFailsTheScan) {
  const std::string path = copy("schema_a.parquet", "a.parquet");
  // Stamps are recorded once they are settled (older than the margin).
  std::this_thread::sleep_for(std::chrono::nanoseconds(io::kSettleMarginNs) +
                              std::chrono::milliseconds(100));
  ResolveOptions options;
  options.metadataCacheDirectory = (dir_ / "cache").string();
  ExternalSourceResolver::resolve({path}, options);
  const ResolvedSource recalled = ExternalSourceResolver::resolve({path}, options);
  ASSERT_EQ(recalled.files.size(), 1u);
  ASSERT_TRUE(recalled.files[0].metadata.fromMetadataCache);
  EXPECT_EQ(readFailure(*recalled.files[0].reader, recalled.files[0].metadata), "");

  rewriteInPlace(path, "schema_a2.parquet");
  const std::string message = readFailure(*recalled.files[0].reader, recalled.files[0].metadata);
  EXPECT_EQ(message.find(path + ": the file changed while it was being read"), 0u) << message;
}

// Opening with an identity checks it; opening without one pins the file as found.
TEST_F(LocalFileChangeTest, OpeningWithAKnownIdentityChecksTheSizeAndVersion) {
  const std::string path = copy("schema_a.parquet", "a.parquet");
  const auto object = io::openObject(path);
  ASSERT_TRUE(object->version().has_value());
  EXPECT_NO_THROW(io::openObject(path, io::ObjectIdentity{object->size(), object->version()}));
  EXPECT_THROW(io::openObject(path, io::ObjectIdentity{object->size() + 1, object->version()}),
               IoError);
  EXPECT_THROW(io::openObject(path, io::ObjectIdentity{object->size(), std::string("mtime:1")}),
               IoError);
  EXPECT_NO_THROW(object->checkUnchanged());
  rewriteInPlace(path, "schema_a.parquet");
  EXPECT_THROW(object->checkUnchanged(), IoError);
}

}  // namespace
}  // namespace quarry::engine
