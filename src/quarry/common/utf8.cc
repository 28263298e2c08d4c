#include "quarry/common/utf8.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "quarry/common/byte_scan.h"
#include "quarry/common/huge_pages.h"

namespace quarry {

size_t utf8SequenceLength(std::string_view bytes, size_t pos) {
  const size_t remaining = bytes.size() - pos;
  const auto at = [&](size_t i) { return static_cast<uint8_t>(bytes[pos + i]); };
  const auto isContinuation = [&](size_t i) { return (at(i) & 0xC0) == 0x80; };
  const uint8_t lead = at(0);
  if (lead < 0x80) {
    return 1;
  }
  if (lead < 0xC2) {
    return 0;  // continuation byte, or the overlong leads C0/C1
  }
  if (lead < 0xE0) {
    return remaining >= 2 && isContinuation(1) ? 2 : 0;
  }
  if (lead < 0xF0) {
    if (remaining < 3 || !isContinuation(1) || !isContinuation(2)) {
      return 0;
    }
    // E0 needs A0..BF (else overlong); ED needs 80..9F (else a surrogate).
    if ((lead == 0xE0 && at(1) < 0xA0) || (lead == 0xED && at(1) > 0x9F)) {
      return 0;
    }
    return 3;
  }
  if (lead < 0xF5) {
    if (remaining < 4 || !isContinuation(1) || !isContinuation(2) || !isContinuation(3)) {
      return 0;
    }
    // F0 needs 90..BF (else overlong); F4 needs 80..8F (else past U+10FFFF).
    if ((lead == 0xF0 && at(1) < 0x90) || (lead == 0xF4 && at(1) > 0x8F)) {
      return 0;
    }
    return 4;
  }
  return 0;
}

bool isValidUtf8(std::string_view bytes) {
  size_t pos = 0;
  while (pos < bytes.size()) {
    // ASCII runs are the common case; step over them eight bytes at a time.
    pos = findFirstNonAscii(bytes, pos);
    if (pos == bytes.size()) break;
    const size_t length = utf8SequenceLength(bytes, pos);
    if (length == 0) {
      return false;
    }
    pos += length;
  }
  return true;
}

size_t codePointCount(std::string_view text) {
  size_t count = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t length = utf8SequenceLength(text, pos);
    pos += length == 0 ? 1 : length;
    ++count;
  }
  return count;
}

// Appends `s` to `out` with every ill-formed UTF-8 sequence replaced by U+FFFD
// (one replacement per maximal ill-formed subpart, as Unicode recommends).
void appendUtf8Lossy(std::string_view s, std::string& out) {
  reserveForAppend(out, s.size());
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    const uint8_t c = p[i];
    if (c < 0x80) {
      const size_t end = findFirstNonAscii(s, i);
      out.append(s.data() + i, end - i);
      i = end;
      continue;
    }
    size_t len = 0;
    uint8_t lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    }
    size_t k = 1;
    if (len > 0) {
      for (; k < len && i + k < n; ++k) {
        const uint8_t b = p[i + k];
        if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) break;
      }
    }
    if (len > 0 && k == len) {
      out.append(s.data() + i, len);
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      i += std::max<size_t>(k, 1);
    }
  }
}

}  // namespace quarry
