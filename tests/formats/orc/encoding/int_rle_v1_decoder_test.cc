#include "quarry/formats/orc/encoding/int_rle_v1_decoder.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "quarry/common/error.h"
#include "tests/formats/orc/encoding/orc_stream_writer.h"

namespace quarry::orc {
namespace {

using testing::Bytes;

std::vector<int64_t> decode(const Bytes& stream, size_t count, bool isSigned) {
  auto decoder = makeIntegerDecoder(RleVersion::kV1, stream, isSigned, "test.orc, DATA");
  std::vector<int64_t> out(count);
  decoder->next(out);
  return out;
}

TEST(IntRleV1DecoderTest, DecodesTheSpecExamples) {
  // "if the sequence is 100 instances of 7 the encoding would start with 100 - 3,
  // followed by a delta of 0, and a varint of 7 for an encoding of [0x61, 0x00,
  // 0x07]."
  EXPECT_EQ(decode({0x61, 0x00, 0x07}, 100, false), std::vector<int64_t>(100, 7));
  // "To encode the sequence of numbers running from 100 to 1, the first byte is
  // 100 - 3, the delta is -1, and the varint is 100 for an encoding of [0x61, 0xff,
  // 0x64]."
  std::vector<int64_t> down;
  for (int64_t v = 100; v >= 1; --v) down.push_back(v);
  EXPECT_EQ(decode({0x61, 0xff, 0x64}, 100, false), down);
  // "Numbers [2, 3, 6, 7, 11] would be encoded as [0xfb, 0x02, 0x03, 0x06, 0x07, 0xb]."
  EXPECT_EQ(decode({0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b}, 5, false),
            (std::vector<int64_t>{2, 3, 6, 7, 11}));
}

TEST(IntRleV1DecoderTest, ZigzagsSignedRunBasesAndLiterals) {
  Bytes stream = {0x00, 0x02};  // a run of 3, delta +2
  testing::putVarint(stream, testing::zigzag(-5));
  stream.push_back(0xfe);  // two literals
  testing::putVarint(stream, testing::zigzag(-1000000));
  testing::putVarint(stream, testing::zigzag(std::numeric_limits<int64_t>::max()));
  EXPECT_EQ(decode(stream, 5, true),
            (std::vector<int64_t>{-5, -3, -1, -1000000, std::numeric_limits<int64_t>::max()}));
}

TEST(IntRleV1DecoderTest, ReadsAndSkipsAcrossRunsInAnyBatching) {
  std::mt19937_64 random(9);
  Bytes stream;
  std::vector<int64_t> expected;
  for (int group = 0; group < 200; ++group) {
    if (random() % 2 == 0) {
      const size_t length = 3 + random() % 128;
      const auto delta = static_cast<int8_t>(random());
      const int64_t base = static_cast<int64_t>(random() % 100000) - 50000;
      stream.push_back(static_cast<uint8_t>(length - 3));
      stream.push_back(static_cast<uint8_t>(delta));
      testing::putVarint(stream, testing::zigzag(base));
      for (size_t i = 0; i < length; ++i)
        expected.push_back(base + delta * static_cast<int64_t>(i));
    } else {
      const size_t length = 1 + random() % 128;
      stream.push_back(static_cast<uint8_t>(256 - length));
      for (size_t i = 0; i < length; ++i) {
        const auto value = static_cast<int64_t>(random());
        testing::putVarint(stream, testing::zigzag(value));
        expected.push_back(value);
      }
    }
  }
  EXPECT_EQ(decode(stream, expected.size(), true), expected);
  auto decoder = makeIntegerDecoder(RleVersion::kV1, stream, true, "test");
  const size_t sizes[] = {1, 131, 600, 2, 513};
  size_t pos = 0;
  for (size_t step = 0; pos < expected.size(); ++step) {
    const size_t n = std::min(sizes[step % std::size(sizes)], expected.size() - pos);
    if (step % 2 == 1) {
      decoder->skip(n);
    } else {
      std::vector<int64_t> out(n);
      decoder->next(out);
      ASSERT_TRUE(std::equal(out.begin(), out.end(), expected.begin() + static_cast<long>(pos)));
    }
    pos += n;
  }
}

TEST(IntRleV1DecoderTest, RejectsCutOffRunsAndLiterals) {
  EXPECT_THROW(decode({0x61}, 100, false), CorruptFile);
  EXPECT_THROW(decode({0x61, 0x00}, 100, false), CorruptFile);
  EXPECT_THROW(decode({0x61, 0x00, 0x80}, 100, false), CorruptFile);
  EXPECT_THROW(decode({0xfb, 0x02, 0x03}, 5, false), CorruptFile);
  EXPECT_THROW(decode({0x00, 0x00, 0x01}, 4, false), CorruptFile);
}

}  // namespace
}  // namespace quarry::orc
