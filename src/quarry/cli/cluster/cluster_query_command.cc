#include "quarry/cli/cluster/cluster_query_command.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <random>
#include <vector>

#include "quarry/cli/parameter_arguments.h"
#include "quarry/cli/query_command.h"
#include "quarry/cluster/cluster_file.h"
#include "quarry/cluster/data_node_client.h"
#include "quarry/cluster/remote_exchange.h"
#include "quarry/cluster/token.h"
#include "quarry/common/error.h"
#include "quarry/engine/query_engine.h"

namespace quarry::cluster {

namespace {

constexpr int kExitFailure = 1;
constexpr int64_t kDefaultTimeoutMs = 10 * 60 * 1000;

/// Whether the chain from `node` down to its source holds only LimitExec and
/// ProjectExec nodes over an ExternalSourceExec (`FROM ... | LIMIT n`): the
/// limit pushed into the scan reads a few rows, faster here than a round trip.
bool isLimitOnly(const engine::PlanNode& node) {
  const engine::PlanNode* current = &node;
  bool limit = false;
  while (!current->children.empty()) {
    if (current->kind == engine::PlanKind::kLimit) {
      limit = true;
    } else if (current->kind != engine::PlanKind::kProject) {
      return false;
    }
    current = current->children[0].get();
  }
  return limit || current->request.limit.has_value();
}

std::string randomQueryId() {
  std::random_device device;
  std::mt19937_64 engine((static_cast<uint64_t>(device()) << 32) ^ device());
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(engine()));
  return text;
}

/// Places the exchange of a query on the cluster's data nodes, or keeps a small
/// query in this process.
class ClusterPlacement final : public cli::ExchangePlacement {
 public:
  ClusterPlacement(std::string queryText, engine::QueryParameters parameters, int threads,
                   std::vector<std::shared_ptr<const DataNodeClient>> nodes,
                   std::chrono::milliseconds timeout)
      : queryText_(std::move(queryText)),
        parameters_(std::move(parameters)),
        threads_(threads),
        nodes_(std::move(nodes)),
        timeout_(timeout) {}

  const engine::ExchangeBuilder* place(const engine::PreparedQuery& prepared) override {
    decide(prepared);
    if (!remote_) return nullptr;
    RemoteExchangeSpec base;
    base.queryId = randomQueryId();
    base.queryText = queryText_;
    base.nowMillis = prepared.nowMillis;
    base.parameters = parameters_;
    base.sourceSchema = prepared.source.schema;
    for (const auto& [uri, lookup] : prepared.lookups) base.lookupSchemas[uri] = lookup->schema;
    base.splits = splits_;
    base.threads = static_cast<uint32_t>(threads_);
    base.deadline = std::chrono::system_clock::now() + timeout_;
    base.metrics = prepared.metrics.get();
    builder_ = [this, base](const engine::PlanNode& exchange) -> engine::OperatorPtr {
      RemoteExchangeSpec spec = base;
      spec.schema = exchange.schema;
      spec.inputSchema = exchange.input()->schema;
      return std::make_unique<RemoteExchange>(std::move(spec), nodes_, runStats_);
    };
    return &builder_;
  }

  std::string explainLine(const engine::PreparedQuery& prepared) override {
    decide(prepared);
    if (!remote_) return "in this process (" + reason_ + ")";
    std::string out = "the ExchangeExec's input runs on " + std::to_string(nodes_.size()) + " data nodes (";
    for (size_t i = 0; i < nodes_.size(); ++i) out += (i > 0 ? ", " : "") + nodes_[i]->address();
    return out + ") over " + std::to_string(splits_.size()) + " splits; the rest runs here";
  }

  std::string profileFields() const override {
    std::string out = ",\"placement\":\"";
    out += remote_ ? "nodes" : "local";
    out += "\",\"nodes\":" + std::to_string(remote_ ? nodes_.size() : 0);
    out += ",\"splits_remote\":" + std::to_string(remote_ ? splits_.size() : 0);
    out += ",\"splits_retried\":" + std::to_string(runStats_->splitsRetried.load());
    out += ",\"nodes_failed\":" + std::to_string(runStats_->nodesFailed.load());
    return out;
  }

 private:
  /// Decides where the query runs (the issue: "keeps small queries local (no
  /// splits, one split, LIMIT-only)", and statistics that answered everything).
  void decide(const engine::PreparedQuery& prepared) {
    remote_ = false;
    splits_.clear();
    const engine::PlanNode* exchange = findExchange(*prepared.plan);
    const engine::PlanNode* original = findExchange(*prepared.unoptimized);
    if (exchange == nullptr || original == nullptr) {
      reason_ = "the plan has no exchange";
      return;
    }
    // The splits come from the plan before the optimizer: when aggregates were
    // pushed to the source (a LocalSourceExec now), each node decides again over
    // its own splits.
    const engine::PlanNode& source = engine::chainBottom(*original->input());
    if (source.kind != engine::PlanKind::kExternalSource || source.splits.empty()) {
      reason_ = "no splits";
      return;
    }
    if (source.splits.size() == 1) {
      reason_ = "one split";
      return;
    }
    const engine::PlanNode& optimizedSource = engine::chainBottom(*exchange->input());
    if (optimizedSource.kind == engine::PlanKind::kExternalSource && isLimitOnly(*exchange->input())) {
      reason_ = "a LIMIT-only query";
      return;
    }
    // Phase 2: the optimizer answered from the splits' statistics; nothing is
    // left to read. (A LocalSourceExec that reads footers or scans some units,
    // Phase 1 or mixed, still distributes: each node decides for its splits.)
    if (optimizedSource.kind == engine::PlanKind::kLocalSource && optimizedSource.answeredAtPlanning) {
      reason_ = "answered from the splits' statistics";
      return;
    }
    for (const engine::SplitTask& task : source.splits) splits_.push_back(task.split);
    remote_ = true;
  }

  std::string queryText_;
  engine::QueryParameters parameters_;
  int threads_;
  std::vector<std::shared_ptr<const DataNodeClient>> nodes_;
  std::chrono::milliseconds timeout_;
  std::shared_ptr<RemoteRunStats> runStats_ = std::make_shared<RemoteRunStats>();
  bool remote_ = false;
  std::string reason_;
  std::vector<engine::FileSplit> splits_;
  engine::ExchangeBuilder builder_;
};

/// Reads the nodes, token and TLS settings from the options and the cluster file.
std::vector<std::shared_ptr<const DataNodeClient>> connect(const cli::ClusterOptions& options,
                                                           std::chrono::milliseconds& timeout) {
  ClusterFile file;
  if (!options.clusterFile.empty()) file = readClusterFile(options.clusterFile);
  std::vector<std::string> addresses =
      options.nodes.empty() ? file.nodes : parseNodeList(options.nodes, "--nodes");
  if (addresses.empty()) {
    throw InvalidArgument(options.clusterFile.empty() ? "--nodes names no data node"
                                                      : "no data node: give --nodes or `node HOST:PORT` lines in " +
                                                            options.clusterFile);
  }
  const std::string tokenFile = options.tokenFile.empty() ? file.tokenFile : options.tokenFile;
  if (tokenFile.empty()) throw InvalidArgument("the data nodes need the shared token: give --token-file");
  ClientOptions client;
  client.token = readTokenFile(tokenFile);
  client.tlsCaFile = options.tlsCa.empty() ? file.tlsCa : options.tlsCa;
  const int64_t ms = options.timeoutMs > 0 ? options.timeoutMs : file.timeoutMs > 0 ? file.timeoutMs : kDefaultTimeoutMs;
  timeout = std::chrono::milliseconds(ms);
  client.executeTimeout = timeout;
  std::vector<std::shared_ptr<const DataNodeClient>> nodes;
  for (const std::string& address : addresses) nodes.push_back(std::make_shared<DataNodeClient>(address, client));
  return nodes;
}

}  // namespace

int runClusterQueryCommand(int argc, char** argv) {
  CLI::App app("quarry's coordinator", "quarry");
  app.require_subcommand(1);
  cli::QueryOptions query;
  const CLI::App& queryCommand = cli::addQueryCommand(app, query);
  cli::QueryOptions explain;
  const CLI::App& explainCommand = cli::addExplainCommand(app, explain);
  std::vector<char*> args{const_cast<char*>("quarry")};
  for (int i = 0; i < argc; ++i) args.push_back(argv[i]);
  try {
    app.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  const bool isQuery = queryCommand.parsed();
  const cli::QueryOptions& options = isQuery ? query : explain;
  std::vector<std::shared_ptr<const DataNodeClient>> nodes;
  std::chrono::milliseconds timeout{kDefaultTimeoutMs};
  try {
    nodes = connect(options.cluster, timeout);
  } catch (const std::exception& e) {
    std::cerr << "quarry: " << e.what() << std::endl;
    return kExitFailure;
  }
  ClusterPlacement placement(options.query, cli::parameterArguments(options.params),
                             options.threads, std::move(nodes), timeout);
  (void)explainCommand;
  return isQuery ? cli::runQuery(options, &placement) : cli::runExplain(options, &placement);
}

}  // namespace quarry::cluster
