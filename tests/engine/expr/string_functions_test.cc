// ES|QL's string functions of string_functions.h: each one's cases from the
// ES|QL reference, null in -> null out, UTF-8 counted in characters, and the
// errors for a wrong argument type, a negative count and a result past 1 MiB.

#include "quarry/engine/expr/string_functions.h"

#include <gtest/gtest.h>

#include "expr_test_support.h"
#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

using testing::eval;
using testing::eval1;
using testing::Table;
using V = std::vector<std::string>;

/// s: "abc", "日本語😀", NULL, "", " x "; k: 2, 1, 1, NULL, -1; w: int64 widths.
Table strings() {
  Table t;
  t.add("s", DataType::string(),
        {std::string("abc"), std::string("日本語😀"), std::monostate{}, std::string(""), std::string(" x ")});
  t.add("k", DataType::int32(), {int32_t{2}, int32_t{1}, int32_t{1}, std::monostate{}, int32_t{-1}});
  t.add("w", DataType::int64(), {int64_t{3}, int64_t{0}, int64_t{5}, int64_t{1}, int64_t{2}});
  t.add("t", DataType::string(),
        {std::string("b"), std::string("😀"), std::string("a"), std::monostate{}, std::string("x")});
  return t;
}

/// The rendered lists of a list<string> result (NULL for a null list).
V lists(const std::string& text, const Table& table) {
  const BoundExprPtr bound = testing::bindText(text, table.schema);
  EXPECT_EQ(bound->type, DataType::list(DataType::string()));
  const Block result = evaluate(*bound, table.page());
  V out;
  for (size_t r = 0; r < result.size(); ++r) {
    if (result.isNull(r)) {
      out.push_back("NULL");
      continue;
    }
    std::string text = "[";
    for (uint64_t e = result.listOffsets()[r]; e < result.listOffsets()[r + 1]; ++e) {
      text += (e == result.listOffsets()[r] ? "" : "|") + std::string(result.listElements().bytes(e));
    }
    out.push_back(text + "]");
  }
  return out;
}

std::string errorOf(const std::string& text, const Table& table) {
  try {
    eval(text, table);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

TEST(StringFunctions, ConcatJoinsTwoOrMoreAndIsNullWhenAnyIs) {
  EXPECT_EQ(eval("concat(s, t)", strings()), (V{"abcb", "日本語😀😀", "NULL", "NULL", " x x"}));
  EXPECT_EQ(eval("concat(\"<\", s, \">\", \"!\")", strings()), (V{"<abc>!", "<日本語😀>!", "NULL", "<>!", "< x >!"}));
  EXPECT_EQ(eval1("concat(\"a\", NULL)"), "NULL");
  EXPECT_EQ(eval1("concat(\"\", \"\")"), "");
  EXPECT_THROW(eval1("concat(\"a\")"), QueryError);
  EXPECT_THROW(eval1("concat(\"a\", 1)"), QueryError);
}

TEST(StringFunctions, ConcatRefusesAResultOverOneMebibyte) {
  EXPECT_EQ(eval1("length(concat(repeat(\"a\", 1048575), \"b\"))"), "1048576");
  const std::string message = errorOf("concat(repeat(\"a\", 1048576), \"b\")", testing::oneRow());
  EXPECT_NE(message.find("concat: the result would be 1048577 bytes"), std::string::npos) << message;
}

// Java's Character.isWhitespace, which ES|QL's TRIM uses: ASCII controls \t..\r and
// U+001C..U+001F, space, Unicode space separators but the no-break ones.
TEST(StringFunctions, TrimRemovesWhitespaceAsEsqlDefinesIt) {
  EXPECT_EQ(eval("trim(s)", strings()), (V{"abc", "日本語😀", "NULL", "", "x"}));
  EXPECT_EQ(eval("ltrim(s)", strings()), (V{"abc", "日本語😀", "NULL", "", "x "}));
  EXPECT_EQ(eval("rtrim(s)", strings()), (V{"abc", "日本語😀", "NULL", "", " x"}));
  EXPECT_EQ(eval1("trim(\"\\t\\n\\r a b \\u000b\\u000c\")"), "a b");
  EXPECT_EQ(eval1("trim(\"\\u3000\\u2003x\\u2028\\u1680\")"), "x");   // ideographic, em space, line sep.
  EXPECT_EQ(eval1("trim(\"\\u00a0x\\u202f\")"), "\u00a0x\u202f");     // no-break spaces stay
  EXPECT_EQ(eval1("trim(\"\\u0085x\")"), "\xc2\x85x");  // NEL is no whitespace to Java
  EXPECT_EQ(eval1("trim(\" \\u001f \")"), "");
  EXPECT_EQ(eval1("rtrim(\"日 \")"), "日");
  EXPECT_EQ(eval1("ltrim(\" 😀 \")"), "😀 ");
  EXPECT_THROW(eval1("trim(1)"), QueryError);
}

TEST(StringFunctions, TrimPassesMalformedUtf8Through) {
  Table t;
  t.add("b", DataType::string(), {std::string("\x80 x \xe6"), std::string(" \xf0\x9f ")});
  EXPECT_EQ(eval("trim(b)", t), (V{"\x80 x \xe6", "\xf0\x9f"}));
}

TEST(StringFunctions, EndsWith) {
  EXPECT_EQ(eval("ends_with(s, t)", strings()), (V{"false", "true", "NULL", "NULL", "false"}));
  EXPECT_EQ(eval("ends_with(s, \"\")", strings()), (V{"true", "true", "NULL", "true", "true"}));
  EXPECT_EQ(eval1("ends_with(\"日本語\", \"語\")"), "true");
  EXPECT_EQ(eval1("ends_with(NULL, \"a\")"), "NULL");
  EXPECT_THROW(eval1("ends_with(\"a\")"), QueryError);
}

TEST(StringFunctions, LeftAndRightCountCharacters) {
  EXPECT_EQ(eval("left(s, k)", strings()), (V{"ab", "日", "NULL", "NULL", ""}));
  EXPECT_EQ(eval("right(s, k)", strings()), (V{"bc", "😀", "NULL", "NULL", ""}));
  EXPECT_EQ(eval("left(s, w)", strings()), (V{"abc", "", "NULL", "", " x"}));
  EXPECT_EQ(eval("right(s, w)", strings()), (V{"abc", "", "NULL", "", "x "}));
  EXPECT_EQ(eval1("left(\"日本語😀\", 3)"), "日本語");
  EXPECT_EQ(eval1("right(\"日本語😀\", 3)"), "本語😀");
  EXPECT_EQ(eval1("right(\"abc\", 9223372036854775807)"), "abc");
  EXPECT_EQ(eval1("left(\"abc\", NULL)"), "NULL");
  EXPECT_THROW(eval1("left(\"abc\", 1.5)"), QueryError);
  EXPECT_THROW(eval1("right(\"abc\", \"1\")"), QueryError);
}

TEST(StringFunctions, ReverseByCodePoint) {
  EXPECT_EQ(eval("reverse(s)", strings()), (V{"cba", "😀語本日", "NULL", "", " x "}));
  EXPECT_EQ(eval1("reverse(\"a😀ñb\")"), "bñ😀a");
  // A combining accent moves with the code points, not with its letter (ES|QL keeps the cluster).
  EXPECT_EQ(eval1("reverse(\"e\\u0301x\")"), "x\u0301e");
}

TEST(StringFunctions, RepeatAndSpace) {
  EXPECT_EQ(eval("repeat(s, w)", strings()), (V{"abcabcabc", "", "NULL", "", " x  x "}));
  EXPECT_EQ(eval1("repeat(\"日\", 2)"), "日日");
  EXPECT_EQ(eval1("repeat(\"\", 2000000000)"), "");
  EXPECT_EQ(eval1("space(3)"), "   ");
  EXPECT_EQ(eval1("space(0)"), "");
  EXPECT_EQ(eval1("space(NULL)"), "NULL");
  EXPECT_EQ(eval("space(w)", strings()), (V{"   ", "", "     ", " ", "  "}));
  EXPECT_EQ(eval1("length(space(1048576))"), "1048576");
}

TEST(StringFunctions, RepeatAndSpaceRefuseNegativeCountsAndHugeResults) {
  // A literal is refused when the query is bound, a column's value when it is read.
  EXPECT_THROW(eval1("repeat(\"a\", -1)"), QueryError);
  EXPECT_THROW(eval1("space(-1)"), QueryError);
  EXPECT_THROW(eval1("space(1048577)"), QueryError);
  EXPECT_EQ(errorOf("repeat(s, k)", strings()), "repeat: the count must not be negative, got -1 (pass 0 or more)");
  const std::string huge = errorOf("repeat(\"abc\", 2000000000)", testing::oneRow());
  EXPECT_NE(huge.find("repeat: \"abc\" 2000000000 times would be 6000000000 bytes, over the limit of 1048576"),
            std::string::npos)
      << huge;
  const std::string overflow = errorOf("repeat(\"abc\", 9223372036854775807)", testing::oneRow());
  EXPECT_NE(overflow.find("over 2^64 bytes"), std::string::npos) << overflow;
  Table t;
  t.add("n", DataType::int64(), {int64_t{1048577}});
  EXPECT_NE(errorOf("space(n)", t).find("space: 1048577 spaces would be 1048577 bytes"), std::string::npos);
  EXPECT_THROW(eval1("repeat(\"a\", \"2\")"), QueryError);
}

TEST(StringFunctions, LocateIsOneBasedInCharactersAndZeroWhenAbsent) {
  EXPECT_EQ(eval("locate(s, t)", strings()), (V{"2", "4", "NULL", "NULL", "2"}));
  EXPECT_EQ(eval1("locate(\"a😀b😀\", \"😀\", 3)"), "4");
  EXPECT_EQ(eval1("locate(\"a😀b😀\", \"b\")"), "3");
  EXPECT_EQ(eval1("locate(\"hello\", \"z\")"), "0");
  // ES|QL's start: 0 and 1 are the first character, negative counts from the end, clamped.
  EXPECT_EQ(eval1("locate(\"abcabc\", \"b\", 0)"), "2");
  EXPECT_EQ(eval1("locate(\"abcabc\", \"b\", 3)"), "5");
  EXPECT_EQ(eval1("locate(\"abcabc\", \"b\", -2)"), "5");
  EXPECT_EQ(eval1("locate(\"abcabc\", \"b\", -100)"), "2");
  EXPECT_EQ(eval1("locate(\"abcabc\", \"b\", 100)"), "0");
  // The empty string is found where the search starts.
  EXPECT_EQ(eval1("locate(\"abc\", \"\")"), "1");
  EXPECT_EQ(eval1("locate(\"abc\", \"\", 9)"), "4");
  EXPECT_EQ(eval1("locate(\"ab\", \"abc\")"), "0");
  EXPECT_EQ(eval1("locate(\"abc\", \"b\", NULL)"), "NULL");
  EXPECT_THROW(eval1("locate(\"abc\", 1)"), QueryError);
  EXPECT_THROW(eval1("locate(\"abc\", \"b\", \"1\")"), QueryError);
}

TEST(StringFunctions, BitAndByteLengthCountUtf8Bytes) {
  EXPECT_EQ(eval("byte_length(s)", strings()), (V{"3", "13", "NULL", "0", "3"}));
  EXPECT_EQ(eval("bit_length(s)", strings()), (V{"24", "104", "NULL", "0", "24"}));
  EXPECT_EQ(eval("length(s)", strings()), (V{"3", "4", "NULL", "0", "3"}));
  EXPECT_EQ(testing::bindText("byte_length(s)", strings().schema)->type, DataType::int64());
  EXPECT_THROW(eval1("bit_length(1)"), QueryError);
}

TEST(StringFunctions, SplitGivesAListKeepingEmptyPieces) {
  Table t;
  t.add("s", DataType::string(),
        {std::string("a,b"), std::string("a,,b"), std::string(",x,"), std::string(""), std::monostate{},
         std::string("日,本")});
  EXPECT_EQ(lists("split(s, \",\")", t), (V{"[a|b]", "[a||b]", "[|x|]", "[]", "NULL", "[日|本]"}));
  EXPECT_EQ(eval("mv_count(split(s, \",\"))", t), (V{"2", "3", "3", "1", "NULL", "2"}));
  EXPECT_EQ(eval("mv_last(split(s, \",\"))", t), (V{"b", "b", "", "", "NULL", "本"}));
  EXPECT_EQ(eval1("mv_count(split(NULL, \",\"))"), "NULL");
  EXPECT_EQ(eval1("mv_count(split(\"a\", NULL))"), "NULL");
  // ES|QL's rule: one byte. A literal is checked when bound, a column's value when read.
  EXPECT_THROW(eval1("split(\"a,b\", \",,\")"), QueryError);
  EXPECT_THROW(eval1("split(\"a,b\", \"\")"), QueryError);
  EXPECT_THROW(eval1("split(\"a·b\", \"·\")"), QueryError);
  Table d;
  d.add("s", DataType::string(), {std::string("a-b")});
  d.add("d", DataType::string(), {std::string("--")});
  EXPECT_NE(errorOf("split(s, d)", d).find("split: the delimiter must be a single byte, got \"--\""),
            std::string::npos);
}

// ES|QL's MD5, SHA1 and SHA256 (and DuckDB's md5, sha1, sha256): the digest of the
// string's UTF-8 bytes as lowercase hexadecimal; null in, null out. The expected digests
// are RFC 1321's and FIPS 180's test vectors ("", "abc") and Python's hashlib's.
TEST(StringFunctions, DigestsAreLowercaseHexOfTheUtf8Bytes) {
  EXPECT_EQ(eval("md5(s)", strings()),
            (V{"900150983cd24fb0d6963f7d28e17f72", "ac48e57780120a9761076648ffb8049c", "NULL",
               "d41d8cd98f00b204e9800998ecf8427e", "6722c218a6f30869ef6886dc4b050a37"}));
  EXPECT_EQ(eval("sha1(s)", strings()), (V{"a9993e364706816aba3e25717850c26c9cd0d89d",
                                           "1b3d5fdf25030287d02ff7cac09c71f30c7bdd94", "NULL",
                                           "da39a3ee5e6b4b0d3255bfef95601890afd80709",
                                           "ea31e8b43909a0c94f7c19f0833c16d86dd95aa7"}));
  EXPECT_EQ(eval("sha256(s)", strings()),
            (V{"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
               "94817f31083740f98f4b518e6989116e8aa08d8c6b76966abc057cc495564a17", "NULL",
               "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
               "fc191eafd9c50bef4eed244d249529de9980ffa2404607c0f98eac44c8da7728"}));
  EXPECT_EQ(eval1("md5(NULL)"), "NULL");
  // Values over one digest block (64 bytes), one after another: the context is reset between
  // values.
  EXPECT_EQ(eval1("sha256(repeat(\"a\", 1000))"),
            "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
  EXPECT_EQ(eval1("md5(concat(md5(\"abc\"), \"abc\"))"), "5dca6c035c021c1156715b157496c03f");
}

TEST(StringFunctions, DigestsTakeOneString) {
  EXPECT_NE(errorOf("md5(k)", strings()).find("md5: argument 1 must be a string, got int32"),
            std::string::npos);
  EXPECT_NE(errorOf("sha1(s, s)", strings()).find("sha1: expected 1 arguments, got 2"),
            std::string::npos);
  // A list of several strings is null (with a warning: mv_functions_test.cc), of one its string.
  Table t;
  t.add("s", DataType::string(), {std::string("a,b"), std::string("abc")});
  EXPECT_EQ(eval("sha1(split(s, \",\"))", t),
            (V{"NULL", "a9993e364706816aba3e25717850c26c9cd0d89d"}));
}

// ES|QL: a single-value function given a multi-value is null (with a warning).
TEST(StringFunctions, AListArgumentIsItsOneValue) {
  Table t;
  t.add("s", DataType::string(), {std::string("a,b"), std::string("a")});
  EXPECT_EQ(eval("concat(split(s, \",\"), \"x\")", t), (V{"NULL", "ax"}));
}

TEST(StringFunctions, TypeErrorsNameTheFunctionAndTheArgument) {
  const std::string message = errorOf("left(s, t)", strings());
  EXPECT_NE(message.find("left: argument 2 must be an integer, got string"), std::string::npos) << message;
  EXPECT_NE(errorOf("trim(s, s)", strings()).find("trim: expected 1 arguments, got 2"), std::string::npos);
}

TEST(StringFunctions, HelpersCountCharacters) {
  EXPECT_EQ(characterCount("日本語😀abcdefgh"), 12);
  EXPECT_EQ(byteOffsetOf("日本語", 2), 6u);
  EXPECT_EQ(byteOffsetOf("日本語", 9), 9u);
}

}  // namespace
}  // namespace quarry::engine
