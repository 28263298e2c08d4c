#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/// The table format of `quarry query` and `quarry print`, written as rows come:
/// nothing waits for the end of the result. The column widths are fixed by the
/// first batch of rows (a page of the query's result, at most kWidthSampleRows
/// rows), then clipped to the terminal's width; a later value longer than its
/// column is cut with "…". Widths count terminal columns (common/display_width.h:
/// CJK and emoji take two, combining accents none). Numbers are aligned right,
/// the rest left; control characters and ill-formed bytes show as \xNN.
///
/// A table shows at most `maxRows` rows (kDefaultMaxRows unless the command's
/// --max-rows says otherwise): a table is for reading, and a query over millions
/// of rows must neither flood the terminal nor be held. A footer closes it:
///
///   trip_id  vendor  fare_amount
///         1  VTS           12.50
///   ...
///   (40 of 10,000 rows shown; --max-rows N shows more, 0 all; --format csv for every row)
namespace quarry::cli {

class TableWriter {
 public:
  /// DuckDB's CLI shows 40 rows: about a screen, enough to see what a result
  /// looks like. ES|QL's 1,000 is a result limit for programs, which read csv
  /// or json here (never capped).
  static constexpr uint64_t kDefaultMaxRows = 40;
  /// The most rows the column widths are measured on.
  static constexpr size_t kWidthSampleRows = 1000;

  struct Column {
    std::string name;
    bool numeric = false;  // aligned right
  };

  struct Limits {
    /// Rows shown at most; 0: every row.
    uint64_t maxRows = kDefaultMaxRows;
    /// Terminal columns a line may take; 0: no limit (outputWidth()).
    size_t width = 0;
  };

  /// `write` receives the table's text in pieces, in order; it may throw.
  TableWriter(std::vector<Column> columns, Limits limits,
              std::function<void(std::string_view)> write);

  /// Whether the table still shows rows: false once maxRows have been added.
  bool wantsRows() const { return limits_.maxRows == 0 || shown_ < limits_.maxRows; }
  /// Adds a row of cells (the values' text; missing trailing cells are empty).
  /// Call only while wantsRows().
  void addRow(std::vector<std::string> cells);
  /// Ends a batch: the rows held to measure the widths are written now, the
  /// widths fixed by them; everything added so far goes to `write`.
  void endBatch();
  /// Writes the rest and the footer. `total`: the rows the result has, when
  /// known; else `more` says whether rows beyond those shown were seen.
  void finish(std::optional<uint64_t> total, bool more);

  uint64_t rowsShown() const { return shown_; }

 private:
  void fixWidths();
  void appendLine(const std::vector<std::string>& cells);
  void flush();

  std::vector<Column> columns_;
  Limits limits_;
  std::function<void(std::string_view)> write_;
  std::vector<size_t> widths_;  // empty until fixed
  std::vector<std::vector<std::string>> held_;
  std::string pending_;
  uint64_t shown_ = 0;
};

/// The width a table written to `out` may take: the terminal's columns when
/// `out` is a terminal (TIOCGWINSZ), else the COLUMNS variable when set to a
/// number, else 0 (no limit: a file or a pipe gets whole values).
size_t outputWidth(std::FILE* out);

/// Renders `n` with thousands separators: 3,000,000.
std::string groupedCount(uint64_t n);

}  // namespace quarry::cli
