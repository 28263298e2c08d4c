// HeapOptional: std::optional's meaning with the value on the heap (a pointer wide
// when absent), for the large footer parts few files carry.
#include "quarry/common/heap_optional.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace quarry {
namespace {

TEST(HeapOptional, AbsentIsAPointerWide) {
  EXPECT_EQ(sizeof(HeapOptional<std::vector<std::string>>), sizeof(void*));
  HeapOptional<int> none;
  EXPECT_FALSE(none.has_value());
  EXPECT_FALSE(none);
  HeapOptional<int> alsoNone = std::nullopt;
  EXPECT_TRUE(none == alsoNone);
}

TEST(HeapOptional, CopiesAreDeepAndCompareByValue) {
  HeapOptional<std::vector<int>> a;
  a.emplace() = {1, 2, 3};
  HeapOptional<std::vector<int>> b = a;
  ASSERT_TRUE(b.has_value());
  EXPECT_TRUE(a == b);
  b->push_back(4);
  EXPECT_EQ(a->size(), 3u);  // b owns its own copy
  EXPECT_FALSE(a == b);
  b = a;
  EXPECT_TRUE(a == b);
  b = std::nullopt;
  EXPECT_FALSE(b.has_value());
  EXPECT_FALSE(a == b);
  HeapOptional<std::vector<int>> moved = std::move(a);
  EXPECT_EQ((*moved)[2], 3);
  moved.reset();
  EXPECT_FALSE(moved);
}

}  // namespace
}  // namespace quarry
