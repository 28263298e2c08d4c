#pragma once

#include <algorithm>

/// What a test can know of the build it runs in.
namespace quarry::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kUnderAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kUnderAddressSanitizer = true;
#else
inline constexpr bool kUnderAddressSanitizer = false;
#endif
#else
inline constexpr bool kUnderAddressSanitizer = false;
#endif

/// The number of random cases a differential test runs: all of `cases` in the
/// release build, which is where the answers are checked against the oracle in
/// full, and a quarter in the sanitizer build, which is there to catch memory
/// and undefined-behaviour errors: the same code paths at three to four times
/// the cost per case (the ORC and Parquet predicate differentials took 316 s of
/// the sanitizer stage's CPU at full count).
inline int sanitizerScaledCases(int cases) {
  return kUnderAddressSanitizer ? std::max(1, cases / 4) : cases;
}

}  // namespace quarry::testing
