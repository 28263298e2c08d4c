#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "quarry/cluster/data_node_client.h"
#include "quarry/engine/exec/operator.h"
#include "quarry/engine/parse/query_parameters.h"
#include "quarry/engine/source/file_split.h"
#include "quarry/engine/source/scan_metrics.h"

/// The coordinator's ExchangeExec: instead of running the exchange's input on
/// driver threads, it sends the input's splits to data nodes and gathers the
/// pages they stream back.
///
/// Splits are numbered 0..n-1 and assigned by estimated size: each split, the
/// longest first, goes to the live node with the fewest bytes so far (a weighted
/// round-robin on split length). Each node gets one Execute stream, read on its
/// own thread. A group's pages are held until its Commit and only then queued
/// for next(); the queue is bounded, so a slow consumer blocks the readers, whose
/// unread streams make gRPC's flow control stop the nodes.
///
/// Faults: when a stream fails (an error, the deadline, the node killed) the
/// node is marked dead, its uncommitted groups are dropped, and its uncommitted
/// splits go to the live nodes in a new Execute each. Committed output is never
/// dropped and a split commits at most once, so nothing counts twice. With no
/// live node left the query fails naming the splits and the last error. Refusals
/// that another node would repeat (a wrong token, a path outside the node's
/// roots, a query the node cannot plan) fail the query at once, naming the node.
///
/// Destroying the exchange before the end (LIMIT satisfied, an error above)
/// cancels the open streams and asks their nodes to Cancel the query.
namespace quarry::cluster {

struct RemoteExchangeSpec {
  std::string queryId;
  std::string queryText;
  /// The query's start (PreparedQuery::nowMillis), which NOW() is on every node.
  int64_t nowMillis = 0;
  /// The values of the query's placeholders, bound again by every node.
  engine::QueryParameters parameters;
  /// The resolved source schema the nodes plan against.
  engine::Schema sourceSchema;
  /// The schemas of the LOOKUP JOINs' files (FragmentSpec::lookupSchemas).
  std::map<std::string, engine::Schema> lookupSchemas;
  /// The exchange's output schema, and what the nodes' pages must match (the
  /// exchange's input schema, after the local optimizer).
  engine::Schema schema;
  engine::Schema inputSchema;
  std::vector<engine::FileSplit> splits;
  /// Driver threads asked of each node (0: the node's default).
  uint32_t threads = 0;
  std::chrono::system_clock::time_point deadline;
  size_t maxQueuedPages = 16;
  /// Counts committed splits (ScanMetrics::splits: --profile and the progress bar); may be null.
  engine::ScanMetrics* metrics = nullptr;
};

/// What a run did, shared with whoever reports it after the exchange is gone.
struct RemoteRunStats {
  std::atomic<uint64_t> splitsRetried{0};
  std::atomic<uint64_t> nodesFailed{0};
};

class RemoteExchange final : public engine::Operator {
 public:
  RemoteExchange(RemoteExchangeSpec spec, std::vector<std::shared_ptr<const DataNodeClient>> nodes,
                 std::shared_ptr<RemoteRunStats> runStats = nullptr);
  ~RemoteExchange() override;
  RemoteExchange(const RemoteExchange&) = delete;
  RemoteExchange& operator=(const RemoteExchange&) = delete;

  const engine::Schema& schema() const override { return spec_.schema; }
  std::optional<engine::Page> next() override;
  /// Appends "RemoteExchange[nodes=N]" (with the warnings of the committed
  /// groups), then one entry per node with the rows and pages it committed.
  void collectStats(std::vector<engine::OperatorStats>& out) const override;

  /// Assigns split ids to `nodeCount` nodes by length, longest first, each to the
  /// node with the fewest bytes so far (ties: the lowest node). Exposed for tests.
  static std::vector<std::vector<uint32_t>> assign(const std::vector<engine::FileSplit>& splits,
                                                   const std::vector<uint32_t>& ids, size_t nodeCount);

 private:
  struct NodeState {
    std::shared_ptr<const DataNodeClient> client;
    bool dead = false;
    uint64_t rows = 0, pages = 0, splitsCommitted = 0;
  };
  /// One Execute stream: a node and the splits it runs.
  struct Attempt {
    /// The query id plus the attempt's number: each Execute has its own, so a
    /// node running a re-run beside its first stream can cancel either alone.
    std::string queryId;
    size_t node;
    std::vector<uint32_t> splits;
    grpc::ClientContext context;
    std::thread thread;
    bool started = false;
    bool finished = false;
  };

  void start();
  /// Starts Execute streams for `splits` over the live nodes (caller holds mutex_).
  void launch(const std::vector<uint32_t>& splits);
  void runAttempt(Attempt* attempt);
  /// Streams the attempt's pages; returns the status, or throws for what came off the wire.
  grpc::Status stream(Attempt& attempt, std::set<uint32_t>& committed);
  /// Moves a committed group's pages to the queue, blocking while it is full.
  void deliver(std::vector<engine::Page> pages, size_t node);
  void fail(std::exception_ptr error);
  std::string describeSplits(const std::vector<uint32_t>& ids) const;

  RemoteExchangeSpec spec_;
  std::shared_ptr<RemoteRunStats> runStats_;
  bool started_ = false;

  mutable std::mutex mutex_;
  std::condition_variable notEmpty_;
  std::condition_variable notFull_;
  std::deque<engine::Page> queue_;
  std::vector<NodeState> nodes_;
  std::vector<std::unique_ptr<Attempt>> attempts_;
  std::vector<bool> splitCommitted_;
  size_t runningAttempts_ = 0;
  bool cancelled_ = false;
  std::exception_ptr failure_;
  std::string lastError_;
  engine::OperatorStats stats_;
};

}  // namespace quarry::cluster
