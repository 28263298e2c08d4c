#include "tests/support/build_paths.h"

namespace quarry::testing {
// Given by CMakeLists.txt to this file only (its source and build directories).
const char* const kSourceDir = QUARRY_SOURCE_DIR_PATH;
const char* const kQuarryBinary = QUARRY_BINARY_PATH;
}  // namespace quarry::testing
