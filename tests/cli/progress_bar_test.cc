// The progress line of `query`, `print` and `convert` (issue 26, item 11: "`print`
// and `convert` show no progress on long work (query does)"): drawn on stderr when
// it is a terminal, erased when the work ends, never written to a pipe or a file.
#include "quarry/cli/progress_bar.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "tests/cli/quarry_run.h"
#include "tests/support/build_paths.h"
#include "tests/support/temp_dir.h"

namespace quarry::cli {
namespace {

std::string sample() {
  return std::string(QUARRY_SOURCE_DIR) + "/data/sample/trips.parquet";
}

TEST(ProgressBar, LineShowsABarAgainstAKnownTotalAndACountOtherwise) {
  EXPECT_EQ(ProgressBar::line({5, 10, 3 << 20}, "rows"),
            "[===============               ] 5/10 rows, 3.0 MiB read ");
  EXPECT_EQ(ProgressBar::line({12, 10, 0}, "splits"),
            "[==============================] 10/10 splits, 0.0 MiB read ");  // never past the end
  EXPECT_EQ(ProgressBar::line({1234, 0, 1 << 19}, "rows"), "1234 rows, 0.5 MiB read ");
}

TEST(ProgressBar, CountersSampleWhatTheWorkPublished) {
  ProgressCounters counters;
  counters.done = 7;
  counters.total = 9;
  counters.bytesRead = 11;
  const ProgressBar::Sample sample = counters.sample();
  EXPECT_EQ(sample.done, 7u);
  EXPECT_EQ(sample.total, 9u);
  EXPECT_EQ(sample.bytesRead, 11u);
}

struct TerminalRun {
  int exitCode = -1;
  std::string terminal;  // what reached stderr, a terminal
  std::string out;       // stdout, a file
};

/// Runs quarry with stderr on a pseudo-terminal and stdout in a file (or on the
/// same terminal, as a user at a shell has it), the progress line drawn at once
/// (QUARRY_PROGRESS_DELAY_MS=0).
TerminalRun runOnTerminal(const std::vector<std::string>& args, bool stdoutOnTerminal = false) {
  TerminalRun result;
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
    ADD_FAILURE() << "no pseudo-terminal";
    return result;
  }
  // The test holds the terminal open too, so that it reads no end before quarry opens it.
  const int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
  quarry::testing::TempDir dir("quarry_progress");
  const std::string outPath = (dir.path() / "out").string();
  // Everything the child needs is made before fork: it only opens, dups and execs.
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(QUARRY_BINARY));
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  std::vector<std::string> variables = {"QUARRY_PROGRESS_DELAY_MS=0", "QUARRY_CACHE_DIR=off"};
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    if (!text.starts_with("QUARRY_PROGRESS_DELAY_MS=") && !text.starts_with("QUARRY_CACHE_DIR=")) {
      variables.emplace_back(text);
    }
  }
  std::vector<char*> envp;
  for (std::string& variable : variables) envp.push_back(variable.data());
  envp.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int out = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (slave < 0 || out < 0) _exit(126);
    dup2(slave, STDERR_FILENO);
    dup2(stdoutOnTerminal ? slave : out, STDOUT_FILENO);
    execve(QUARRY_BINARY, argv.data(), envp.data());
    _exit(127);
  }
  // Read the terminal while quarry runs (its buffer is small), then what is left.
  char buffer[4096];
  const auto drain = [&](int timeoutMs) {
    pollfd fd{master, POLLIN, 0};
    while (poll(&fd, 1, timeoutMs) > 0 && (fd.revents & POLLIN) != 0) {
      const ssize_t n = read(master, buffer, sizeof(buffer));
      if (n <= 0) break;
      result.terminal.append(buffer, static_cast<size_t>(n));
      timeoutMs = 0;
    }
  };
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) != pid) drain(50);
  drain(0);
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  close(slave);
  close(master);
  std::ifstream out(outPath, std::ios::binary);
  result.out.assign(std::istreambuf_iterator<char>(out), std::istreambuf_iterator<char>());
  return result;
}

TEST(ProgressBar, PrintAndConvertDrawItOnATerminalAndEraseIt) {
  const std::vector<std::vector<std::string>> commands = {
      {"print", sample(), "--format", "csv"},
      {"print", sample(), sample(), "--format", "ndjson", "--head", "15000"},
      {"convert", sample(), "--to", "csv"},
      {"query", "FROM \"" + sample() + "\" | WHERE fare_amount > 0 | STATS n = COUNT(*)",
       "--format", "csv"},
  };
  // Several files: their rows are counted before the first is printed, so the very
  // first line has the total (one file's total comes as it is opened).
  const std::vector<std::string> expected = {" rows, ", "] 0/15000 rows, ", " rows, ", " splits, "};
  for (size_t i = 0; i < commands.size(); ++i) {
    const TerminalRun run = runOnTerminal(commands[i]);
    EXPECT_EQ(run.exitCode, 0) << commands[i][0] << ": " << run.terminal;
    EXPECT_NE(run.terminal.find(expected[i]), std::string::npos)
        << commands[i][0] << ": " << run.terminal;
    EXPECT_NE(run.terminal.find("MiB read"), std::string::npos) << run.terminal;
    // Erased at the end, and nothing of it in the output.
    EXPECT_NE(run.terminal.rfind("\r\033[K"), std::string::npos) << run.terminal;
    EXPECT_EQ(run.out.find("MiB read"), std::string::npos);
    EXPECT_FALSE(run.out.empty());
  }
}

// Issue 26: the table streams, so a line redrawn five times a second would land
// among its rows when both share the terminal. The line is drawn while the query
// works and erased before the first row is written, never drawn again.
TEST(ProgressBar, QueryStopsTheLineBeforeItsFirstRowOnTheSameTerminal) {
  for (const std::string format : {"table", "csv"}) {
    const TerminalRun run = runOnTerminal(
        {"query", "FROM \"" + sample() + "\" | KEEP vendor | LIMIT 3", "--format", format}, true);
    EXPECT_EQ(run.exitCode, 0) << run.terminal;
    const size_t drawn = run.terminal.rfind("MiB read");
    const size_t header = run.terminal.find("vendor");
    ASSERT_NE(drawn, std::string::npos) << format << ": " << run.terminal;
    ASSERT_NE(header, std::string::npos) << format << ": " << run.terminal;
    EXPECT_LT(drawn, header) << format << ": the line was drawn after the rows began:\n" << run.terminal;
    const size_t erased = run.terminal.find("\r\033[K", drawn);
    EXPECT_LT(erased, header) << format << ": not erased before the rows:\n" << run.terminal;
    EXPECT_EQ(run.terminal.find(" splits, ", header), std::string::npos) << run.terminal;
  }
}

TEST(ProgressBar, NothingIsDrawnWhenStderrIsNoTerminal) {
  ::setenv("QUARRY_PROGRESS_DELAY_MS", "0", 1);
  const auto run = quarry::testing::runQuarry({"print", sample(), "--format", "csv"});
  ::unsetenv("QUARRY_PROGRESS_DELAY_MS");
  EXPECT_EQ(run.exitCode, 0);
  EXPECT_EQ(run.err, "");
}

}  // namespace
}  // namespace quarry::cli
