#include "quarry/common/thread_pool.h"

#include <atomic>
#include <cstdint>
#include <system_error>

namespace quarry {

struct ThreadPool::Loop {
  size_t n = 0;
  const std::function<void(size_t)>* fn = nullptr;
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  /// The lowest index whose task threw (n while none has): tasks above it are
  /// skipped, tasks below it, handed out earlier, still run, so the error
  /// rethrown is always that of the lowest failing index, however the tasks were
  /// scheduled (as if they had run in order).
  std::atomic<size_t> firstFailed{SIZE_MAX};
  std::mutex errorMutex;
  std::exception_ptr error;
  std::mutex doneMutex;
  std::condition_variable allDone;
  size_t activeWorkers = 0;  // guarded by the pool's mutex
};

ThreadPool::ThreadPool(size_t threads) {
  size_ = threads != 0 ? threads : std::max<size_t>(1, std::thread::hardware_concurrency());
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
}

ThreadPool& ThreadPool::shared() {
  // Never destroyed: its workers wait out the process instead of being woken and
  // joined at exit, which cost a short-lived query up to milliseconds on a busy VM.
  static auto* pool = new ThreadPool;
  return *pool;
}

ThreadPool* ThreadPool::forThreads(size_t threads, std::optional<ThreadPool>& own, bool mayShare) {
  if (threads <= 1) return nullptr;
  if (mayShare && threads >= shared().size()) return &shared();
  if (!own || own->size() != threads) own.emplace(threads);
  return &*own;
}

void ThreadPool::runLoop(Loop& loop) {
  for (size_t i; (i = loop.next.fetch_add(1)) < loop.n;) {
    if (i < loop.firstFailed.load()) {
      try {
        (*loop.fn)(i);
      } catch (...) {
        std::lock_guard lock(loop.errorMutex);
        if (i < loop.firstFailed.load()) {
          loop.error = std::current_exception();
          loop.firstFailed = i;
        }
      }
    }
    if (loop.done.fetch_add(1) + 1 == loop.n) {
      std::lock_guard lock(loop.doneMutex);
      loop.allDone.notify_all();
    }
  }
}

void ThreadPool::workerMain() {
  uint64_t seen = 0;
  for (;;) {
    Loop* loop;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || (current_ != nullptr && generation_ != seen); });
      if (stopping_) return;
      seen = generation_;
      loop = current_;
      ++loop->activeWorkers;
    }
    runLoop(*loop);
    {
      std::lock_guard lock(mutex_);
      --loop->activeWorkers;
    }
    wake_.notify_all();
  }
}

void ThreadPool::parallelFor(size_t n, const std::function<void(size_t)>& fn) {
  if (n == 0) return;
  const auto runHere = [&] {
    for (size_t i = 0; i < n; ++i) fn(i);
  };
  if (size_ == 1 || n == 1) return runHere();
  // One loop at a time: nested or concurrent callers run theirs inline.
  std::unique_lock lock(mutex_);
  if (current_ != nullptr) {
    lock.unlock();
    return runHere();
  }
  // Workers start with the first loop that has work for them: a query that never
  // runs one starts no thread (starting one measured up to a millisecond of
  // disturbance on a two-CPU virtual machine).
  if (workers_.empty()) {
    try {
      for (size_t i = 1; i < size_; ++i) workers_.emplace_back([this] { workerMain(); });
    } catch (const std::system_error&) {
      // The system starts no more threads: the loop runs on those there are.
    }
    if (workers_.empty()) {
      lock.unlock();
      return runHere();
    }
  }
  Loop loop;
  loop.n = n;
  loop.fn = &fn;
  current_ = &loop;
  ++generation_;
  lock.unlock();
  wake_.notify_all();
  runLoop(loop);
  {
    std::unique_lock doneLock(loop.doneMutex);
    loop.allDone.wait(doneLock, [&] { return loop.done.load() == loop.n; });
  }
  {
    // The loop lives on this stack: wait until no worker still holds it.
    std::unique_lock waitLock(mutex_);
    current_ = nullptr;
    wake_.wait(waitLock, [&] { return loop.activeWorkers == 0; });
  }
  if (loop.error) std::rethrow_exception(loop.error);
}

}  // namespace quarry
