// cluster/allowed_roots.h: "read only under their allowed roots or URI
// prefixes (no escape through globs, `..` or symlinks)".

#include "quarry/cluster/allowed_roots.h"

#include <gtest/gtest.h>

#include <fstream>

#include "quarry/common/error.h"
#include "tests/engine/fragment_test_support.h"

namespace quarry::cluster {
namespace {

using engine::testing::ScratchDir;

class AllowedRootsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir_.path() / "data" / "sub");
    std::filesystem::create_directories(dir_.path() / "data2");
    std::ofstream(dir_.path() / "data" / "sub" / "a.parquet") << "x";
    std::ofstream(dir_.path() / "data2" / "b.parquet") << "x";
  }
  std::string at(const std::string& relative) const { return (dir_.path() / relative).string(); }

  ScratchDir dir_{"quarry-allowed-roots"};
};

TEST_F(AllowedRootsTest, LocalPathsAreComparedByComponentsAfterResolving) {
  const AllowedRoots roots({at("data") + "/", "s3://bucket/lake"});
  EXPECT_EQ(roots.refusal(at("data/sub/a.parquet")), std::nullopt);
  EXPECT_EQ(roots.refusal("file://" + at("data/sub/a.parquet")), std::nullopt);
  EXPECT_EQ(roots.refusal(at("data/sub/../sub/a.parquet")), std::nullopt);
  EXPECT_EQ(roots.refusal(at("data/not-yet-there.parquet")), std::nullopt);
  EXPECT_NE(roots.refusal(at("data2/b.parquet")), std::nullopt);  // a sibling sharing the prefix
  EXPECT_NE(roots.refusal(at("data/../data2/b.parquet")), std::nullopt);
  EXPECT_NE(roots.refusal("/etc/passwd"), std::nullopt);
}

TEST_F(AllowedRootsTest, SymlinksAreResolvedBeforeComparing) {
  std::filesystem::create_symlink(at("data2/b.parquet"), at("data/escape.parquet"));
  std::filesystem::create_directory_symlink(at("data2"), at("data/escape-dir"));
  std::filesystem::create_symlink(at("data/sub/a.parquet"), at("data2/in.parquet"));
  const AllowedRoots roots({at("data")});
  EXPECT_NE(roots.refusal(at("data/escape.parquet")), std::nullopt);
  EXPECT_NE(roots.refusal(at("data/escape-dir/b.parquet")), std::nullopt);
  // A link from outside to a file inside reads a file inside.
  EXPECT_EQ(roots.refusal(at("data2/in.parquet")), std::nullopt);
}

TEST_F(AllowedRootsTest, UriPrefixesMatchAtSegmentsAndRefuseDotSegments) {
  const AllowedRoots roots({"s3://bucket/lake", "https://host.example.com/pub/"});
  EXPECT_EQ(roots.refusal("s3://bucket/lake/x.parquet"), std::nullopt);
  EXPECT_EQ(roots.refusal("https://host.example.com/pub/a/b.parquet"), std::nullopt);
  EXPECT_NE(roots.refusal("s3://bucket/lakeside/x.parquet"), std::nullopt);
  EXPECT_NE(roots.refusal("s3://bucket/lake/../private/x.parquet"), std::nullopt);
  EXPECT_NE(roots.refusal("s3://bucket/lake/%2e%2E/private/x.parquet"), std::nullopt);
  EXPECT_NE(roots.refusal("s3://bucket/lake/./x.parquet"), std::nullopt);
  EXPECT_NE(roots.refusal("https://host.example.com/pub/..%2fsecret"), std::nullopt);
  EXPECT_NE(roots.refusal("https://host.example.com.evil.net/pub/x"), std::nullopt);
  EXPECT_NE(roots.refusal("gs://bucket/lake/x.parquet"), std::nullopt);
  EXPECT_NE(roots.refusal("s3://bucket/other/x.parquet"), std::nullopt);
}

TEST_F(AllowedRootsTest, RefusesNoRootsAMissingDirectoryAndAnUnknownScheme) {
  EXPECT_THROW(AllowedRoots({}), InvalidArgument);
  EXPECT_THROW(AllowedRoots({at("missing")}), InvalidArgument);
  EXPECT_THROW(AllowedRoots({"ftp://host/x"}), InvalidArgument);
}

}  // namespace
}  // namespace quarry::cluster
