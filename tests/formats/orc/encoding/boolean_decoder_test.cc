#include "quarry/formats/orc/encoding/boolean_decoder.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "quarry/common/error.h"
#include "tests/formats/orc/encoding/orc_stream_writer.h"

namespace quarry::orc {
namespace {

using testing::Bytes;

Bytes encodeBooleans(const std::vector<uint8_t>& bits) {
  std::vector<uint8_t> bytes((bits.size() + 7) / 8);
  for (size_t i = 0; i < bits.size(); ++i) {
    if (bits[i]) bytes[i / 8] |= static_cast<uint8_t>(0x80 >> (i % 8));
  }
  return testing::encodeByteRle(bytes);
}

TEST(BooleanDecoderTest, DecodesTheSpecExample) {
  // "the byte sequence [0xff, 0x80] would be one true followed by seven false values."
  const Bytes stream = {0xff, 0x80};
  BooleanDecoder decoder(stream, "test");
  std::vector<uint8_t> out(8);
  decoder.next(out);
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(BooleanDecoderTest, ReadsAndSkipsAtEveryBitOffset) {
  std::mt19937 random(5);
  std::vector<uint8_t> bits(10000);
  for (size_t i = 0; i < bits.size(); ++i) {
    // Long constant stretches (byte runs) between random ones (literals).
    bits[i] = (i / 1000) % 2 == 0 ? static_cast<uint8_t>(random() & 1) : (i / 1000) % 4 == 1;
  }
  const Bytes stream = encodeBooleans(bits);
  {
    BooleanDecoder decoder(stream, "test");
    std::vector<uint8_t> out(bits.size());
    decoder.next(out);
    EXPECT_EQ(out, bits);
  }
  const size_t sizes[] = {1, 3, 8, 13, 2049, 7, 16, 5, 64};
  BooleanDecoder decoder(stream, "test");
  size_t pos = 0;
  for (size_t step = 0; pos < bits.size(); ++step) {
    const size_t n = std::min(sizes[step % std::size(sizes)], bits.size() - pos);
    if (step % 3 == 1) {
      decoder.skip(n);
    } else {
      std::vector<uint8_t> out(n);
      decoder.next(out);
      ASSERT_TRUE(std::equal(out.begin(), out.end(), bits.begin() + static_cast<long>(pos)))
          << "at " << pos;
    }
    pos += n;
  }
}

TEST(BooleanDecoderTest, RejectsAStreamThatEndsEarly) {
  const Bytes stream = {0xff, 0x80};
  BooleanDecoder decoder(stream, "f.orc, PRESENT");
  std::vector<uint8_t> out(9);
  EXPECT_THROW(decoder.next(out), CorruptFile);
  BooleanDecoder skipping(stream, "f.orc, PRESENT");
  EXPECT_THROW(skipping.skip(17), CorruptFile);
}

}  // namespace
}  // namespace quarry::orc
