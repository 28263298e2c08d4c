// `quarry-dive FILE`: the ncurses layer of `quarry dive`, which `quarry dive`
// execs. The screens and navigation are the DiveModel's (dive/dive_model.h);
// this file only turns terminal keys into model keys and draws its frames. The
// terminal is restored on every way out: `q`, an exception, and SIGINT / SIGTERM
// / SIGHUP.

#include <ncursesw/curses.h>

#include <clocale>
#include <csignal>
#include <exception>
#include <iostream>
#include <memory>
#include <string>

#include "quarry/cli/dive_launcher.h"
#include "quarry/cli/error_report.h"
#include "quarry/cli/inspected_file.h"
#include "quarry/cli/orc_inspect.h"
#include "quarry/dive/dive_model.h"
#include "quarry/formats/orc/orc_file_reader.h"

namespace {

using quarry::cli::DiveKey;

void restoreAndReraise(int signal) {
  endwin();
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

/// Owns curses mode: endwin() when it goes out of scope, exceptions included.
class TerminalSession {
 public:
  TerminalSession() {
    initscr();
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    for (int signal : {SIGINT, SIGTERM, SIGHUP}) std::signal(signal, restoreAndReraise);
  }
  ~TerminalSession() { endwin(); }
  TerminalSession(const TerminalSession&) = delete;
  TerminalSession& operator=(const TerminalSession&) = delete;
};

int modelKey(int key) {
  switch (key) {
    case KEY_UP:
      return DiveKey::kKeyUp;
    case KEY_DOWN:
      return DiveKey::kKeyDown;
    case KEY_PPAGE:
      return DiveKey::kKeyPageUp;
    case KEY_NPAGE:
      return DiveKey::kKeyPageDown;
    case KEY_HOME:
      return DiveKey::kKeyHome;
    case KEY_END:
      return DiveKey::kKeyEnd;
    case KEY_LEFT:
      return DiveKey::kKeyLeft;
    case KEY_RIGHT:
      return DiveKey::kKeyRight;
    case KEY_ENTER:
    case '\n':
    case '\r':
      return DiveKey::kKeyEnter;
    case KEY_BACKSPACE:
    case 127:
    case 8:
      return DiveKey::kKeyBackspace;
    case 27:
      return DiveKey::kKeyEscape;
    default:
      return key;
  }
}

void draw(const quarry::cli::DiveFrame& frame) {
  erase();
  const int rows = LINES;
  for (int i = 0; i < rows && i < static_cast<int>(frame.lines.size()); ++i) {
    // The title (first line), the footer (last) and the cursor line stand out.
    const bool bar = i == 0 || i == static_cast<int>(frame.lines.size()) - 1;
    const int attributes =
        bar ? A_REVERSE : (i == frame.highlight ? A_STANDOUT | A_BOLD : A_NORMAL);
    attrset(attributes);
    mvaddnstr(i, 0, frame.lines[static_cast<size_t>(i)].c_str(), -1);
    if (bar) {
      // Fill the bar to the right edge.
      int y = 0;
      int x = 0;
      getyx(stdscr, y, x);
      if (y == i) {
        for (; x < COLS; ++x) addch(' ');
      }
    }
  }
  attrset(A_NORMAL);
  refresh();
}

}  // namespace

int main(int argc, char** argv) {
  std::setlocale(LC_ALL, "");
  std::string file;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--" && i + 1 < argc) {
      file = argv[++i];
    } else {
      file = arg;
    }
  }
  if (file.empty()) {
    std::cerr << "usage: quarry dive FILE_OR_URI" << std::endl;
    return 2;
  }
  if (!quarry::cli::hasTerminal()) {
    std::cerr << quarry::cli::kNoTerminalMessage << std::endl;
    return 1;
  }
  try {
    // The file is opened before curses starts, so that a missing file is one
    // plain line on stderr.
    std::unique_ptr<quarry::cli::DiveModel> model;
    if (quarry::cli::isOrcFile(file)) {
      auto orc = quarry::orc::OrcFileReader::open(file);
      model = std::make_unique<quarry::cli::DiveModel>(std::move(orc), 24, 80);
    } else {
      model =
          std::make_unique<quarry::cli::DiveModel>(quarry::cli::InspectedFile::open(file), 24, 80);
    }
    TerminalSession session;
    model->resize(LINES, COLS);
    int failedReads = 0;
    for (;;) {
      draw(model->frame());
      const int key = getch();
      if (key == KEY_RESIZE) {
        model->resize(LINES, COLS);
        continue;
      }
      if (key == ERR) {
        if (++failedReads > 100) break;  // the terminal has gone
        continue;
      }
      failedReads = 0;
      if (!model->handleKey(modelKey(key))) break;
    }
  } catch (const std::exception& e) {
    std::cerr << quarry::cli::errorLine(file, e.what()) << std::endl;
    return 1;
  }
  return 0;
}
