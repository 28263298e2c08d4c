// Block's dictionary form (block.h) and GroupByHash's paths for it: every accessor
// gives what the plain form of the same values gives, and grouping dictionary
// blocks gives the same group ids, in the same first-seen order, with the same
// group keys, as grouping their plain form.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/exec/group_by_hash.h"

namespace quarry::engine {
namespace {

using Values = std::vector<std::optional<std::string>>;

std::shared_ptr<const ByteDictionary> dictionaryOf(const std::vector<std::string>& values) {
  auto dictionary = std::make_shared<ByteDictionary>();
  for (const std::string& v : values) dictionary->append(v);
  return dictionary;
}

/// A dictionary block of `ids` (-1: null) over `dictionary`.
Block dictionaryBlock(std::shared_ptr<const ByteDictionary> dictionary, const std::vector<int>& ids,
                      DataType type = DataType::string()) {
  std::vector<uint32_t> raw;
  std::vector<uint8_t> validity;
  for (int id : ids) {
    raw.push_back(id < 0 ? 0 : static_cast<uint32_t>(id));
    validity.push_back(id < 0 ? 0 : 1);
  }
  return Block::fromDictionary(type, std::move(dictionary), std::move(raw), std::move(validity));
}

Block plainBlock(const Values& values, DataType type = DataType::string()) {
  Block out(type);
  for (const auto& v : values) v ? out.appendBytes(*v) : out.appendNull();
  return out;
}

/// Expects `block` to hold `values` through every accessor of the plain form.
void expectValues(const Block& block, const Values& values) {
  ASSERT_EQ(block.size(), values.size());
  const Block plain = plainBlock(values, block.type());
  EXPECT_EQ(block.hasNulls(), plain.hasNulls());
  for (size_t i = 0; i < values.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(block.isNull(i), !values[i].has_value());
    EXPECT_EQ(block.bytes(i), plain.bytes(i));
    EXPECT_EQ(block.scalarAt(i), plain.scalarAt(i));
  }
  const auto offsets = block.byteOffsets();
  ASSERT_EQ(offsets.size(), values.size() + 1);
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(std::string(block.byteData() + offsets[i], offsets[i + 1] - offsets[i]), values[i].value_or(""));
  }
}

TEST(DictionaryBlock, EveryAccessorGivesThePlainFormsValues) {
  const auto dictionary = dictionaryOf({"AIR", "RAIL", "", "SHIP"});
  const Block block = dictionaryBlock(dictionary, {1, 0, -1, 2, 1, 3});
  EXPECT_TRUE(block.isDictionary());
  EXPECT_EQ(block.dictionary(), dictionary);
  expectValues(block, {"RAIL", "AIR", std::nullopt, "", "RAIL", "SHIP"});
  EXPECT_TRUE(block.isDictionary());  // byteData() built the plain form beside the ids
}

TEST(DictionaryBlock, TakeAndSliceKeepTheFormAndTheDictionary) {
  const auto dictionary = dictionaryOf({"a", "b", "c"});
  const Block block = dictionaryBlock(dictionary, {2, -1, 0, 1, 1});
  const std::vector<uint32_t> positions{4, 1, 0, 0};
  const Block taken = block.take(positions);
  EXPECT_TRUE(taken.isDictionary());
  EXPECT_EQ(taken.dictionary(), dictionary);
  expectValues(taken, {"b", std::nullopt, "c", "c"});
  const Block sliced = block.slice(2, 3);
  EXPECT_TRUE(sliced.isDictionary());
  EXPECT_FALSE(sliced.hasNulls());
  expectValues(sliced, {"a", "b", "b"});
  expectValues(block.slice(0, 0), {});
}

TEST(DictionaryBlock, AppendAllKeepsTheFormOnlyWithinOneDictionary) {
  const auto first = dictionaryOf({"x", "y"});
  const auto second = dictionaryOf({"y", "z"});
  Block out(DataType::string());
  out.appendAll(dictionaryBlock(first, {0, 1}));  // an empty block takes the form
  EXPECT_TRUE(out.isDictionary());
  out.appendAll(dictionaryBlock(first, {-1, 1}));
  EXPECT_TRUE(out.isDictionary());
  expectValues(out, {"x", "y", std::nullopt, "y"});
  out.appendAll(dictionaryBlock(second, {1, 0}));  // another dictionary: plain from here
  EXPECT_FALSE(out.isDictionary());
  expectValues(out, {"x", "y", std::nullopt, "y", "z", "y"});
  Block plain = plainBlock({"p"});
  plain.appendAll(dictionaryBlock(second, {1, -1}));
  EXPECT_FALSE(plain.isDictionary());
  expectValues(plain, {"p", "z", std::nullopt});
}

TEST(DictionaryBlock, AppendingToADictionaryBlockTurnsItPlain) {
  Block block = dictionaryBlock(dictionaryOf({"a", "b"}), {1, 0});
  block.appendBytes("c");
  EXPECT_FALSE(block.isDictionary());
  block.appendNull();
  block.appendFrom(dictionaryBlock(dictionaryOf({"q"}), {0}), 0);
  block.appendScalar(Scalar{std::string("s")});
  expectValues(block, {"b", "a", "c", std::nullopt, "q", "s"});
}

TEST(DictionaryBlock, AllNullsOverAnEmptyDictionary) {
  const Block block = dictionaryBlock(dictionaryOf({}), {-1, -1, -1});
  expectValues(block, {std::nullopt, std::nullopt, std::nullopt});
  expectValues(block.take(std::vector<uint32_t>{2, 0}), {std::nullopt, std::nullopt});
  GroupByHash hash({DataType::string()});
  std::vector<uint32_t> ids;
  hash.addRows({&block}, ids);
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 0, 0}));
  EXPECT_TRUE(hash.groupKeys()[0].isNull(0));
}

TEST(DictionaryBlock, IdsPastTheDictionaryAreRefused) {
  EXPECT_THROW(dictionaryBlock(dictionaryOf({"a"}), {0, 1}), std::logic_error);
  EXPECT_THROW(dictionaryBlock(dictionaryOf({}), {0}), std::logic_error);
  EXPECT_THROW(Block::fromDictionary(DataType::int32(), dictionaryOf({"a"}), {0}), std::logic_error);
  // A null position's id is not read, whatever it is.
  EXPECT_NO_THROW(Block::fromDictionary(DataType::string(), dictionaryOf({"a"}), {0, 7}, {1, 0}));
}

/// Groups `pages` with one hash and returns every row's group id.
std::vector<uint32_t> groupAll(GroupByHash& hash, const std::vector<std::vector<const Block*>>& pages) {
  std::vector<uint32_t> all;
  for (const auto& keys : pages) {
    std::vector<uint32_t> ids;
    hash.addRows(keys, ids);
    all.insert(all.end(), ids.begin(), ids.end());
  }
  return all;
}

/// Expects the same group keys, doubles bit for bit (a group keeps its first row's
/// NaN or -0.0).
void expectSameKeys(GroupByHash& a, GroupByHash& b) {
  ASSERT_EQ(a.groupCount(), b.groupCount());
  for (size_t c = 0; c < a.groupKeys().size(); ++c) {
    for (size_t g = 0; g < a.groupCount(); ++g) {
      const Scalar x = a.groupKeys()[c].scalarAt(g);
      const Scalar y = b.groupKeys()[c].scalarAt(g);
      if (std::holds_alternative<double>(x) && std::holds_alternative<double>(y)) {
        EXPECT_EQ(std::bit_cast<uint64_t>(std::get<double>(x)), std::bit_cast<uint64_t>(std::get<double>(y)))
            << "key " << c << " group " << g;
      } else {
        EXPECT_EQ(x, y) << "key " << c << " group " << g;
      }
    }
  }
}

TEST(DictionaryGroupBy, OneDictionaryKeyGroupsAsItsPlainForm) {
  // Two pages of one dictionary (the second reuses the entry map), then another
  // dictionary with an entry repeated and values already grouped, then a plain page.
  const auto first = dictionaryOf({"MAIL", "AIR", "", "SHIP"});
  const auto second = dictionaryOf({"SHIP", "TRUCK", "SHIP", "MAIL"});
  const Block a = dictionaryBlock(first, {1, 0, -1, 1, 2});
  const Block b = dictionaryBlock(first, {3, 0, -1});
  const Block c = dictionaryBlock(second, {2, 1, 0, 3, -1});
  const Block d = plainBlock({"TRUCK", "RAIL", std::nullopt});
  GroupByHash viaIds({DataType::string()});
  const auto ids = groupAll(viaIds, {{&a}, {&b}, {&c}, {&d}});
  const Block pa = plainBlock({"AIR", "MAIL", std::nullopt, "AIR", ""});
  const Block pb = plainBlock({"SHIP", "MAIL", std::nullopt});
  const Block pc = plainBlock({"SHIP", "TRUCK", "SHIP", "MAIL", std::nullopt});
  GroupByHash viaBytes({DataType::string()});
  const auto expected = groupAll(viaBytes, {{&pa}, {&pb}, {&pc}, {&d}});
  EXPECT_EQ(ids, expected);
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 1, 2, 0, 3, 4, 1, 2, 4, 5, 4, 1, 2, 5, 6, 2}));
  expectSameKeys(viaIds, viaBytes);
}

TEST(DictionaryGroupBy, SeveralDictionaryAndNarrowKeysGroupAsTheSerializedPath) {
  // Q1's shape (two dictionary strings) plus an int32 and a double with -0.0 and NaN.
  const auto flags = dictionaryOf({"A", "N", "R"});
  const auto status = dictionaryOf({"F", "O"});
  const auto flags2 = dictionaryOf({"R", "N", "X"});
  std::vector<std::vector<Block>> pages;
  std::vector<std::vector<Block>> plainPages;
  const std::vector<std::vector<int>> flagIds = {{0, 1, 1, 2, -1, 0}, {2, 0, 1, 1, -1, 0}};
  const std::vector<std::vector<int>> statusIds = {{0, 1, 0, 0, 1, 0}, {0, 0, 1, 0, 1, -1}};
  const double nan = std::nan("");
  for (size_t p = 0; p < 2; ++p) {
    const auto& dictionary = p == 0 ? flags : flags2;
    std::vector<Block> page{dictionaryBlock(dictionary, flagIds[p]), dictionaryBlock(status, statusIds[p])};
    Values flagValues;
    Values statusValues;
    for (int id : flagIds[p]) flagValues.push_back(id < 0 ? std::nullopt : std::optional(std::string(dictionary->at(id))));
    for (int id : statusIds[p]) statusValues.push_back(id < 0 ? std::nullopt : std::optional(std::string(status->at(id))));
    std::vector<Block> plain{plainBlock(flagValues), plainBlock(statusValues)};
    Block n(DataType::int32());
    Block d(DataType::float64());
    for (size_t r = 0; r < 6; ++r) {
      r == 3 ? n.appendNull() : n.append<int32_t>(static_cast<int32_t>(r % 2));
      d.append<double>(r % 3 == 0 ? -0.0 : (r % 3 == 1 ? 0.0 : nan));
    }
    page.push_back(n);
    page.push_back(d);
    plain.push_back(n);
    plain.push_back(d);
    pages.push_back(std::move(page));
    plainPages.push_back(std::move(plain));
  }
  const std::vector<DataType> types{DataType::string(), DataType::string(), DataType::int32(), DataType::float64()};
  for (size_t keyCount : {2, 3, 4}) {
    SCOPED_TRACE(keyCount);
    const std::vector<DataType> keyTypes(types.begin(), types.begin() + static_cast<std::ptrdiff_t>(keyCount));
    auto keysOf = [&](const std::vector<Block>& page) {
      std::vector<const Block*> keys;
      for (size_t c = 0; c < keyCount; ++c) keys.push_back(&page[c]);
      return keys;
    };
    GroupByHash viaCodes(keyTypes);
    // Dictionary pages, then a plain page between them: the two paths share the groups.
    const auto ids = groupAll(viaCodes, {keysOf(pages[0]), keysOf(plainPages[1]), keysOf(pages[1]), keysOf(pages[0])});
    GroupByHash viaBytes(keyTypes);
    const auto expected =
        groupAll(viaBytes, {keysOf(plainPages[0]), keysOf(plainPages[1]), keysOf(plainPages[1]), keysOf(plainPages[0])});
    EXPECT_EQ(ids, expected);
    expectSameKeys(viaCodes, viaBytes);
  }
}

TEST(DictionaryGroupBy, ManyCombinationsStillGroupExactly) {
  // More combinations than the packed cache helps with: the hash stops using it,
  // and groups stay those of the serialized path.
  std::vector<std::string> words;
  for (int i = 0; i < 3000; ++i) words.push_back("w" + std::to_string(i));
  const auto dictionary = dictionaryOf(words);
  std::vector<int> ids;
  Block numbers(DataType::int64());
  Values plainWords;
  for (int r = 0; r < 6000; ++r) {
    ids.push_back(r % 3000);
    plainWords.push_back(words[static_cast<size_t>(r % 3000)]);
    numbers.append<int64_t>(r % 7);
  }
  const Block keys = dictionaryBlock(dictionary, ids);
  const Block plain = plainBlock(plainWords);
  GroupByHash viaCodes({DataType::string(), DataType::int64()});
  GroupByHash viaBytes({DataType::string(), DataType::int64()});
  EXPECT_EQ(groupAll(viaCodes, {{&keys, &numbers}, {&keys, &numbers}}),
            groupAll(viaBytes, {{&plain, &numbers}, {&plain, &numbers}}));
  EXPECT_EQ(viaCodes.groupCount(), 6000u);
  expectSameKeys(viaCodes, viaBytes);
}

}  // namespace
}  // namespace quarry::engine
