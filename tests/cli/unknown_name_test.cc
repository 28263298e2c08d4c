// Issue 26, item 9: a mistyped subcommand, option or inspect view gets "did you
// mean ...?" and exit code 2 instead of CLI11's "A subcommand is required".
#include "quarry/cli/unknown_name.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "quarry/cli/inspect_command.h"
#include "quarry/cli/print_command.h"
#include "quarry/cli/query_command.h"
#include "tests/cli/quarry_run.h"
#include "tests/support/build_paths.h"
#include "tests/support/temp_dir.h"

namespace quarry::cli {
namespace {

namespace fs = std::filesystem;
using quarry::testing::runQuarry;

std::string sample() {
  return std::string(QUARRY_SOURCE_DIR) + "/data/sample/trips.parquet";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// Parses `words` with the commands main.cc registers and returns unknownNameMessage.
std::string messageFor(std::vector<std::string> words) {
  CLI::App app("quarry", "quarry");
  app.set_version_flag("--version", "quarry 0");
  app.require_subcommand(1);
  InspectOptions inspect;
  addInspectCommand(app, inspect);
  PrintOptions print;
  addPrintCommand(app, print);
  QueryOptions query;
  addQueryCommand(app, query);
  std::reverse(words.begin(), words.end());  // CLI11 takes the arguments last first
  try {
    app.parse(words);
  } catch (const CLI::ParseError&) {
    return unknownNameMessage(app);
  }
  return "(parsed)";
}

TEST(UnknownName, AMistypedSubcommandOrOptionGetsTheNearestName) {
  // Issue 26: "`quarry qeury ...` and `quarry --versoin` say 'A subcommand is required'".
  EXPECT_EQ(messageFor({"qeury", "FROM x"}), "unknown command 'qeury'; did you mean 'query'?");
  EXPECT_EQ(messageFor({"--versoin"}), "unknown option '--versoin'; did you mean '--version'?");
  EXPECT_EQ(messageFor({"print", "f.parquet", "--colums", "a"}),
            "unknown option '--colums'; did you mean '--columns'?");
  EXPECT_EQ(messageFor({"print", "f.parquet", "--hed=3"}),
            "unknown option '--hed'; did you mean '--head'?");
  EXPECT_EQ(messageFor({"query", "FROM x", "--formt", "csv"}),
            "unknown option '--formt'; did you mean '--format'?");
  EXPECT_EQ(messageFor({"zzzzzz"}), "unknown command 'zzzzzz'");
  EXPECT_EQ(messageFor({"print", "f.parquet", "--zzzzzz"}), "unknown option '--zzzzzz'");
  EXPECT_EQ(messageFor({"print"}), "");  // FILE missing: CLI11's own message says so
}

TEST(UnknownName, AViewNameIsOnlyTakenForAWordThatIsNoFile) {
  const std::vector<std::string> views = {"rowgroups", "columns", "pages"};
  EXPECT_EQ(unknownViewMessage("rowgroup", views),
            "unknown view 'rowgroup'; did you mean 'rowgroups'?");
  EXPECT_EQ(unknownViewMessage("colums", views), "unknown view 'colums'; did you mean 'columns'?");
  EXPECT_EQ(unknownViewMessage("trips", views), "");  // not close to a view: a file name
  EXPECT_EQ(unknownViewMessage("./rowgroup", views), "");
  EXPECT_EQ(unknownViewMessage("rowgroup.parquet", views), "");
  EXPECT_EQ(unknownViewMessage("rowgroup*", views), "");
  EXPECT_EQ(unknownViewMessage("s3://b/rowgroup", views), "");
}

TEST(UnknownNameCli, AMistypedSubcommandIsAUsageErrorWithAHint) {
  auto run = runQuarry({"qeury", "FROM \"" + sample() + "\" | LIMIT 1"});
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_TRUE(contains(run.err, "quarry: unknown command 'qeury'; did you mean 'query'?"))
      << run.err;

  run = runQuarry({"--versoin"});
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_TRUE(contains(run.err, "quarry: unknown option '--versoin'; did you mean '--version'?"))
      << run.err;

  run = runQuarry({"print", sample(), "--colums", "vendor"});
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_TRUE(contains(run.err, "unknown option '--colums'; did you mean '--columns'?")) << run.err;
}

TEST(UnknownNameCli, InspectTakesANearMissOfAViewForTheViewUnlessAFileHasThatName) {
  // Issue 26: "`inspect rowgroup f` takes 'rowgroup' for a file".
  auto run = runQuarry({"inspect", "rowgroup", sample()});
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_TRUE(contains(run.err, "quarry: unknown view 'rowgroup'; did you mean 'rowgroups'?"))
      << run.err;

  // A file that is really called rowgroup is opened as one.
  quarry::testing::TempDir dir("quarry_view_name");
  std::ofstream(dir.path() / "rowgroup") << "not parquet";
  const fs::path before = fs::current_path();
  fs::current_path(dir.path());
  run = runQuarry({"inspect", "rowgroup"});
  fs::current_path(before);
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_FALSE(contains(run.err, "unknown view")) << run.err;
  EXPECT_TRUE(contains(run.err, "rowgroup")) << run.err;
}

}  // namespace
}  // namespace quarry::cli
