#pragma once

#include <CLI/CLI.hpp>

/// The --memory-limit option of the commands that decode column data (query,
/// explain, print, convert).
namespace quarry::cli {

/// Adds `--memory-limit SIZE` to `command`: SIZE as parseMemorySize reads it
/// (512MB, 2GB); once parsed it becomes the process's memory limit
/// (memory_budget.h). A size that does not parse is a usage error naming it.
void addMemoryLimitOption(CLI::App& command);

}  // namespace quarry::cli
