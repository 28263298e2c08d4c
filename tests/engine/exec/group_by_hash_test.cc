// GroupByHash: rows to dense group ids, on each of its three paths (one
// fixed-width key, one bytes key, serialized keys).

#include "quarry/engine/exec/group_by_hash.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace quarry::engine {
namespace {

TEST(GroupByHash, OneStringKeyKeepsNullApartFromTheEmptyString) {
  Block keys(DataType::string());
  for (const char* v : std::vector<const char*>{"b", "", "a", "b", nullptr, "", nullptr, "a"}) v ? keys.appendBytes(v) : keys.appendNull();
  GroupByHash hash({DataType::string()});
  std::vector<uint32_t> ids;
  hash.addRows({&keys}, ids);
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 1, 2, 0, 3, 1, 3, 2}));
  ASSERT_EQ(hash.groupCount(), 4u);
  const Block& groups = hash.groupKeys()[0];
  EXPECT_EQ(groups.bytes(0), "b");
  EXPECT_EQ(groups.bytes(1), "");
  EXPECT_FALSE(groups.isNull(1));
  EXPECT_EQ(groups.bytes(2), "a");
  EXPECT_TRUE(groups.isNull(3));
  // A second page finds the groups of the first, across the null group's id.
  Block more(DataType::string());
  for (const char* v : std::vector<const char*>{"a", nullptr, "c", "b"}) v ? more.appendBytes(v) : more.appendNull();
  hash.addRows({&more}, ids);
  EXPECT_EQ(ids, (std::vector<uint32_t>{2, 3, 4, 0}));
}

TEST(GroupByHash, ManyStringGroupsSurviveTheTableGrowing) {
  Block keys(DataType::string());
  for (int i = 0; i < 5000; ++i) keys.appendBytes("key-" + std::to_string(i % 2500));
  GroupByHash hash({DataType::string()});
  std::vector<uint32_t> ids;
  hash.addRows({&keys}, ids);
  EXPECT_EQ(hash.groupCount(), 2500u);
  for (int i = 0; i < 2500; ++i) EXPECT_EQ(ids[i], ids[i + 2500]) << i;
}

TEST(GroupByHash, DoublesGroupNegativeZeroWithZeroAndEveryNanTogether) {
  Block keys(DataType::float64());
  for (double v : {0.0, -0.0, std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN(), 1.0}) {
    keys.append<double>(v);
  }
  GroupByHash hash({DataType::float64()});
  std::vector<uint32_t> ids;
  hash.addRows({&keys}, ids);
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 0, 1, 1, 2}));
}

TEST(GroupByHash, SeveralKeysGroupByAllOfThem) {
  Block a(DataType::int32());
  Block b(DataType::string());
  for (int i = 0; i < 6; ++i) {
    a.append<int32_t>(i % 2);
    i == 5 ? b.appendNull() : b.appendBytes(i % 3 == 0 ? "x" : "y");
  }
  GroupByHash hash({DataType::int32(), DataType::string()});
  std::vector<uint32_t> ids;
  hash.addRows({&a, &b}, ids);
  // (0,x) (1,y) (0,y) (1,x) (0,y) (1,null)
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 1, 2, 3, 2, 4}));
}

}  // namespace
}  // namespace quarry::engine
