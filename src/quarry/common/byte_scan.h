#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "quarry/common/huge_pages.h"

/// Scanning text for the few bytes that need work (a quote to double, a byte to
/// escape, a byte past ASCII), so that the bytes between them are appended as
/// one run. Values can be a gigabyte long (parquet-testing's
/// large_string_map.brotli.parquet holds two): a loop that appends byte by byte,
/// or a find_first_of that calls memchr once per byte, takes a minute on them.
namespace quarry {

/// A set of bytes, tested by a table lookup.
class ByteSet {
 public:
  constexpr explicit ByteSet(std::string_view members) {
    for (const char c : members) table_[static_cast<uint8_t>(c)] = 1;
  }

  /// Adds the bytes in [first, last].
  constexpr ByteSet withRange(uint8_t first, uint8_t last) const {
    ByteSet copy = *this;
    for (unsigned b = first; b <= last; ++b) copy.table_[b] = 1;
    return copy;
  }

  constexpr bool contains(char c) const { return table_[static_cast<uint8_t>(c)] != 0; }

  /// 1 when `c` is in the set, else 0.
  constexpr unsigned member(char c) const { return table_[static_cast<uint8_t>(c)]; }

 private:
  std::array<uint8_t, 256> table_{};
};

/// Returns the index of the first byte of `text` at or after `from` that is in
/// `set`, or text.size() when there is none.
inline size_t findFirstIn(std::string_view text, const ByteSet& set, size_t from = 0) {
  const char* p = text.data();
  const size_t n = text.size();
  size_t i = from;
  for (; i + 4 <= n; i += 4) {
    // One branch per four bytes: the lookups are or-ed as integers.
    if ((set.member(p[i]) | set.member(p[i + 1]) | set.member(p[i + 2]) |
         set.member(p[i + 3])) != 0) {
      break;
    }
  }
  for (; i < n; ++i) {
    if (set.contains(p[i])) return i;
  }
  return n;
}

/// Returns the index of the first byte of `text` at or after `from` that is not
/// ASCII (0x80 or above), or text.size() when there is none.
inline size_t findFirstNonAscii(std::string_view text, size_t from = 0) {
  const char* p = text.data();
  const size_t n = text.size();
  size_t i = from;
  for (; i + 8 <= n; i += 8) {
    uint64_t word;
    std::memcpy(&word, p + i, 8);
    if ((word & 0x8080808080808080ULL) != 0) break;
  }
  for (; i < n; ++i) {
    if (static_cast<uint8_t>(p[i]) >= 0x80) return i;
  }
  return n;
}

/// Appends `text` to `out`, with `escape(c, out)` appending what stands for each
/// byte in `special` and every other byte copied as it is, run by run.
template <typename Escape>
void appendEscaped(std::string_view text, const ByteSet& special, std::string& out,
                   Escape&& escape) {
  reserveForAppend(out, text.size());
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t next = findFirstIn(text, special, pos);
    out.append(text.data() + pos, next - pos);
    if (next == text.size()) break;
    escape(text[next], out);
    pos = next + 1;
  }
}

}  // namespace quarry
