// GROK's patterns: ES|QL's GROK page (its examples), Elastic's grok reference for
// what each named pattern matches.

#include "quarry/engine/expr/grok_pattern.h"

#include <gtest/gtest.h>

#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

using Captures = std::optional<std::vector<std::optional<std::string_view>>>;

/// The whole-value match of one named pattern (captured as `x`), or "" for none.
std::string only(std::string_view syntax, std::string_view value) {
  const GrokPattern pattern("^%{" + std::string(syntax) + ":x}$");
  const Captures got = pattern.match(value);
  return got && (*got)[0] ? std::string(*(*got)[0]) : "";
}

// ES|QL: `GROK a "%{TIMESTAMP_ISO8601:date} %{IP:ip} %{EMAILADDRESS:email} %{NUMBER:num}"`.
TEST(GrokPattern, CapturesNamedPatternsIntoColumns) {
  const GrokPattern pattern(
      "%{TIMESTAMP_ISO8601:date} %{IP:ip} %{EMAILADDRESS:email} %{NUMBER:num:int}");
  ASSERT_EQ(pattern.fields().size(), 4u);
  EXPECT_EQ(pattern.fields()[1].name, "ip");
  EXPECT_EQ(pattern.fields()[3].type, DataType::int32());
  const Captures got = pattern.match("2023-01-23T12:15:00.000Z 127.0.0.1 some.email@foo.com 42");
  ASSERT_TRUE(got);
  EXPECT_EQ(*(*got)[0], "2023-01-23T12:15:00.000Z");
  EXPECT_EQ(*(*got)[1], "127.0.0.1");
  EXPECT_EQ(*(*got)[2], "some.email@foo.com");
  EXPECT_EQ(*(*got)[3], "42");
  EXPECT_EQ(pattern.match("no timestamp here"), std::nullopt);
}

TEST(GrokPattern, NamedPatternsMatchWhatTheirNamesSay) {
  EXPECT_EQ(only("WORD", "hello_1"), "hello_1");
  EXPECT_EQ(only("WORD", "two words"), "");
  EXPECT_EQ(only("INT", "-42"), "-42");
  EXPECT_EQ(only("POSINT", "0"), "");
  EXPECT_EQ(only("NUMBER", "3.25"), "3.25");
  EXPECT_EQ(only("BASE10NUM", "+.5"), "+.5");
  EXPECT_EQ(only("IPV4", "192.168.0.255"), "192.168.0.255");
  EXPECT_EQ(only("IPV4", "256.1.1.1"), "");
  EXPECT_EQ(only("IPV6", "2001:db8::ff00:42:8329"), "2001:db8::ff00:42:8329");
  EXPECT_EQ(only("IPV6", "::ffff:10.0.0.1"), "::ffff:10.0.0.1");
  EXPECT_EQ(only("IP", "::1"), "::1");
  EXPECT_EQ(only("NOTSPACE", "a/b?c"), "a/b?c");
  EXPECT_EQ(only("USERNAME", "j.doe-2"), "j.doe-2");
  EXPECT_EQ(only("EMAILADDRESS", "a+b@mail.example.org"), "a+b@mail.example.org");
  EXPECT_EQ(only("URIPATH", "/a/b.html"), "/a/b.html");
  EXPECT_EQ(only("URIPATHPARAM", "/search?q=x&n=1"), "/search?q=x&n=1");
  EXPECT_EQ(only("URI", "https://user@example.com:8080/a?b=c"),
            "https://user@example.com:8080/a?b=c");
  EXPECT_EQ(only("HTTPDATE", "10/Oct/2000:13:55:36 -0700"), "10/Oct/2000:13:55:36 -0700");
  EXPECT_EQ(only("TIMESTAMP_ISO8601", "2024-05-01 10:00:00+02:00"), "2024-05-01 10:00:00+02:00");
  EXPECT_EQ(only("LOGLEVEL", "WARN"), "WARN");
  EXPECT_EQ(only("LOGLEVEL", "Error"), "Error");
  EXPECT_EQ(only("UUID", "123e4567-e89b-12d3-a456-426614174000"),
            "123e4567-e89b-12d3-a456-426614174000");
  EXPECT_EQ(only("QUOTEDSTRING", R"("a \"b\" c")"), R"("a \"b\" c")");
  EXPECT_EQ(only("SPACE", ""), "");
  EXPECT_EQ(only("GREEDYDATA", "anything at all"), "anything at all");
}

// The value is searched: the pattern may match inside it; a capture that takes no
// part in the match is null.
TEST(GrokPattern, SearchesTheValueAndLeavesUnusedCapturesNull) {
  const GrokPattern pattern("user=%{USERNAME:user}(?: id=%{INT:id:int})?");
  Captures got = pattern.match("login user=ann ok");
  ASSERT_TRUE(got);
  EXPECT_EQ(*(*got)[0], "ann");
  EXPECT_FALSE((*got)[1]);
}

// ES|QL: types :int and :float ("%{NUMBER:num:int}"); a text that does not convert is null.
TEST(GrokPattern, ConvertsTypedCapturesAndNullsWhatDoesNotConvert) {
  const GrokPattern pattern("%{NOTSPACE:i:int} %{NOTSPACE:l:long} %{NOTSPACE:f:float}");
  Block input(DataType::string());
  input.appendBytes("+12 9000000000 2.5");
  input.appendBytes("x 1 nan?");
  input.appendBytes("99999999999 -1 -0.0");
  input.appendNull();
  std::vector<Block> out{Block(DataType::int32()), Block(DataType::int64()),
                         Block(DataType::float64())};
  pattern.extract(input, out);
  EXPECT_EQ(out[0].scalarAt(0), Scalar(int32_t{12}));
  EXPECT_EQ(out[1].scalarAt(0), Scalar(int64_t{9000000000}));
  EXPECT_EQ(out[2].scalarAt(0), Scalar(2.5));
  EXPECT_TRUE(out[0].isNull(1));
  EXPECT_EQ(out[1].scalarAt(1), Scalar(int64_t{1}));
  EXPECT_TRUE(out[2].isNull(1));
  EXPECT_TRUE(out[0].isNull(2));  // past int32
  EXPECT_TRUE(out[0].isNull(3) && out[1].isNull(3) && out[2].isNull(3));
}

TEST(GrokPattern, RefusesWhatItCannotRead) {
  const auto message = [](std::string_view pattern) {
    try {
      GrokPattern grok(pattern);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("%{NUMBR:n}").find("did you mean %{NUMBER}?"), std::string::npos);
  EXPECT_NE(message("%{NUMBER:n:text}").find("unknown type :text"), std::string::npos);
  EXPECT_NE(message("%{WORD:a} %{WORD:a}").find("captured twice"), std::string::npos);
  EXPECT_NE(message("%{WORD}").find("captures no column"), std::string::npos);
  // Lookarounds are not RE2's: the pattern says so rather than running slowly.
  EXPECT_NE(message("(?=x)%{WORD:a}").find("RE2 cannot read it"), std::string::npos);
  EXPECT_NE(message("%{WORD:a").find("not closed"), std::string::npos);
}

}  // namespace
}  // namespace quarry::engine
