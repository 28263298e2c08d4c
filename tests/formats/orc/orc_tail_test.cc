#include "quarry/formats/orc/orc_tail.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/orc/orc_schema.h"
#include "quarry/io/memory_storage.h"
#include "tests/support/testdata.h"

namespace quarry::orc {
namespace {

/// Builds an uncompressed file: "ORC", the footer, the PostScript and its length.
std::vector<uint8_t> fileWith(const proto::Footer& footer, proto::PostScript ps) {
  std::vector<uint8_t> bytes = {'O', 'R', 'C'};
  const std::string f = footer.SerializeAsString();
  ps.set_footerlength(f.size());
  if (!ps.has_magic()) ps.set_magic("ORC");
  const std::string p = ps.SerializeAsString();
  bytes.insert(bytes.end(), f.begin(), f.end());
  bytes.insert(bytes.end(), p.begin(), p.end());
  bytes.push_back(static_cast<uint8_t>(p.size()));
  return bytes;
}

proto::Footer oneIntColumn() {
  proto::Footer footer;
  auto* root = footer.add_types();
  root->set_kind(proto::Type::STRUCT);
  root->add_subtypes(1);
  root->add_fieldnames("x");
  footer.add_types()->set_kind(proto::Type::INT);
  footer.set_numberofrows(0);
  return footer;
}

TEST(OrcTailTest, ReadsAMinimalTailInOneRequest) {
  auto file = io::MemoryObject("mem://a.orc", fileWith(oneIntColumn(), {}));
  const OrcTail tail = readOrcTail(file);
  EXPECT_EQ(file.requestCount(), 1u);
  EXPECT_EQ(tail.footer.types_size(), 2);
  const OrcSchema schema = OrcSchema::build(tail.footer, tail.uri);
  EXPECT_EQ(schema.root().toTypeString(), "struct<x:int>");
  EXPECT_EQ(schema.find("x")->columnId, 1u);
}

TEST(OrcTailTest, ReadsAFooterLargerThanTheFirstRequestWithASecond) {
  proto::Footer footer = oneIntColumn();
  auto* item = footer.add_metadata();
  item->set_name("big");
  item->set_value(std::string(40000, 'z'));
  auto file = io::MemoryObject("mem://big.orc", fileWith(footer, {}));
  const OrcTail tail = readOrcTail(file);
  EXPECT_EQ(file.requestCount(), 2u);
  EXPECT_EQ(tail.footer.metadata(0).value().size(), 40000u);
}

TEST(OrcTailTest, RefusesAWrongMagicNamingTheFile) {
  proto::PostScript ps;
  ps.set_magic("ORX");
  auto file = io::MemoryObject("mem://bad.orc", fileWith(oneIntColumn(), ps));
  try {
    readOrcTail(file);
    FAIL();
  } catch (const CorruptFile& e) {
    EXPECT_NE(std::string(e.what()).find("mem://bad.orc"), std::string::npos);
  }
}

TEST(OrcTailTest, RefusesFooterLengthsPastTheFileStart) {
  proto::PostScript ps;
  ps.set_footerlength(1000);
  ps.set_magic("ORC");
  const std::string p = ps.SerializeAsString();
  std::vector<uint8_t> file = {'O', 'R', 'C'};
  file.insert(file.end(), p.begin(), p.end());
  file.push_back(static_cast<uint8_t>(p.size()));
  auto object = io::MemoryObject("mem://short.orc", file);
  EXPECT_THROW(readOrcTail(object), CorruptFile);
}

TEST(OrcTailTest, RefusesTinyAndTruncatedFiles) {
  auto tiny = io::MemoryObject("mem://tiny.orc", std::vector<uint8_t>{'O', 'R'});
  EXPECT_THROW(readOrcTail(tiny), CorruptFile);
  auto bytes = fileWith(oneIntColumn(), {});
  bytes.erase(bytes.begin() + 3, bytes.begin() + 6);  // cut into the footer
  auto cut = io::MemoryObject("mem://cut.orc", bytes);
  EXPECT_THROW(readOrcTail(cut), CorruptFile);
}

TEST(OrcTailTest, RefusesSchemasOutOfPreOrder) {
  proto::Footer footer = oneIntColumn();
  footer.mutable_types(0)->set_subtypes(0, 0);
  EXPECT_THROW(OrcSchema::build(footer, "mem://x"), CorruptFile);
  proto::Footer noNames = oneIntColumn();
  noNames.mutable_types(0)->clear_fieldnames();
  EXPECT_THROW(OrcSchema::build(noNames, "mem://x"), CorruptFile);
}

TEST(OrcTailTest, BuildsDottedPathsForNestedTypes) {
  proto::Footer footer;
  auto* root = footer.add_types();
  root->set_kind(proto::Type::STRUCT);
  root->add_subtypes(1);
  root->add_fieldnames("m");
  auto* map = footer.add_types();
  map->set_kind(proto::Type::MAP);
  map->add_subtypes(2);
  map->add_subtypes(3);
  footer.add_types()->set_kind(proto::Type::STRING);
  auto* dec = footer.add_types();
  dec->set_kind(proto::Type::DECIMAL);
  dec->set_precision(10);
  dec->set_scale(2);
  const OrcSchema schema = OrcSchema::build(footer, "mem://x");
  EXPECT_EQ(schema.root().toTypeString(), "struct<m:map<string,decimal(10,2)>>");
  EXPECT_EQ(schema.column(3).path, "m._value");
  EXPECT_EQ(schema.column(1).maximumColumnId, 3u);
}

}  // namespace
}  // namespace quarry::orc
