#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/support/fixture_file.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;

TEST(TempDir, IsAFreshDirectoryRemovedWithEverythingInIt) {
  fs::path kept;
  {
    const TempDir dir("quarry_temp_dir_test");
    ASSERT_TRUE(dir.valid());
    kept = dir.path();
    EXPECT_TRUE(fs::is_directory(kept));
    EXPECT_TRUE(fs::is_empty(kept));
    EXPECT_EQ(kept.filename().string().rfind("quarry_temp_dir_test_", 0), 0u) << kept;
    fs::create_directories(kept / "a" / "b");
    writeFileBytes(kept / "a" / "b" / "f.bin", std::vector<uint8_t>{1, 2, 3});
  }
  EXPECT_FALSE(fs::exists(kept)) << kept;
}

TEST(TempDir, TwoAreDistinct) {
  const TempDir a("quarry_temp_dir_test");
  const TempDir b("quarry_temp_dir_test");
  EXPECT_NE(a.path(), b.path());
}

TEST(TempDir, CopyCreatesTheTargetsParents) {
  const TempDir from("quarry_temp_dir_test");
  const TempDir to("quarry_temp_dir_test");
  writeFileBytes(from.path() / "f.bin", std::vector<uint8_t>{7, 8});
  to.copy(from.path() / "f.bin", "x/y/g.bin");
  EXPECT_EQ(fs::file_size(to.path() / "x" / "y" / "g.bin"), 2u);
}

}  // namespace
}  // namespace quarry::testing
