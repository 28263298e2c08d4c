#include "quarry/formats/orc/encoding/timestamp_decoder.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <limits>
#include <utility>
#include <vector>

#include "quarry/common/error.h"
#include "tests/formats/orc/encoding/orc_stream_writer.h"

namespace quarry::orc {
namespace {

using testing::Bytes;

constexpr int64_t kOrcEpoch = 1420070400;  // 2015-01-01 00:00:00 UTC

/// Writes DATA (signed) and SECONDARY (unsigned) as RLEv2 DIRECT runs.
std::pair<Bytes, Bytes> streams(const std::vector<int64_t>& seconds,
                                const std::vector<uint64_t>& encodedNanos) {
  std::vector<uint64_t> zigzagged;
  for (const int64_t s : seconds) zigzagged.push_back(testing::zigzag(s));
  std::pair<Bytes, Bytes> out;
  testing::putDirect(out.first, zigzagged, 64);
  testing::putDirect(out.second, encodedNanos, 64);
  return out;
}

TEST(TimestampDecoderTest, DecodesTheSpecNanosecondExamples) {
  // "Thus 1000 nanoseconds would be serialized as 0x0a and 100000 would be
  // serialized as 0x0c."
  EXPECT_EQ(decodeNanos(0x0a), 1000);
  EXPECT_EQ(decodeNanos(0x0c), 100000);
  EXPECT_EQ(decodeNanos(0), 0);
  EXPECT_EQ(decodeNanos(uint64_t{999999999} << 3), 999999999);
  EXPECT_EQ(decodeNanos(uint64_t{9} << 3 | 7), 900000000);  // 9 followed by 8 zeros
  EXPECT_EQ(decodeNanos(uint64_t{10} << 3 | 7), -1);        // 10^9: out of range
  EXPECT_EQ(decodeNanos(~uint64_t{0}), -1);
}

TEST(TimestampDecoderTest, CountsSecondsFrom2015) {
  const auto [data, secondary] = streams({0, -86400, 1}, {0, 0x0a, uint64_t{5} << 3 | 7});
  TimestampDecoder decoder(RleVersion::kV2, data, secondary, Timezone::utc(), "test");
  std::vector<int64_t> seconds(3);
  std::vector<int64_t> nanos(3);
  decoder.next(seconds, nanos);
  EXPECT_EQ(seconds, (std::vector<int64_t>{kOrcEpoch, kOrcEpoch - 86400, kOrcEpoch + 1}));
  EXPECT_EQ(nanos, (std::vector<int64_t>{0, 1000, 500000000}));
}

TEST(TimestampDecoderTest, MovesPre1970ValuesWithFractionalMillisecondsBackASecond) {
  // A writer truncated -1.5 s (1969-12-31 23:59:58.5) to -1 s plus 0.5 s of nanos;
  // readers subtract the second back. Below a millisecond of nanos nothing moves.
  const auto [data, secondary] = streams(
      {-1 - kOrcEpoch, -1 - kOrcEpoch, -302443200 - kOrcEpoch, 0 - kOrcEpoch},
      {uint64_t{5} << 3 | 7, uint64_t{500} << 3, uint64_t{1} << 3 | 5, uint64_t{5} << 3 | 7});
  TimestampDecoder decoder(RleVersion::kV2, data, secondary, Timezone::utc(), "test");
  std::vector<int64_t> seconds(4);
  std::vector<int64_t> nanos(4);
  decoder.nextInstants(seconds, nanos);
  EXPECT_EQ(seconds, (std::vector<int64_t>{-2, -1, -302443201, 0}));
  EXPECT_EQ(nanos, (std::vector<int64_t>{500000000, 500, 1000000, 500000000}));
}

TEST(TimestampDecoderTest, GivesTheWritersWallClockInItsZone) {
  if (!std::filesystem::exists("/usr/share/zoneinfo/America/Los_Angeles") &&
      std::getenv("TZDIR") == nullptr) {
    GTEST_SKIP() << "SKIPPED LOUDLY: no tzdata";
  }
  const Timezone& la = Timezone::byName("America/Los_Angeles");
  // Noon PDT on 2015-07-01 is 19:00 UTC; DATA counts from 2015-01-01 00:00 PST.
  const int64_t noonPdtUtc = 1435777200;
  const int64_t newYear2037Pst = 2114380800 + 8 * 3600;
  const auto [data, secondary] =
      streams({noonPdtUtc - la.orcEpoch(), newYear2037Pst - la.orcEpoch()}, {0, 999 << 3 | 2});
  TimestampDecoder decoder(RleVersion::kV2, data, secondary, la, "test");
  std::vector<int64_t> seconds(2);
  std::vector<int64_t> nanos(2);
  decoder.next(seconds, nanos);
  EXPECT_EQ(seconds[0], 1435752000);  // 2015-07-01 12:00:00 on the wall clock
  EXPECT_EQ(seconds[1], 2114380800);  // "2037-01-01 00:00:00.000999"
  EXPECT_EQ(nanos[1], 999000);
}

TEST(TimestampDecoderTest, ReadsRleV1AndSkips) {
  // RLEv1 DATA: a run of 10 seconds 0, 1, 2, ...; SECONDARY: 10 zeros.
  const Bytes data = {0x07, 0x01, 0x00};
  const Bytes secondary = {0x07, 0x00, 0x00};
  TimestampDecoder decoder(RleVersion::kV1, data, secondary, Timezone::utc(), "test");
  decoder.skip(7);
  std::vector<int64_t> seconds(3);
  std::vector<int64_t> nanos(3);
  decoder.next(seconds, nanos);
  EXPECT_EQ(seconds, (std::vector<int64_t>{kOrcEpoch + 7, kOrcEpoch + 8, kOrcEpoch + 9}));
  EXPECT_THROW(decoder.next(std::span(seconds.data(), 1), std::span(nanos.data(), 1)), CorruptFile);
}

TEST(TimestampDecoderTest, RejectsNanosecondsPastASecond) {
  const auto [data, secondary] = streams({0}, {uint64_t{1000000000} << 3});
  TimestampDecoder decoder(RleVersion::kV2, data, secondary, Timezone::utc(), "f.orc, col 2");
  std::vector<int64_t> seconds(1);
  std::vector<int64_t> nanos(1);
  EXPECT_THROW(decoder.next(seconds, nanos), CorruptFile);
}

TEST(TimestampDecoderTest, WrapsExtremeSecondsWithoutUndefinedBehaviour) {
  const auto [data, secondary] = streams({INT64_MAX, INT64_MIN}, {uint64_t{5} << 3 | 7, 0});
  TimestampDecoder decoder(RleVersion::kV2, data, secondary, Timezone::utc(), "test");
  std::vector<int64_t> seconds(2);
  std::vector<int64_t> nanos(2);
  decoder.next(seconds, nanos);  // no UB (UBSan), and the documented wrapping result
  // Two's-complement wrap of seconds + the 2015 epoch: INT64_MAX + epoch is
  // INT64_MIN + epoch - 1, negative, and its 0.5 s of nanos move it back a
  // second more; INT64_MIN + epoch does not wrap and has no nanos to move it.
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(seconds, (std::vector<int64_t>{kMin + kOrcEpoch - 2, kMin + kOrcEpoch}));
  EXPECT_EQ(nanos, (std::vector<int64_t>{500000000, 0}));
}

}  // namespace
}  // namespace quarry::orc
