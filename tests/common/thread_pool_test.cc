#include "quarry/common/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>

namespace quarry {
namespace {

TEST(ThreadPoolTest, RunsEveryIndexOnce) {
  ThreadPool pool(2);
  std::atomic<int> calls[64] = {};
  pool.parallelFor(64, [&](size_t i) { ++calls[i]; });
  for (const auto& c : calls) EXPECT_EQ(c.load(), 1);
}

/// The threads this process has now (/proc/self/task).
size_t threadCount() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/task"))
    ++n;
  return n;
}

// "threads - 1 workers, started by the first parallelFor with two tasks or more":
// a pool nothing asks for parallel work starts no thread.
TEST(ThreadPoolTest, StartsItsWorkersWithTheFirstParallelLoop) {
  const size_t before = threadCount();
  ThreadPool pool(3);
  EXPECT_EQ(pool.size(), 3u);
  pool.parallelFor(1, [](size_t) {});
  pool.parallelFor(0, [](size_t) {});
  EXPECT_EQ(threadCount(), before);
  std::atomic<int> calls{0};
  pool.parallelFor(16, [&](size_t) { ++calls; });
  EXPECT_EQ(calls.load(), 16);
  EXPECT_EQ(threadCount(), before + 2);
  pool.parallelFor(16, [&](size_t) { ++calls; });
  EXPECT_EQ(threadCount(), before + 2);
}

TEST(ThreadPoolTest, RethrowsTheLowestFailingIndexWhateverTheSchedule) {
  // Several corrupt column chunks of one row group: the error reported must not
  // depend on which thread got there first. Index 1 fails at once, index 0 fails
  // later; the error is index 0's, as a loop in order would give.
  ThreadPool pool(2);
  for (int round = 0; round < 50; ++round) {
    try {
      pool.parallelFor(4, [](size_t i) {
        if (i == 0) {
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
          throw std::runtime_error("task 0");
        }
        if (i >= 1) throw std::runtime_error("task " + std::to_string(i));
      });
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& e) {
      ASSERT_EQ(std::string(e.what()), "task 0") << "round " << round;
    }
  }
}

TEST(ThreadPoolTest, TasksBelowAFailureStillRun) {
  ThreadPool pool(2);
  std::atomic<int> ran{0};
  EXPECT_THROW(pool.parallelFor(2,
                                [&](size_t i) {
                                  if (i == 1) throw std::runtime_error("one");
                                  std::this_thread::sleep_for(std::chrono::milliseconds(2));
                                  ++ran;
                                }),
               std::runtime_error);
  EXPECT_EQ(ran.load(), 1);
}

}  // namespace
}  // namespace quarry
