// libFuzzer target for the WKB reader behind GEOMETRY and GEOGRAPHY text
// (formats/parquet/wkb_text.h): the input is one WKB value. Every input must end
// in WKT or CorruptFile, and the WKT must stay within a small multiple of the
// input (no count may make it write more than the bytes present allow); a longer
// text traps.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/wkb_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view wkb(reinterpret_cast<const char*>(data), size);
  std::string text;
  try {
    quarry::parquet::appendWktOfWkb(
        wkb,
        [](double value, std::string& out) {
          char buffer[32];
          out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
        },
        text);
  } catch (const quarry::CorruptFile&) {
    return 0;
  }
  // 8 bytes per coordinate print as at most 24 characters and a separator; an empty
  // member of 9 bytes as at most "GEOMETRYCOLLECTION ZM EMPTY, ".
  if (text.size() > 4 * size + 32) std::abort();
  return 0;
}
