// `quarry serve --allow-root` against a symlink flipped while queries run: "data
// nodes open files without following a path that changed after the check"
// (cluster/confined_open.h). A node that checked the path and then opened it
// again read the outside file whenever the link flipped in between.

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "tests/cli/quarry_run.h"
#include "tests/cluster/cluster_data_fixture.h"
#include "tests/cluster/cluster_test_support.h"

namespace quarry::cluster {
namespace {

namespace fs = std::filesystem;

using quarry::testing::QuarryRun;
using quarry::testing::runQuarry;
using quarry::testing::TestCluster;
using quarry::testing::writeValuesFile;

constexpr int kRows = 1000;
constexpr auto kQueryTime = std::chrono::seconds(20);
constexpr int kMaxQueries = 400;
constexpr int kMaxFlips = 200'000;

/// Points `link` at `target` in one step (rename over it), as `ln -sfn` would not.
void pointAt(const fs::path& link, const fs::path& target) {
  const fs::path next = link.string() + ".next";
  std::error_code ignored;
  fs::remove(next, ignored);
  fs::create_symlink(target, next);
  fs::rename(next, link);
}

TEST(AllowedRootRace, AFlippedSymlinkNeverLeaksTheOutsideFileThroughTwoNodes) {
  const fs::path dir = fs::temp_directory_path() / ("quarry_root_race_" + std::to_string(getpid()));
  fs::remove_all(dir);
  const fs::path root = dir / "root";
  const fs::path outside = dir / "outside";
  fs::create_directories(root);
  fs::create_directories(outside);
  // Inside: three files of 1..1000 (two plain, one behind the link). Outside: the
  // same size and schema, values 1,000,001..1,001,000: any leak changes the sum.
  writeValuesFile(root / "a.parquet", 1, kRows);
  writeValuesFile(root / "b.parquet", 1, kRows);
  writeValuesFile(root / "target.data", 1, kRows);  // not matched by the glob
  writeValuesFile(outside / "secret.parquet", 1'000'001, kRows);
  const fs::path link = root / "link.parquet";
  pointAt(link, root / "target.data");

  TestCluster cluster(dir / "cluster", root.string(), 2);
  ASSERT_TRUE(cluster.ready());
  const std::string text =
      "FROM \"" + root.string() + "/*.parquet\" | WHERE x > 0 | STATS s = SUM(x), n = COUNT(*)";
  std::vector<std::string> args{"query"};
  for (const std::string& arg : cluster.arguments()) args.push_back(arg);
  args.insert(args.end(), {"--format", "csv", "--profile", text});

  const QuarryRun inside = runQuarry(args);
  ASSERT_EQ(inside.exitCode, 0) << inside.err;
  ASSERT_NE(inside.err.find("\"placement\":\"nodes\""), std::string::npos) << inside.err;
  EXPECT_NE(inside.out.find("1501500,3000"), std::string::npos) << inside.out;
  // What a leak would answer, read in this process (no root applies here).
  pointAt(link, outside / "secret.parquet");
  const QuarryRun leaked = runQuarry({"query", "--format", "csv", text});
  ASSERT_EQ(leaked.exitCode, 0) << leaked.err;
  ASSERT_NE(leaked.out, inside.out);
  // With the link outside for good, every answer is a refusal.
  const QuarryRun refused = runQuarry(args);
  EXPECT_EQ(refused.exitCode, 1) << refused.out;
  EXPECT_NE(refused.err.find("outside the allowed roots"), std::string::npos) << refused.err;

  std::atomic<bool> stop{false};
  std::atomic<int> flips{0};
  std::thread flipper([&] {
    for (int i = 0; i < kMaxFlips && !stop.load(); ++i) {
      pointAt(link, i % 2 == 0 ? root / "target.data" : outside / "secret.parquet");
      flips.fetch_add(1);
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  int answers = 0;
  int refusals = 0;
  int leaks = 0;
  std::string firstLeak;
  const auto until = std::chrono::steady_clock::now() + kQueryTime;
  for (int q = 0; q < kMaxQueries && std::chrono::steady_clock::now() < until; ++q) {
    const QuarryRun run = runQuarry(args);
    if (run.exitCode != 0) {
      ++refusals;
      // A refusal or a file that changed while opened; never a crash.
      EXPECT_EQ(run.exitCode, 1) << run.err;
      continue;
    }
    ++answers;
    if (run.out != inside.out) {
      ++leaks;
      if (firstLeak.empty()) firstLeak = run.out;
    }
  }
  stop = true;
  flipper.join();
  // "zero answers include the outside file's data".
  EXPECT_EQ(leaks, 0) << leaks << " of " << answers << " answers read the outside file, e.g.\n"
                      << firstLeak;
  EXPECT_GT(flips.load(), 1000);
  EXPECT_GT(answers, 0) << refusals << " refusals";
  std::cerr << "[ race ] " << flips.load() << " flips, " << answers << " answers, " << refusals
            << " refusals, " << leaks << " leaks\n";
  cluster.node(0).stop();
  cluster.node(1).stop();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace quarry::cluster
