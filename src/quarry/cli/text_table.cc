#include "quarry/cli/text_table.h"

#include <algorithm>
#include <cstdint>

#include "quarry/common/display_width.h"
#include "quarry/common/utf8.h"

namespace quarry::cli {

void TextTable::addRow(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

void TextTable::render(std::string& out, std::string_view indent) const {
  std::vector<size_t> widths(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c) {
    widths[c] = displayWidth(columns_[c].header);
    for (const auto& row : rows_) {
      widths[c] = std::max(widths[c], displayWidth(row[c]));
    }
  }
  const auto appendLine = [&](const auto& cellAt) {
    std::string line(indent);
    for (size_t c = 0; c < columns_.size(); ++c) {
      const std::string_view cell = cellAt(c);
      const size_t padding = widths[c] - displayWidth(cell);
      if (c > 0) {
        line += "  ";
      }
      if (columns_[c].align == Align::kRight) {
        line.append(padding, ' ');
        line += cell;
      } else {
        line += cell;
        line.append(padding, ' ');
      }
    }
    while (!line.empty() && line.back() == ' ') {
      line.pop_back();
    }
    out += line;
    out += '\n';
  };
  appendLine([&](size_t c) -> std::string_view { return columns_[c].header; });
  for (const auto& row : rows_) {
    appendLine([&](size_t c) -> std::string_view { return row[c]; });
  }
}

std::string printableText(std::string_view text, size_t maxCodePoints, bool* truncated) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  size_t pos = 0;
  size_t count = 0;
  if (truncated != nullptr) {
    *truncated = false;
  }
  while (pos < text.size()) {
    if (count == maxCodePoints) {
      if (truncated != nullptr) {
        *truncated = true;
      }
      break;
    }
    const auto byte = static_cast<uint8_t>(text[pos]);
    const size_t length = utf8SequenceLength(text, pos);
    if (length == 0 || byte < 0x20 || byte == 0x7F) {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
      ++pos;
    } else {
      out.append(text.substr(pos, length));
      pos += length;
    }
    ++count;
  }
  return out;
}

void appendField(std::string& out, std::string_view indent, std::string_view label,
                 std::string_view value, size_t labelWidth) {
  out += indent;
  out += label;
  const size_t used = displayWidth(label);
  out.append(used < labelWidth ? labelWidth - used : 1, ' ');
  out += value;
  out += '\n';
}

}  // namespace quarry::cli
