// GroupByHash: rows to dense group ids, on each of its three paths (one
// fixed-width key, one bytes key, serialized keys).

#include "quarry/engine/exec/group_by_hash.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "quarry/engine/data/key_hash.h"

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

// group_by_hash.h: a slot keeps 32 bits of its key's hash (its tag), so keys whose hashes agree
// in those bits share a tag and are told apart by their bytes.
TEST(GroupByHash, KeysWhoseHashesShareTheTagStayApart) {
  std::unordered_map<uint32_t, std::string> byTag;
  std::pair<std::string, std::string> twins;
  for (int i = 0; twins.first.empty(); ++i) {
    ASSERT_LT(i, 2'000'000) << "no two keys with one tag";
    std::string key = "key-" + std::to_string(i);
    const uint32_t tag = static_cast<uint32_t>(key_hash::hashBytes(key.data(), key.size()));
    auto [it, fresh] = byTag.emplace(tag, key);
    if (!fresh) twins = {it->second, key};
  }
  Block keys(DataType::string());
  for (const std::string& key : {twins.first, twins.second, twins.first, twins.second}) keys.appendBytes(key);
  GroupByHash hash({DataType::string()});
  std::vector<uint32_t> ids;
  hash.addRows({&keys}, ids);
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 1, 0, 1})) << twins.first << " / " << twins.second;
}

// Many groups of two fixed-width keys (the serialized path), over pages and through the table's
// growth: each row's group is the one a std::map gives its pair.
TEST(GroupByHash, ManyGroupsOfTwoKeysAgreeWithAMapAcrossPages) {
  GroupByHash hash({DataType::int64(), DataType::int32()});
  std::map<std::pair<int64_t, int32_t>, uint32_t> expected;
  std::vector<uint32_t> ids;
  for (int page = 0; page < 30; ++page) {
    Block a(DataType::int64());
    Block b(DataType::int32());
    std::vector<std::pair<int64_t, int32_t>> rows;
    for (int r = 0; r < 10'000; ++r) {
      const int64_t k = (int64_t{page} * 7919 + r * 104729) % 150'000;  // repeats across pages
      rows.emplace_back(k * 1'000'003, static_cast<int32_t>(k % 7) - 3);
      a.append<int64_t>(rows.back().first);
      b.append<int32_t>(rows.back().second);
    }
    hash.addRows({&a, &b}, ids);
    for (size_t r = 0; r < rows.size(); ++r) {
      auto [it, fresh] = expected.emplace(rows[r], static_cast<uint32_t>(expected.size()));
      ASSERT_EQ(ids[r], it->second) << "page " << page << " row " << r;
    }
  }
  EXPECT_EQ(hash.groupCount(), expected.size());
  EXPECT_GT(expected.size(), 100'000u);
}

// group_by_hash.h: four keys pack 16-bit codes; a key of more values than that leaves the packed
// path for good (its values only grow), instead of coding every later page before giving up.
TEST(GroupByHash, AKeyThatOutgrowsItsCodesLeavesThePackedPath) {
  const std::vector<DataType> types(4, DataType::int32());
  GroupByHash hash(types);
  EXPECT_TRUE(hash.packsKeys());
  std::vector<uint32_t> ids;
  auto page = [&](int32_t rows, int32_t distinct) {  // row r has the keys (v, v-1, v-2, v-3), v = r % distinct
    std::vector<Block> blocks(4, Block(DataType::int32()));
    for (int32_t r = 0; r < rows; ++r)
      for (int k = 0; k < 4; ++k) blocks[k].append<int32_t>(r % distinct - k);
    hash.addRows({&blocks[0], &blocks[1], &blocks[2], &blocks[3]}, ids);
  };
  page(1000, 10);  // few combinations: the packed path serves them
  EXPECT_TRUE(hash.packsKeys());
  EXPECT_EQ(ids[999], 9u);
  page(70'000, 70'000);  // 70,000 values of each key: more than 2^16 codes
  EXPECT_FALSE(hash.packsKeys());
  EXPECT_EQ(ids[9], 9u);
  EXPECT_EQ(ids[69'999], 69'999u);
  EXPECT_EQ(hash.groupCount(), 70'000u);
}

// key_hash.h: keysEqual compares short keys without a library call, in overlapping words; every
// byte of a key of any length up to 40 must count.
TEST(KeyHash, KeysEqualSeesEveryByteOfEveryLength) {
  for (size_t length = 0; length <= 40; ++length) {
    std::string a(length, '\0');
    for (size_t k = 0; k < length; ++k) a[k] = static_cast<char>('a' + k % 26);
    std::string b = a;
    EXPECT_TRUE(key_hash::keysEqual(a.data(), b.data(), length)) << length;
    for (size_t k = 0; k < length; ++k) {
      b[k] ^= 1;
      EXPECT_FALSE(key_hash::keysEqual(a.data(), b.data(), length)) << length << " byte " << k;
      b[k] ^= 1;
    }
  }
}

}  // namespace
}  // namespace quarry::engine
