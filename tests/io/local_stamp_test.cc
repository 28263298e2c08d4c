// LocalStamp (io/local_stamp.h) and what globLocal records with it (GlobListing):
// the evidence the metadata cache relies on to reuse a listing or a footer.
#include "quarry/io/local_stamp.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "quarry/common/thread_pool.h"
#include "quarry/io/glob.h"

namespace quarry::io {
namespace {

class LocalStampTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() / ("quarry-stamp-" + std::to_string(::getpid()));
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  std::string at(const std::string& relative) const { return (root_ / relative).generic_string(); }
  void write(const std::string& relative, const std::string& text) {
    std::filesystem::create_directories((root_ / relative).parent_path());
    std::ofstream(root_ / relative, std::ios::binary | std::ios::trunc) << text;
  }
  /// Past the clock tick of the last change: a change now gets other times.
  static void nextTick() { std::this_thread::sleep_for(std::chrono::milliseconds(30)); }
  /// Past the settle margin of every change made so far.
  static void settle() {
    std::this_thread::sleep_for(std::chrono::nanoseconds(kSettleMarginNs) +
                                std::chrono::milliseconds(100));
  }

  std::filesystem::path root_;
};

TEST_F(LocalStampTest, TheSameUntilTheFileChanges) {
  write("f.parquet", "abc");
  const std::optional<LocalStamp> first = stampOf(at("f.parquet"));
  ASSERT_TRUE(first);
  EXPECT_TRUE(isRegularFile(*first));
  EXPECT_EQ(first->size, 3u);
  EXPECT_EQ(stampOf(at("f.parquet")), first);
  nextTick();
  write("f.parquet", "xyz");  // same size, new contents
  const std::optional<LocalStamp> rewritten = stampOf(at("f.parquet"));
  ASSERT_TRUE(rewritten);
  EXPECT_NE(rewritten, first);
  EXPECT_GT(rewritten->modifiedNs, first->modifiedNs);
  // Replaced by a rename: another inode, whatever the times say.
  write("g.tmp", "xyz");
  std::filesystem::rename(root_ / "g.tmp", root_ / "f.parquet");
  const std::optional<LocalStamp> replaced = stampOf(at("f.parquet"));
  ASSERT_TRUE(replaced);
  EXPECT_NE(replaced->inode, rewritten->inode);
  // chmod moves the change time, which nothing can set back.
  nextTick();
  std::filesystem::permissions(root_ / "f.parquet", std::filesystem::perms::owner_read);
  EXPECT_GT(stampOf(at("f.parquet"))->changedNs, replaced->changedNs);
  EXPECT_FALSE(stampOf(at("missing.parquet")));
}

TEST_F(LocalStampTest, ADirectoryChangesWithItsEntries) {
  write("d/a.parquet", "a");
  const LocalStamp before = *stampOf(at("d"));
  EXPECT_TRUE(isDirectory(before));
  nextTick();
  write("d/a.parquet", "changed");  // a file's contents are not the directory's
  EXPECT_EQ(*stampOf(at("d")), before);
  write("d/b.parquet", "b");
  const LocalStamp added = *stampOf(at("d"));
  EXPECT_NE(added, before);
  nextTick();
  std::filesystem::remove(root_ / "d" / "a.parquet");
  EXPECT_NE(*stampOf(at("d")), added);
}

// "a stamp is `settled` ... when its times are at least kSettleMarginNs older than
// the moment it was taken".
TEST_F(LocalStampTest, OnlyAStampOlderThanTheMarginIsSettled) {
  write("f.parquet", "abc");
  const int64_t now = nowNs();
  const LocalStamp stamp = *stampOf(at("f.parquet"));
  EXPECT_FALSE(settled(at("f.parquet"), stamp, now));
  EXPECT_FALSE(settled(at("f.parquet"), stamp, stamp.changedNs + kSettleMarginNs - 1));
  // /tmp is on a file system that keeps times (the test machines': ext4, tmpfs, overlayfs).
  EXPECT_TRUE(settled(at("f.parquet"), stamp, stamp.changedNs + kSettleMarginNs));
  EXPECT_TRUE(settled(at("f.parquet"), stamp, now, 0));
}

// GlobListing: "each stamped before it was read: while every stamp holds, the glob
// matches the same files. `reusable` is false when no stamp can vouch for the
// listing: ... a symbolic link ... a stamp not settled, or a pattern without
// wildcards."
TEST_F(LocalStampTest, AGlobRecordsTheDirectoriesItRead) {
  write("plain/p=1/a.parquet", "a");
  write("plain/p=2/b.parquet", "b");
  write("plain/p=2/skip.csv", "c");
  write("links/x.parquet", "x");
  std::filesystem::create_symlink(root_ / "links" / "x.parquet", root_ / "links" / "y.parquet");

  GlobListing fresh;
  EXPECT_EQ(globLocal(at("plain/*/*.parquet"), nullptr, &fresh).size(), 2u);
  EXPECT_FALSE(fresh.reusable) << "directories written just now are not settled";

  settle();
  GlobListing listing;
  EXPECT_EQ(globLocal(at("plain/*/*.parquet"), nullptr, &listing),
            (std::vector<std::string>{at("plain/p=1/a.parquet"), at("plain/p=2/b.parquet")}));
  EXPECT_TRUE(listing.reusable);
  ASSERT_EQ(listing.directories.size(), 3u);  // plain/, p=1/, p=2/
  for (const auto& [directory, stamp] : listing.directories) {
    EXPECT_EQ(stampOf(directory), stamp) << directory;
  }

  GlobListing linked;
  EXPECT_EQ(globLocal(at("links/*.parquet"), nullptr, &linked).size(), 2u);
  EXPECT_FALSE(linked.reusable)
      << "what a link points to can change with no change to its directory";

  GlobListing literal;
  EXPECT_EQ(globLocal(at("plain/p=1/a.parquet"), nullptr, &literal).size(), 1u);
  EXPECT_FALSE(literal.reusable);
}

// stampsOf gives "the stamps of `paths`, as stampOf would give them one by one",
// whatever directory the paths share (one, the root only, none: relative paths),
// for files, directories named with and without a trailing slash, and paths that
// do not exist; and the same on a pool, more than kStampChunk paths at a time.
TEST_F(LocalStampTest, StampsOfManyPathsAreEachPathsStamp) {
  write("a/p=1/x.parquet", "1");
  write("a/p=2/x.parquet", "22");
  write("b/y", "333");
  const std::vector<std::vector<std::string>> cases = {
      {at("a/p=1/x.parquet"), at("a/p=2/x.parquet"), at("a/p=1"), at("a/p=2/"), at("a/")},
      {at("a/p=1/x.parquet"), at("b/y"), at("missing/z"), at("a/p=1/missing")},
      {at("a/p=2/x.parquet")},
      {"/", at("b/y")},
      {".", "./", "no-such-file-here"},
      {at("a/p=1/x.parquet"), "relative/to/cwd"},
  };
  for (const std::vector<std::string>& paths : cases) {
    const std::vector<std::string_view> views(paths.begin(), paths.end());
    const std::vector<std::optional<LocalStamp>> stamps = stampsOf(views);
    ASSERT_EQ(stamps.size(), paths.size());
    for (size_t i = 0; i < paths.size(); ++i) EXPECT_EQ(stamps[i], stampOf(paths[i])) << paths[i];
  }

  std::vector<std::string> many;
  for (size_t i = 0; i < 2 * kStampChunk + 3; ++i)
    many.push_back(at(i % 3 == 0 ? "b/y" : "a/p=1/x.parquet"));
  many.push_back(at("missing"));
  const std::vector<std::string_view> views(many.begin(), many.end());
  ThreadPool pool(3);
  const std::vector<std::optional<LocalStamp>> stamps = stampsOf(views, &pool);
  ASSERT_EQ(stamps.size(), many.size());
  for (size_t i = 0; i < many.size(); ++i) EXPECT_EQ(stamps[i], stampOf(many[i])) << i;
}

}  // namespace
}  // namespace quarry::io
