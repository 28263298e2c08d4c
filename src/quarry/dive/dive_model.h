#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quarry/cli/inspected_file.h"

namespace quarry::orc {
class OrcFileReader;
}

/// The screen model of `quarry dive`: what each screen shows, as lines of text,
/// and where the user is (a stack of screens, each with its cursor and scroll
/// position). It knows nothing of the terminal: the ncurses layer (dive/) feeds
/// it keys and draws the Frame it returns, and the tests do the same without a
/// terminal.
///
/// Screens: overview -> schema | row groups -> column chunks (ranked by size)
/// -> chunk detail -> pages -> page header | column index | offset index |
/// dictionary; overview -> one column across all row groups; overview -> data
/// preview (t toggles logical / physical values). `/` searches any screen, `n`
/// finds the next match, `?` shows the keys. Every screen's text comes from the
/// inspect views (statistics as carried, reversed or NaN bounds included).
namespace quarry::cli {

/// Keys the model understands besides printable characters.
enum DiveKey : int {
  kKeyUp = 0x10000,
  kKeyDown,
  kKeyPageUp,
  kKeyPageDown,
  kKeyHome,
  kKeyEnd,
  kKeyLeft,
  kKeyRight,
  kKeyEnter,
  kKeyBackspace,
  kKeyEscape,
};

enum class DiveView {
  kOverview,
  kSchema,
  kRowGroups,
  kColumnChunks,
  kChunkDetail,
  kPages,
  kPageHeader,
  kColumnIndex,
  kOffsetIndex,
  kDictionary,
  kColumnAcrossRowGroups,
  kColumns,
  kDataPreview,
  kHelp,
};

struct DiveScreen;

/// What the terminal shows: `lines` fill the screen top to bottom (title, body,
/// footer); `highlight` is the index in `lines` of the cursor line, or -1.
struct DiveFrame {
  std::vector<std::string> lines;
  int highlight = -1;
};

class DiveModel {
 public:
  /// Opens the overview of `file`; `rows` x `columns` is the terminal's size.
  DiveModel(InspectedFile file, int rows, int columns);
  /// Opens the overview of an ORC file (overview, schema, stripes, streams, row index).
  DiveModel(std::unique_ptr<orc::OrcFileReader> orc, int rows, int columns);
  ~DiveModel();
  DiveModel(const DiveModel&) = delete;
  DiveModel& operator=(const DiveModel&) = delete;

  /// Handles one key (a DiveKey or a character); returns false when the user
  /// quits. A failure reading the file (a corrupt page header, a dictionary that
  /// does not decode) shows as the screen's text, never ends the session.
  bool handleKey(int key);
  /// Takes the terminal's new size.
  void resize(int rows, int columns);
  /// Returns the screen to draw.
  DiveFrame frame() const;

  DiveView view() const;
  /// The cursor line of the current screen (an index into its body lines).
  size_t cursor() const;
  /// The current screen's body lines, whole (not cut to the terminal's width).
  const std::vector<std::string>& bodyLines() const;
  /// Whether data preview values are rendered physically (t toggles).
  bool physicalValues() const { return physical_; }

 private:
  void open(std::unique_ptr<DiveScreen> screen);
  void build(DiveScreen& screen);
  void openSelection();
  void openChunkView(DiveView view);
  void search(bool fromNext);
  void moveCursor(int64_t delta);
  size_t bodyHeight() const;
  void keepCursorVisible(DiveScreen& screen) const;
  DiveScreen& top() const { return *stack_.back(); }

  std::optional<InspectedFile> file_;
  std::unique_ptr<orc::OrcFileReader> orc_;
  int rows_;
  int columns_;
  bool physical_ = false;
  std::vector<std::unique_ptr<DiveScreen>> stack_;
  /// The search being typed after '/', or nullopt when not in search mode.
  std::optional<std::string> searchInput_;
  std::string lastSearch_;
  std::string message_;
};

}  // namespace quarry::cli
