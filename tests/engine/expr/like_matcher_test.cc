#include "quarry/engine/expr/like_matcher.h"

#include <gtest/gtest.h>

#include <random>

#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

bool like(std::string_view value, std::string_view pattern) {
  return LikeMatcher(pattern).matches(value);
}

std::string likeError(std::string_view pattern) {
  try {
    LikeMatcher matcher(pattern);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for " << pattern;
  return {};
}

// ES|QL's LIKE reference: "`*` matches zero or more characters. `?` matches one
// character." Each shape the matcher classifies a pattern into, at its edges.
TEST(LikeMatcher, EqualsWithoutWildcards) {
  EXPECT_TRUE(like("abc", "abc"));
  EXPECT_FALSE(like("abcd", "abc"));
  EXPECT_FALSE(like("ab", "abc"));
  EXPECT_FALSE(like("ABC", "abc"));  // case-sensitive
}

TEST(LikeMatcher, PrefixSuffixAndContains) {
  EXPECT_TRUE(like("abc", "ab*"));
  EXPECT_TRUE(like("ab", "ab*"));
  EXPECT_FALSE(like("xab", "ab*"));
  EXPECT_TRUE(like("abc", "*bc"));
  EXPECT_TRUE(like("bc", "*bc"));
  EXPECT_FALSE(like("bcx", "*bc"));
  EXPECT_TRUE(like("www.google.com", "*google*"));
  EXPECT_TRUE(like("google", "*google*"));
  EXPECT_FALSE(like("googl", "*google*"));
  EXPECT_TRUE(like("www.google.com", "**google***"));  // runs of stars are one star
}

TEST(LikeMatcher, LiteralRunsBetweenStars) {
  EXPECT_TRUE(like("abXcdYef", "ab*cd*ef"));
  EXPECT_TRUE(like("abcdef", "ab*cd*ef"));
  EXPECT_FALSE(like("abcef", "ab*cd*ef"));
  EXPECT_FALSE(like("abef", "ab*b*ef"));  // b is the prefix's, not the middle run's
  EXPECT_FALSE(like("abcd", "ab*bcd"));   // the runs may not overlap
  EXPECT_TRUE(like("abbcd", "ab*bcd"));
  EXPECT_TRUE(like("xaay", "*a*a*"));
  EXPECT_FALSE(like("xay", "*a*a*"));
  EXPECT_TRUE(like("a.b.c", "a*.*c"));
  EXPECT_FALSE(like("ab", "a*b*b"));  // a middle run may not overlap the last one
  EXPECT_TRUE(like("abb", "a*b*b"));
}

TEST(LikeMatcher, QuestionMarkIsOneUtf8Character) {
  EXPECT_TRUE(like("abc", "a?c"));
  EXPECT_FALSE(like("ac", "a?c"));
  EXPECT_TRUE(like("a\u00e9c", "a?c"));      // é: 2 bytes
  EXPECT_TRUE(like("a\u65e5c", "a?c"));      // 日: 3 bytes
  EXPECT_TRUE(like("a\U0001F600c", "a?c"));  // 😀: 4 bytes
  EXPECT_FALSE(like("a\U0001F600\u00e9c", "a?c"));
  EXPECT_TRUE(like("\xF0\x9F\x98\x80\xC3\xA9", "??"));
  EXPECT_FALSE(like("\xF0\x9F\x98\x80\xC3\xA9", "???"));
  EXPECT_TRUE(like("x\xE6\x97\xA5y\xE6\x97\xA5", "*?y?"));
  EXPECT_TRUE(like("abxcd", "a*c?"));
  EXPECT_TRUE(like("abxc\xC3\xA9", "a*c?"));
  EXPECT_FALSE(like("ac", "a*c?"));
}

TEST(LikeMatcher, PercentAndUnderscoreMatchThemselves) {
  EXPECT_TRUE(like("100%", "100%"));
  EXPECT_FALSE(like("1000", "100%"));
  EXPECT_TRUE(like("a_b", "a_b"));
  EXPECT_FALSE(like("axb", "a_b"));
  EXPECT_TRUE(like("x%y_z", "*%*_*"));
  EXPECT_FALSE(like("xy", "%"));
}

// ES|QL's LIKE reference: "The escape character is backslash `\`."
TEST(LikeMatcher, BackslashEscapesStarQuestionMarkAndItself) {
  EXPECT_TRUE(like("foo * bar", "foo \\* bar"));
  EXPECT_FALSE(like("foo x bar", "foo \\* bar"));
  EXPECT_TRUE(like("why?", "why\\?"));
  EXPECT_FALSE(like("whys", "why\\?"));
  EXPECT_TRUE(like("a\\b", "a\\\\b"));
  EXPECT_TRUE(like("a\\b", "a\\\\*"));
  EXPECT_TRUE(like("*", "\\*"));
  EXPECT_FALSE(like("x", "\\*"));
  EXPECT_TRUE(like("1*2?", "*\\*?\\?"));
  EXPECT_TRUE(like("x*y", "*\\**"));  // contains a literal *
  EXPECT_FALSE(like("xy", "*\\**"));
}

// ES|QL refuses any other escape ("Invalid sequence - escape character is not
// followed by special wildcard char"), a trailing one included.
TEST(LikeMatcher, RefusesOtherEscapesAndATrailingBackslash) {
  EXPECT_NE(likeError("a\\").find("ends with an escape character"), std::string::npos);
  EXPECT_NE(likeError("a\\").find("\"a\\\\\""), std::string::npos);  // names the pattern
  EXPECT_NE(likeError("100\\%").find("escapes '%'"), std::string::npos);
  EXPECT_NE(likeError("a\\_b").find("escapes '_'"), std::string::npos);
  EXPECT_NE(likeError("\\\xC3\xA9").find("escapes '\xC3\xA9'"), std::string::npos);
  EXPECT_EQ(likeError("\\\\\\").find("escapes '"), std::string::npos);
}

TEST(LikeMatcher, EmptyPatternMatchesOnlyTheEmptyString) {
  EXPECT_TRUE(like("", ""));
  EXPECT_FALSE(like("a", ""));
}

TEST(LikeMatcher, PatternOfStarsMatchesEverything) {
  for (const char* pattern : {"*", "**", "***"}) {
    EXPECT_TRUE(like("", pattern));
    EXPECT_TRUE(like("anything", pattern));
    EXPECT_TRUE(like("\xF0\x9F\x98\x80", pattern));
  }
  EXPECT_FALSE(like("", "*?"));
  EXPECT_TRUE(like("\xF0\x9F\x98\x80", "*?"));
}

TEST(LikeMatcher, TellsWhetherAPatternHasAWildcard) {
  EXPECT_TRUE(LikeMatcher::hasWildcard("a*"));
  EXPECT_TRUE(LikeMatcher::hasWildcard("?"));
  EXPECT_TRUE(LikeMatcher::hasWildcard("\\\\*"));
  EXPECT_FALSE(LikeMatcher::hasWildcard("%google%"));
  EXPECT_FALSE(LikeMatcher::hasWildcard("a_b"));
  EXPECT_FALSE(LikeMatcher::hasWildcard("\\*\\?"));
  EXPECT_FALSE(LikeMatcher::hasWildcard(""));
}

/// A reference: the pattern's meaning written out recursively over code points,
/// sharing no code with the matcher.
bool referenceLike(std::u32string_view value, std::u32string_view pattern) {
  if (pattern.empty()) return value.empty();
  if (pattern[0] == U'*') {
    for (size_t skip = 0; skip <= value.size(); ++skip) {
      if (referenceLike(value.substr(skip), pattern.substr(1))) return true;
    }
    return false;
  }
  if (value.empty()) return false;
  if (pattern[0] == U'?') return referenceLike(value.substr(1), pattern.substr(1));
  size_t literal = 1;
  char32_t expected = pattern[0];
  if (pattern[0] == U'\\') {
    expected = pattern[1];
    literal = 2;
  }
  return value[0] == expected && referenceLike(value.substr(1), pattern.substr(literal));
}

std::string utf8(std::u32string_view text) {
  std::string out;
  for (const char32_t c : text) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

// Every shape against the reference, on random patterns and values over a small
// alphabet of 1- to 4-byte characters, so that matches and near misses are common.
// Half the patterns have no `?`, so that the shapes other than the general
// matcher get their share.
TEST(LikeMatcher, AgreesWithAReferenceOnRandomPatterns) {
  const std::u32string alphabet = U"abab%_\u00e9\u65e5\U0001F600";
  std::mt19937 rng(20240527);
  const auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  int matched = 0;
  for (int round = 0; round < 40000; ++round) {
    const bool general = round % 2 == 0;
    std::u32string pattern;
    for (size_t n = pick(7); n > 0; --n) {
      switch (pick(6)) {
        case 0:
          pattern += U'*';
          break;
        case 1:
          pattern += general ? U'?' : U'*';
          break;
        case 2:
          pattern += U'\\';
          pattern += U"*?\\"[pick(3)];
          break;
        default:
          pattern += alphabet[pick(alphabet.size())];
      }
    }
    std::u32string value;
    for (size_t n = pick(8); n > 0; --n) value += (U"abab%_\u00e9\u65e5\U0001F600*?\\")[pick(12)];
    const bool expected = referenceLike(value, pattern);
    matched += expected ? 1 : 0;
    ASSERT_EQ(like(utf8(value), utf8(pattern)), expected)
        << "value " << utf8(value) << " pattern " << utf8(pattern);
  }
  EXPECT_GT(matched, 2000);  // the corpus is not all misses
}

}  // namespace
}  // namespace quarry::engine
