#include "quarry/engine/expr/regex_matcher.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

bool rlike(std::string_view value, std::string_view pattern) {
  return RegexMatcher(pattern).matches(value);
}

std::string rlikeError(std::string_view pattern) {
  try {
    RegexMatcher matcher(pattern);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for " << pattern;
  return {};
}

// Elastic's regular expression syntax (which ES|QL's RLIKE uses): "Lucene's
// regular expression engine does not support anchor operators, such as `^`
// (beginning of line) or `$` (end of line). To match a term, the regular
// expression must match the entire string."
TEST(RegexMatcher, MatchesTheWholeValueOnly) {
  EXPECT_TRUE(rlike("foobar", "foo.*"));
  EXPECT_FALSE(rlike("foobar", "foo"));
  EXPECT_FALSE(rlike("foobar", "bar"));
  EXPECT_TRUE(rlike("foobar", ".*bar"));
  EXPECT_FALSE(rlike("foobarx", ".*bar"));
  // Alternatives are anchored as a whole: "a|ab" matches all of "ab".
  EXPECT_TRUE(rlike("ab", "a|ab"));
  EXPECT_FALSE(rlike("abc", "a|ab"));
  EXPECT_TRUE(rlike("", ""));
  EXPECT_FALSE(rlike("a", ""));
  EXPECT_TRUE(rlike("", "a*"));
}

// The standard operators of the same page, each with its example.
TEST(RegexMatcher, TakesTheStandardOperators) {
  EXPECT_TRUE(rlike("abz", "ab."));
  EXPECT_TRUE(rlike("ab", "abc?"));
  EXPECT_TRUE(rlike("abbb", "ab+"));
  EXPECT_FALSE(rlike("a", "ab+"));
  EXPECT_TRUE(rlike("a", "ab*"));
  EXPECT_TRUE(rlike("aaa", "a{2,4}"));
  EXPECT_FALSE(rlike("aaaaa", "a{2,4}"));
  EXPECT_TRUE(rlike("xyz", "abc|xyz"));
  EXPECT_TRUE(rlike("abcdef", "abc(def)?"));
  EXPECT_FALSE(rlike("abcd", "abc(def)?"));
  EXPECT_TRUE(rlike("-", "[-abc]"));
  EXPECT_TRUE(rlike("d", "[^abc]"));
  EXPECT_FALSE(rlike("b", "[^a-c]"));
}

TEST(RegexMatcher, IsCaseSensitive) {
  EXPECT_FALSE(rlike("FOO", "foo"));
  EXPECT_TRUE(rlike("FOO", "(?i)foo"));  // RE2's flag, which Lucene lacks
}

// ES|QL's RLIKE reference: "Matching special characters (eg. `.`, `*`, `(`...)
// will require escaping. The escape character is backslash `\`."
TEST(RegexMatcher, BackslashMatchesASpecialCharacterLiterally) {
  EXPECT_TRUE(rlike("foo ( bar", "foo \\( bar"));
  EXPECT_TRUE(rlike("a.b", "a\\.b"));
  EXPECT_FALSE(rlike("axb", "a\\.b"));
  EXPECT_TRUE(rlike("a\\b", "a\\\\b"));
  EXPECT_TRUE(rlike("1+1", "1\\+1"));
}

TEST(RegexMatcher, DotIsOneCharacterOfAnyLengthAndALineBreak) {
  EXPECT_TRUE(rlike("\xC3\xA9", "."));              // é: 2 bytes
  EXPECT_TRUE(rlike("\xE6\x97\xA5", "."));          // 日: 3 bytes
  EXPECT_TRUE(rlike("\xF0\x9F\x98\x80", "."));      // 😀: 4 bytes
  EXPECT_FALSE(rlike("\xF0\x9F\x98\x80", "...."));  // not 4 bytes
  EXPECT_TRUE(rlike("\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", "\xE6\x97\xA5.{2}"));
  EXPECT_TRUE(rlike("caf\xC3\xA9", "[a-z]+[\xC3\xA9\xC3\xA8]"));
  EXPECT_TRUE(rlike("\xCE\xB1\xCE\xB2", "\\p{Greek}+"));
  // Lucene's `.` is any character; RE2's is not a line break unless asked.
  EXPECT_TRUE(rlike("a\nb", "a.b"));
}

TEST(RegexMatcher, AnInvalidExpressionIsAnErrorNamingItAndRe2sMessage) {
  const std::string error = rlikeError("a(b");
  EXPECT_NE(error.find("RLIKE pattern \"a(b\""), std::string::npos) << error;
  EXPECT_NE(error.find("missing ): a(b"), std::string::npos) << error;  // RE2's own words
  EXPECT_NE(rlikeError("*a").find("no argument for repetition operator: *"), std::string::npos);
  EXPECT_NE(rlikeError("[z-a]").find("invalid character class range: z-a"), std::string::npos);
  // No backreferences in RE2 (they would cost backtracking).
  EXPECT_NE(rlikeError("(a)\\1").find("invalid escape sequence"), std::string::npos);
}

// RE2 runs in time linear in the value: the pattern that makes a backtracking
// engine take 2^n steps on n 'a's takes microseconds.
TEST(RegexMatcher, ANestedRepetitionDoesNotBacktrack) {
  const RegexMatcher matcher("(a*)*b");
  const std::string value(100000, 'a');
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(matcher.matches(value));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

std::string replaced(std::string_view value, std::string_view pattern, std::string_view replacement) {
  std::string out;
  RegexReplacer(pattern, replacement).replace(value, out);
  return out;
}

std::string replaceError(std::string_view pattern, std::string_view replacement) {
  try {
    RegexReplacer replacer(pattern, replacement);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for " << pattern << " / " << replacement;
  return {};
}

// ES|QL's REPLACE: "The function substitutes in the string str any match of the regular
// expression regex with the replacement string newStr." Its example: REPLACE("Hello World",
// "World", "Universe") is "Hello Universe". As Java's replaceAll (which ES|QL calls), matches
// are taken leftmost first and do not overlap, and an empty match is replaced between every
// two characters ("abc".replaceAll("x*", "-") is "-a-b-c-").
TEST(RegexReplacer, ReplacesEveryMatchAsJavasReplaceAll) {
  EXPECT_EQ(replaced("Hello World", "World", "Universe"), "Hello Universe");
  EXPECT_EQ(replaced("aaa", "aa", "b"), "ba");
  EXPECT_EQ(replaced("a1b22c333", "[0-9]+", "#"), "a#b#c#");
  EXPECT_EQ(replaced("abc", "x*", "-"), "-a-b-c-");
  EXPECT_EQ(replaced("abc", "z", "-"), "abc");
  EXPECT_EQ(replaced("", "x*", "-"), "-");
  // Characters, not bytes: `.` takes a whole UTF-8 sequence, and a line break.
  EXPECT_EQ(replaced("\xC3\xA9t\xC3\xA9\n", ".", "x"), "xxxx");
}

// Java's replacement syntax: "$g" is group g, "\\" escapes the next character.
TEST(RegexReplacer, TheReplacementNamesGroupsAsJavaDoes) {
  const std::string referer = "^https?://(?:www\\.)?([^/]+)/.*$";  // ClickBench's Q29
  EXPECT_EQ(replaced("http://www.example.com/a/b", referer, "$1"), "example.com");
  EXPECT_EQ(replaced("https://news.example.ru/x", referer, "$1"), "news.example.ru");
  EXPECT_EQ(replaced("no url", referer, "$1"), "no url");
  EXPECT_EQ(replaced("ab", "(a)(b)", "$2$1"), "ba");
  EXPECT_EQ(replaced("ab", "b", "[$0]"), "a[b]");
  EXPECT_EQ(replaced("a", "a", "\\$1"), "$1");
  EXPECT_EQ(replaced("a", "a", "\\\\"), "\\");
  EXPECT_EQ(replaced("a", "a", "\\q"), "q");
}

TEST(RegexReplacer, ABadExpressionOrReplacementIsAnErrorNamingIt) {
  std::string error = replaceError("a(b", "x");
  EXPECT_NE(error.find("REPLACE pattern \"a(b\""), std::string::npos) << error;
  EXPECT_NE(error.find("missing ): a(b"), std::string::npos) << error;
  error = replaceError("(a)", "$2");
  EXPECT_NE(error.find("REPLACE replacement \"$2\""), std::string::npos) << error;
  EXPECT_NE(error.find("(a)"), std::string::npos) << error;
  EXPECT_NE(replaceError("a", "$").find("group number"), std::string::npos);
  EXPECT_NE(replaceError("a", "$x").find("group number"), std::string::npos);
  EXPECT_NE(replaceError("a", "x\\").find("escapes nothing"), std::string::npos);
}

}  // namespace
}  // namespace quarry::engine
