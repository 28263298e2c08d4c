#pragma once

#include <cstddef>
#include <string_view>

/// How many terminal columns text takes, for tables that line up whatever the
/// script: East Asian Wide and Fullwidth characters (CJK ideographs, kana,
/// Hangul syllables, fullwidth forms) and emoji shown as emoji take two columns,
/// combining marks and format characters (U+0301, U+200D, U+FE0F) none, the
/// rest one. An emoji joined to the one before by U+200D (ZERO WIDTH JOINER),
/// or a skin-tone modifier after an emoji, adds nothing: terminals that join
/// such sequences draw one glyph of two columns. The tables come from Unicode's
/// data (tools/gen-display-width.py); an ill-formed byte counts as one column,
/// as the \xNN escape the CLI shows for it starts with one.
///
///   displayWidth("abc") == 3, displayWidth("東京") == 4,
///   displayWidth("e\u0301") == 1, displayWidth("😀") == 2
namespace quarry {

/// Returns the columns code point `cp` takes on its own: 0, 1 or 2.
int codePointWidth(char32_t cp);

/// Returns the columns `text` (UTF-8) takes.
size_t displayWidth(std::string_view text);

/// Returns the longest prefix of `text` that takes at most `columns` columns,
/// cut between code points only, with the zero-width code points that follow
/// the last one it keeps (a base letter keeps its accents).
std::string_view displayPrefix(std::string_view text, size_t columns);

}  // namespace quarry
