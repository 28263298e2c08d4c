#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

/// Aligned plain-text tables for the CLI's human-readable output.
namespace quarry::cli {

class TextTable {
 public:
  enum class Align { kLeft, kRight };

  struct Column {
    std::string header;
    Align align = Align::kLeft;
  };

  explicit TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

  /// Adds a row; missing trailing cells are empty, extra cells are dropped.
  void addRow(std::vector<std::string> cells);

  size_t rowCount() const { return rows_.size(); }

  /// Appends the table to `out`, each line starting with `indent`: a header
  /// line, then one line per row, columns two spaces apart and padded to the
  /// widest cell (in terminal columns: common/display_width.h). Trailing spaces
  /// are trimmed. For small tables of known size; rows of data go through
  /// TableWriter (table_writer.h), which streams.
  void render(std::string& out, std::string_view indent = "") const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

/// Returns `text` fit for one terminal line: control characters and bytes
/// that are not well-formed UTF-8 escaped as \xNN, and cut after
/// `maxCodePoints` code points (then `*truncated` is set, when given).
std::string printableText(std::string_view text, size_t maxCodePoints = SIZE_MAX,
                          bool* truncated = nullptr);

/// Appends `label` and `value` as one "label  value" line, the value starting
/// at column `labelWidth` after the indent; for key/value blocks.
void appendField(std::string& out, std::string_view indent, std::string_view label,
                 std::string_view value, size_t labelWidth = 22);

}  // namespace quarry::cli
