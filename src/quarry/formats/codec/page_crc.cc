#include "quarry/formats/codec/page_crc.h"

#include <libdeflate.h>

#include <cstdio>
#include <string>

#include "quarry/common/error.h"

namespace quarry::parquet {

uint32_t pageCrc32(std::span<const uint8_t> bytes) {
  return libdeflate_crc32(0, bytes.data(), bytes.size());
}

void verifyPageCrc(int32_t expected, std::span<const uint8_t> body, const char* what) {
  const uint32_t actual = pageCrc32(body);
  if (actual == static_cast<uint32_t>(expected)) return;
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "0x%08x, the page's bytes give 0x%08x",
                static_cast<uint32_t>(expected), actual);
  throw CorruptFile(std::string("CRC mismatch: the ") + what + " header records " + buffer);
}

}  // namespace quarry::parquet
