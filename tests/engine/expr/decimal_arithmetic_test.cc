// Decimal to double: the nearest double, as DuckDB's cast gives it.

#include "quarry/engine/expr/decimal_arithmetic.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

namespace quarry::engine {
namespace {

// strtod is correctly rounded: the double nearest the decimal text. Every decimal
// whose unscaled value a double holds exactly converts to that double.
TEST(DecimalToDouble, ExactUnscaledValuesGiveTheNearestDouble) {
  EXPECT_EQ(decimalToDouble(1, 1), 0.1);
  EXPECT_EQ(decimalToDouble(-7, 2), -0.07);
  std::mt19937_64 random(42);
  for (int i = 0; i < 20000; ++i) {
    const int64_t magnitude = static_cast<int64_t>(random() % (uint64_t{1} << 53));
    const Int128 unscaled = (random() & 1) ? magnitude : -magnitude;
    const int32_t scale = static_cast<int32_t>(random() % 23);
    const std::string text = decimalToString(unscaled, scale);
    ASSERT_EQ(decimalToDouble(unscaled, scale), std::strtod(text.c_str(), nullptr)) << text;
  }
}

TEST(DecimalToDouble, WideValuesStayClose) {
  // Beyond 2^53 the value is split; the result is within an ulp or two of the nearest.
  const Int128 unscaled = static_cast<Int128>(123456789012345678LL) * 1000000000000LL + 987654321;
  const std::string text = decimalToString(unscaled, 10);
  const double nearest = std::strtod(text.c_str(), nullptr);
  EXPECT_NEAR(decimalToDouble(unscaled, 10), nearest, std::abs(nearest) * 1e-15) << text;
}

}  // namespace
}  // namespace quarry::engine
