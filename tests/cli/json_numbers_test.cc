// Issue 26, item 8: "JSON output renders int64 and decimals as strings". Now
// numbers with their exact digits; strings only with --json-big-numbers-as-strings,
// and then only where a double would not carry the value.

#include "quarry/cli/json_numbers.h"

#include <gtest/gtest.h>

namespace quarry::cli {
namespace {

std::string json(std::string_view digits, BigNumbers big) {
  std::string out;
  appendJsonExactNumber(digits, big, out);
  return out;
}

TEST(JsonNumbers, IntegersAndDecimalsAreNumbersWithEveryDigitByDefault) {
  EXPECT_EQ(json("42", BigNumbers::kNumbers), "42");
  EXPECT_EQ(json("-9223372036854775808", BigNumbers::kNumbers), "-9223372036854775808");
  EXPECT_EQ(json("18446744073709551615", BigNumbers::kNumbers), "18446744073709551615");
  EXPECT_EQ(json("12.50", BigNumbers::kNumbers), "12.50");
  EXPECT_EQ(json("12345678901234567890.123456789", BigNumbers::kNumbers),
            "12345678901234567890.123456789");
}

// "int64 and decimals beyond 2^53 as strings only with a flag"
TEST(JsonNumbers, WithTheFlagOnlyValuesADoubleCannotHoldBecomeStrings) {
  EXPECT_EQ(json("9007199254740992", BigNumbers::kStrings), "9007199254740992");  // 2^53
  EXPECT_EQ(json("-9007199254740992", BigNumbers::kStrings), "-9007199254740992");
  EXPECT_EQ(json("9007199254740993", BigNumbers::kStrings), "\"9007199254740993\"");
  EXPECT_EQ(json("-9223372036854775808", BigNumbers::kStrings), "\"-9223372036854775808\"");
  EXPECT_EQ(json("42", BigNumbers::kStrings), "42");
  // Decimals: up to 15 significant digits survive a double.
  EXPECT_EQ(json("12.50", BigNumbers::kStrings), "12.50");
  EXPECT_EQ(json("123456789012.345", BigNumbers::kStrings), "123456789012.345");
  EXPECT_EQ(json("1234567890123.4567", BigNumbers::kStrings), "\"1234567890123.4567\"");
  EXPECT_EQ(json("0.000000000000000001", BigNumbers::kStrings), "0.000000000000000001");
  EXPECT_EQ(json("0.1000000000000000000", BigNumbers::kStrings), "0.1000000000000000000");
  EXPECT_EQ(json("-0.00", BigNumbers::kStrings), "-0.00");
}

TEST(JsonNumbers, FitsDoubleCountsDigitsNotZeros) {
  EXPECT_TRUE(fitsDouble("0"));
  EXPECT_TRUE(fitsDouble("000123"));
  EXPECT_TRUE(fitsDouble("100000000000000.0"));    // 15 digits
  EXPECT_FALSE(fitsDouble("1000000000000000.1"));  // 17 digits
  EXPECT_FALSE(fitsDouble("99999999999999999999"));
}

}  // namespace
}  // namespace quarry::cli
