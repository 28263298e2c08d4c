#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "quarry/cli/inspected_file.h"
#include "quarry/dive/dive_model.h"

namespace quarry::orc {
class OrcFileReader;
}

/// The content of each `quarry dive` screen: lines of text built from the
/// inspect views' formatters (statistics as carried, page tables, the page
/// index), and for each line the screen Enter opens from it.
namespace quarry::cli {

/// A screen and the part of the file it shows.
struct DiveTarget {
  DiveView view = DiveView::kOverview;
  size_t rowGroup = 0;
  size_t column = 0;
  size_t page = 0;
};

struct DiveScreen {
  DiveTarget where;
  std::string title;
  std::vector<std::string> lines;
  /// Parallel to `lines`: the screen Enter opens from a line, if any.
  std::vector<std::optional<DiveTarget>> targets;
  size_t cursor = 0;
  size_t top = 0;

  /// Adds one line, with the screen it opens.
  void add(std::string line, std::optional<DiveTarget> target = std::nullopt);
  /// Adds every line of `text` (which ends with a line break or not).
  void addText(const std::string& text);
};

/// Data preview rows read at most.
inline constexpr int64_t kDivePreviewRows = 200;

/// Fills `screen.title`, `lines` and `targets` for `screen.where`. Throws the
/// lower layers' errors (CorruptFile for a page header that does not decode).
void buildDiveScreen(const InspectedFile& file, bool physicalValues, DiveScreen& screen);

/// The same for an ORC file, where ORC has the concept: overview, schema,
/// stripes (kRowGroups), a stripe's streams (kColumnChunks) and a column's row
/// index in a stripe (kColumnIndex). Other views say that ORC has none.
void buildOrcDiveScreen(orc::OrcFileReader& reader, DiveScreen& screen);

/// Fills the help screen (the keys).
void buildDiveHelp(DiveScreen& screen);

}  // namespace quarry::cli
