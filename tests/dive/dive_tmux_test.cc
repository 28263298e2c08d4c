// Acceptance tests of `quarry dive` in a real terminal: each test starts the
// built `quarry dive FILE` in a detached tmux session (160 x 50, on a private
// server socket), sends keys, reads the screen with capture-pane and kills the
// server. Every wait is bounded. Skips loudly without tmux or the test data.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "tests/cli/quarry_run.h"
#include "tests/support/build_paths.h"
#include "tests/support/testdata.h"

namespace quarry::cli {
namespace {

using quarry::testing::shellQuote;
using namespace std::chrono_literals;

constexpr auto kWait = 15s;

/// Runs a shell command and returns its stdout; `*status` gets the exit code.
std::string shell(const std::string& command, int* status = nullptr) {
  std::string out;
  FILE* pipe = popen((command + " 2>/dev/null").c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) out.append(buffer, n);
  const int code = pclose(pipe);
  if (status != nullptr) *status = WIFEXITED(code) ? WEXITSTATUS(code) : -1;
  return out;
}

bool haveTmux() {
  int status = -1;
  shell("tmux -V", &status);
  return status == 0;
}

/// One tmux server and session running `quarry dive FILE`, killed on destruction.
class DiveSession {
 public:
  explicit DiveSession(const std::string& file) {
    static std::atomic<int> counter{0};
    socket_ = "quarry-dive-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
    const std::string command = shellQuote(QUARRY_BINARY) + " dive " + shellQuote(file) +
                                "; echo quarry-exited-$?; sleep 30";
    tmux("new-session -d -x 160 -y 50 -s dive " + shellQuote(command));
  }
  ~DiveSession() { tmux("kill-server"); }
  DiveSession(const DiveSession&) = delete;
  DiveSession& operator=(const DiveSession&) = delete;

  /// Sends tmux key names ("Enter", "Escape", "j") or literal text (with -l).
  void keys(const std::string& names) { tmux("send-keys -t dive " + names); }
  void text(const std::string& literal) { tmux("send-keys -t dive -l " + shellQuote(literal)); }

  std::string screen() { return tmux("capture-pane -p -t dive"); }
  void resize(int columns, int rows) {
    tmux("resize-window -t dive -x " + std::to_string(columns) + " -y " + std::to_string(rows));
  }

  /// Waits until the screen shows `needle` and has settled (two captures 50 ms
  /// apart are identical: ncurses may have drawn the title but not yet the body);
  /// returns the screen (the last one seen).
  std::string waitFor(const std::string& needle) {
    const auto deadline = std::chrono::steady_clock::now() + kWait;
    std::string text;
    std::string previous;
    while (std::chrono::steady_clock::now() < deadline) {
      text = screen();
      if (text.find(needle) != std::string::npos && text == previous) return text;
      previous = text;
      std::this_thread::sleep_for(50ms);
    }
    ADD_FAILURE() << "timed out waiting for \"" << needle << "\"; the screen:\n" << text;
    return text;
  }

  /// Returns the screen line containing `needle`, or "".
  static std::string lineWith(const std::string& screen, const std::string& needle) {
    const size_t at = screen.find(needle);
    if (at == std::string::npos) return "";
    const size_t start = screen.rfind('\n', at);
    const size_t end = screen.find('\n', at);
    return screen.substr(start == std::string::npos ? 0 : start + 1,
                         end == std::string::npos
                             ? std::string::npos
                             : end - (start == std::string::npos ? 0 : start + 1));
  }

 private:
  std::string tmux(const std::string& args) {
    return shell("timeout 10 tmux -L " + socket_ + " -f /dev/null " + args);
  }
  std::string socket_;
};

std::string dataFile(const std::string& name) {
  return (quarry::testing::parquetTestingDir() / "data" / name).string();
}

#define QUARRY_SKIP_WITHOUT_TMUX()                                                             \
  do {                                                                                         \
    QUARRY_SKIP_WITHOUT_TESTDATA();                                                            \
    if (!haveTmux()) GTEST_SKIP() << "SKIPPED LOUDLY: tmux not found (tools/install-deps.sh)"; \
  } while (0)

// query-controls.txt: bounds are "reported as the file carries them, by
// Statistics on the metadata API and by hardwood inspect and hardwood dive".
// nan_in_stats.parquet's only chunk carries min 1.0 and max NaN, bounds that
// pruning ignores ("When statistics are ignored"); dive shows them as they are.
TEST(DiveTmux, NavigatesToAChunkItsPagesAndDictionaryShowingNanBounds) {
  QUARRY_SKIP_WITHOUT_TMUX();
  DiveSession dive(dataFile("nan_in_stats.parquet"));
  std::string screen = dive.waitFor("> Row groups (1)");
  EXPECT_NE(screen.find("quarry dive  overview"), std::string::npos) << screen;
  EXPECT_NE(screen.find("q quit"), std::string::npos) << screen;  // the footer bar
  dive.keys("j Enter");                                           // > Row groups
  dive.waitFor("quarry dive  row groups");
  dive.keys("Enter");  // row group 0
  dive.waitFor("column chunks by size");
  dive.keys("Enter");  // column x
  screen = dive.waitFor("max_value");
  EXPECT_NE(DiveSession::lineWith(screen, "max_value").find("NaN"), std::string::npos) << screen;
  EXPECT_NE(DiveSession::lineWith(screen, "min_value").find("1.0"), std::string::npos) << screen;
  EXPECT_NE(DiveSession::lineWith(screen, "encodings").find("PLAIN_DICTIONARY"), std::string::npos);
  EXPECT_NE(DiveSession::lineWith(screen, "[d] Dictionary"), "") << screen;
  dive.keys("p");
  screen = dive.waitFor("pages in bytes");
  EXPECT_NE(screen.find("DICTIONARY_PAGE"), std::string::npos) << screen;
  EXPECT_NE(screen.find("DATA_PAGE"), std::string::npos) << screen;
  dive.keys("Escape");
  dive.waitFor("[d] Dictionary");
  dive.keys("d");
  screen = dive.waitFor("> dictionary");
  EXPECT_NE(screen.find("2 entries"), std::string::npos) << screen;
  EXPECT_EQ(DiveSession::lineWith(screen, "NaN"), "1  NaN") << screen;
  dive.keys("?");
  dive.waitFor("quarry dive  help");
  dive.keys("q");
  dive.waitFor("quarry-exited-0");  // q quits with status 0
}

TEST(DiveTmux, ColumnIndexOffsetIndexAndDictionaryOfATinyPagesChunk) {
  QUARRY_SKIP_WITHOUT_TMUX();
  DiveSession dive(dataFile("alltypes_tiny_pages.parquet"));
  dive.waitFor("> Row groups");
  dive.keys("j Enter");
  dive.waitFor("quarry dive  row groups");
  dive.keys("Enter");
  dive.waitFor("column chunks by size");
  dive.keys("/");
  dive.text("tinyint_col");
  dive.keys("Enter Enter");
  std::string screen = dive.waitFor("[i] Column index");
  EXPECT_NE(screen.find("column 2 tinyint_col"), std::string::npos) << screen;
  dive.keys("i");
  screen = dive.waitFor("boundary order");
  EXPECT_NE(screen.find("> column index"), std::string::npos) << screen;
  // tinyint_col holds 0..9: every small page's bounds lie in that range.
  EXPECT_NE(DiveSession::lineWith(screen, "   0  no"), "") << screen;
  dive.keys("Escape");
  dive.waitFor("[o] Offset index");
  dive.keys("o");
  screen = dive.waitFor("page locations");
  EXPECT_NE(screen.find("first row"), std::string::npos) << screen;
  dive.keys("Escape");
  dive.waitFor("[o] Offset index");
  dive.keys("d");
  screen = dive.waitFor("> dictionary");
  EXPECT_NE(screen.find("10 entries"), std::string::npos) << screen;
  dive.keys("Escape Escape Escape Escape");
  dive.waitFor("quarry dive  overview");
  dive.keys("q");
  dive.waitFor("quarry-exited-0");
}

// KEY_RESIZE: the frame is redrawn for the new size, footer on the new last line.
TEST(DiveTmux, RedrawsAfterResize) {
  QUARRY_SKIP_WITHOUT_TMUX();
  DiveSession dive(dataFile("alltypes_plain.parquet"));
  std::string screen = dive.waitFor("> Data preview");
  dive.resize(100, 20);
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  std::vector<std::string> lines;
  while (std::chrono::steady_clock::now() < deadline) {
    screen = dive.screen();
    lines.clear();
    for (size_t start = 0; start < screen.size();) {
      size_t end = screen.find('\n', start);
      if (end == std::string::npos) end = screen.size();
      lines.push_back(screen.substr(start, end - start));
      start = end + 1;
    }
    if (lines.size() == 20 && lines.back().find("q quit") != std::string::npos) break;
    std::this_thread::sleep_for(50ms);
  }
  ASSERT_EQ(lines.size(), 20u) << screen;
  EXPECT_NE(lines.back().find("q quit"), std::string::npos) << screen;
  dive.keys("q");
  dive.waitFor("quarry-exited-0");
}

}  // namespace
}  // namespace quarry::cli
