#pragma once

#include <cstdio>

#include "quarry/cli/print_command.h"

/// `quarry print` for ORC files. Values are written as JSON (see
/// orc::appendJson): ndjson one object per row, json one array, csv and table
/// one field per top-level column (strings bare, nested values as JSON).
namespace quarry::cli {

/// Prints the ORC file `options.file` to `out` and returns the exit code as
/// runPrint does (1 after one line on stderr when reading fails).
int runOrcPrint(const PrintOptions& options, std::FILE* out);

}  // namespace quarry::cli
