// FileSplit binary serialization: "FileSplit carries a nullable
// SourceStatistics, serialized with a presence flag" (issue 9). Corrupt input
// is a CorruptFile error, never a crash or a huge allocation.
#include "quarry/engine/source/file_split.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

FileSplit withStatistics() {
  FileSplit split{"s3://bucket/dir/part-0.parquet", 4, 1 << 20, "parquet", nullptr};
  SourceStatistics s;
  s.rowCount = 1000;
  s.columns["b"] = {0, false, true};
  s.columns["i"] = {3, int64_t{-7}, int64_t{1} << 40};
  s.columns["d"] = {0, -0.0, 2.5};
  s.columns["s"] = {std::nullopt, std::string("a\0b", 3), std::string("\xff")};
  s.columns["date"] = {1, Date{-1}, Date{20000}};
  s.columns["ts"] = {0, Instant{-5, 999'999'999}, Instant{1'700'000'000, 1}};
  s.columns["unknown"] = {};
  s.columns["all.null"] = {1000, std::nullopt, std::nullopt};
  split.statistics = std::make_shared<const SourceStatistics>(s);
  return split;
}

TEST(FileSplitTest, RoundTripsWithoutStatistics) {
  const FileSplit split{"/data/x.orc", 0, 77, "orc", nullptr};
  const std::vector<uint8_t> bytes = serialize(split);
  EXPECT_EQ(deserializeFileSplit(bytes), split);
}

TEST(FileSplitTest, RoundTripsTheFileIdentity) {
  FileSplit split{"s3://b/k.parquet", 4, 100, "parquet", nullptr};
  split.units = 3;
  split.fileSize = 123456;
  split.fileVersion = "\"etag-1\"";
  EXPECT_EQ(deserializeFileSplit(serialize(split)), split);
  split.fileVersion.reset();
  EXPECT_EQ(deserializeFileSplit(serialize(split)), split);
}

TEST(FileSplitTest, RoundTripsEveryValueKind) {
  const FileSplit split = withStatistics();
  const FileSplit back = deserializeFileSplit(serialize(split));
  EXPECT_EQ(back, split);
  // -0.0 == +0.0 under operator==: check the sign survived.
  EXPECT_TRUE(std::signbit(std::get<double>(*back.statistics->columns.at("d").min)));
}

TEST(FileSplitTest, EveryTruncationIsCorruptFile) {
  const std::vector<uint8_t> bytes = serialize(withStatistics());
  for (size_t n = 0; n < bytes.size(); ++n) {
    const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<long>(n));
    EXPECT_THROW(deserializeFileSplit(prefix), CorruptFile) << "prefix of " << n << " bytes";
  }
}

TEST(FileSplitTest, EverySingleByteChangeIsRejectedOrDecoded) {
  // No flip may crash or allocate without bound; each is decoded or refused.
  const std::vector<uint8_t> bytes = serialize(withStatistics());
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t v : {uint8_t{0x00}, uint8_t{0xff}, uint8_t{0x80}, uint8_t{0x07}}) {
      std::vector<uint8_t> changed = bytes;
      changed[i] = v;
      try {
        (void)deserializeFileSplit(changed);
      } catch (const CorruptFile&) {
      }
    }
  }
}

std::string messageOf(const std::vector<uint8_t>& bytes) {
  try {
    (void)deserializeFileSplit(bytes);
  } catch (const CorruptFile& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected CorruptFile";
  return "";
}

TEST(FileSplitTest, NamesWhatIsWrong) {
  std::vector<uint8_t> bytes = serialize(FileSplit{"u", 0, 1, "orc", nullptr});
  std::vector<uint8_t> badVersion = bytes;
  badVersion[0] = 9;
  EXPECT_NE(messageOf(badVersion).find("unknown version 9"), std::string::npos);
  std::vector<uint8_t> trailing = bytes;
  trailing.push_back(0);
  EXPECT_NE(messageOf(trailing).find("1 trailing bytes"), std::string::npos);
  std::vector<uint8_t> badFlag = bytes;
  badFlag[bytes.size() - 17] = 2;  // before the row span count and the partition value count
  EXPECT_NE(messageOf(badFlag).find("statistics flag is 2"), std::string::npos);
  // A uri length of 2^64 - 1 is refused before anything is allocated.
  std::vector<uint8_t> hugeLength = bytes;
  for (size_t i = 1; i <= 8; ++i) hugeLength[i] = 0xff;
  EXPECT_NE(messageOf(hugeLength).find("truncated uri"), std::string::npos);
}

TEST(FileSplitTest, RefusesACountTheBytesCannotHold) {
  FileSplit split{"u", 0, 1, "parquet", std::make_shared<const SourceStatistics>()};
  std::vector<uint8_t> bytes = serialize(split);
  // The column count is the 8 bytes before the row span and partition value counts.
  for (size_t i = bytes.size() - 24; i < bytes.size() - 16; ++i) bytes[i] = 0xff;
  EXPECT_NE(messageOf(bytes).find("column count"), std::string::npos);
}

TEST(FileSplitTest, RoundTripsRowSpans) {
  FileSplit split = withStatistics();
  split.units = 1;
  split.rows = {{0, 50}, {100, 150}, {175, 176}};
  EXPECT_EQ(deserializeFileSplit(serialize(split)), split);
  FileSplit whole = split;
  whole.rows.clear();
  EXPECT_FALSE(whole == split);
}

TEST(FileSplitTest, RefusesRowSpansOutOfOrderEmptyOrTooMany) {
  auto spans = [](std::vector<RowSpan> rows) {
    FileSplit split{"u", 0, 1, "parquet", nullptr};
    split.rows = std::move(rows);
    return serialize(split);
  };
  EXPECT_NE(
      messageOf(spans({{10, 20}, {5, 30}})).find("row span [5, 30) is empty or does not follow"),
      std::string::npos);
  EXPECT_NE(messageOf(spans({{10, 10}})).find("row span [10, 10) is empty"), std::string::npos);
  EXPECT_NE(messageOf(spans({{-1, 10}})).find("row span [-1, 10)"), std::string::npos);
  std::vector<uint8_t> many = spans({});
  for (size_t i = many.size() - 16; i < many.size() - 8; ++i) many[i] = 0xff;
  EXPECT_NE(messageOf(many).find("row span count"), std::string::npos);
}

TEST(FileSplitTest, RoundTripsPartitionValuesAndReadsVersion4) {
  FileSplit split = withStatistics();
  split.partition = {{"year", Scalar(int64_t{2024})}, {"month", Scalar(std::string("06"))},
                     {"day", Scalar(int32_t{19000})}, {"region", Scalar()}, {"ok", Scalar(uint8_t{1})},
                     {"x", Scalar(2.5)}};
  const std::vector<uint8_t> bytes = serialize(split);
  EXPECT_EQ(deserializeFileSplit(bytes), split);
  FileSplit without = split;
  without.partition.clear();
  EXPECT_FALSE(without == split);
  // Version 4 (before partition values): the same layout without the last count.
  std::vector<uint8_t> v4 = serialize(without);
  v4.resize(v4.size() - 8);
  v4[0] = 4;
  EXPECT_EQ(deserializeFileSplit(v4), without);
  std::vector<uint8_t> many = serialize(without);
  for (size_t i = many.size() - 8; i < many.size(); ++i) many[i] = 0xff;
  EXPECT_NE(messageOf(many).find("partition value count"), std::string::npos);
  FileSplit tagged{"u", 0, 1, "orc", nullptr};
  tagged.partition = {{"k", Scalar(int64_t{1})}};
  std::vector<uint8_t> badTag = serialize(tagged);
  badTag[badTag.size() - 9] = 9;  // the tag before the int64
  EXPECT_NE(messageOf(badTag).find("unknown partition value tag 9"), std::string::npos);
}

TEST(FileSplitTest, RefusesAnOverflowingRangeAndANullCountAboveTheRows) {
  std::vector<uint8_t> overflow = serialize(FileSplit{"", UINT64_MAX, 1, "", nullptr});
  EXPECT_NE(messageOf(overflow).find("byte range overflows"), std::string::npos);
  SourceStatistics s;
  s.rowCount = 2;
  s.columns["c"] = {3, std::nullopt, std::nullopt};
  EXPECT_NE(messageOf(serialize(FileSplit{"", 0, 1, "", std::make_shared<const SourceStatistics>(s)})).find("null count 3 outside [0, 2]"),
            std::string::npos);
}

}  // namespace
}  // namespace quarry::engine
