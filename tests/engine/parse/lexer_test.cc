#include "quarry/engine/parse/lexer.h"

#include <gtest/gtest.h>

#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

std::vector<TokenKind> kinds(std::string_view text) {
  std::vector<TokenKind> out;
  for (const Token& token : tokenize(text)) out.push_back(token.kind);
  return out;
}

QueryError lexError(std::string_view text) {
  try {
    tokenize(text);
  } catch (const QueryError& error) {
    return error;
  }
  ADD_FAILURE() << "no error for " << text;
  return QueryError("none", 0, 0);
}

TEST(QueryLexer, SplitsOperatorsLongestFirst) {
  using K = TokenKind;
  EXPECT_EQ(kinds("= == != <> < <= > >= + - * / % | , ( ) { } :"),
            (std::vector<K>{K::kAssign,    K::kEq,         K::kNe,        K::kNe,         K::kLt,
                            K::kLe,        K::kGt,         K::kGe,        K::kPlus,       K::kMinus,
                            K::kStar,      K::kSlash,      K::kPercent,   K::kPipe,       K::kComma,
                            K::kLeftParen, K::kRightParen, K::kLeftBrace, K::kRightBrace, K::kColon,
                            K::kEnd}));
}

TEST(QueryLexer, DoubleColonIsOneToken) {
  using K = TokenKind;
  EXPECT_EQ(kinds("a::long"),
            (std::vector<K>{K::kIdentifier, K::kDoubleColon, K::kIdentifier, K::kEnd}));
  EXPECT_EQ(kinds("a : : b"),
            (std::vector<K>{K::kIdentifier, K::kColon, K::kColon, K::kIdentifier, K::kEnd}));
  EXPECT_EQ(kinds(":::"), (std::vector<K>{K::kDoubleColon, K::kColon, K::kEnd}));
}

TEST(QueryLexer, SkipsLineAndBlockComments) {
  using K = TokenKind;
  EXPECT_EQ(kinds("a // to the end of the line\n/* block\n over lines */ b"),
            (std::vector<K>{K::kIdentifier, K::kIdentifier, K::kEnd}));
  EXPECT_EQ(kinds("a/**/b"), (std::vector<K>{K::kIdentifier, K::kIdentifier, K::kEnd}));
}

TEST(QueryLexer, JoinsDottedPartsAndBackquotedNames) {
  const auto tokens = tokenize("_file.path a.b.c `weird name` `a``b`.leaf");
  ASSERT_EQ(tokens.size(), 5u);
  EXPECT_EQ(tokens[0].parts, (std::vector<std::string>{"_file", "path"}));
  EXPECT_EQ(tokens[1].parts, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(tokens[2].parts, (std::vector<std::string>{"weird name"}));
  EXPECT_TRUE(tokens[2].quoted);
  EXPECT_EQ(tokens[3].parts, (std::vector<std::string>{"a`b", "leaf"}));
}

TEST(QueryLexer, KeywordsMatchInAnyCaseButNotWhenQuoted) {
  const auto tokens = tokenize("where WhErE `where` where.x");
  EXPECT_TRUE(tokens[0].isKeyword("WHERE"));
  EXPECT_TRUE(tokens[1].isKeyword("WHERE"));
  EXPECT_FALSE(tokens[2].isKeyword("WHERE"));
  EXPECT_FALSE(tokens[3].isKeyword("WHERE"));
}

TEST(QueryLexer, ClassifiesNumbers) {
  const auto tokens = tokenize("12 1.25 .5 1e3 1.5E-2 2e+7");
  EXPECT_EQ(tokens[0].kind, TokenKind::kInteger);
  EXPECT_EQ(tokens[1].kind, TokenKind::kDecimal);
  EXPECT_EQ(tokens[2].kind, TokenKind::kDecimal);
  EXPECT_EQ(tokens[3].kind, TokenKind::kDouble);
  EXPECT_EQ(tokens[4].kind, TokenKind::kDouble);
  EXPECT_EQ(tokens[5].kind, TokenKind::kDouble);
  EXPECT_EQ(tokens[4].text, "1.5E-2");
}

TEST(QueryLexer, ResolvesStringEscapesInBothQuotes) {
  const auto tokens = tokenize(R"('it\'s' "say \"hi\"\n" "\u00e9\t\\" '"' "'")");
  EXPECT_EQ(tokens[0].text, "it's");
  EXPECT_EQ(tokens[1].text, "say \"hi\"\n");
  EXPECT_EQ(tokens[2].text, "\xC3\xA9\t\\");
  EXPECT_EQ(tokens[3].text, "\"");
  EXPECT_EQ(tokens[4].text, "'");
}

// ES|QL's LIKE reference: "To reduce the overhead of escaping, we suggest using
// triple quotes strings """": `LIKE """foo \* bar"""` is `LIKE "foo \\* bar"`.
TEST(QueryLexer, TripleQuotedStringsKeepBackslashesAsWritten) {
  const auto tokens = tokenize(R"-("""foo \* bar""" "foo \\* bar" """it's "quoted" \n""")-");
  ASSERT_EQ(tokens.size(), 4u);
  EXPECT_EQ(tokens[0].kind, TokenKind::kString);
  EXPECT_EQ(tokens[0].text, "foo \\* bar");
  EXPECT_EQ(tokens[0].text, tokens[1].text);
  EXPECT_EQ(tokens[2].text, "it's \"quoted\" \\n");
}

TEST(QueryLexer, TripleQuotedStringTakesUpToTwoClosingQuotesMore) {
  // ES|QL's grammar: '"""' (~[\r\n])*? '"""' '"'? '"'?
  EXPECT_EQ(tokenize(R"("""""")")[0].text, "");
  EXPECT_EQ(tokenize(R"("""a"""")")[0].text, "a\"");
  EXPECT_EQ(tokenize(R"("""a""""")")[0].text, "a\"\"");
  const auto tokens = tokenize(R"("""a"""""" x")");  // a"" then the string " x"
  ASSERT_EQ(tokens.size(), 3u);
  EXPECT_EQ(tokens[0].text, "a\"\"");
  EXPECT_EQ(tokens[1].text, " x");
  // "" is still the empty string when no third quote follows.
  EXPECT_EQ(tokenize(R"("" a)")[0].text, "");
}

TEST(QueryLexer, RejectsUnclosedTripleQuotedString) {
  const QueryError error = lexError(R"(a == """abc"")");
  EXPECT_EQ(error.column(), 6);
  EXPECT_NE(error.message().find("no closing \"\"\""), std::string::npos);
  EXPECT_NE(lexError("\"\"\"\xFF\"\"\"").message().find("not valid UTF-8"), std::string::npos);
}

TEST(QueryLexer, CountsColumnsInCodePointsAndLinesFromOne) {
  const auto tokens = tokenize("'\xC3\xA9\xC3\xA9' x\n  y");
  EXPECT_EQ(tokens[1].position.line, 1);
  EXPECT_EQ(tokens[1].position.column, 6);  // ' é é ' space x
  EXPECT_EQ(tokens[2].position.line, 2);
  EXPECT_EQ(tokens[2].position.column, 3);
}

TEST(QueryLexer, RejectsUnclosedStringAtItsStart) {
  const QueryError error = lexError("a == 'abc");
  EXPECT_EQ(error.line(), 1);
  EXPECT_EQ(error.column(), 6);
  EXPECT_NE(error.message().find("unclosed string"), std::string::npos);
  EXPECT_NE(error.hint().find("close the string with '"), std::string::npos);
}

TEST(QueryLexer, RejectsUnclosedCommentAndQuotedName) {
  EXPECT_EQ(lexError("a /* never closed").column(), 3);
  EXPECT_NE(lexError("`abc").message().find("unclosed quoted identifier"), std::string::npos);
  EXPECT_NE(lexError("``").message().find("empty quoted identifier"), std::string::npos);
}

TEST(QueryLexer, RejectsBadEscapesAndMalformedNumbers) {
  EXPECT_NE(lexError(R"('a\qb')").message().find("unknown escape '\\q'"), std::string::npos);
  EXPECT_NE(lexError(R"('\u12')").message().find("four hex digits"), std::string::npos);
  EXPECT_NE(lexError(R"('\ud800')").message().find("surrogate"), std::string::npos);
  EXPECT_NE(lexError("1e").message().find("malformed number '1e'"), std::string::npos);
  EXPECT_NE(lexError("12abc").message().find("malformed number '12abc'"), std::string::npos);
  EXPECT_NE(lexError("1.2.3").message().find("malformed number"), std::string::npos);
}

TEST(QueryLexer, RejectsStrayCharactersWithAHint) {
  const QueryError hash = lexError("a # b");
  EXPECT_EQ(hash.column(), 3);
  EXPECT_NE(hash.message().find("unexpected character '#'"), std::string::npos);
  EXPECT_NE(lexError("a;").hint().find("remove the ';'"), std::string::npos);
  EXPECT_NE(lexError("!a").hint().find("NOT"), std::string::npos);
  EXPECT_NE(lexError(std::string_view("\x01", 1)).message().find("byte 0x01"), std::string::npos);
}

TEST(QueryLexer, RejectsStringsThatAreNotUtf8) {
  EXPECT_NE(lexError("'\xFF'").message().find("not valid UTF-8"), std::string::npos);
}

}  // namespace
}  // namespace quarry::engine
