#include "quarry/formats/codec/page_crc.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

#include "quarry/common/error.h"

namespace quarry::parquet {
namespace {

uint32_t zlibCrc(const std::vector<uint8_t>& bytes) {
  return static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0), bytes.data(), static_cast<uInt>(bytes.size())));
}

// "The CRC is computed using the standard CRC32 algorithm" (parquet-format's
// PageHeader.crc): the one of zlib and gzip, which writers use.
TEST(PageCrcTest, IsZlibsCrc32AtEveryLengthAndAlignment) {
  std::vector<uint8_t> data(70'000);
  uint32_t x = 12345;
  for (uint8_t& b : data) {
    x = x * 1'103'515'245u + 12'345u;
    b = static_cast<uint8_t>(x >> 24);
  }
  for (const size_t length : {size_t{0}, size_t{1}, size_t{7}, size_t{16}, size_t{63}, size_t{64},
                              size_t{255}, size_t{4'096}, size_t{65'539}, size_t{69'999}}) {
    for (const size_t start : {size_t{0}, size_t{1}, size_t{3}}) {
      const std::vector<uint8_t> slice(data.begin() + static_cast<std::ptrdiff_t>(start),
                                       data.begin() + static_cast<std::ptrdiff_t>(start + std::min(length, data.size() - start)));
      EXPECT_EQ(pageCrc32(slice), zlibCrc(slice)) << length << " bytes at " << start;
    }
  }
  const std::string check = "123456789";  // the CRC-32 check value
  EXPECT_EQ(pageCrc32({reinterpret_cast<const uint8_t*>(check.data()), check.size()}), 0xcbf43926u);
}

TEST(PageCrcTest, AMismatchIsCorruptFileNamingBothValues) {
  const std::vector<uint8_t> body = {1, 2, 3};
  verifyPageCrc(static_cast<int32_t>(zlibCrc(body)), body, "page");
  try {
    verifyPageCrc(0x12345678, body, "dictionary page");
    ADD_FAILURE() << "no error";
  } catch (const CorruptFile& e) {
    char actual[16];
    std::snprintf(actual, sizeof actual, "0x%08x", zlibCrc(body));
    EXPECT_EQ(std::string(e.what()), std::string("CRC mismatch: the dictionary page header records 0x12345678, "
                                                 "the page's bytes give ") + actual);
  }
}

}  // namespace
}  // namespace quarry::parquet
