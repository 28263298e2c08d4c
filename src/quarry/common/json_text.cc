#include "quarry/common/json_text.h"

#include "quarry/common/byte_scan.h"
#include "quarry/common/huge_pages.h"
#include "quarry/common/utf8.h"

namespace quarry {

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

// Bytes a JSON string cannot hold as they are, or that start a UTF-8 sequence to
// check: the quote, the backslash, control characters, DEL and non-ASCII bytes.
constexpr ByteSet kNeedsWork = ByteSet("\"\\").withRange(0x00, 0x1F).withRange(0x7F, 0xFF);

void appendUnicodeEscape(std::string& out, uint8_t byte) {
  out += "\\u00";
  out += kHexDigits[byte >> 4];
  out += kHexDigits[byte & 0xF];
}

}  // namespace

void appendJsonString(std::string& out, std::string_view text) {
  reserveForAppend(out, text.size() + 2);
  out += '"';
  size_t pos = 0;
  while (pos < text.size()) {
    // Printable ASCII other than the quote and the backslash goes out as it is.
    const size_t plainEnd = findFirstIn(text, kNeedsWork, pos);
    out.append(text.data() + pos, plainEnd - pos);
    pos = plainEnd;
    if (pos == text.size()) break;
    const auto byte = static_cast<uint8_t>(text[pos]);
    if (byte >= 0x80) {
      const size_t length = utf8SequenceLength(text, pos);
      if (length == 0) {
        appendUnicodeEscape(out, byte);
        ++pos;
      } else {
        out.append(text.substr(pos, length));
        pos += length;
      }
      continue;
    }
    switch (byte) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (byte < 0x20 || byte == 0x7F) {
          appendUnicodeEscape(out, byte);
        } else {
          out += static_cast<char>(byte);
        }
    }
    ++pos;
  }
  out += '"';
}

}  // namespace quarry
