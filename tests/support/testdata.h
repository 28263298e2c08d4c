#pragma once

#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/support/build_paths.h"

/// Where the shared test corpora live: $QUARRY_TESTDATA, else ../shared/testdata
/// beside the source tree. Tests skip loudly when it is absent.
namespace quarry::testing {

inline std::filesystem::path testdataDir() {
  if (const char* env = std::getenv("QUARRY_TESTDATA"); env != nullptr && *env != '\0') {
    return env;
  }
  return std::filesystem::path(QUARRY_SOURCE_DIR) / ".." / "shared" / "testdata";
}

inline std::filesystem::path parquetTestingDir() { return testdataDir() / "parquet-testing"; }

/// Lists regular files under `dir` (recursively) whose names end with `suffix`, sorted.
inline std::vector<std::filesystem::path> filesUnder(const std::filesystem::path& dir,
                                                     const std::string& suffix) {
  std::vector<std::filesystem::path> out;
  if (!std::filesystem::is_directory(dir)) return out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline std::vector<uint8_t> readFileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace quarry::testing

#define QUARRY_SKIP_WITHOUT_TESTDATA()                                                    \
  do {                                                                                    \
    if (!std::filesystem::is_directory(::quarry::testing::parquetTestingDir())) {         \
      GTEST_SKIP() << "SKIPPED LOUDLY: test data not found at "                           \
                   << ::quarry::testing::parquetTestingDir()                              \
                   << " (set QUARRY_TESTDATA to the folder holding parquet-testing/ and orc/)"; \
    }                                                                                     \
  } while (0)
