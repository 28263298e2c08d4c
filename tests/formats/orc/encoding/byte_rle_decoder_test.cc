#include "quarry/formats/orc/encoding/byte_rle_decoder.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "quarry/common/error.h"
#include "tests/formats/orc/encoding/orc_stream_writer.h"

namespace quarry::orc {
namespace {

using testing::Bytes;

std::vector<uint8_t> decode(const Bytes& stream, size_t count) {
  ByteRleDecoder decoder(stream, "test.orc, DATA");
  std::vector<uint8_t> out(count);
  decoder.next(out);
  return out;
}

TEST(ByteRleDecoderTest, DecodesTheSpecExamples) {
  // "a hundred 0's is encoded as [0x61, 0x00] and the sequence 0x44, 0x45 would be
  // encoded as [0xfe, 0x44, 0x45]."
  EXPECT_EQ(decode({0x61, 0x00}, 100), std::vector<uint8_t>(100, 0));
  EXPECT_EQ(decode({0xfe, 0x44, 0x45}, 2), (std::vector<uint8_t>{0x44, 0x45}));
}

TEST(ByteRleDecoderTest, DecodesTheLongestRunsAndLiteralGroups) {
  Bytes stream = {0x7f, 0x09};  // 130 nines
  std::vector<uint8_t> literals(128);
  for (size_t i = 0; i < literals.size(); ++i) literals[i] = static_cast<uint8_t>(i);
  testing::putByteLiterals(stream, literals);
  // Appended one by one: GCC 12 at -O2 misreads insert() here (-Warray-bounds).
  std::vector<uint8_t> expected(130, 9);
  for (const uint8_t literal : literals) expected.push_back(literal);
  EXPECT_EQ(decode(stream, expected.size()), expected);
}

TEST(ByteRleDecoderTest, ReadsAndSkipsAcrossGroupsInAnyBatching) {
  std::mt19937 random(3);
  std::vector<uint8_t> values;
  while (values.size() < 5000) {
    const uint8_t value = static_cast<uint8_t>(random() % 4);
    values.insert(values.end(), random() % 2 == 0 ? 1 : random() % 200, value);
  }
  const Bytes stream = testing::encodeByteRle(values);
  ByteRleDecoder decoder(stream, "test");
  const size_t sizes[] = {1, 5, 129, 131, 2, 300};
  size_t pos = 0;
  for (size_t step = 0; pos < values.size(); ++step) {
    const size_t n = std::min(sizes[step % std::size(sizes)], values.size() - pos);
    if (step % 2 == 1) {
      decoder.skip(n);
    } else {
      std::vector<uint8_t> out(n);
      decoder.next(out);
      ASSERT_TRUE(std::equal(out.begin(), out.end(), values.begin() + static_cast<long>(pos)))
          << "at " << pos;
    }
    pos += n;
  }
  std::vector<uint8_t> more(1);
  EXPECT_THROW(decoder.next(more), CorruptFile);
}

TEST(ByteRleDecoderTest, RejectsCutOffGroups) {
  EXPECT_THROW(decode({0x61}, 100), CorruptFile);            // a run without its value
  EXPECT_THROW(decode({0xfd, 0x01, 0x02}, 3), CorruptFile);  // 3 literals, 2 present
  try {
    decode({0x00, 0x05}, 4);
    FAIL();
  } catch (const CorruptFile& e) {
    EXPECT_STREQ(e.what(),
                 "test.orc, DATA: byte RLE stream ends at offset 2 with 1 more values "
                 "wanted");
  }
  const Bytes cut = {0xfd, 0x01};
  ByteRleDecoder skipping(cut, "test");
  EXPECT_THROW(skipping.skip(1), CorruptFile);
}

}  // namespace
}  // namespace quarry::orc
