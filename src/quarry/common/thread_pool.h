#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

/// A fixed set of worker threads for data-parallel loops (decoding a row group's
/// column chunks, row groups of a file). Work is handed out index by index, so
/// uneven tasks balance themselves.
namespace quarry {

class ThreadPool {
 public:
  /// A pool of `threads` (0: the hardware concurrency): the caller's and
  /// threads - 1 workers, started by the first parallelFor with two tasks or more.
  /// With one thread the pool runs loops on the caller's thread and starts no worker.
  explicit ThreadPool(size_t threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  size_t size() const { return size_; }

  /// Runs fn(0) ... fn(n - 1) across the pool and the calling thread, and returns
  /// when all are done. When tasks throw, the exception of the lowest index is
  /// rethrown after the others finish, as a loop in order would throw it (tasks
  /// above a failed index that have not started are skipped): which error a
  /// caller sees never depends on scheduling.
  void parallelFor(size_t n, const std::function<void(size_t)>& fn);

  /// Returns a process-wide pool sized to the hardware. It is never destroyed: its
  /// workers stay parked until the process exits.
  static ThreadPool& shared();

  /// The pool for a loop that may run `threads` tasks at a time: null for one
  /// thread (run it inline), the process-wide pool when it has no more threads
  /// than that and `mayShare` (its workers are already started and never joined),
  /// else `own`, made with `threads` unless it already has that many.
  static ThreadPool* forThreads(size_t threads, std::optional<ThreadPool>& own,
                                bool mayShare = true);

 private:
  struct Loop;
  void workerMain();
  static void runLoop(Loop& loop);

  size_t size_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  Loop* current_ = nullptr;
  uint64_t generation_ = 0;
  bool stopping_ = false;
};

}  // namespace quarry
