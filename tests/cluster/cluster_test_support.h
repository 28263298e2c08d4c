#pragma once

#include <gtest/gtest.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "tests/cli/quarry_run.h"
#include "tests/support/build_paths.h"

/// Data nodes for tests: `quarry serve` processes on 127.0.0.1, each on a port
/// the kernel picks (--listen 127.0.0.1:0), learnt from the one line the node
/// prints when ready ("quarry serve: listening on 127.0.0.1:PORT"); stopped (or
/// killed) by pid, never by name.
namespace quarry::testing {

class DataNodeProcess {
 public:
  /// Starts a node serving files under `root` with the token in `tokenFile`;
  /// its stderr goes to `logFile`. Fails the test (and returns nullptr) when the
  /// node does not report its port within 30 seconds.
  static std::unique_ptr<DataNodeProcess> start(const std::string& tokenFile, const std::string& root,
                                                const std::string& logFile) {
    int out[2];
    if (pipe(out) != 0) {
      ADD_FAILURE() << "pipe failed";
      return nullptr;
    }
    const pid_t pid = fork();
    if (pid == 0) {
      dup2(out[1], STDOUT_FILENO);
      close(out[0]);
      close(out[1]);
      const int err = ::open(logFile.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (err >= 0) dup2(err, STDERR_FILENO);
      const std::string binary = QUARRY_BINARY;
      execl(binary.c_str(), binary.c_str(), "serve", "--listen", "127.0.0.1:0", "--token-file", tokenFile.c_str(),
            "--allow-root", root.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(out[1]);
    auto node = std::unique_ptr<DataNodeProcess>(new DataNodeProcess(pid, out[0]));
    const std::string prefix = "quarry serve: listening on 127.0.0.1:";
    std::string line;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (line.find('\n') == std::string::npos && std::chrono::steady_clock::now() < until) {
      pollfd fd{out[0], POLLIN, 0};
      if (poll(&fd, 1, 200) <= 0) continue;
      char buffer[256];
      const ssize_t n = read(out[0], buffer, sizeof(buffer));
      if (n <= 0) break;
      line.append(buffer, static_cast<size_t>(n));
    }
    if (line.rfind(prefix, 0) != 0 || line.find('\n') == std::string::npos) {
      std::ifstream log(logFile);
      const std::string err((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
      ADD_FAILURE() << "the data node did not report its port; stdout: [" << line << "] stderr: " << err;
      return nullptr;
    }
    node->port_ = std::stoi(line.substr(prefix.size()));
    return node;
  }

  ~DataNodeProcess() { stop(); }
  DataNodeProcess(const DataNodeProcess&) = delete;
  DataNodeProcess& operator=(const DataNodeProcess&) = delete;

  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }

  /// kill -9: the node vanishes mid-stream, as a crashed host would.
  void kill9() { signalAndWait(SIGKILL); }
  /// SIGTERM, then SIGKILL if the node has not ended within 5 seconds.
  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        finish();
        return;
      }
      usleep(50'000);
    }
    signalAndWait(SIGKILL);
  }

 private:
  DataNodeProcess(pid_t pid, int out) : pid_(pid), out_(out) {}
  void signalAndWait(int signal) {
    if (pid_ <= 0) return;
    ::kill(pid_, signal);
    int status = 0;
    waitpid(pid_, &status, 0);
    finish();
  }
  void finish() {
    pid_ = -1;
    if (out_ >= 0) close(out_);
    out_ = -1;
  }

  pid_t pid_;
  int out_;
  int port_ = 0;
};

/// A set of data nodes sharing one token and one allowed root.
class TestCluster {
 public:
  TestCluster(std::filesystem::path dir, std::string root, size_t count) : dir_(std::move(dir)), root_(std::move(root)) {
    std::filesystem::create_directories(dir_);
    tokenFile_ = (dir_ / "token").string();
    std::ofstream(tokenFile_) << "s3cret-token-for-tests\n";
    for (size_t i = 0; i < count; ++i) add();
  }

  /// Starts one more node; returns its index.
  size_t add() {
    const std::string log = (dir_ / ("node" + std::to_string(started_++) + ".log")).string();
    nodes_.push_back(DataNodeProcess::start(tokenFile_, root_, log));
    return nodes_.size() - 1;
  }
  /// Replaces node `i` (killed or not) with a fresh one.
  void restart(size_t i) {
    nodes_[i].reset();
    const std::string log = (dir_ / ("node" + std::to_string(started_++) + ".log")).string();
    nodes_[i] = DataNodeProcess::start(tokenFile_, root_, log);
  }

  bool ready() const {
    for (const auto& node : nodes_) {
      if (!node) return false;
    }
    return !nodes_.empty();
  }
  DataNodeProcess& node(size_t i) { return *nodes_[i]; }
  size_t size() const { return nodes_.size(); }
  const std::string& tokenFile() const { return tokenFile_; }

  /// "--nodes a,b,c --token-file F".
  std::vector<std::string> arguments() const {
    std::string list;
    for (const auto& node : nodes_) list += (list.empty() ? "" : ",") + node->address();
    return {"--nodes", list, "--token-file", tokenFile_};
  }

 private:
  std::filesystem::path dir_;
  std::string root_;
  std::string tokenFile_;
  std::vector<std::unique_ptr<DataNodeProcess>> nodes_;
  size_t started_ = 0;
};

}  // namespace quarry::testing
