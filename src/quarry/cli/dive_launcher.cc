#include "quarry/cli/dive_launcher.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

namespace quarry::cli {

CLI::App& addDiveCommand(CLI::App& app, DiveOptions& options) {
  CLI::App* dive = app.add_subcommand(
      "dive",
      "Explore a Parquet file in the terminal: row groups, column chunks, pages, indexes, "
      "dictionaries, data");
  dive->add_option("FILE", options.file, "Parquet file: a local path or a URI")->required();
  return *dive;
}

bool hasTerminal() {
  return isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1;
}

int launchDive(const DiveOptions& options, const char* argv0) {
  if (!hasTerminal()) {
    std::cerr << kNoTerminalMessage << std::endl;
    return 1;
  }
  std::error_code error;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) self = argv0;
  const std::string dive = (self.parent_path() / "quarry-dive").string();
  const char* args[] = {dive.c_str(), "--", options.file.c_str(), nullptr};
  execv(dive.c_str(), const_cast<char* const*>(args));
  std::cerr << "quarry dive: cannot start " << dive << ": " << std::strerror(errno) << std::endl;
  return 1;
}

}  // namespace quarry::cli
