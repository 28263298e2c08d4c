// The data node (cluster/data_node_server.h) in process, called through a gRPC
// stub as a coordinator calls it, and `quarry serve` as a process.
//
// Issue 10: "data nodes require the shared token (constant-time comparison),
// read only under their allowed roots or URI prefixes (no escape through globs,
// `..` or symlinks), and never print secrets".

#include "quarry/cluster/data_node_server.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "quarry/cluster/cluster.grpc.pb.h"
#include "quarry/cluster/token.h"
#include "quarry/cluster/wire.h"
#include "quarry/engine/source/file_split.h"
#include "tests/engine/fragment_test_support.h"
#include "tests/support/build_paths.h"

namespace quarry::cluster {
namespace {

using engine::testing::coordinatorSplits;
using engine::testing::exchangeOf;
using engine::testing::inProcessRows;
using engine::testing::rowsOverExchangePages;
using engine::testing::ScratchDir;

constexpr const char* kSecret = "tok-8f3a9c1e-do-not-print";

/// What an Execute stream brought: pages by group, the commits, the status.
struct Stream {
  std::map<uint32_t, std::vector<proto::Page>> pages;
  std::vector<std::vector<uint32_t>> commits;
  grpc::Status status;
};

class DataNodeServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    engine::testing::copyFixture(root_.path(), 3);
    engine::testing::copyFixture(outside_.path(), 1);
    const std::filesystem::path tokenFile = root_.path() / "token";
    std::ofstream(tokenFile) << kSecret << "\n";
    if (const char* previous = std::getenv("AWS_SECRET_ACCESS_KEY")) previousAwsSecret_ = previous;
    ::setenv("AWS_SECRET_ACCESS_KEY", "aws-secret-never-logged", 1);
    DataNodeOptions options;
    options.listen = "127.0.0.1:0";
    options.token = readTokenFile(tokenFile.string());
    options.allowedRoots = {root_.str(), "https://data.example.com/lake/"};
    options.threads = 2;
    options.log = &log_;
    server_ = std::make_unique<DataNodeServer>(options);
    const int port = server_->start();
    grpc::ChannelArguments arguments;
    arguments.SetMaxReceiveMessageSize(64 << 20);
    // A fixed, small flow-control window: a reader that stops reading stalls the node.
    arguments.SetInt(GRPC_ARG_HTTP2_BDP_PROBE, 0);
    arguments.SetInt(GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH, 64 << 20);
    auto channel = grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(port),
                                             grpc::InsecureChannelCredentials(), arguments);
    stub_ = proto::DataNode::NewStub(channel);
  }

  void TearDown() override {
    stopServer();
    if (previousAwsSecret_) {
      ::setenv("AWS_SECRET_ACCESS_KEY", previousAwsSecret_->c_str(), 1);
    } else {
      ::unsetenv("AWS_SECRET_ACCESS_KEY");
    }
  }

  /// Stops the node; its log may be read after.
  std::string stopServer() {
    if (server_) {
      server_->shutdown();
      server_->wait();
      server_.reset();
    }
    return log_.str();
  }

  std::string from() const { return "FROM \"" + root_.str() + "/*.parquet\""; }

  static engine::PreparedQuery prepare(const std::string& text) {
    return engine::prepareQuery(text, {});
  }

  static proto::ExecuteRequest request(const engine::PreparedQuery& prepared,
                                       const std::string& text,
                                       const std::vector<engine::FileSplit>& splits,
                                       const std::string& id = "q1") {
    proto::ExecuteRequest request;
    request.set_query_id(id);
    request.set_query_text(text);
    toProto(prepared.source.schema, request.mutable_schema());
    for (size_t i = 0; i < splits.size(); ++i) {
      proto::Split* split = request.add_splits();
      split->set_id(static_cast<uint32_t>(10 + i));
      const std::vector<uint8_t> bytes = engine::serialize(splits[i]);
      split->set_file_split(std::string(bytes.begin(), bytes.end()));
    }
    request.set_threads(2);
    return request;
  }

  static void authorize(grpc::ClientContext& context, const std::string& token = kSecret) {
    context.AddMetadata(kAuthorizationKey, "Bearer " + token);
  }

  Stream execute(const proto::ExecuteRequest& request,
                 const std::optional<std::string>& token = kSecret) {
    grpc::ClientContext context;
    if (token) authorize(context, *token);
    Stream stream;
    auto reader = stub_->Execute(&context, request);
    proto::ExecuteResponse response;
    while (reader->Read(&response)) {
      if (response.has_page()) stream.pages[response.group()].push_back(response.page());
      if (response.has_commit()) {
        stream.commits.emplace_back(response.commit().split_ids().begin(),
                                    response.commit().split_ids().end());
      }
    }
    stream.status = reader->Finish();
    return stream;
  }

  /// The committed groups' pages, converted as the coordinator converts them.
  static std::vector<engine::Page> committedPages(const Stream& stream,
                                                  const engine::Schema& schema) {
    std::vector<engine::Page> pages;
    for (const auto& commit : stream.commits) {
      const uint32_t group = commit.size() == 1 ? commit[0] : 0;
      auto it = stream.pages.find(group);
      if (it == stream.pages.end()) continue;
      for (const proto::Page& page : it->second) pages.push_back(fromProto(page, schema));
    }
    return pages;
  }

  ScratchDir root_{"quarry-data-node-root"};
  ScratchDir outside_{"quarry-data-node-outside"};
  std::optional<std::string> previousAwsSecret_;
  std::ostringstream log_;
  std::unique_ptr<DataNodeServer> server_;
  std::unique_ptr<proto::DataNode::Stub> stub_;
};

TEST_F(DataNodeServerTest, ExecuteStreamsPagesPerSplitWhoseFinalMergeEqualsInProcess) {
  const std::string text =
      from() + " | WHERE id % 5 != 1 | STATS n = COUNT(*), total = SUM(id), hi = MAX(s) BY v";
  const engine::PreparedQuery prepared = prepare(text);
  const std::vector<engine::FileSplit> splits = coordinatorSplits(prepared);
  ASSERT_EQ(splits.size(), 3u);
  const Stream stream = execute(request(prepared, text, splits));
  ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
  // Per split: group = split id, then Commit{[id]}.
  std::multiset<std::vector<uint32_t>> commits(stream.commits.begin(), stream.commits.end());
  EXPECT_EQ(commits, (std::multiset<std::vector<uint32_t>>{{10}, {11}, {12}}));
  for (const auto& [group, pages] : stream.pages) EXPECT_TRUE(group >= 10 && group <= 12) << group;
  const engine::Schema schema = exchangeOf(*prepared.plan)->input()->schema;
  EXPECT_EQ(rowsOverExchangePages(prepared, committedPages(stream, schema)),
            inProcessRows(prepared));
}

TEST_F(DataNodeServerTest, StatisticsAnsweredFragmentIsOneGroupCommittingEverySplit) {
  const std::string text = from() + " | STATS n = COUNT(*), lo = MIN(id), hi = MAX(v)";
  const engine::PreparedQuery prepared = prepare(text);
  const Stream stream = execute(request(prepared, text, coordinatorSplits(prepared)));
  ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
  ASSERT_EQ(stream.commits.size(), 1u);
  EXPECT_EQ(stream.commits[0], (std::vector<uint32_t>{10, 11, 12}));
  const engine::Schema schema = exchangeOf(*prepared.plan)->input()->schema;
  EXPECT_EQ(rowsOverExchangePages(prepared, committedPages(stream, schema)),
            std::vector<std::string>{"30000|0|99"});
}

TEST_F(DataNodeServerTest, NoTokenOrWrongTokenIsUnauthenticated) {
  const std::string text = from() + " | STATS n = COUNT(*)";
  const engine::PreparedQuery prepared = prepare(text);
  const proto::ExecuteRequest r = request(prepared, text, coordinatorSplits(prepared));
  EXPECT_EQ(execute(r, std::nullopt).status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(execute(r, "presented-wrong-token").status.error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(execute(r, std::string(kSecret) + "x").status.error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  grpc::ClientContext context;
  context.AddMetadata(kAuthorizationKey, kSecret);  // without "Bearer "
  proto::HealthResponse health;
  EXPECT_EQ(stub_->Health(&context, {}, &health).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  const std::string log = stopServer();
  EXPECT_NE(log.find("refused Execute"), std::string::npos) << log;
  EXPECT_NE(log.find("reason=wrong token"), std::string::npos) << log;
  EXPECT_NE(log.find("reason=no token"), std::string::npos) << log;
  // "the refusal is logged without secrets"
  EXPECT_EQ(log.find(kSecret), std::string::npos) << log;
  EXPECT_EQ(log.find("tok-8f3a9c1e"), std::string::npos) << log;
  EXPECT_EQ(log.find("presented-wrong-token"), std::string::npos) << log;
  EXPECT_EQ(log.find("aws-secret-never-logged"), std::string::npos) << log;
}

TEST_F(DataNodeServerTest, SplitOutsideTheRootsIsPermissionDenied) {
  const std::string text = from() + " | STATS n = COUNT(*)";
  const engine::PreparedQuery prepared = prepare(text);
  const std::vector<engine::FileSplit> inside = coordinatorSplits(prepared);
  std::filesystem::create_symlink(outside_.path() / "part0.parquet", root_.path() / "link.parquet");
  std::filesystem::create_directory_symlink(outside_.path(), root_.path() / "linkdir");
  const std::string escapes[] = {
      (outside_.path() / "part0.parquet").string(),
      root_.str() + "/../" + outside_.path().filename().string() + "/part0.parquet",
      (root_.path() / "link.parquet").string(),
      (root_.path() / "linkdir" / "part0.parquet").string(),
      "file://" + (outside_.path() / "part0.parquet").string(),
      "https://data.example.com/lake/../private/x.parquet",
      "https://data.example.com/lake/%2E%2E/private/x.parquet",
      "https://data.example.com/lakeside/x.parquet",
      "https://user:pw-in-uri@other.example.com/x.parquet",
      "gs://bucket/x.parquet",
  };
  for (const std::string& uri : escapes) {
    std::vector<engine::FileSplit> splits = inside;
    splits[1].uri = uri;
    const Stream stream = execute(request(prepared, text, splits));
    EXPECT_EQ(stream.status.error_code(), grpc::StatusCode::PERMISSION_DENIED) << uri;
    EXPECT_NE(stream.status.error_message().find("split 11"), std::string::npos)
        << stream.status.error_message();
    EXPECT_TRUE(stream.commits.empty() && stream.pages.empty()) << uri;
  }
  const std::string log = stopServer();
  EXPECT_NE(log.find("outside the allowed roots"), std::string::npos) << log;
  EXPECT_EQ(log.find("pw-in-uri"), std::string::npos) << log;
}

TEST_F(DataNodeServerTest, CorruptSplitOrBadQueryIsInvalidArgument) {
  const std::string text = from() + " | STATS n = COUNT(*)";
  const engine::PreparedQuery prepared = prepare(text);
  proto::ExecuteRequest r = request(prepared, text, coordinatorSplits(prepared));
  r.mutable_splits(0)->set_file_split("\x02garbage");
  EXPECT_EQ(execute(r).status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  r = request(prepared, from() + " | WHERE nope > 1", coordinatorSplits(prepared));
  const Stream stream = execute(r);
  EXPECT_EQ(stream.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(stream.status.error_message().find("nope"), std::string::npos)
      << stream.status.error_message();
}

TEST_F(DataNodeServerTest, ErrorWhileRunningNamesTheFile) {
  const std::string text = from() + " | STATS n = COUNT(*), total = SUM(id)";
  const engine::PreparedQuery prepared = prepare(text);
  const std::vector<engine::FileSplit> splits = coordinatorSplits(prepared);
  const std::string victim = splits[1].uri;
  std::ofstream(victim, std::ios::binary | std::ios::trunc) << "not a parquet file at all";
  const Stream stream = execute(request(prepared, text, splits));
  EXPECT_FALSE(stream.status.ok());
  EXPECT_NE(stream.status.error_message().find(victim), std::string::npos)
      << stream.status.error_message();
  // No commit for the failed split.
  for (const auto& commit : stream.commits) EXPECT_NE(commit, std::vector<uint32_t>{11});
}

TEST_F(DataNodeServerTest, HealthReportsVersionThreadsAndRunningQueries) {
  grpc::ClientContext context;
  authorize(context);
  proto::HealthResponse health;
  const grpc::Status status = stub_->Health(&context, {}, &health);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_FALSE(health.version().empty());
  EXPECT_EQ(health.threads(), 2u);
  EXPECT_EQ(health.running_queries(), 0u);
  const std::string log = stopServer();
  EXPECT_NE(log.find("Health peer="), std::string::npos) << log;
  EXPECT_NE(log.find("outcome=OK"), std::string::npos) << log;
}

TEST_F(DataNodeServerTest, CancelStopsARunningExecute) {
  engine::testing::copyFixture(root_.path(), 40);
  const std::string text = from() + " | WHERE id >= 0";  // every row, streamed
  const engine::PreparedQuery prepared = prepare(text);
  const std::vector<engine::FileSplit> splits = coordinatorSplits(prepared);
  ASSERT_EQ(splits.size(), 40u);
  grpc::ClientContext context;
  authorize(context);
  auto reader = stub_->Execute(&context, request(prepared, text, splits, "long-query"));
  proto::ExecuteResponse response;
  ASSERT_TRUE(reader->Read(&response));
  {
    grpc::ClientContext cancelContext;
    authorize(cancelContext);
    proto::CancelRequest cancel;
    cancel.set_query_id("long-query");
    proto::CancelResponse cancelled;
    ASSERT_TRUE(stub_->Cancel(&cancelContext, cancel, &cancelled).ok());
  }
  size_t commits = 0;
  while (reader->Read(&response)) commits += response.has_commit() ? 1 : 0;
  const grpc::Status status = reader->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::CANCELLED) << status.error_message();
  EXPECT_LT(commits, 40u);
  grpc::ClientContext healthContext;
  authorize(healthContext);
  proto::HealthResponse health;
  ASSERT_TRUE(stub_->Health(&healthContext, {}, &health).ok());
  EXPECT_EQ(health.running_queries(), 0u);
}

TEST_F(DataNodeServerTest, ClientCancellationStopsTheNode) {
  engine::testing::copyFixture(root_.path(), 40);
  const std::string text = from() + " | WHERE id >= 0";
  const engine::PreparedQuery prepared = prepare(text);
  {
    grpc::ClientContext context;
    authorize(context);
    auto reader =
        stub_->Execute(&context, request(prepared, text, coordinatorSplits(prepared), "abandoned"));
    proto::ExecuteResponse response;
    ASSERT_TRUE(reader->Read(&response));
    context.TryCancel();
    while (reader->Read(&response)) {
    }
    EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::CANCELLED);
  }
  // The node notices and ends the call: nothing stays running.
  uint32_t running = 1;
  for (int attempt = 0; attempt < 100 && running > 0; ++attempt) {
    grpc::ClientContext context;
    authorize(context);
    proto::HealthResponse health;
    ASSERT_TRUE(stub_->Health(&context, {}, &health).ok());
    running = health.running_queries();
    if (running > 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(running, 0u);
}

// ---- quarry serve as a process ---------------------------------------------

struct Process {
  pid_t pid = -1;
  FILE* out = nullptr;
};

/// Starts `quarry ARGS...` with stdout on a pipe (stderr to `errPath`).
Process spawnQuarry(const std::vector<std::string>& args, const std::string& errPath) {
  int pipeFds[2];
  if (pipe(pipeFds) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipeFds[1], 1);
    FILE* err = std::fopen(errPath.c_str(), "w");
    if (err != nullptr) dup2(fileno(err), 2);
    close(pipeFds[0]);
    close(pipeFds[1]);
    std::vector<char*> argv;
    std::string binary = QUARRY_BINARY;
    argv.push_back(binary.data());
    std::vector<std::string> copies = args;
    for (std::string& arg : copies) argv.push_back(arg.data());
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  close(pipeFds[1]);
  return {pid, fdopen(pipeFds[0], "r")};
}

int waitExit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(QuarryServe, ListensAnswersHealthAndExitsCleanlyOnSigterm) {
  ScratchDir dir("quarry-serve-process");
  const std::string tokenFile = (dir.path() / "token").string();
  std::ofstream(tokenFile) << kSecret << "\n";
  const std::string errPath = (dir.path() / "stderr").string();
  Process process = spawnQuarry({"serve", "--listen", "127.0.0.1:0", "--token-file", tokenFile,
                                 "--allow-root", dir.str(), "--threads", "3"},
                                errPath);
  ASSERT_GT(process.pid, 0);
  char line[256] = {0};
  ASSERT_NE(std::fgets(line, sizeof(line), process.out), nullptr) << readFile(errPath);
  const std::string prefix = "quarry serve: listening on 127.0.0.1:";
  const std::string text(line);
  ASSERT_EQ(text.rfind(prefix, 0), 0u) << text;
  const int port = std::stoi(text.substr(prefix.size()));
  EXPECT_GT(port, 0);

  auto stub = proto::DataNode::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.AddMetadata(kAuthorizationKey, std::string("Bearer ") + kSecret);
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  proto::HealthResponse health;
  const grpc::Status status = stub->Health(&context, {}, &health);
  EXPECT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(health.threads(), 3u);

  kill(process.pid, SIGTERM);
  EXPECT_EQ(waitExit(process.pid), 0) << readFile(errPath);
  std::fclose(process.out);
  const std::string err = readFile(errPath);
  EXPECT_NE(err.find("Health peer="), std::string::npos) << err;
  EXPECT_EQ(err.find(kSecret), std::string::npos) << err;
}

TEST(QuarryServe, UsageErrorsExitTwoAndABadTokenFileExitsOne) {
  ScratchDir dir("quarry-serve-usage");
  const std::string errPath = (dir.path() / "stderr").string();
  const std::string tokenFile = (dir.path() / "token").string();
  std::ofstream(tokenFile) << kSecret;
  // --allow-root is required.
  Process noRoot =
      spawnQuarry({"serve", "--listen", "127.0.0.1:0", "--token-file", tokenFile}, errPath);
  EXPECT_EQ(waitExit(noRoot.pid), 2);
  std::fclose(noRoot.out);
  EXPECT_NE(readFile(errPath).find("--allow-root"), std::string::npos) << readFile(errPath);
  Process badListen = spawnQuarry(
      {"serve", "--listen", "localhost", "--token-file", tokenFile, "--allow-root", dir.str()},
      errPath);
  EXPECT_EQ(waitExit(badListen.pid), 2);
  std::fclose(badListen.out);

  const std::string missing = (dir.path() / "missing-token").string();
  Process noToken = spawnQuarry(
      {"serve", "--listen", "127.0.0.1:0", "--token-file", missing, "--allow-root", dir.str()},
      errPath);
  EXPECT_EQ(waitExit(noToken.pid), 1);
  std::fclose(noToken.out);
  EXPECT_NE(readFile(errPath).find(missing), std::string::npos) << readFile(errPath);

  const std::string empty = (dir.path() / "empty-token").string();
  std::ofstream(empty) << "\n";
  Process emptyToken = spawnQuarry(
      {"serve", "--listen", "127.0.0.1:0", "--token-file", empty, "--allow-root", dir.str()},
      errPath);
  EXPECT_EQ(waitExit(emptyToken.pid), 1);
  std::fclose(emptyToken.out);
  EXPECT_NE(readFile(errPath).find("empty"), std::string::npos) << readFile(errPath);
}

}  // namespace
}  // namespace quarry::cluster
