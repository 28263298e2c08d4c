#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/support/build_paths.h"

/// Runs the built `quarry` binary (QUARRY_BINARY) as a user or a script would,
/// for tests of the CLI's stdout, stderr and exit code.
namespace quarry::testing {

struct QuarryRun {
  int exitCode = -1;
  std::string out;
  std::string err;
};

inline std::string shellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return quoted + "'";
}

/// Runs `quarry ARGS...` through the shell, stderr captured in a temporary file.
/// Without QUARRY_CACHE_DIR in the environment, with QUARRY_CACHE_DIR=off: a test
/// counts what a query reads, which a metadata cache in $HOME would change.
inline QuarryRun runQuarry(const std::vector<std::string>& args) {
  char errPath[] = "/tmp/quarry_cli_test_XXXXXX";
  const int fd = mkstemp(errPath);
  EXPECT_GE(fd, 0);
  close(fd);
  std::string command = "QUARRY_CACHE_DIR=\"${QUARRY_CACHE_DIR-off}\" " + shellQuote(QUARRY_BINARY);
  for (const auto& arg : args) command += " " + shellQuote(arg);
  command += " 2>" + shellQuote(errPath);
  QuarryRun result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    ADD_FAILURE() << "cannot run " << command;
    return result;
  }
  char buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) result.out.append(buffer, n);
  const int status = pclose(pipe);
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream err(errPath, std::ios::binary);
  result.err.assign(std::istreambuf_iterator<char>(err), std::istreambuf_iterator<char>());
  std::filesystem::remove(errPath);
  return result;
}

}  // namespace quarry::testing
