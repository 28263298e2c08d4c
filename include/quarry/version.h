#pragma once

/// quarry's version. The library follows semantic versioning for the public
/// headers of include/quarry/ (docs/LIBRARY.md says which headers those are and
/// what stays compatible): a program built against MAJOR.MINOR.PATCH builds and
/// runs unchanged against any later MINOR.PATCH of the same MAJOR.
#define QUARRY_VERSION_MAJOR 0
#define QUARRY_VERSION_MINOR 1
#define QUARRY_VERSION_PATCH 0
#define QUARRY_VERSION_STRING "0.1.0"

/// One number to compare versions by: QUARRY_VERSION >= QUARRY_VERSION_OF(0, 2, 0).
#define QUARRY_VERSION_OF(major, minor, patch) ((major)*10000 + (minor)*100 + (patch))
#define QUARRY_VERSION \
  QUARRY_VERSION_OF(QUARRY_VERSION_MAJOR, QUARRY_VERSION_MINOR, QUARRY_VERSION_PATCH)

namespace quarry {

/// Returns the version of the library linked (QUARRY_VERSION_STRING is the
/// version of the headers compiled against).
const char* versionString();

}  // namespace quarry
