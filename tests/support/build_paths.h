#pragma once

/// Where the tests find the source tree and the built `quarry` binary. The two
/// paths are compiled into tests/support/build_paths.cc alone: as definitions on
/// every test source they would make each one's ccache entry depend on where the
/// checkout lies, and a fresh clone (CI's) would compile every test again.
namespace quarry::testing {
extern const char* const kSourceDir;
extern const char* const kQuarryBinary;
}  // namespace quarry::testing

#define QUARRY_SOURCE_DIR (::quarry::testing::kSourceDir)
#define QUARRY_BINARY (::quarry::testing::kQuarryBinary)
