// cluster/token.h: "Token files: one trailing newline (\n or \r\n) trimmed; any
// other byte outside printable ASCII (0x21-0x7E) refused by both `serve` and
// `query --nodes` at start, exit 1, with a message naming the file and the
// byte's position and kind but never echoing the token". Before, such a file
// was taken by `serve` and aborted `query --nodes` in gRPC's metadata check,
// which printed the token.

#include "quarry/cluster/token.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "quarry/common/error.h"
#include "tests/cli/quarry_run.h"
#include "tests/cluster/cluster_data_fixture.h"
#include "tests/cluster/cluster_test_support.h"
#include "tests/engine/fragment_test_support.h"
#include "tests/support/build_paths.h"

namespace quarry::cluster {
namespace {

namespace fs = std::filesystem;
using engine::testing::ScratchDir;
using quarry::testing::DataNodeProcess;
using quarry::testing::QuarryRun;
using quarry::testing::runQuarry;
using quarry::testing::writeValuesFile;

/// Text before and after the bad byte: neither may appear in any output.
constexpr const char* kHead = "head-of-the-token-7c1";
constexpr const char* kTail = "tail-of-the-token-4e9";

struct BadToken {
  const char* name;
  std::string content;
  const char* kind;  // what the message calls the byte
  size_t position;   // 1-based
};

std::vector<BadToken> badTokens() {
  const std::string head = kHead;
  const std::string tail = kTail;
  const size_t at = head.size() + 1;
  return {
      {"newline-inside", head + "\n" + tail + "\n", "a line break (0x0A)", at},
      {"tab", head + "\t" + tail, "a tab (0x09)", at},
      {"control", head + std::string(1, '\x01') + tail, "a control byte (0x01)", at},
      {"non-ascii", head + "\xC3\xA9" + tail, "a non-ASCII byte (0xC3)", at},
      {"space", head + " " + tail, "a space (0x20)", at},
      {"two-newlines", head + tail + "\n\n", "a line break (0x0A)", at + tail.size()},
      {"lone-carriage-return", head + tail + "\r", "a carriage return (0x0D)", at + tail.size()},
  };
}

void write(const fs::path& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

TEST(TokenFile, OneTrailingLineBreakIsTakenOff) {
  ScratchDir dir("quarry-token-file");
  for (const char* ending : {"", "\n", "\r\n"}) {
    write(dir.path() / "token", std::string(kHead) + ending);
    EXPECT_EQ(readTokenFile((dir.path() / "token").string()), kHead);
  }
}

TEST(TokenFile, BadBytesAreRefusedNamingTheFilePositionAndKindButNotTheToken) {
  ScratchDir dir("quarry-token-file");
  for (const BadToken& bad : badTokens()) {
    const fs::path file = dir.path() / bad.name;
    write(file, bad.content);
    try {
      readTokenFile(file.string());
      ADD_FAILURE() << bad.name << " was taken";
    } catch (const InvalidArgument& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(file.string()), std::string::npos) << message;
      EXPECT_NE(message.find(std::string(bad.kind) + " at byte " + std::to_string(bad.position)),
                std::string::npos)
          << message;
      EXPECT_EQ(message.find(kHead), std::string::npos) << message;
      EXPECT_EQ(message.find(kTail), std::string::npos) << message;
    }
  }
}

/// Runs `quarry ARGS...` with stdout and stderr captured; kills it after 15
/// seconds (a node that took a bad token would serve until stopped).
struct Outcome {
  int exitCode = -1;
  bool timedOut = false;
  std::string output;  // stdout and stderr
};

Outcome runBounded(const std::vector<std::string>& args, const fs::path& outputFile) {
  const pid_t pid = fork();
  if (pid == 0) {
    FILE* out = std::fopen(outputFile.c_str(), "w");
    if (out != nullptr) {
      dup2(fileno(out), 1);
      dup2(fileno(out), 2);
    }
    std::vector<std::string> copies = args;
    std::string binary = QUARRY_BINARY;
    std::vector<char*> argv{binary.data()};
    for (std::string& arg : copies) argv.push_back(arg.data());
    argv.push_back(nullptr);
    ::setenv("QUARRY_CACHE_DIR", "off", 1);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  Outcome outcome;
  int status = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > until) {
      outcome.timedOut = true;
      ::kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  outcome.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream in(outputFile, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  outcome.output = text.str();
  return outcome;
}

void expectRefused(const Outcome& run, const BadToken& bad, const fs::path& file) {
  EXPECT_FALSE(run.timedOut) << bad.name << ": still running after 15 s";
  EXPECT_EQ(run.exitCode, 1) << bad.name << ": " << run.output;
  EXPECT_NE(run.output.find("the token file " + file.string()), std::string::npos) << run.output;
  EXPECT_NE(run.output.find(std::string(bad.kind) + " at byte " + std::to_string(bad.position)),
            std::string::npos)
      << run.output;
  EXPECT_EQ(run.output.find(kHead), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find(kTail), std::string::npos) << run.output;
}

TEST(TokenFile, ServeAndQueryRefuseABadTokenFileAtStartWithoutPrintingIt) {
  ScratchDir dir("quarry-token-process");
  writeValuesFile(dir.path() / "a.parquet", 1, 10);
  writeValuesFile(dir.path() / "b.parquet", 1, 10);
  const std::string text = "FROM \"" + dir.str() + "/*.parquet\" | STATS s = SUM(x)";
  for (const BadToken& bad : badTokens()) {
    SCOPED_TRACE(bad.name);
    const fs::path file = dir.path() / (std::string(bad.name) + ".token");
    write(file, bad.content);
    expectRefused(runBounded({"serve", "--listen", "127.0.0.1:0", "--token-file", file.string(),
                              "--allow-root", dir.str()},
                             dir.path() / "serve.out"),
                  bad, file);
    // No node is listening on port 1: the token is refused before any call.
    expectRefused(runBounded({"query", "--nodes", "127.0.0.1:1,127.0.0.1:2", "--token-file",
                              file.string(), text},
                             dir.path() / "query.out"),
                  bad, file);
  }
}

TEST(TokenFile, AFileWithATrailingCrLfAuthenticatesAgainstOneWithALineFeed) {
  ScratchDir dir("quarry-token-crlf");
  writeValuesFile(dir.path() / "a.parquet", 1, 10);
  writeValuesFile(dir.path() / "b.parquet", 1, 10);
  const fs::path nodeToken = dir.path() / "node.token";
  const fs::path clientToken = dir.path() / "client.token";
  write(nodeToken, std::string(kHead) + "\n");
  write(clientToken, std::string(kHead) + "\r\n");
  auto node =
      DataNodeProcess::start(nodeToken.string(), dir.str(), (dir.path() / "node.log").string());
  ASSERT_NE(node, nullptr);
  const QuarryRun run = runQuarry(
      {"query", "--nodes", node->address(), "--token-file", clientToken.string(), "--format", "csv",
       "--profile", "FROM \"" + dir.str() + "/*.parquet\" | WHERE x > 0 | STATS s = SUM(x)"});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("110"), std::string::npos) << run.out;
  EXPECT_NE(run.err.find("\"placement\":\"nodes\""), std::string::npos) << run.err;
  node->stop();
  std::ifstream log(dir.path() / "node.log");
  const std::string logText((std::istreambuf_iterator<char>(log)),
                            std::istreambuf_iterator<char>());
  EXPECT_NE(logText.find("Execute"), std::string::npos) << logText;
  EXPECT_EQ(logText.find(kHead), std::string::npos) << logText;
}

}  // namespace
}  // namespace quarry::cluster
