#include "quarry/engine/exec/exchange_exec.h"

#include <algorithm>

#include "quarry/engine/exec/operator_timer.h"

namespace quarry::engine {

namespace {

/// Adds `chain`'s stats to `summed`, position by position.
void addStats(std::vector<OperatorStats>& summed, const std::vector<OperatorStats>& chain) {
  for (size_t k = 0; k < chain.size(); ++k) {
    if (k == summed.size()) summed.push_back(OperatorStats{chain[k].name});
    summed[k].pagesOut += chain[k].pagesOut;
    summed[k].rowsOut += chain[k].rowsOut;
    summed[k].nanos += chain[k].nanos;
    summed[k].warnings.merge(chain[k].warnings);
  }
}

}  // namespace

/// The chains a driver claims, one after another, as one operator (a driver stage's input).
class ExchangeExec::ChainSequence final : public Operator {
 public:
  ChainSequence(ExchangeExec& exchange, Schema schema)
      : exchange_(exchange), schema_(std::move(schema)) {}

  const Schema& schema() const override { return schema_; }
  std::optional<Page> next() override {
    while (true) {
      if (!chain_) {
        std::optional<size_t> index = exchange_.claimChain();
        if (!index) return std::nullopt;
        index_ = *index;
        chain_ = exchange_.pipelines_[index_]();
      }
      {
        std::lock_guard<std::mutex> lock(exchange_.mutex_);
        if (exchange_.mustStop(index_)) return std::nullopt;
      }
      if (std::optional<Page> page = chain_->next()) return page;
      std::vector<OperatorStats> stats;
      chain_->collectStats(stats);
      addStats(ended_, stats);
      chain_.reset();
    }
  }
  /// The chains' stats, summed: those that ended and the one being read (cut short when the
  /// exchange stops).
  void collectStats(std::vector<OperatorStats>& out) const override {
    std::vector<OperatorStats> summed = ended_;
    if (chain_) {
      std::vector<OperatorStats> current;
      chain_->collectStats(current);
      addStats(summed, current);
    }
    out.insert(out.end(), summed.begin(), summed.end());
  }
  /// The chain being read, or the last one read: whose failure a failure of the stage is.
  size_t index() const { return index_; }

 private:
  ExchangeExec& exchange_;
  Schema schema_;
  OperatorPtr chain_;
  size_t index_ = 0;
  std::vector<OperatorStats> ended_;
};

ExchangeExec::ExchangeExec(Schema schema, std::vector<PipelineFactory> pipelines, int threads,
                           size_t maxQueuedPages, std::optional<DriverStage> driverStage)
    : schema_(std::move(schema)),
      pipelines_(std::move(pipelines)),
      driverStage_(std::move(driverStage)),
      threads_(std::min(static_cast<size_t>(std::max(threads, 1)),
                        std::max<size_t>(pipelines_.size(), 1))),
      maxQueuedPages_(std::max<size_t>(maxQueuedPages, 1)),
      chainStats_(pipelines_.size() + (driverStage_ ? threads_ : 0)) {}

ExchangeExec::~ExchangeExec() {
  stop();
}

void ExchangeExec::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cancelled_ = true;
  }
  notFull_.notify_all();
  notEmpty_.notify_all();
  joinDrivers();
}

void ExchangeExec::joinDrivers() {
  for (std::thread& driver : drivers_) {
    if (driver.joinable()) driver.join();
  }
  drivers_.clear();
}

void ExchangeExec::start() {
  started_ = true;
  if (pipelines_.empty()) return;
  runningDrivers_ = threads_;
  drivers_.reserve(threads_);
  for (size_t i = 0; i < threads_; ++i) {
    try {
      drivers_.emplace_back([this, i] {
        if (driverStage_) {
          runStage(i);
        } else {
          driverMain();
        }
      });
    } catch (...) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        runningDrivers_ -= threads_ - i;
        cancelled_ = true;
      }
      notFull_.notify_all();
      joinDrivers();
      throw;
    }
  }
}

void ExchangeExec::driverMain() {
  while (true) {
    size_t index;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (nextChain_ >= pipelines_.size() || mustStop(nextChain_)) break;
      index = nextChain_++;
    }
    runChain(index);
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    --runningDrivers_;
  }
  notEmpty_.notify_all();
}

std::optional<size_t> ExchangeExec::claimChain() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (nextChain_ >= pipelines_.size() || mustStop(nextChain_)) return std::nullopt;
  return nextChain_++;
}

void ExchangeExec::recordFailure(size_t index) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failedChain_ || index < *failedChain_) {
      failedChain_ = index;
      failure_ = std::current_exception();
    }
  }
  notFull_.notify_all();
  notEmpty_.notify_all();
}

bool ExchangeExec::push(size_t index, Page page) {
  std::unique_lock<std::mutex> lock(mutex_);
  notFull_.wait(lock,
                [&] { return queue_.size() < maxQueuedPages_ || cancelled_ || failedChain_; });
  if (mustStop(index)) return false;
  if (failedChain_) return true;  // a chain below the failure runs on to learn whether it fails
  queue_.push_back(std::move(page));
  lock.unlock();
  notEmpty_.notify_one();
  return true;
}

void ExchangeExec::runChain(size_t index) {
  OperatorPtr chain;
  try {
    chain = pipelines_[index]();
    while (true) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (mustStop(index)) break;
      }
      std::optional<Page> page = chain->next();
      if (!page || !push(index, std::move(*page))) break;
    }
  } catch (...) {
    recordFailure(index);
  }
  if (chain) {
    std::vector<OperatorStats> stats;
    chain->collectStats(stats);
    chain.reset();
    std::lock_guard<std::mutex> lock(mutex_);
    chainStats_[index] = std::move(stats);
  }
}

void ExchangeExec::runStage(size_t driver) {
  auto owned = std::make_unique<ChainSequence>(*this, driverStage_->inputSchema);
  ChainSequence& chains = *owned;
  OperatorPtr stage;
  try {
    stage = driverStage_->build(std::move(owned));
    while (std::optional<Page> page = stage->next()) {
      if (!push(chains.index(), std::move(*page))) break;
    }
  } catch (...) {
    recordFailure(chains.index());
  }
  if (stage) {
    std::vector<OperatorStats> stats;
    stage->collectStats(stats);
    stage.reset();
    std::lock_guard<std::mutex> lock(mutex_);
    chainStats_[pipelines_.size() + driver] = std::move(stats);
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    --runningDrivers_;
  }
  notEmpty_.notify_all();
}

std::optional<Page> ExchangeExec::nextInline() {
  if (!inlineChain_ && !inlineDone_) {
    inlineChain_ =
        driverStage_
            ? driverStage_->build(std::make_unique<ChainSequence>(*this, driverStage_->inputSchema))
            : pipelines_[0]();
  }
  std::optional<Page> page = inlineChain_ ? inlineChain_->next() : std::nullopt;
  if (!page) {
    if (inlineChain_) {
      std::vector<OperatorStats> stats;
      inlineChain_->collectStats(stats);
      inlineChain_.reset();
      std::lock_guard<std::mutex> lock(mutex_);
      chainStats_[0] = std::move(stats);
    }
    inlineDone_ = true;
    return std::nullopt;
  }
  ++stats_.pagesOut;
  stats_.rowsOut += page->positionCount();
  return page;
}

std::optional<Page> ExchangeExec::next() {
  // One chain has nothing to run beside: the consumer runs it, and no driver thread
  // is started (a query answered from statistics is one such chain).
  if (pipelines_.size() == 1) return nextInline();
  OperatorTimer timer(stats_.nanos);
  if (!started_) start();
  std::unique_lock<std::mutex> lock(mutex_);
  notEmpty_.wait(lock, [&] { return !queue_.empty() || runningDrivers_ == 0 || failedChain_; });
  if (failedChain_) {
    // Wait for every driver so no lower-numbered chain can still fail.
    notEmpty_.wait(lock, [&] { return runningDrivers_ == 0; });
    queue_.clear();
    const std::exception_ptr failure = failure_;
    lock.unlock();
    joinDrivers();
    std::rethrow_exception(failure);
  }
  if (!queue_.empty()) {
    Page page = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    notFull_.notify_one();
    ++stats_.pagesOut;
    stats_.rowsOut += page.positionCount();
    return page;
  }
  lock.unlock();
  joinDrivers();
  return std::nullopt;
}

void ExchangeExec::collectStats(std::vector<OperatorStats>& out) const {
  // Chains cut short by the consumer record their stats (and warnings) as they stop.
  // Stopping changes no result: the consumer has read its last page.
  const_cast<ExchangeExec*>(this)->stop();
  out.push_back(stats_);
  if (inlineChain_) {  // the one chain, run inline and not finished
    inlineChain_->collectStats(out);
    return;
  }
  std::vector<OperatorStats> summed;
  std::lock_guard<std::mutex> lock(mutex_);
  for (const std::vector<OperatorStats>& chain : chainStats_) addStats(summed, chain);
  out.insert(out.end(), summed.begin(), summed.end());
}

}  // namespace quarry::engine
