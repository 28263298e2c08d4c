// Issue 26: "CJK and emoji counted as one cell so columns go out of line". The
// rule: East Asian Wide/Fullwidth and emoji take two columns, combining marks none.

#include "quarry/common/display_width.h"

#include <gtest/gtest.h>

namespace quarry {
namespace {

TEST(DisplayWidth, AsciiAndLatinTakeOneColumnEach) {
  EXPECT_EQ(displayWidth(""), 0u);
  EXPECT_EQ(displayWidth("abc"), 3u);
  EXPECT_EQ(displayWidth("caf\xC3\xA9"), 4u);  // precomposed é
  EXPECT_EQ(codePointWidth(U'A'), 1);
}

TEST(DisplayWidth, CjkAndFullwidthFormsTakeTwoColumns) {
  EXPECT_EQ(displayWidth("\xE6\x9D\xB1\xE4\xBA\xAC"), 4u);  // 東京
  EXPECT_EQ(displayWidth("\xE3\x81\x8B\xE3\x81\xAA"), 4u);  // かな
  EXPECT_EQ(displayWidth("\xEA\xB0\x80"), 2u);              // 가 (Hangul syllable)
  EXPECT_EQ(displayWidth("\xEF\xBC\xA1"), 2u);              // Ａ (fullwidth A)
  EXPECT_EQ(displayWidth("a\xE6\x9D\xB1"
                         "b"),
            4u);                          // a東b
  EXPECT_EQ(codePointWidth(0x20000), 2);  // CJK Extension B
  EXPECT_EQ(codePointWidth(0xFF61), 1);   // halfwidth ｡
}

TEST(DisplayWidth, EmojiTakeTwoColumnsAndJoinedSequencesTakeTwo) {
  EXPECT_EQ(displayWidth("\xF0\x9F\x98\x80"), 2u);  // 😀
  EXPECT_EQ(displayWidth("\xF0\x9F\x9A\x80"), 2u);  // 🚀
  // 👍🏽: a skin-tone modifier joins the emoji before it.
  EXPECT_EQ(displayWidth("\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD"), 2u);
  // 👩‍💻: woman, ZERO WIDTH JOINER, laptop: one glyph where terminals join them.
  EXPECT_EQ(displayWidth("\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB"), 2u);
  // A joiner after a letter joins nothing.
  EXPECT_EQ(displayWidth("a\xE2\x80\x8D\xF0\x9F\x98\x80"), 3u);
}

TEST(DisplayWidth, CombiningMarksAndFormatCharactersTakeNoColumn) {
  EXPECT_EQ(displayWidth("e\xCC\x81"), 1u);                 // e + U+0301 COMBINING ACUTE
  EXPECT_EQ(displayWidth("a\xCC\x88\xCC\xA3"), 1u);         // a + two marks
  EXPECT_EQ(displayWidth("\xE2\x80\x8B"), 0u);              // U+200B ZERO WIDTH SPACE
  EXPECT_EQ(displayWidth("\xE2\x9D\xA4\xEF\xB8\x8F"), 1u);  // ❤ + VS16 (the selector adds none)
  EXPECT_EQ(codePointWidth(0x0301), 0);
  EXPECT_EQ(codePointWidth(0x00AD), 1);  // the soft hyphen is shown
}

TEST(DisplayWidth, IllFormedBytesTakeOneColumnEach) {
  EXPECT_EQ(displayWidth("\xFF\xFE"), 2u);
  EXPECT_EQ(displayWidth("\xE6\x9D"), 2u);  // a cut sequence: two stray bytes
}

TEST(DisplayWidth, PrefixCutsBetweenCodePointsAndKeepsAccents) {
  EXPECT_EQ(displayPrefix("abcdef", 3), "abc");
  EXPECT_EQ(displayPrefix("ab", 5), "ab");
  // 東京: a wide character is not split; 3 columns hold only the first.
  EXPECT_EQ(displayPrefix("\xE6\x9D\xB1\xE4\xBA\xAC", 3), "\xE6\x9D\xB1");
  EXPECT_EQ(displayPrefix("\xE6\x9D\xB1\xE4\xBA\xAC", 1), "");
  // e + U+0301: the accent stays with its letter.
  EXPECT_EQ(displayPrefix("e\xCC\x81x", 1), "e\xCC\x81");
  EXPECT_EQ(displayPrefix("\xF0\x9F\x98\x80\xF0\x9F\x98\x80", 3), "\xF0\x9F\x98\x80");
}

}  // namespace
}  // namespace quarry
