#pragma once

#include <string>

namespace CLI {
class App;
}

/// `quarry dive FILE_OR_URI`: the terminal UI. It lives in its own executable,
/// `quarry-dive` beside `quarry`, so that only it loads ncurses: `quarry` is
/// started for every query and stays as quick to start as before.
namespace quarry::cli {

struct DiveOptions {
  std::string file;
};

/// Adds the `dive` subcommand to `app`; parsing fills `options`.
CLI::App& addDiveCommand(CLI::App& app, DiveOptions& options);

/// Returns whether stdin and stdout are both terminals.
bool hasTerminal();

/// Replaces this process with `quarry-dive FILE` from the directory of the
/// running executable. Returns an exit code only when it cannot: 1 after one
/// line on stderr (no terminal, or quarry-dive missing).
int launchDive(const DiveOptions& options, const char* argv0);

/// The one-line refusal when there is no terminal.
inline constexpr const char* kNoTerminalMessage =
    "quarry dive: needs a terminal (stdin and stdout must be a TTY); use 'quarry inspect' or "
    "'quarry schema' in scripts";

}  // namespace quarry::cli
