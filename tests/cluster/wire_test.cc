// cluster/wire.h: pages, types and schemas to cluster.proto and back; what comes
// off the wire is checked ("Corrupt input = CorruptFile error, never a crash").

#include "quarry/cluster/wire.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "quarry/common/error.h"

namespace quarry::cluster {
namespace {

using engine::Block;
using engine::DataType;
using engine::Page;
using engine::Schema;
using engine::TimeUnit;
using engine::TypeKind;

/// One column of every kind, three rows, the middle one null.
Page everyKind(Schema* schema) {
  std::vector<Block> blocks;
  auto add = [&](const std::string& name, Block block) {
    schema->push_back({name, block.type()});
    blocks.push_back(std::move(block));
  };
  add("n", Block::nulls(DataType::null(), 3));
  add("b", Block::fromValues<uint8_t>(DataType::boolean(), {1, 0, 0}, {1, 0, 1}));
  add("i32", Block::fromValues<int32_t>(DataType::int32(), {-7, 0, 2147483647}, {1, 0, 1}));
  add("i64", Block::fromValues<int64_t>(DataType::int64(), {INT64_MIN, 0, 42}, {1, 0, 1}));
  add("u64", Block::fromValues<uint64_t>(DataType::uint64(), {UINT64_MAX, 0, 1}, {1, 0, 1}));
  add("f", Block::fromValues<double>(DataType::float64(), {-0.0, 0, 1.5e300}, {1, 0, 1}));
  add("d", Block::fromValues<engine::Int128>(DataType::decimal(38, 4),
                                             {-(engine::Int128(1) << 100), 0, 12345}, {1, 0, 1}));
  Block s(DataType::string());
  s.appendBytes("héllo");
  s.appendNull();
  s.appendBytes("");
  add("s", std::move(s));
  Block bin(DataType::binary());
  bin.appendBytes(std::string("\0\x01\xff", 3));
  bin.appendNull();
  bin.appendBytes("z");
  add("bin", std::move(bin));
  add("date", Block::fromValues<int32_t>(DataType::date(), {19000, 0, -1}, {1, 0, 1}));
  add("time", Block::fromValues<int64_t>(DataType::time(TimeUnit::kNanos), {1, 0, 86399999999999},
                                         {1, 0, 1}));
  add("ts", Block::fromValues<int64_t>(DataType::timestamp(TimeUnit::kMillis, false), {1, 0, -5},
                                       {1, 0, 1}));
  add("tsu", Block::fromValues<int64_t>(DataType::timestamp(TimeUnit::kMicros, true), {2, 0, 3},
                                        {1, 0, 1}));
  Block uuid(DataType::uuid());
  uuid.appendBytes("0123456789abcdef");
  uuid.appendNull();
  uuid.appendBytes(std::string(16, '\0'));
  add("uuid", std::move(uuid));
  return Page(std::move(blocks), 3);
}

void expectSamePage(const Page& a, const Page& b) {
  ASSERT_EQ(a.positionCount(), b.positionCount());
  ASSERT_EQ(a.blockCount(), b.blockCount());
  for (size_t c = 0; c < a.blockCount(); ++c) {
    EXPECT_EQ(a.block(c).type(), b.block(c).type()) << "column " << c;
    for (size_t i = 0; i < a.positionCount(); ++i) {
      EXPECT_EQ(a.block(c).isNull(i), b.block(c).isNull(i)) << "column " << c << " row " << i;
      EXPECT_TRUE(a.block(c).scalarAt(i) == b.block(c).scalarAt(i))
          << "column " << c << " row " << i;
    }
  }
}

/// The page off the wire: serialized to bytes and parsed again, as gRPC does.
Page roundTrip(const Page& page, const Schema& schema) {
  proto::Page message;
  toProto(page, &message);
  proto::Page parsed;
  EXPECT_TRUE(parsed.ParseFromString(message.SerializeAsString()));
  return fromProto(parsed, schema);
}

TEST(ClusterWire, PageOfEveryKindWithNullsRoundTrips) {
  Schema schema;
  const Page page = everyKind(&schema);
  std::set<TypeKind> kinds;
  for (const engine::Field& field : schema) kinds.insert(field.type.kind);
  ASSERT_EQ(kinds.size(), static_cast<size_t>(TypeKind::kUuid) + 1);  // every TypeKind
  expectSamePage(roundTrip(page, schema), page);
}

TEST(ClusterWire, EmptyPageAndPageWithoutColumnsRoundTrip) {
  Schema schema;
  const Page full = everyKind(&schema);
  expectSamePage(roundTrip(full.slice(0, 0), schema), full.slice(0, 0));
  const Page noColumns({}, 12);
  EXPECT_EQ(roundTrip(noColumns, {}).positionCount(), 12u);
}

TEST(ClusterWire, SlicedBytesBlockSendsOffsetsFromZero) {
  Schema schema;
  const Page page = everyKind(&schema).slice(1, 2);
  expectSamePage(roundTrip(page, schema), page);
}

TEST(ClusterWire, TypesAndSchemasRoundTrip) {
  Schema schema;
  everyKind(&schema);
  google::protobuf::RepeatedPtrField<proto::Field> fields;
  toProto(schema, &fields);
  EXPECT_EQ(fromProto(fields), schema);
}

TEST(ClusterWire, ListTypesTravelInSchemasButListPagesAreRefused) {
  const Schema schema = {
      {"tags", DataType::list(DataType::string())},
      {"amounts", DataType::list(DataType::decimal(9, 2))},
      {"at", DataType::list(DataType::timestamp(engine::TimeUnit::kMillis, false))}};
  google::protobuf::RepeatedPtrField<proto::Field> fields;
  toProto(schema, &fields);
  EXPECT_EQ(fromProto(fields), schema);
  Block elements(DataType::string());
  elements.appendBytes("a");
  const Block lists = Block::fromList(schema[0].type, {0, 1}, elements);
  proto::Page message;
  EXPECT_THROW(toProto(engine::Page({lists}, 1), &message), Unsupported);
}

class ClusterWireCorrupt : public ::testing::Test {
 protected:
  void SetUp() override {
    schema_.clear();
    page_ = everyKind(&schema_);
    toProto(page_, &message_);
  }
  proto::Column& column(const std::string& name) {
    for (size_t c = 0; c < schema_.size(); ++c) {
      if (schema_[c].name == name) return *message_.mutable_columns(static_cast<int>(c));
    }
    throw std::logic_error(name);
  }
  void expectCorrupt(const std::string& fragment) {
    try {
      fromProto(message_, schema_);
      FAIL() << "expected CorruptFile mentioning '" << fragment << "'";
    } catch (const CorruptFile& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  }
  static std::string offsets(std::vector<uint64_t> values) {
    return std::string(reinterpret_cast<const char*>(values.data()), values.size() * 8);
  }

  Schema schema_;
  Page page_;
  proto::Page message_;
};

TEST_F(ClusterWireCorrupt, WrongColumnCount) {
  message_.mutable_columns()->RemoveLast();
  expectCorrupt("13 columns, expected 14");
}

TEST_F(ClusterWireCorrupt, TypeMismatchNamesTheColumn) {
  column("i32").mutable_type()->set_kind(static_cast<uint32_t>(TypeKind::kInt64));
  expectCorrupt("(i32) is int64, expected int32");
}

TEST_F(ClusterWireCorrupt, UnknownKindAndUnit) {
  column("i32").mutable_type()->set_kind(99);
  expectCorrupt("unknown type kind 99");
  SetUp();
  column("ts").mutable_type()->set_unit(7);
  expectCorrupt("unknown time unit 7");
}

TEST_F(ClusterWireCorrupt, ShortValues) {
  column("i64").mutable_values()->resize(23);
  expectCorrupt("(i64): 23 value bytes, expected 3 x 8");
}

TEST_F(ClusterWireCorrupt, OffsetsDescendingOrPastTheEnd) {
  // "héllo" is 6 bytes, then null, then "".
  column("s").set_offsets(offsets({0, 6, 3, 6}));
  expectCorrupt("below the one before");
  SetUp();
  column("s").set_offsets(offsets({0, 6, 6, 600}));
  expectCorrupt("last offset 600");
  SetUp();
  column("s").set_offsets(offsets({0, 6}));
  expectCorrupt("(s) offsets");
  SetUp();
  column("s").set_offsets(offsets({1, 6, 6, 6}));
  expectCorrupt("first offset 1");
}

TEST_F(ClusterWireCorrupt, ValiditySizeOrByteWrong) {
  column("f").set_validity(std::string("\x01\x00", 2));
  expectCorrupt("validity of 2 bytes for 3 positions");
  SetUp();
  column("f").set_validity(std::string("\x01\x02\x01", 3));
  expectCorrupt("validity byte 2");
}

TEST_F(ClusterWireCorrupt, BadBooleanUuidAndNullBytes) {
  column("b").set_values(std::string("\x01\x00\x05", 3));
  expectCorrupt("boolean byte 5");
  SetUp();
  column("uuid").set_values(std::string(31, 'x'));
  column("uuid").set_offsets(offsets({0, 15, 15, 31}));
  expectCorrupt("uuid of 15 bytes");
  SetUp();
  column("s").set_values("héllo!");
  column("s").set_offsets(offsets({0, 6, 7, 7}));
  expectCorrupt("null position 1 holds 1 bytes");
}

TEST_F(ClusterWireCorrupt, HugePositionCountIsRefusedBeforeAllocating) {
  message_.set_position_count(uint64_t{1} << 60);
  expectCorrupt("position_count");
  proto::Page empty;
  empty.set_position_count(uint64_t{1} << 60);
  EXPECT_THROW(fromProto(empty, {}), CorruptFile);
}

TEST(ClusterWire, NullColumnCarryingBytesIsCorrupt) {
  proto::Page message;
  toProto(Page({Block::nulls(DataType::null(), 2)}, 2), &message);
  message.mutable_columns(0)->set_values("xx");
  EXPECT_THROW(fromProto(message, {{"n", DataType::null()}}), CorruptFile);
}

TEST(ClusterWire, DecimalOutOfRangeIsCorrupt) {
  proto::DataType type;
  type.set_kind(static_cast<uint32_t>(TypeKind::kDecimal));
  type.set_precision(39);
  EXPECT_THROW(fromProto(type), CorruptFile);
  type.set_precision(10);
  type.set_scale(11);
  EXPECT_THROW(fromProto(type), CorruptFile);
}

// The query's parameters travel with its text: every node binds what the
// coordinator bound.
TEST(ClusterWire, QueryParametersRoundTripAndAMissingValueIsRefused) {
  const engine::QueryParameters parameters{{"city", std::string("Paris")},
                                           {"n", int64_t{-7}},
                                           {"1", 2.5},
                                           {"flag", true},
                                           {"nothing", engine::NullParameter{}}};
  proto::ExecuteRequest request;
  toProto(parameters, request.mutable_parameters());
  const engine::QueryParameters back = fromProto(request.parameters());
  ASSERT_EQ(back.size(), parameters.size());
  for (size_t i = 0; i < back.size(); ++i) {
    EXPECT_EQ(back[i].name, parameters[i].name);
    EXPECT_EQ(back[i].value, parameters[i].value) << back[i].name;
  }
  request.add_parameters()->set_name("empty");
  EXPECT_THROW(fromProto(request.parameters()), CorruptFile);
}

}  // namespace
}  // namespace quarry::cluster
