#include "quarry/cli/json_writer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "tests/cli/json_validator.h"

namespace quarry::cli {
namespace {

std::string jsonString(std::string_view text) {
  std::string out;
  appendJsonString(out, text);
  return out;
}

TEST(JsonWriter, WritesNestedContainersIndentedAndInlineOnesOnOneLine) {
  std::string out;
  JsonWriter json(out);
  json.beginObject();
  json.field("a", 1);
  json.key("b");
  json.beginArray(/*isInline=*/true);
  json.value("x");
  json.value(2.5);
  json.beginObject();
  json.field("c", true);
  json.endObject();
  json.endArray();
  json.key("d");
  json.beginObject();
  json.endObject();
  json.key("e");
  json.beginArray();
  json.null();
  json.endArray();
  json.endObject();
  EXPECT_TRUE(json.complete());
  EXPECT_EQ(out,
            "{\n"
            "  \"a\": 1,\n"
            "  \"b\": [\"x\", 2.5, {\"c\": true}],\n"
            "  \"d\": {},\n"
            "  \"e\": [\n"
            "    null\n"
            "  ]\n"
            "}\n");
  EXPECT_TRUE(isValidJson(out));
}

TEST(JsonWriter, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(jsonString("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(jsonString("\n\r\t\b\f"), "\"\\n\\r\\t\\b\\f\"");
  EXPECT_EQ(jsonString(std::string("\x00\x01\x1f\x7f", 4)), "\"\\u0000\\u0001\\u001f\\u007f\"");
}

TEST(JsonWriter, KeepsWellFormedUtf8AndEscapesEveryOtherByte) {
  EXPECT_EQ(jsonString("h\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"),
            "\"h\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"");
  EXPECT_EQ(jsonString("\xFF"), "\"\\u00ff\"");
  // A sequence cut short, an overlong form and a surrogate are escaped byte by byte.
  EXPECT_EQ(jsonString("\xE2\x82"), "\"\\u00e2\\u0082\"");
  EXPECT_EQ(jsonString("\xC0\x80"), "\"\\u00c0\\u0080\"");
  EXPECT_EQ(jsonString("\xED\xA0\x80"), "\"\\u00ed\\u00a0\\u0080\"");
  EXPECT_TRUE(isValidJson(jsonString("\xFF\xFE\x00 \xC3")));
}

TEST(JsonWriter, WritesIntegersExactlyAndNonFiniteDoublesAsStrings) {
  std::string out;
  JsonWriter json(out);
  json.beginArray(/*isInline=*/true);
  json.value(std::numeric_limits<int64_t>::min());
  json.value(std::numeric_limits<uint64_t>::max());
  json.value(int16_t{-3});
  json.value(0.1);
  json.value(std::numeric_limits<double>::quiet_NaN());
  json.value(std::numeric_limits<double>::infinity());
  json.value(-std::numeric_limits<double>::infinity());
  json.value(std::optional<int32_t>());
  json.value(std::optional<int32_t>(4));
  json.value(false);
  json.endArray();
  EXPECT_EQ(out,
            "[-9223372036854775808, 18446744073709551615, -3, 0.1, \"NaN\", \"Infinity\", "
            "\"-Infinity\", null, 4, false]\n");
  EXPECT_TRUE(isValidJson(out));
}

TEST(JsonWriter, RejectsMisuseInsteadOfWritingInvalidJson) {
  std::string out;
  JsonWriter json(out);
  json.beginObject();
  EXPECT_THROW(json.value(1), std::logic_error);  // a member without a key
  EXPECT_THROW(json.endArray(), std::logic_error);
  json.endObject();
  EXPECT_THROW(json.beginObject(), std::logic_error);  // a second document
  std::string other;
  JsonWriter array(other);
  array.beginArray();
  EXPECT_THROW(array.key("k"), std::logic_error);
}

}  // namespace
}  // namespace quarry::cli
