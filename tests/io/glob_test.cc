#include "quarry/common/thread_pool.h"
#include "quarry/io/glob.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace quarry::io {
namespace {

TEST(GlobTest, StarStaysWithinOneSegment) {
  EXPECT_TRUE(globMatch("data/*.parquet", "data/a.parquet"));
  EXPECT_TRUE(globMatch("data/*.parquet", "data/.parquet"));
  EXPECT_FALSE(globMatch("data/*.parquet", "data/2024/a.parquet"));
  EXPECT_FALSE(globMatch("data/*.parquet", "data/a.parquet.tmp"));
  EXPECT_TRUE(globMatch("data/part-*-of-*", "data/part-1-of-3"));
  EXPECT_FALSE(globMatch("*", "a/b"));
}

TEST(GlobTest, QuestionMarkIsOneCharacterButNotSlash) {
  EXPECT_TRUE(globMatch("f?.csv", "f1.csv"));
  EXPECT_FALSE(globMatch("f?.csv", "f12.csv"));
  EXPECT_FALSE(globMatch("a?b", "a/b"));
}

TEST(GlobTest, DoubleStarSegmentMatchesZeroOrMoreDirectories) {
  EXPECT_TRUE(globMatch("data/**/*.parquet", "data/a.parquet"));
  EXPECT_TRUE(globMatch("data/**/*.parquet", "data/2024/a.parquet"));
  EXPECT_TRUE(globMatch("data/**/*.parquet", "data/2024/01/02/a.parquet"));
  EXPECT_FALSE(globMatch("data/**/*.parquet", "other/a.parquet"));
  EXPECT_TRUE(globMatch("**/x", "x"));
  EXPECT_TRUE(globMatch("**/x", "a/b/x"));
  EXPECT_TRUE(globMatch("data/**", "data/a/b/c"));
  EXPECT_TRUE(globMatch("a/**/b/**/c", "a/b/c"));
  EXPECT_TRUE(globMatch("a/**/b/**/c", "a/x/b/y/z/c"));
  EXPECT_FALSE(globMatch("a/**/b", "a/xb"));
}

TEST(GlobTest, DoubleStarInsideASegmentActsAsStar) {
  EXPECT_TRUE(globMatch("a**b", "axxb"));
  EXPECT_FALSE(globMatch("a**b", "ax/xb"));
}

TEST(GlobTest, BracketsMatchSetsRangesAndNegations) {
  EXPECT_TRUE(globMatch("part-[0-2].csv", "part-1.csv"));
  EXPECT_FALSE(globMatch("part-[0-2].csv", "part-3.csv"));
  EXPECT_TRUE(globMatch("part-[!0-2].csv", "part-3.csv"));
  EXPECT_TRUE(globMatch("[]x]", "]"));
  EXPECT_TRUE(globMatch("a[", "a["));  // an unclosed bracket is literal
}

TEST(GlobTest, PathologicalPatternsStayFast) {
  const std::string path(2000, 'a');
  EXPECT_FALSE(globMatch("*a*a*a*a*a*a*a*a*a*a*b", path));
  EXPECT_FALSE(globMatch("**/**/**/**/**/b", "a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/c"));
}

TEST(GlobTest, LiteralPrefixEndsAtTheFirstWildcard) {
  EXPECT_EQ(globLiteralPrefix("data/2024-*/x.parquet"), "data/2024-");
  EXPECT_EQ(globLiteralPrefix("data/**"), "data/");
  EXPECT_EQ(globLiteralPrefix("f?"), "f");
  EXPECT_EQ(globLiteralPrefix("plain/key"), "plain/key");
  EXPECT_TRUE(hasGlob("a[0]"));
  EXPECT_FALSE(hasGlob("a/b.parquet"));
}

class GlobLocalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() / ("quarry-glob-" + std::to_string(::getpid()));
    std::filesystem::remove_all(root_);
    for (const char* file :
         {"a.parquet", "b.csv", "2024/c.parquet", "2024/01/d.parquet", "2025/e.parquet"}) {
      std::filesystem::create_directories((root_ / file).parent_path());
      std::ofstream(root_ / file) << "x";
    }
    std::filesystem::create_directories(root_ / "dir.parquet");  // a directory never matches
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  std::string at(const std::string& relative) const { return (root_ / relative).generic_string(); }

  std::filesystem::path root_;
};

TEST_F(GlobLocalTest, StarListsOneDirectorySorted) {
  EXPECT_EQ(globLocal(at("*.parquet")), (std::vector<std::string>{at("a.parquet")}));
  EXPECT_EQ(globLocal(at("*/*.parquet")),
            (std::vector<std::string>{at("2024/c.parquet"), at("2025/e.parquet")}));
}

TEST_F(GlobLocalTest, DoubleStarRecurses) {
  EXPECT_EQ(globLocal(at("**/*.parquet")),
            (std::vector<std::string>{at("2024/01/d.parquet"), at("2024/c.parquet"),
                                      at("2025/e.parquet"), at("a.parquet")}));
  EXPECT_EQ(globLocal(at("202?/**")),
            (std::vector<std::string>{at("2024/01/d.parquet"), at("2024/c.parquet"),
                                      at("2025/e.parquet")}));
}

// globLocal: "With a `pool`, the directories of one depth are listed in parallel";
// the matches are the same, in the same (sorted) order, as a walk on one thread.
TEST_F(GlobLocalTest, ParallelListingOfManyDirectoriesMatchesTheSequentialWalk) {
  for (int p = 0; p < 40; ++p) {
    const std::string dir = "parts/p=" + std::to_string(p);
    std::filesystem::create_directories(root_ / dir / "sub");
    std::ofstream(root_ / dir / "data.parquet") << "x";
    std::ofstream(root_ / dir / "sub" / "deep.parquet") << "x";
    std::ofstream(root_ / dir / "notes.txt") << "x";
  }
  ThreadPool pool(2);
  for (const char* pattern : {"parts/*/*.parquet", "parts/**/*.parquet", "parts/p=1*/**"}) {
    SCOPED_TRACE(pattern);
    const std::vector<std::string> sequential = globLocal(at(pattern));
    EXPECT_FALSE(sequential.empty());
    EXPECT_EQ(globLocal(at(pattern), &pool), sequential);
  }
  EXPECT_EQ(globLocal(at("parts/*/*.parquet"), &pool).size(), 40u);
  EXPECT_EQ(globLocal(at("parts/**/*.parquet"), &pool).size(), 80u);
}

// A directory is read in 32 KiB batches of entries (getdents64): one whose
// entries take several batches is listed whole, each name once.
TEST_F(GlobLocalTest, ADirectoryLargerThanOneReadIsListedWhole) {
  const std::string longName(120, 'n');
  std::filesystem::create_directories(root_ / "many");
  for (int i = 0; i < 1500; ++i) {
    std::ofstream(root_ / "many" / (longName + std::to_string(i) + ".parquet")) << "x";
  }
  std::ofstream(root_ / "many" / "skip.csv") << "x";
  const std::vector<std::string> found = globLocal(at("many/*.parquet"));
  ASSERT_EQ(found.size(), 1500u);  // ~1500 x 144-byte entries: about 7 reads
  EXPECT_TRUE(std::is_sorted(found.begin(), found.end()));
  EXPECT_EQ(std::adjacent_find(found.begin(), found.end()), found.end());
  EXPECT_EQ(found.front(), at("many/" + longName + "0.parquet"));
}

// globLocal: "a symbolic link counts as the file it points to but is not walked
// into" (so a link cycle cannot loop), and only directories whose segment matches
// are listed.
TEST_F(GlobLocalTest, SymbolicLinksCountAsTheirFilesButAreNotWalkedInto) {
  std::filesystem::create_symlink(root_ / "a.parquet", root_ / "2025" / "link.parquet");
  std::filesystem::create_directory_symlink(root_ / "2024", root_ / "2025" / "dirlink");
  std::filesystem::create_directory_symlink(root_, root_ / "2025" / "cycle");
  const std::vector<std::string> own{at("2025/e.parquet"), at("2025/link.parquet")};
  EXPECT_EQ(globLocal(at("2025/*.parquet")), own);
  EXPECT_EQ(globLocal(at("2025/**/*.parquet")), own);
  EXPECT_EQ(globLocal(at("2025/dirlink/*.parquet")), (std::vector<std::string>{at("2025/dirlink/c.parquet")}));
  EXPECT_EQ(globLocal(at("202[4]/*/*.parquet")), (std::vector<std::string>{at("2024/01/d.parquet")}));
}

TEST_F(GlobLocalTest, PatternWithoutWildcardsGivesTheFileWhenItExists) {
  EXPECT_EQ(globLocal(at("b.csv")), (std::vector<std::string>{at("b.csv")}));
  EXPECT_TRUE(globLocal(at("missing.csv")).empty());
  EXPECT_TRUE(globLocal(at("missing/*.csv")).empty());
}

TEST_F(GlobLocalTest, RelativePatternsGiveRelativePaths) {
  const auto previous = std::filesystem::current_path();
  std::filesystem::current_path(root_);
  const auto found = globLocal("*.csv");
  const auto nested = globLocal("2024/*.parquet");
  std::filesystem::current_path(previous);
  EXPECT_EQ(found, (std::vector<std::string>{"b.csv"}));
  EXPECT_EQ(nested, (std::vector<std::string>{"2024/c.parquet"}));
}

}  // namespace
}  // namespace quarry::io
