#include "quarry/common/process_memory.h"

#include <gtest/gtest.h>

#include <memory>

namespace quarry {
namespace {

struct CountsDestruction {
  explicit CountsDestruction(int* destroyed) : destroyed(destroyed) {}
  CountsDestruction(CountsDestruction&& other) noexcept : destroyed(other.destroyed) { other.destroyed = nullptr; }
  ~CountsDestruction() {
    if (destroyed != nullptr) ++*destroyed;
  }
  int* destroyed;
};

// process_memory.h: keepUntilExit "keeps `state` alive until the process exits,
// without ever destroying it".
TEST(KeepUntilExitTest, ParkedStateIsNeverDestroyed) {
  static int destroyed = 0;
  keepUntilExit(CountsDestruction(&destroyed));  // the moved-from temporary counts nothing
  EXPECT_EQ(destroyed, 0);

  auto shared = std::make_shared<CountsDestruction>(&destroyed);
  std::weak_ptr<CountsDestruction> watch = shared;
  keepUntilExit(std::shared_ptr<const void>(std::move(shared)));
  EXPECT_FALSE(watch.expired());
  EXPECT_EQ(destroyed, 0);
}

}  // namespace
}  // namespace quarry
