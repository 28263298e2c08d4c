#include "quarry/common/utf8.h"

#include <gtest/gtest.h>

namespace quarry {
namespace {

TEST(Utf8, AcceptsEverySequenceLength) {
  EXPECT_TRUE(isValidUtf8(""));
  EXPECT_TRUE(isValidUtf8("plain ascii"));
  EXPECT_TRUE(isValidUtf8("\xC3\xA9"));          // U+00E9
  EXPECT_TRUE(isValidUtf8("\xE2\x82\xAC"));      // U+20AC
  EXPECT_TRUE(isValidUtf8("\xEF\xBF\xBF"));      // U+FFFF
  EXPECT_TRUE(isValidUtf8("\xF0\x9F\x98\x80"));  // U+1F600
  EXPECT_TRUE(isValidUtf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF
  EXPECT_EQ(utf8SequenceLength("\xF0\x9F\x98\x80", 0), 4u);
}

TEST(Utf8, RejectsOverlongSurrogatesAndCodePointsPastTheLast) {
  EXPECT_FALSE(isValidUtf8("\xC0\x80"));
  EXPECT_FALSE(isValidUtf8("\xC1\xBF"));
  EXPECT_FALSE(isValidUtf8("\xE0\x80\x80"));
  EXPECT_FALSE(isValidUtf8("\xF0\x80\x80\x80"));
  EXPECT_FALSE(isValidUtf8("\xED\xA0\x80"));      // U+D800
  EXPECT_FALSE(isValidUtf8("\xF4\x90\x80\x80"));  // U+110000
  EXPECT_FALSE(isValidUtf8("\xF5\x80\x80\x80"));
}

TEST(Utf8, RejectsStrayContinuationsAndCutSequences) {
  EXPECT_FALSE(isValidUtf8("\x80"));
  EXPECT_FALSE(isValidUtf8("a\xBF"));
  EXPECT_FALSE(isValidUtf8("\xE2\x82"));
  EXPECT_FALSE(isValidUtf8("\xC3"));
  EXPECT_FALSE(
      isValidUtf8("\xC3"
                  "a"));
}

TEST(Utf8, CountsCodePointsAndEachIllFormedByteAsOne) {
  EXPECT_EQ(codePointCount("h\xC3\xA9llo"), 5u);
  EXPECT_EQ(codePointCount("\xFF\xFE"), 2u);
  EXPECT_EQ(codePointCount(""), 0u);
}

}  // namespace
}  // namespace quarry

namespace quarry {
namespace {

TEST(Utf8Test, LossyAppendReplacesEachMaximalIllFormedSubpart) {
  std::string out;
  appendUtf8Lossy(std::string_view("a\xF0\x9F\x98\x80" "b", 6), out);
  EXPECT_EQ(out, "a\xF0\x9F\x98\x80" "b");  // well-formed passes through
  out.clear();
  appendUtf8Lossy("\xE2\x82" "x" "\xFF", out);  // a cut 3-byte sequence, then a bad byte
  EXPECT_EQ(out, "\xEF\xBF\xBD" "x" "\xEF\xBF\xBD");
  out.clear();
  appendUtf8Lossy("\xED\xA0\x80", out);  // a surrogate: three bytes, three replacements
  EXPECT_EQ(out, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
}

}  // namespace
}  // namespace quarry
