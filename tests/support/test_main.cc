// The test binary's main: GoogleTest's, plus one rule. A run in which a test
// skipped (test data, the DuckDB oracle, nginx or tmux missing) exits 77 instead
// of 0, after naming each skipped test and its reason, so that ctest reports the
// suite as skipped (SKIP_RETURN_CODE 77) and tools/run-ctest.sh fails `make test`
// unless QUARRY_ALLOW_SKIPS=1. A run with a failure still exits 1.
#include <gtest/gtest.h>

#include <cstdio>

namespace {

constexpr int kSkippedExitCode = 77;

/// Prints "SKIPPED Suite.Test: reason" for every skipped test; returns how many.
int reportSkips(const ::testing::UnitTest& unit) {
  int skipped = 0;
  for (int s = 0; s < unit.total_test_suite_count(); ++s) {
    const ::testing::TestSuite* suite = unit.GetTestSuite(s);
    for (int t = 0; t < suite->total_test_count(); ++t) {
      const ::testing::TestInfo* info = suite->GetTestInfo(t);
      const ::testing::TestResult* result = info->result();
      if (!info->should_run() || !result->Skipped()) continue;
      ++skipped;
      const char* reason = "";
      for (int p = 0; p < result->total_part_count(); ++p) {
        if (result->GetTestPartResult(p).skipped()) reason = result->GetTestPartResult(p).message();
      }
      std::fprintf(stderr, "quarry-tests: SKIPPED %s.%s: %s\n", suite->name(), info->name(), reason);
    }
  }
  return skipped;
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  const int skipped = reportSkips(*::testing::UnitTest::GetInstance());
  if (rc != 0 || skipped == 0) return rc;
  std::fprintf(stderr, "quarry-tests: %d test(s) skipped; exit %d (skipped)\n", skipped,
               kSkippedExitCode);
  return kSkippedExitCode;
}
