#include "quarry/cli/table_writer.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "quarry/cli/text_table.h"
#include "quarry/common/display_width.h"

namespace quarry::cli {

namespace {

constexpr size_t kFlushBytes = 64 * 1024;
constexpr std::string_view kSeparator = "  ";
constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026, one column
/// A column is not narrowed below this (or its natural width, when smaller).
constexpr size_t kMinColumnWidth = 4;

/// Returns `text` cut to `width` columns, ending in "…" when it was longer.
std::string fitted(const std::string& text, size_t width, size_t textWidth) {
  if (textWidth <= width) return text;
  if (width == 0) return std::string();
  std::string out(displayPrefix(text, width - 1));
  out += kEllipsis;
  return out;
}

/// Narrows `widths` (natural widths) so that the columns and their separators
/// fit `limit`: the widest columns give up columns first, none goes below
/// kMinColumnWidth. Returns them unchanged when they fit or no limit is set.
std::vector<size_t> fitToWidth(std::vector<size_t> widths, size_t limit) {
  if (limit == 0 || widths.empty()) return widths;
  const size_t separators = kSeparator.size() * (widths.size() - 1);
  const auto total = [&](size_t cap) {
    size_t sum = separators;
    for (size_t w : widths) sum += std::min(w, std::max(cap, std::min(w, kMinColumnWidth)));
    return sum;
  };
  const size_t widest = *std::max_element(widths.begin(), widths.end());
  if (total(widest) <= limit) return widths;
  // The largest cap under which the table fits (or the smallest allowed).
  size_t low = kMinColumnWidth, high = widest;
  while (low < high) {
    const size_t mid = low + (high - low + 1) / 2;
    if (total(mid) <= limit) {
      low = mid;
    } else {
      high = mid - 1;
    }
  }
  size_t spare = limit > total(low) ? limit - total(low) : 0;
  for (size_t& w : widths) {
    const size_t capped = std::min(w, std::max(low, std::min(w, kMinColumnWidth)));
    const size_t extra = std::min(spare, w - capped);  // the columns cut get the spare columns
    spare -= extra;
    w = capped + extra;
  }
  return widths;
}

}  // namespace

TableWriter::TableWriter(std::vector<Column> columns, Limits limits,
                         std::function<void(std::string_view)> write)
    : columns_(std::move(columns)), limits_(limits), write_(std::move(write)) {
  for (Column& column : columns_) column.name = printableText(column.name);
}

void TableWriter::addRow(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  for (std::string& cell : cells) {
    // Printable ASCII, the common cell, is shown as it is.
    const bool plain =
        std::all_of(cell.begin(), cell.end(), [](char c) { return c >= 0x20 && c < 0x7F; });
    if (!plain) cell = printableText(cell);
  }
  ++shown_;
  if (!widths_.empty()) {
    appendLine(cells);
    if (pending_.size() >= kFlushBytes) flush();
    return;
  }
  held_.push_back(std::move(cells));
  if (held_.size() >= kWidthSampleRows) endBatch();
}

void TableWriter::endBatch() {
  if (widths_.empty() && !held_.empty()) fixWidths();
  flush();
}

void TableWriter::finish(std::optional<uint64_t> total, bool more) {
  if (widths_.empty()) fixWidths();  // also for a result without rows: the header
  if (more && total && *total <= shown_) total.reset();  // statistics that undercount
  if (total && *total <= shown_) {
    pending_ += "(" + groupedCount(shown_) + (shown_ == 1 ? " row)\n" : " rows)\n");
  } else if (total || more) {
    pending_ += "(" + groupedCount(shown_);
    pending_ +=
        total ? " of " + groupedCount(*total) + " rows shown" : " rows shown, more not counted";
    pending_ += "; --max-rows N shows more, 0 all; --format csv for every row)\n";
  } else {
    pending_ += "(" + groupedCount(shown_) + (shown_ == 1 ? " row)\n" : " rows)\n");
  }
  flush();
}

void TableWriter::fixWidths() {
  std::vector<size_t> natural(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c) {
    natural[c] = std::max<size_t>(1, displayWidth(columns_[c].name));
    for (const auto& row : held_) natural[c] = std::max(natural[c], displayWidth(row[c]));
  }
  widths_ = fitToWidth(std::move(natural), limits_.width);
  std::vector<std::string> header;
  for (const Column& column : columns_) header.push_back(column.name);
  appendLine(header);
  for (const auto& row : held_) appendLine(row);
  held_.clear();
  held_.shrink_to_fit();
}

void TableWriter::appendLine(const std::vector<std::string>& cells) {
  const size_t start = pending_.size();
  for (size_t c = 0; c < columns_.size(); ++c) {
    if (c > 0) pending_ += kSeparator;
    const size_t width = displayWidth(cells[c]);
    if (width <= widths_[c]) {
      const size_t padding = widths_[c] - width;
      if (columns_[c].numeric) pending_.append(padding, ' ');
      pending_ += cells[c];
      if (!columns_[c].numeric) pending_.append(padding, ' ');
      continue;
    }
    const std::string cell = fitted(cells[c], widths_[c], width);
    // A cut cell may fall short of its column (a wide character does not fit the last one).
    const size_t padding = widths_[c] - std::min(widths_[c], displayWidth(cell));
    if (columns_[c].numeric) pending_.append(padding, ' ');
    pending_ += cell;
    if (!columns_[c].numeric) pending_.append(padding, ' ');
  }
  while (pending_.size() > start && pending_.back() == ' ') pending_.pop_back();
  pending_ += '\n';
}

void TableWriter::flush() {
  if (pending_.empty()) return;
  write_(pending_);
  pending_.clear();
}

size_t outputWidth(std::FILE* out) {
  const int fd = fileno(out);
  if (fd >= 0 && isatty(fd) != 0) {
    winsize size{};
    if (ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  }
  if (const char* columns = std::getenv("COLUMNS"); columns != nullptr) {
    char* end = nullptr;
    const long value = std::strtol(columns, &end, 10);
    if (end != columns && *end == '\0' && value > 0 && value < 100'000)
      return static_cast<size_t>(value);
  }
  return fd >= 0 && isatty(fd) != 0 ? 80 : 0;
}

std::string groupedCount(uint64_t n) {
  std::string digits = std::to_string(n);
  for (size_t i = digits.size(); i > 3; i -= 3) digits.insert(i - 3, 1, ',');
  return digits;
}

}  // namespace quarry::cli
