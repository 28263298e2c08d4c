// GroupByHash: rows to dense group ids, on each of its paths (one fixed-width
// key, one bytes key, fixed-width keys packed into words, packed codes,
// serialized keys).

#include "quarry/engine/exec/group_by_hash.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "quarry/engine/data/key_hash.h"

namespace quarry::engine {
namespace {

TEST(GroupByHash, OneStringKeyKeepsNullApartFromTheEmptyString) {
  Block keys(DataType::string());
  for (const char* v : std::vector<const char*>{"b", "", "a", "b", nullptr, "", nullptr, "a"})
    v ? keys.appendBytes(v) : keys.appendNull();
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
  for (const char* v : std::vector<const char*>{"a", nullptr, "c", "b"})
    v ? more.appendBytes(v) : more.appendNull();
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
  for (double v : {0.0, -0.0, std::numeric_limits<double>::quiet_NaN(),
                   -std::numeric_limits<double>::quiet_NaN(), 1.0}) {
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
  for (const std::string& key : {twins.first, twins.second, twins.first, twins.second})
    keys.appendBytes(key);
  GroupByHash hash({DataType::string()});
  std::vector<uint32_t> ids;
  hash.addRows({&keys}, ids);
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 1, 0, 1})) << twins.first << " / " << twins.second;
}

// Many groups over pages and through the table's growth: each row's group is the one a std::map
// gives its keys. (int64, int32) takes the fixed-keys path; (int64, int64, int32), 20 bytes, is
// too wide for it and ends on the serialized path once its combinations swamp the packed cache.
void expectGroupsOfAMap(const std::vector<DataType>& types) {
  GroupByHash hash(types);
  std::map<std::vector<int64_t>, uint32_t> expected;
  std::vector<uint32_t> ids;
  for (int page = 0; page < 30; ++page) {
    std::vector<Block> blocks;
    for (const DataType& type : types) blocks.emplace_back(type);
    std::vector<std::vector<int64_t>> rows;
    for (int r = 0; r < 10'000; ++r) {
      const int64_t k = (int64_t{page} * 7919 + r * 104729) % 150'000;  // repeats across pages
      std::vector<int64_t> row;
      for (size_t c = 0; c < types.size(); ++c) {
        const int64_t v =
            c + 1 == types.size() ? k % 7 - 3 : k * 1'000'003 + static_cast<int64_t>(c);
        row.push_back(v);
        types[c].kind == TypeKind::kInt32 ? blocks[c].append<int32_t>(static_cast<int32_t>(v))
                                          : blocks[c].append<int64_t>(v);
      }
      rows.push_back(std::move(row));
    }
    std::vector<const Block*> keys;
    for (const Block& block : blocks) keys.push_back(&block);
    hash.addRows(keys, ids);
    for (size_t r = 0; r < rows.size(); ++r) {
      auto [it, fresh] = expected.emplace(rows[r], static_cast<uint32_t>(expected.size()));
      ASSERT_EQ(ids[r], it->second) << "page " << page << " row " << r;
    }
  }
  EXPECT_EQ(hash.groupCount(), expected.size());
  EXPECT_GT(expected.size(), 100'000u);
}

TEST(GroupByHash, ManyGroupsOfTwoKeysAgreeWithAMapAcrossPages) {
  expectGroupsOfAMap({DataType::int64(), DataType::int32()});
}

TEST(GroupByHash, ManyGroupsOfThreeWideKeysAgreeWithAMapAcrossPages) {
  expectGroupsOfAMap({DataType::int64(), DataType::int64(), DataType::int32()});
}

// group_by_hash.h: fixed-width keys of together at most 16 bytes are packed into two words and
// their nulls into a third, "so nulls form one group, NaN one group, and -0.0 and +0.0 one group";
// a null is not the zero its value bytes hold.
TEST(GroupByHash, FixedKeysTellNullFromZeroAndGroupZerosAndNans) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Block a(DataType::int32());
  Block b(DataType::float64());
  const std::vector<std::pair<std::optional<int32_t>, std::optional<double>>> rows = {
      {0, 0.0},          {std::nullopt, 0.0},          {0, -0.0},
      {0, std::nullopt}, {std::nullopt, std::nullopt}, {0, nan},
      {0, -nan},         {std::nullopt, std::nullopt}, {-1, 0.0}};
  for (const auto& [x, y] : rows) {
    x ? a.append<int32_t>(*x) : a.appendNull();
    y ? b.append<double>(*y) : b.appendNull();
  }
  GroupByHash hash({DataType::int32(), DataType::float64()});
  std::vector<uint32_t> ids;
  hash.addRows({&a, &b}, ids);
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 1, 0, 2, 3, 4, 4, 3, 5}));
  ASSERT_EQ(hash.groupCount(), 6u);
  const Block& keyA = hash.groupKeys()[0];
  const Block& keyB = hash.groupKeys()[1];
  EXPECT_TRUE(keyA.isNull(1));
  EXPECT_FALSE(keyB.isNull(1));
  EXPECT_TRUE(keyB.isNull(2));
  EXPECT_TRUE(keyA.isNull(3) && keyB.isNull(3));
  EXPECT_TRUE(std::isnan(keyB.values<double>()[4]));
  EXPECT_EQ(keyA.values<int32_t>()[5], -1);
}

// Four int32 keys fill the two words exactly (ClickBench's Q36: ClientIP, ClientIP - 1, ...): a
// null in any of them is its own group, and every byte of every key counts.
TEST(GroupByHash, FourInt32KeysFillTheWordsAndKeepEveryByte) {
  std::vector<Block> blocks(4, Block(DataType::int32()));
  std::map<std::vector<std::optional<int32_t>>, uint32_t> expected;
  std::vector<std::vector<std::optional<int32_t>>> rows;
  for (int32_t v : {0, 1, -1, 256, 65536, 1 << 24, INT32_MIN, INT32_MAX}) {
    for (int k = 0; k < 4; ++k) {  // v in key k alone, then v with key k null
      std::vector<std::optional<int32_t>> row(4, 7);
      row[k] = v;
      rows.push_back(row);
      row[k] = std::nullopt;
      rows.push_back(row);
    }
  }
  const auto firstRows = rows;
  rows.insert(rows.end(), firstRows.begin(), firstRows.end());  // each again: found, not made
  for (const auto& row : rows) {
    for (int k = 0; k < 4; ++k)
      row[k] ? blocks[k].append<int32_t>(*row[k]) : blocks[k].appendNull();
  }
  GroupByHash hash(std::vector<DataType>(4, DataType::int32()));
  std::vector<uint32_t> ids;
  hash.addRows({&blocks[0], &blocks[1], &blocks[2], &blocks[3]}, ids);
  for (size_t r = 0; r < rows.size(); ++r) {
    auto [it, fresh] = expected.emplace(rows[r], static_cast<uint32_t>(expected.size()));
    EXPECT_EQ(ids[r], it->second) << "row " << r;
  }
  EXPECT_EQ(hash.groupCount(), expected.size());
  EXPECT_FALSE(hash.packsKeys());  // the fixed-keys path, not the packed codes
}

// group_by_hash.h: four keys pack 16-bit codes; a key of more values than that leaves the packed
// path for good (its values only grow), instead of coding every later page before giving up.
// (Four int64 keys, 32 bytes, are too wide for the fixed-keys path.)
TEST(GroupByHash, AKeyThatOutgrowsItsCodesLeavesThePackedPath) {
  const std::vector<DataType> types(4, DataType::int64());
  GroupByHash hash(types);
  EXPECT_TRUE(hash.packsKeys());
  std::vector<uint32_t> ids;
  auto page = [&](int32_t rows,
                  int32_t distinct) {  // row r has the keys (v, v-1, v-2, v-3), v = r % distinct
    std::vector<Block> blocks(4, Block(DataType::int64()));
    for (int32_t r = 0; r < rows; ++r)
      for (int k = 0; k < 4; ++k) blocks[k].append<int64_t>(r % distinct - k);
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
// The serialized path keeps each group's key once, in its arena, and reads the key blocks
// back from it at the end: every kind it serializes comes back as the group's first row had it.
TEST(GroupByHash, SerializedKeysReadBackEveryKindAndNull) {
  const std::vector<DataType> types{
      DataType::string(),       DataType::int32(),  DataType::int64(), DataType::boolean(),
      DataType::decimal(38, 2), DataType::binary(), DataType::null()};
  std::vector<Block> keys;
  for (const DataType& type : types) keys.emplace_back(type);
  // Rows r = 0..9: group r % 5; group 3's row has a null in every column.
  for (int r = 0; r < 10; ++r) {
    const int g = r % 5;
    if (g == 3) {
      for (size_t c = 0; c + 1 < keys.size(); ++c) keys[c].appendNull();
    } else {
      keys[0].appendBytes(g == 4 ? "" : "s" + std::string(static_cast<size_t>(g * 40), 'x'));
      keys[1].append<int32_t>(-g);
      keys[2].append<int64_t>(int64_t{1} << (40 + g));
      keys[3].append<uint8_t>(g % 2);
      keys[4].append<Int128>(Int128{g} * -1000000000000LL);
      keys[5].appendBytes(std::string(1, static_cast<char>(g)) + std::string("\0z", 2));
    }
    keys.back().appendNull();
  }
  std::vector<const Block*> pointers;
  for (const Block& block : keys) pointers.push_back(&block);
  GroupByHash hash(types);
  std::vector<uint32_t> ids;
  hash.addRows(pointers, ids);
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 1, 2, 3, 4, 0, 1, 2, 3, 4}));
  const std::vector<Block> groups = hash.takeGroupKeys();
  ASSERT_EQ(groups.size(), types.size());
  for (size_t c = 0; c < types.size(); ++c) {
    ASSERT_EQ(groups[c].size(), 5u) << c;
    EXPECT_TRUE(groups[c].type() == types[c]) << c;
    for (size_t g = 0; g < 5; ++g) {
      EXPECT_EQ(groups[c].isNull(g), keys[c].isNull(g)) << c << " " << g;
      if (!keys[c].isNull(g)) {
        EXPECT_TRUE(groups[c].scalarAt(g) == keys[c].scalarAt(g)) << c << " " << g;
      }
    }
  }
}

// group_by_hash.h: "groups keep their first-seen order" whatever the form of the pages. Pages
// without nulls find a dictionary's new entries a page at a time, in the order of their first
// rows: 6,000 entries in a shuffled order with repeats, two pages of one dictionary then one of a
// second dictionary that shares half its values, give the groups the plain pages give.
TEST(GroupByHash, DictionaryPagesWithoutNullsMakeGroupsInTheOrderOfThePlainPages) {
  const auto dictionaryOf = [](int from, int count) {
    auto dictionary = std::make_shared<ByteDictionary>();
    for (int k = from; k < from + count; ++k) dictionary->append("phrase " + std::to_string(k));
    return dictionary;
  };
  const std::shared_ptr<ByteDictionary> first = dictionaryOf(0, 6000);
  const std::shared_ptr<ByteDictionary> second = dictionaryOf(3000, 6000);
  std::mt19937 rng(7);
  GroupByHash coded({DataType::string()});
  GroupByHash plain({DataType::string()});
  for (const auto& dictionary : {first, first, second}) {
    std::vector<uint32_t> ids(9000);
    for (uint32_t& id : ids) id = static_cast<uint32_t>(rng() % dictionary->size());
    const Block block = Block::fromDictionary(DataType::string(), dictionary, ids, {});
    Block values(DataType::string());
    for (uint32_t id : ids) values.appendBytes(dictionary->at(id));
    std::vector<uint32_t> codedGroups;
    std::vector<uint32_t> plainGroups;
    coded.addRows({&block}, codedGroups);
    plain.addRows({&values}, plainGroups);
    ASSERT_EQ(codedGroups, plainGroups);
  }
  EXPECT_GT(coded.groupCount(), 8000u);  // most of the 9,000 values, the table grown many times
  EXPECT_EQ(coded.groupCount(), plain.groupCount());
  const Block codedKeys = coded.takeGroupKeys()[0];
  const Block plainKeys = plain.takeGroupKeys()[0];
  for (size_t g = 0; g < codedKeys.size(); ++g)
    ASSERT_EQ(codedKeys.bytes(g), plainKeys.bytes(g)) << g;
}

TEST(GroupByHash, OneStringKeyReadsBackFromTheArenaOverDictionaryAndPlainPages) {
  auto dictionary = std::make_shared<ByteDictionary>();
  for (const char* v : {"AIR", "RAIL", ""}) dictionary->append(v);
  const Block coded =
      Block::fromDictionary(DataType::string(), dictionary, {1, 0, 2, 1, 0}, {1, 1, 1, 0, 1});
  Block plain(DataType::string());
  for (const char* v : std::vector<const char*>{"SHIP", "AIR", nullptr})
    v ? plain.appendBytes(v) : plain.appendNull();
  GroupByHash hash({DataType::string()});
  std::vector<uint32_t> ids;
  hash.addRows({&coded}, ids);
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 1, 2, 3, 1}));
  hash.addRows({&plain}, ids);
  EXPECT_EQ(ids, (std::vector<uint32_t>{4, 1, 3}));
  const Block keys = hash.takeGroupKeys()[0];
  ASSERT_EQ(keys.size(), 5u);
  EXPECT_FALSE(keys.isDictionary());
  EXPECT_EQ(keys.bytes(0), "RAIL");
  EXPECT_EQ(keys.bytes(1), "AIR");
  EXPECT_EQ(keys.bytes(2), "");
  EXPECT_FALSE(keys.isNull(2));
  EXPECT_TRUE(keys.isNull(3));
  EXPECT_EQ(keys.bytes(4), "SHIP");
}

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
