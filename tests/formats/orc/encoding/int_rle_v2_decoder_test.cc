#include "quarry/formats/orc/encoding/int_rle_v2_decoder.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "quarry/common/error.h"
#include "tests/formats/orc/encoding/orc_stream_writer.h"

namespace quarry::orc {
namespace {

using testing::Bytes;

std::vector<int64_t> decodeAll(const Bytes& stream, size_t count, bool isSigned) {
  auto decoder = makeIntegerDecoder(RleVersion::kV2, stream, isSigned, "test.orc, DATA");
  std::vector<int64_t> out(count);
  decoder->next(out);
  return out;
}

/// Reads `count` values in batches of mixed sizes, skipping some, and returns
/// what was read with the skipped values left as `expected` has them.
std::vector<int64_t> decodeMixed(const Bytes& stream, const std::vector<int64_t>& expected,
                                 bool isSigned) {
  auto decoder = makeIntegerDecoder(RleVersion::kV2, stream, isSigned, "test.orc, DATA");
  std::vector<int64_t> out = expected;
  const size_t sizes[] = {1, 7, 600, 3, 513, 2, 64, 1000};
  size_t pos = 0;
  for (size_t step = 0; pos < expected.size(); ++step) {
    const size_t n = std::min(sizes[step % std::size(sizes)], expected.size() - pos);
    if (step % 3 == 2) {
      decoder->skip(n);
    } else {
      decoder->next(std::span(out.data() + pos, n));
    }
    pos += n;
  }
  return out;
}

TEST(IntRleV2DecoderTest, DecodesTheSpecShortRepeatExample) {
  // "The unsigned sequence of [10000, 10000, 10000, 10000, 10000] would be
  // serialized with short repeat encoding (0), a width of 2 bytes (1), and repeat
  // count of 5 (2) as [0x0a, 0x27, 0x10]."
  EXPECT_EQ(decodeAll({0x0a, 0x27, 0x10}, 5, false), std::vector<int64_t>(5, 10000));
}

TEST(IntRleV2DecoderTest, DecodesTheSpecDirectExample) {
  // "The unsigned sequence of [23713, 43806, 57005, 48879] would be serialized with
  // direct encoding (1), a width of 16 bits (15), and length of 4 (3) as [0x5e,
  // 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef]."
  EXPECT_EQ(decodeAll({0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef}, 4, false),
            (std::vector<int64_t>{23713, 43806, 57005, 48879}));
}

TEST(IntRleV2DecoderTest, DecodesTheSpecPatchedBaseExample) {
  // "The unsigned sequence of [2030, 2000, 2020, 1000000, 2040, 2050, 2060, 2070,
  // 2080, 2090, 2100, 2110, 2120, 2130, 2140, 2150, 2160, 2170, 2180, 2190] has a
  // minimum of 2000 ... The base value is 2000 and the combined result is [0x8e,
  // 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3c, 0x46,
  // 0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc,
  // 0xe8]"
  const Bytes stream = {0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70,
                        0x28, 0x32, 0x3c, 0x46, 0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82,
                        0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8};
  EXPECT_EQ(decodeAll(stream, 20, false),
            (std::vector<int64_t>{2030, 2000, 2020, 1000000, 2040, 2050, 2060, 2070, 2080, 2090,
                                  2100, 2110, 2120, 2130,    2140, 2150, 2160, 2170, 2180, 2190}));
}

TEST(IntRleV2DecoderTest, DecodesTheSpecDeltaExample) {
  // "The unsigned sequence of [2, 3, 5, 7, 11, 13, 17, 19, 23, 29] would be
  // serialized with delta encoding (3), a width of 4 bits (3), length of 10 (9), a
  // base of 2 (2), and first delta of 1 (2). The resulting sequence is [0xc6, 0x09,
  // 0x02, 0x02, 0x22, 0x42, 0x42, 0x46]."
  EXPECT_EQ(decodeAll({0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46}, 10, false),
            (std::vector<int64_t>{2, 3, 5, 7, 11, 13, 17, 19, 23, 29}));
}

TEST(IntRleV2DecoderTest, MapsTheFiveBitWidthTable) {
  // The spec's "5 bit width encoding table for RLEv2": codes 0..23 are widths
  // 1..24 (0 is 1 for non-delta encodings), then 26, 28, 30, 32, 40, 48, 56, 64.
  for (unsigned code = 0; code < 24; ++code) EXPECT_EQ(decodeBitWidth(code), code + 1);
  const unsigned wide[] = {26, 28, 30, 32, 40, 48, 56, 64};
  for (unsigned code = 24; code < 32; ++code) EXPECT_EQ(decodeBitWidth(code), wide[code - 24]);
}

TEST(IntRleV2DecoderTest, RoundsPatchEntriesToTheClosestFixedBits) {
  // The spec's closestFixedBits(PGW + PW) table.
  for (unsigned bits = 1; bits <= 24; ++bits) EXPECT_EQ(closestFixedBits(bits), bits);
  EXPECT_EQ(closestFixedBits(25), 26u);
  EXPECT_EQ(closestFixedBits(26), 26u);
  EXPECT_EQ(closestFixedBits(27), 28u);
  EXPECT_EQ(closestFixedBits(29), 30u);
  EXPECT_EQ(closestFixedBits(31), 32u);
  EXPECT_EQ(closestFixedBits(32), 32u);
  EXPECT_EQ(closestFixedBits(33), 40u);
  EXPECT_EQ(closestFixedBits(41), 48u);
  EXPECT_EQ(closestFixedBits(49), 56u);
  EXPECT_EQ(closestFixedBits(57), 64u);
  EXPECT_EQ(closestFixedBits(64), 64u);
}

TEST(IntRleV2DecoderTest, DecodesDirectRunsAtEveryWidth) {
  std::mt19937_64 random(7);
  std::vector<unsigned> widths;
  for (unsigned code = 0; code < 32; ++code) widths.push_back(decodeBitWidth(code));
  for (const unsigned width : widths) {
    for (const bool isSigned : {false, true}) {
      std::vector<uint64_t> raw(512);
      const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
      for (auto& value : raw) value = random() & mask;
      raw[0] = mask;  // the widest value
      Bytes stream;
      testing::putDirect(stream, raw, width);
      std::vector<int64_t> expected;
      for (const uint64_t value : raw) {
        expected.push_back(isSigned ? static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1))
                                    : static_cast<int64_t>(value));
      }
      EXPECT_EQ(decodeAll(stream, raw.size(), isSigned), expected) << "width " << width;
      EXPECT_EQ(decodeMixed(stream, expected, isSigned), expected) << "width " << width;
    }
  }
}

TEST(IntRleV2DecoderTest, KeepsUnsignedValuesAboveInt64MaxAsTheirBitPattern) {
  Bytes stream;
  testing::putShortRepeat(stream, ~uint64_t{0}, 8, 3);
  testing::putDirect(stream, {uint64_t{1} << 63, 1}, 64);
  EXPECT_EQ(decodeAll(stream, 5, false),
            (std::vector<int64_t>{-1, -1, -1, std::numeric_limits<int64_t>::min(), 1}));
}

TEST(IntRleV2DecoderTest, ZigzagsSignedShortRepeats) {
  Bytes stream;
  testing::putShortRepeat(stream, testing::zigzag(-300), 2, 10);
  EXPECT_EQ(decodeAll(stream, 10, true), std::vector<int64_t>(10, -300));
}

TEST(IntRleV2DecoderTest, DecodesConstantDeltaRunsOfWidthZero) {
  Bytes stream;
  testing::putDelta(stream, testing::zigzag(-5), -3, 512, {}, 0);
  std::vector<int64_t> expected;
  for (int64_t i = 0; i < 512; ++i) expected.push_back(-5 - 3 * i);
  EXPECT_EQ(decodeAll(stream, 512, true), expected);
  // A repeated value is a constant run with delta 0.
  Bytes repeat;
  testing::putDelta(repeat, 42, 0, 100, {}, 0);
  EXPECT_EQ(decodeAll(repeat, 100, false), std::vector<int64_t>(100, 42));
}

TEST(IntRleV2DecoderTest, SubtractsDeltasWhenTheFirstDeltaIsNegative) {
  Bytes stream;
  testing::putDelta(stream, testing::zigzag(100), -10, 5, {1, 20, 3}, 8);
  EXPECT_EQ(decodeAll(stream, 5, true), (std::vector<int64_t>{100, 90, 89, 69, 66}));
}

TEST(IntRleV2DecoderTest, DecodesDeltaRunsOfOneAndTwoValues) {
  Bytes stream;
  testing::putDelta(stream, 7, 0, 1, {}, 4);
  testing::putDelta(stream, 7, 5, 2, {}, 4);
  EXPECT_EQ(decodeAll(stream, 3, false), (std::vector<int64_t>{7, 7, 12}));
}

TEST(IntRleV2DecoderTest, AppliesPatchesAfterGapsLongerThan255) {
  // "If a patch is 0, it was introduced to skip over more than 255 items."
  std::vector<uint64_t> data(512, 3);
  Bytes stream;
  testing::putPatchedBase(stream, -1000, 2, data, 2, {{255, 0}, {45, 5}, {1, 1}}, 3, 8);
  std::vector<int64_t> expected(512, -997);
  expected[300] = -1000 + (3 | 5 << 2);
  expected[301] = -1000 + (3 | 1 << 2);
  EXPECT_EQ(decodeAll(stream, 512, true), expected);
  EXPECT_EQ(decodeMixed(stream, expected, true), expected);
}

TEST(IntRleV2DecoderTest, ReadsAPatchedBaseAtWideWidths) {
  // Base of 8 bytes, 56-bit data, 8-bit patches and 8-bit gaps: entries 16 bits.
  std::vector<uint64_t> data = {1, (uint64_t{1} << 56) - 1, 0};
  Bytes stream;
  testing::putPatchedBase(stream, 5, 8, data, 56, {{2, 0x7f}}, 8, 8);
  EXPECT_EQ(decodeAll(stream, 3, false),
            (std::vector<int64_t>{6, static_cast<int64_t>((uint64_t{1} << 56) + 4),
                                  static_cast<int64_t>((uint64_t{0x7f} << 56) + 5)}));
}

TEST(IntRleV2DecoderTest, ReadsMixedRunsInAnyBatchingAndSkips) {
  std::mt19937_64 random(11);
  Bytes stream;
  std::vector<int64_t> expected;
  for (int run = 0; run < 300; ++run) {
    switch (random() % 4) {
      case 0: {
        const auto count = static_cast<unsigned>(3 + random() % 8);
        const int64_t value = static_cast<int64_t>(random() % 100000) - 50000;
        testing::putShortRepeat(stream, testing::zigzag(value), 3, count);
        expected.insert(expected.end(), count, value);
        break;
      }
      case 1: {
        std::vector<uint64_t> raw(1 + random() % 512);
        for (auto& value : raw) {
          const int64_t v = static_cast<int64_t>(random() % 2000) - 1000;
          value = testing::zigzag(v);
          expected.push_back(v);
        }
        testing::putDirect(stream, raw, 11);
        break;
      }
      case 2: {
        std::vector<uint64_t> data(1 + random() % 512);
        for (auto& value : data) value = random() % 16;
        testing::putPatchedBase(stream, -77, 1, data, 4, {{0, 9}}, 4, 1);
        data[0] |= 9 << 4;
        for (const uint64_t value : data) expected.push_back(-77 + static_cast<int64_t>(value));
        break;
      }
      default: {
        const size_t length = 3 + random() % 509;
        std::vector<uint64_t> deltas(length - 2);
        int64_t value = 1000;
        expected.push_back(value);
        expected.push_back(value += 3);
        for (auto& delta : deltas) {
          delta = random() % 64;
          expected.push_back(value += static_cast<int64_t>(delta));
        }
        testing::putDelta(stream, testing::zigzag(1000), 3, length, deltas, 6);
        break;
      }
    }
  }
  EXPECT_EQ(decodeAll(stream, expected.size(), true), expected);
  EXPECT_EQ(decodeMixed(stream, expected, true), expected);
}

TEST(IntRleV2DecoderTest, RejectsAStreamThatEndsBeforeTheValuesWanted) {
  const Bytes stream = {0x0a, 0x27, 0x10};
  auto decoder = makeIntegerDecoder(RleVersion::kV2, stream, false, "f.orc, column 3, DATA");
  std::vector<int64_t> out(6);
  try {
    decoder->next(out);
    FAIL() << "no error";
  } catch (const CorruptFile& e) {
    EXPECT_NE(std::string(e.what()).find("f.orc, column 3, DATA"), std::string::npos) << e.what();
  }
  auto skipping = makeIntegerDecoder(RleVersion::kV2, stream, false, "f.orc");
  EXPECT_THROW(skipping->skip(6), CorruptFile);
}

TEST(IntRleV2DecoderTest, RejectsTruncatedRunsWithoutReadingPastTheStream) {
  Bytes direct;
  testing::putDirect(direct, std::vector<uint64_t>(512, ~uint64_t{0}), 64);
  for (const size_t keep : {size_t{1}, size_t{2}, size_t{100}, direct.size() - 1}) {
    const Bytes cut(direct.begin(), direct.begin() + static_cast<long>(keep));
    EXPECT_THROW(decodeAll(cut, 512, false), CorruptFile) << keep;
  }
  Bytes patched;
  testing::putPatchedBase(patched, 1, 2, {1, 2, 3}, 4, {{1, 1}}, 4, 2);
  for (size_t keep = 1; keep < patched.size(); ++keep) {
    const Bytes cut(patched.begin(), patched.begin() + static_cast<long>(keep));
    EXPECT_THROW(decodeAll(cut, 3, false), CorruptFile) << keep;
  }
  Bytes delta;
  testing::putDelta(delta, 300, 300, 10, std::vector<uint64_t>(8, 1), 2);
  for (size_t keep = 1; keep < delta.size(); ++keep) {
    const Bytes cut(delta.begin(), delta.begin() + static_cast<long>(keep));
    EXPECT_THROW(decodeAll(cut, 10, false), CorruptFile) << keep;
  }
  EXPECT_THROW(decodeAll({0x38}, 10, false), CorruptFile);  // SHORT_REPEAT without its value
}

TEST(IntRleV2DecoderTest, RejectsPatchesWiderThan64Bits) {
  // "The combined length of each patch (PGW + PW) must be less or equal to 64."
  const Bytes gapPlusPatch = {0x80, 0x00, 0x1f, 0x21, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_THROW(decodeAll(gapPlusPatch, 1, false), CorruptFile);
  // Data of 56 bits patched with 16 more bits would exceed 64 bits.
  Bytes wide;
  testing::putPatchedBase(wide, 0, 1, {1}, 56, {{0, 1}}, 16, 1);
  EXPECT_THROW(decodeAll(wide, 1, false), CorruptFile);
}

TEST(IntRleV2DecoderTest, RejectsAPatchPastTheEndOfItsRun) {
  Bytes stream;
  testing::putPatchedBase(stream, 0, 1, {1, 2}, 2, {{5, 1}}, 2, 3);
  EXPECT_THROW(decodeAll(stream, 2, false), CorruptFile);
}

TEST(IntRleV2DecoderTest, RejectsADeltaBaseLongerThan64Bits) {
  const Bytes stream = {0xc0, 0x02, 0xff, 0xff, 0xff, 0xff, 0xff,
                        0xff, 0xff, 0xff, 0xff, 0x7f, 0x00};
  EXPECT_THROW(decodeAll(stream, 3, false), CorruptFile);
}

}  // namespace
}  // namespace quarry::orc
