#pragma once

#include <cstddef>
#include <string>
#include <string_view>

/// UTF-8 well-formedness as RFC 3629 defines it. Bytes from files are not
/// trusted: the CLI must know which it can show as text, getString replaces
/// malformed sequences, and a String predicate literal must be well-formed.
namespace quarry {

/// Returns the length of the well-formed UTF-8 sequence starting at `bytes[pos]`
/// (1 to 4), or 0 when the byte there does not start one: a stray continuation
/// byte, an overlong form, a surrogate, a code point past U+10FFFF, or a
/// sequence cut short by the end of `bytes`.
size_t utf8SequenceLength(std::string_view bytes, size_t pos);

/// Returns true when every byte of `bytes` belongs to a well-formed sequence.
bool isValidUtf8(std::string_view bytes);

/// Counts the code points of well-formed `text` (each ill-formed byte counts as
/// one), which is what terminal alignment needs for most scripts.
size_t codePointCount(std::string_view text);

/// Appends `bytes` to `out` with each maximal ill-formed subsequence replaced by
/// U+FFFD, as Unicode recommends (what getString returns for malformed bytes).
void appendUtf8Lossy(std::string_view bytes, std::string& out);

}  // namespace quarry
