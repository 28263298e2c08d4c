// GrowableBytes: "A byte buffer that only grows ... The first allocation takes at
// least kMinCapacity bytes, then capacity doubles." What it holds survives every
// growth: on the heap, when it leaves the heap for a mapping of its own at
// kMapFromBytes, and as the mapping grows (mremap moves its pages).
#include "quarry/common/growable_bytes.h"

#include <gtest/gtest.h>

#include <string>

namespace quarry {
namespace {

TEST(GrowableBytes, KeepsWhatItHoldsAcrossEveryGrowth) {
  GrowableBytes bytes;
  EXPECT_EQ(bytes.size(), 0u);
  EXPECT_EQ(bytes.capacity(), 0u);
  bytes.append("", 0);
  EXPECT_EQ(bytes.capacity(), 0u) << "appending nothing allocates nothing";
  bytes.append("ab", 2);
  EXPECT_EQ(bytes.capacity(), GrowableBytes::kMinCapacity);
  // Past 64 MiB, appending pieces of an odd length: capacity doubles, nothing is lost.
  std::string expected = "ab";
  std::string piece;
  for (int i = 0; i < 251; ++i) piece += static_cast<char>('a' + i % 26);
  size_t capacity = bytes.capacity();
  int growths = 0;
  while (bytes.size() < (size_t{64} << 20)) {
    bytes.append(piece);
    if (bytes.capacity() != capacity) {
      // Doubled as often as needed, and no more.
      EXPECT_EQ(bytes.capacity() % capacity, 0u);
      EXPECT_LT(bytes.capacity() / 2, bytes.size());
      capacity = bytes.capacity();
      ++growths;
    }
    if (expected.size() < (size_t{1} << 20)) expected += piece;
  }
  EXPECT_GE(growths, 20);
  ASSERT_GE(bytes.size(), expected.size());
  EXPECT_EQ(bytes.view().substr(0, expected.size()), expected);
  // The last piece, at the far end of the buffer.
  EXPECT_EQ(bytes.view().substr(bytes.size() - piece.size()), piece);
}

TEST(GrowableBytes, CopiesAndMovesItsBytes) {
  GrowableBytes a;
  a.append("hello", 5);
  GrowableBytes b = a;
  b.append(" world", 6);
  EXPECT_EQ(a.view(), "hello");
  EXPECT_EQ(b.view(), "hello world");
  a = b;
  EXPECT_EQ(a.view(), "hello world");
  GrowableBytes c = std::move(a);
  EXPECT_EQ(c.view(), "hello world");
  EXPECT_EQ(a.size(), 0u);
  c.reserve(1000);
  EXPECT_EQ(c.capacity(), 1000u);
  EXPECT_EQ(c.view(), "hello world");
}

TEST(GrowableBytes, MappedBuffersCopyMoveAndReserve) {
  GrowableBytes small;
  small.append("xyz", 3);
  small.reserve(GrowableBytes::kMapFromBytes * 3);  // heap -> mapping, in one step
  EXPECT_EQ(small.capacity(), GrowableBytes::kMapFromBytes * 3);
  EXPECT_EQ(small.view(), "xyz");
  std::string big(GrowableBytes::kMapFromBytes + 17, 'q');
  big.back() = 'z';
  small.append(big);
  GrowableBytes copy = small;  // a mapped buffer copied
  EXPECT_EQ(copy.view(), small.view());
  GrowableBytes moved = std::move(small);
  EXPECT_EQ(moved.view().substr(0, 3), "xyz");
  EXPECT_EQ(moved.view().back(), 'z');
  EXPECT_EQ(small.capacity(), 0u);
  copy = GrowableBytes();  // a mapping released by assignment
  EXPECT_EQ(copy.size(), 0u);
}

// Growing a mapping that asked for huge pages: the advice once covered only the mapping's
// 2 MiB-aligned part, which split it, and the next mremap refused the range (the query failed,
// now and then, as out of memory). Capacities of odd sizes leave an unaligned tail every time.
TEST(GrowableBytes, GrowsAMappingThatAskedForHugePages) {
  GrowableBytes bytes;
  bytes.append("start", 5);
  size_t capacity = GrowableBytes::kMapFromBytes + 4096;
  for (int step = 0; step < 6; ++step) {
    bytes.reserve(capacity);
    ASSERT_EQ(bytes.capacity(), capacity);
    bytes.append(std::string(capacity - bytes.size() - 1, 'x'));
    capacity = capacity * 3 + 4096;
  }
  EXPECT_EQ(bytes.view().substr(0, 5), "start");
  EXPECT_EQ(bytes.view().back(), 'x');
}

}  // namespace
}  // namespace quarry
