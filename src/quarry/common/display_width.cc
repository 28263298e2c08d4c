#include "quarry/common/display_width.h"

#include <algorithm>
#include <cstdint>

#include "quarry/common/utf8.h"

namespace quarry {

namespace {

struct CodePointRange {
  char32_t first;
  char32_t last;
};

#include "quarry/common/display_width_tables.inc"

template <size_t N>
bool inTable(const CodePointRange (&table)[N], char32_t cp) {
  const auto* end = table + N;
  const auto* it = std::upper_bound(
      table, end, cp, [](char32_t value, const CodePointRange& r) { return value < r.first; });
  return it != table && cp <= (it - 1)->last;
}

constexpr char32_t kZeroWidthJoiner = 0x200D;

bool isEmojiModifier(char32_t cp) {
  return cp >= 0x1F3FB && cp <= 0x1F3FF;
}

/// Decodes the code point at `pos` (well-formed, `length` bytes long).
char32_t decode(std::string_view text, size_t pos, size_t length) {
  const auto byte = [&](size_t i) {
    return static_cast<char32_t>(static_cast<uint8_t>(text[pos + i]));
  };
  switch (length) {
    case 1:
      return byte(0);
    case 2:
      return ((byte(0) & 0x1F) << 6) | (byte(1) & 0x3F);
    case 3:
      return ((byte(0) & 0x0F) << 12) | ((byte(1) & 0x3F) << 6) | (byte(2) & 0x3F);
    default:
      return ((byte(0) & 0x07) << 18) | ((byte(1) & 0x3F) << 12) | ((byte(2) & 0x3F) << 6) |
             (byte(3) & 0x3F);
  }
}

/// Walks `text` code point by code point, giving each one's bytes and the
/// columns it adds in its context (the joiner and modifier rules).
template <typename Visit>
void forEachCell(std::string_view text, Visit&& visit) {
  size_t pos = 0;
  char32_t previous = 0;
  bool previousWide = false;
  while (pos < text.size()) {
    size_t length = utf8SequenceLength(text, pos);
    int width = 1;
    char32_t cp = 0;
    if (length == 0) {
      length = 1;  // an ill-formed byte: one column, shown as \xNN
    } else {
      cp = decode(text, pos, length);
      width = codePointWidth(cp);
      if (width == 2 && previousWide && (previous == kZeroWidthJoiner || isEmojiModifier(cp))) {
        width = 0;  // joined into the emoji before
      }
    }
    if (!visit(pos, length, width)) return;
    if (cp != kZeroWidthJoiner) previousWide = width == 2 || (previousWide && width == 0);
    previous = cp;
    pos += length;
  }
}

}  // namespace

int codePointWidth(char32_t cp) {
  if (cp < 0x300) return cp == 0 ? 0 : 1;  // ASCII and Latin-1 (controls are escaped before)
  if (inTable(kZeroWidth, cp)) return 0;
  if (inTable(kWide, cp)) return 2;
  return 1;
}

size_t displayWidth(std::string_view text) {
  // Printable ASCII takes a column a byte: most cells are nothing else.
  if (std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7F; })) {
    return text.size();
  }
  size_t columns = 0;
  forEachCell(text, [&](size_t, size_t, int width) {
    columns += static_cast<size_t>(width);
    return true;
  });
  return columns;
}

std::string_view displayPrefix(std::string_view text, size_t columns) {
  size_t used = 0;
  size_t end = 0;
  forEachCell(text, [&](size_t pos, size_t length, int width) {
    if (used + static_cast<size_t>(width) > columns) return false;
    used += static_cast<size_t>(width);
    end = pos + length;
    return true;
  });
  return text.substr(0, end);
}

}  // namespace quarry
