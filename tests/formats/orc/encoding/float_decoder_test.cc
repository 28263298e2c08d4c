#include "quarry/formats/orc/encoding/float_decoder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace quarry::orc {
namespace {

template <typename T>
std::vector<uint8_t> bytesOf(const std::vector<T>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

TEST(FloatDecoderTest, ReadsLittleEndianFloats) {
  // 1.5f is 0x3fc00000: little endian 00 00 c0 3f.
  const std::vector<uint8_t> stream = {0x00, 0x00, 0xc0, 0x3f, 0x00, 0x00, 0x80, 0xbf};
  FloatDecoder<float> decoder(stream, "test");
  std::vector<float> out(2);
  decoder.next(out);
  EXPECT_EQ(out, (std::vector<float>{1.5f, -1.0f}));
}

TEST(FloatDecoderTest, ReadsAndSkipsDoubles) {
  const std::vector<double> values = {
      0.0, -0.0, 1e300, std::numeric_limits<double>::infinity(), std::nan(""), 3.25};
  const auto stream = bytesOf(values);
  FloatDecoder<double> decoder(stream, "test");
  EXPECT_EQ(decoder.remaining(), 6u);
  decoder.skip(2);
  std::vector<double> out(3);
  decoder.next(out);
  EXPECT_EQ(out[0], 1e300);
  EXPECT_TRUE(std::isinf(out[1]));
  EXPECT_TRUE(std::isnan(out[2]));
  std::vector<double> last(1);
  decoder.next(last);
  EXPECT_EQ(last[0], 3.25);
}

TEST(FloatDecoderTest, RejectsAStreamThatEndsEarly) {
  const std::vector<uint8_t> stream = {0, 0, 0, 0, 0, 0, 0};  // 7 bytes: one float and change
  FloatDecoder<float> floats(stream, "f.orc, column 4, DATA");
  std::vector<float> two(2);
  try {
    floats.next(two);
    FAIL();
  } catch (const CorruptFile& e) {
    EXPECT_STREQ(e.what(),
                 "f.orc, column 4, DATA: FLOAT stream ends at offset 7 with 1 values "
                 "left, 2 wanted");
  }
  FloatDecoder<double> doubles(stream, "f");
  EXPECT_THROW(doubles.skip(1), CorruptFile);
}

}  // namespace
}  // namespace quarry::orc
