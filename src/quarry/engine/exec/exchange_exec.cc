#include "quarry/engine/exec/exchange_exec.h"

#include <algorithm>

#include "quarry/engine/exec/operator_timer.h"

namespace quarry::engine {

ExchangeExec::ExchangeExec(Schema schema, std::vector<PipelineFactory> pipelines, int threads,
                           size_t maxQueuedPages)
    : schema_(std::move(schema)),
      pipelines_(std::move(pipelines)),
      threads_(std::min(static_cast<size_t>(std::max(threads, 1)),
                        std::max<size_t>(pipelines_.size(), 1))),
      maxQueuedPages_(std::max<size_t>(maxQueuedPages, 1)),
      chainStats_(pipelines_.size()) {}

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
      drivers_.emplace_back([this] { driverMain(); });
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
      if (!page) break;
      std::unique_lock<std::mutex> lock(mutex_);
      notFull_.wait(lock,
                    [&] { return queue_.size() < maxQueuedPages_ || cancelled_ || failedChain_; });
      if (mustStop(index)) break;
      if (failedChain_) continue;  // a chain below the failure runs on to learn whether it fails
      queue_.push_back(std::move(*page));
      lock.unlock();
      notEmpty_.notify_one();
    }
  } catch (...) {
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
  if (chain) {
    std::vector<OperatorStats> stats;
    chain->collectStats(stats);
    chain.reset();
    std::lock_guard<std::mutex> lock(mutex_);
    chainStats_[index] = std::move(stats);
  }
}

std::optional<Page> ExchangeExec::nextInline() {
  if (!inlineChain_ && !inlineDone_) inlineChain_ = pipelines_[0]();
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
  for (const std::vector<OperatorStats>& chain : chainStats_) {
    for (size_t k = 0; k < chain.size(); ++k) {
      if (k == summed.size()) {
        summed.push_back(OperatorStats{chain[k].name});
      }
      summed[k].pagesOut += chain[k].pagesOut;
      summed[k].rowsOut += chain[k].rowsOut;
      summed[k].nanos += chain[k].nanos;
      summed[k].warnings.merge(chain[k].warnings);
    }
  }
  out.insert(out.end(), summed.begin(), summed.end());
}

}  // namespace quarry::engine
