#include "quarry/common/byte_scan.h"

#include <gtest/gtest.h>

#include <string>

#include "quarry/common/huge_pages.h"

namespace quarry {
namespace {

TEST(ByteScan, FindsTheFirstMemberAtEveryOffsetOfTheUnrolledLoop) {
  constexpr ByteSet kQuoteOrComma("\",");
  // The member at each position 0..11, so that both the four-at-a-time loop and
  // the byte-by-byte tail find it.
  for (size_t at = 0; at < 12; ++at) {
    std::string text(12, 'a');
    text[at] = ',';
    EXPECT_EQ(findFirstIn(text, kQuoteOrComma), at) << "at " << at;
    EXPECT_EQ(findFirstIn(text, kQuoteOrComma, at), at);
    EXPECT_EQ(findFirstIn(text, kQuoteOrComma, at + 1), text.size());
  }
  EXPECT_EQ(findFirstIn("", kQuoteOrComma), 0u);
  EXPECT_EQ(findFirstIn("abcdefg", kQuoteOrComma), 7u);
}

TEST(ByteScan, RangesAndHighBytesAreMembersOnlyWhenAdded) {
  constexpr ByteSet kControl = ByteSet("\\").withRange(0x00, 0x1f);
  EXPECT_EQ(findFirstIn(std::string_view("ab\x01z", 4), kControl), 2u);
  EXPECT_EQ(findFirstIn(std::string_view("ab\0z", 4), kControl), 2u);
  EXPECT_EQ(findFirstIn("ab\xC3\xA9 ", kControl), 5u);  // é is not a member
  EXPECT_EQ(findFirstIn("ab\xC3\xA9\\", kControl), 4u);
  constexpr ByteSet kHigh = ByteSet("").withRange(0x80, 0xff);
  EXPECT_EQ(findFirstIn("abc\xFF", kHigh), 3u);
}

TEST(ByteScan, FindsTheFirstNonAsciiByteAcrossWordBoundaries) {
  for (size_t at = 0; at < 20; ++at) {
    std::string text(20, 'x');
    text[at] = static_cast<char>(0x80);
    EXPECT_EQ(findFirstNonAscii(text), at) << "at " << at;
    EXPECT_EQ(findFirstNonAscii(text, at + 1), text.size());
  }
  EXPECT_EQ(findFirstNonAscii(std::string(100, '\x7f')), 100u);
}

TEST(ByteScan, AppendsRunsAndEscapesOnlyTheSpecialBytes) {
  constexpr ByteSet kQuote("\"");
  std::string out = "<";
  appendEscaped("say \"hi\" \"", kQuote, out, [](char c, std::string& o) {
    o += c;
    o += c;
  });
  EXPECT_EQ(out, "<say \"\"hi\"\" \"\"");
  out.clear();
  appendEscaped("", kQuote, out, [](char, std::string& o) { o += '!'; });
  EXPECT_EQ(out, "");
}

TEST(ByteScan, ALargeValueIsAppendedWholeWithItsEscapes) {
  // Above kHugePageAdviceBytes: the buffer is reserved once with room to spare.
  std::string value(kHugePageAdviceBytes + 3, 'v');
  value[1] = '"';
  value.back() = '"';
  std::string out = "\"";
  appendEscaped(value, ByteSet("\""), out, [](char c, std::string& o) { o.append(2, c); });
  out += '"';
  ASSERT_EQ(out.size(), value.size() + 4);
  EXPECT_EQ(out.substr(0, 5), "\"v\"\"v");
  EXPECT_EQ(out.substr(out.size() - 4), "v\"\"\"");
  EXPECT_GE(out.capacity(), out.size());
}

TEST(HugePages, AppendBulkGrowsGeometricallyAndKeepsTheBytes) {
  std::string out = "head:";
  const std::string chunk(kHugePageAdviceBytes, 'c');
  appendBulk(out, chunk);
  const size_t first = out.capacity();
  EXPECT_GT(first, out.size());  // room for the separator that usually follows
  appendBulk(out, chunk);
  EXPECT_GE(out.capacity(), 2 * first);
  EXPECT_EQ(out.size(), 5 + 2 * chunk.size());
  EXPECT_EQ(out.substr(0, 6), "head:c");
  // Small appends are std::string's own.
  std::string small;
  appendBulk(small, "abc");
  EXPECT_EQ(small, "abc");
}

}  // namespace
}  // namespace quarry
