// GrowableArray: "An array of trivially copyable values that grows without copying
// what it holds": values kept across growth (heap, then a mapping of its own),
// new values set to the fill, shrinking keeps the first ones.
#include "quarry/common/growable_array.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <span>

namespace quarry {
namespace {

TEST(GrowableArray, KeepsValuesAcrossGrowthAndFillsNewOnes) {
  GrowableArray<__int128> sums;
  EXPECT_TRUE(sums.empty());
  sums.resize(3, 7);
  EXPECT_EQ(sums.size(), 3u);
  EXPECT_TRUE(sums[0] == 7 && sums[2] == 7);
  sums[1] = static_cast<__int128>(1) << 100;
  // Past GrowableBytes::kMapFromBytes (16-byte values: 65,536 of them make 1 MiB) and on to 64 MiB.
  for (size_t n = 4; n <= (size_t{4} << 20); n *= 2) {
    sums.resize(n, -1);
    ASSERT_EQ(sums.size(), n);
    EXPECT_TRUE(sums[1] == static_cast<__int128>(1) << 100);
    EXPECT_TRUE(sums[n - 1] == -1);
    sums[n - 1] = static_cast<__int128>(n);
  }
  EXPECT_TRUE(sums[(size_t{4} << 20) - 1] == static_cast<__int128>(size_t{4} << 20));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(sums.data()) % alignof(__int128), 0u);
  sums.resize(2);
  EXPECT_EQ(sums.size(), 2u);
  sums.resize(3);  // a value made again is the fill, not what was there
  EXPECT_TRUE(sums[2] == 0);
  GrowableArray<int64_t> counts;
  counts.push_back(5);
  counts.push_back(6);
  const std::span<const int64_t> view = counts;
  ASSERT_EQ(view.size(), 2u);
  EXPECT_EQ(view[0] + view[1], 11);
}

}  // namespace
}  // namespace quarry
