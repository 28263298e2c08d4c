#include "tests/support/sanitizer.h"

#include <gtest/gtest.h>

// Present exactly when the ASan runtime is linked in.
extern "C" int __asan_address_is_poisoned(void const volatile* address) __attribute__((weak));

namespace quarry::testing {
namespace {

// The compile-time answer must be the build's: a sanitizer build that took itself
// for a release build would run every differential case at ASan's cost, and a
// release build that took itself for a sanitizer build would check a quarter.
TEST(SanitizerBuild, KnowsWhetherAddressSanitizerIsLinked) {
  EXPECT_EQ(kUnderAddressSanitizer, &__asan_address_is_poisoned != nullptr);
  EXPECT_EQ(sanitizerScaledCases(20000), kUnderAddressSanitizer ? 5000 : 20000);
  EXPECT_EQ(sanitizerScaledCases(3), kUnderAddressSanitizer ? 1 : 3);
}

}  // namespace
}  // namespace quarry::testing
