#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "quarry/engine/exec/operator.h"

/// The ExchangeExec plan node: where parallelism lives. It runs operator chains
/// (one per split group, built by a factory on the driver thread that runs it) on
/// driver threads and hands their pages to the single consumer above it through
/// a bounded queue. Drivers are plain std::threads started on the first next():
/// ThreadPool::parallelFor blocks its caller until the loop ends, which does not
/// fit a consumer that pulls pages while producers run.
///
/// Failure: when chain k throws, chains above k stop (or never start) and their
/// pages are dropped; chains below k run to their end (their pages dropped too)
/// so that the exception next() rethrows is always the lowest-numbered failing
/// chain's, whatever the schedule. Cancellation: destroying the exchange wakes
/// producers blocked on the full queue, stops every chain after its current
/// page, and joins the drivers. collectStats does the same first, so that chains
/// a consumer stopped reading (a LIMIT reached) report what they did, warnings
/// included.
///
/// A driver stage (optional) is one operator per driver over all the chains that driver runs,
/// read one after another as one input: an INITIAL aggregation then keeps one table per driver
/// instead of one per split, so that a group seen in several splits is made and sent up once per
/// driver, not once per split. Failures keep the rule above: the chains are still numbered and
/// claimed in order, and a stage's failure counts as that of the chain it was reading.
namespace quarry::engine {

using PipelineFactory = std::function<OperatorPtr()>;

/// What a driver runs above its chains: `build` makes it over an operator that returns the pages
/// of the driver's chains one chain after another (their schema is `inputSchema`).
struct DriverStage {
  Schema inputSchema;
  std::function<OperatorPtr(OperatorPtr chains)> build;
};

class ExchangeExec final : public Operator {
 public:
  /// Runs `pipelines.size()` operator chains on up to `threads` driver threads, collecting their
  /// pages through a bounded queue (at most maxQueuedPages pages waiting: producers block).
  /// next() returns pages in arrival order; when a chain throws, next() rethrows the exception
  /// of the lowest-numbered failing chain after stopping the others.
  ExchangeExec(Schema schema, std::vector<PipelineFactory> pipelines, int threads,
               size_t maxQueuedPages = 16, std::optional<DriverStage> driverStage = std::nullopt);
  ~ExchangeExec() override;
  ExchangeExec(const ExchangeExec&) = delete;
  ExchangeExec& operator=(const ExchangeExec&) = delete;

  const Schema& schema() const override { return schema_; }
  std::optional<Page> next() override;
  /// Stops the chains still running (the consumer has stopped reading: it is the
  /// query's last call), then appends "ExchangeExec" and the chains' stats, summed
  /// position by position (chains have one shape, so position k is one plan node); with a
  /// driver stage, the stage's stats first, then its chains'.
  void collectStats(std::vector<OperatorStats>& out) const override;

 private:
  class ChainSequence;

  void start();
  void driverMain();
  void runChain(size_t index);
  /// A driver with a driver stage: the stage over every chain the driver claims.
  void runStage(size_t driver);
  /// The next chain to run, or nothing once all are claimed or the exchange stops.
  std::optional<size_t> claimChain();
  /// Records that chain `index` failed with the exception being handled.
  void recordFailure(size_t index);
  /// Queues a chain's page; false when the chain must stop (the page is dropped).
  bool push(size_t index, Page page);
  /// next() when there is one chain: pulls it on the caller's thread.
  std::optional<Page> nextInline();
  /// Whether chain `index` must stop producing (caller holds mutex_).
  bool mustStop(size_t index) const {
    return cancelled_ || (failedChain_ && index > *failedChain_);
  }
  void joinDrivers();
  /// Stops every chain after its current page and joins the drivers; each chain
  /// records its stats as it stops.
  void stop();

  Schema schema_;
  std::vector<PipelineFactory> pipelines_;
  std::optional<DriverStage> driverStage_;
  size_t threads_;
  size_t maxQueuedPages_;
  std::vector<std::thread> drivers_;
  bool started_ = false;
  /// The one chain run on the consumer's thread, and whether it has ended.
  OperatorPtr inlineChain_;
  bool inlineDone_ = false;

  mutable std::mutex mutex_;
  std::condition_variable notEmpty_;  // the consumer waits for a page, a failure or the end
  std::condition_variable notFull_;   // producers wait for room
  std::deque<Page> queue_;
  size_t nextChain_ = 0;
  size_t runningDrivers_ = 0;
  bool cancelled_ = false;
  std::optional<size_t> failedChain_;
  std::exception_ptr failure_;
  /// Per chain its stats when it has ended; with a driver stage, per driver the stage's.
  std::vector<std::vector<OperatorStats>> chainStats_;
  OperatorStats stats_{"ExchangeExec"};
};

}  // namespace quarry::engine
