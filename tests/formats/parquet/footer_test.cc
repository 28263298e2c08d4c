#include "quarry/formats/parquet/footer.h"

#include <gtest/gtest.h>

#include <functional>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/schema.h"
#include "quarry/io/memory_storage.h"
#include "tests/support/testdata.h"

namespace quarry::parquet {
namespace {

using quarry::testing::parquetTestingDir;
using quarry::testing::readFileBytes;

template <typename E>
std::string messageOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an exception";
  return "";
}

TEST(ReadFooterTest, OpensAFileWithOneRequest) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  auto file = io::openObject((parquetTestingDir() / "data/alltypes_plain.parquet").string());
  const ParquetFooter footer = readFooter(*file);
  EXPECT_EQ(footer.metadata.num_rows, 8);
  EXPECT_EQ(file->requestCount(), 1u);
  const auto schema = FileSchema::build(footer.metadata.schema);
  EXPECT_EQ(schema.leafCount(), 11u);
}

TEST(ReadFooterTest, FooterLargerThanTheFirstReadCostsOneMoreRequest) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  auto bytes = readFileBytes(parquetTestingDir() / "data/alltypes_plain.parquet");
  const size_t size = bytes.size();
  uint32_t length = bytes[size - 8] | bytes[size - 7] << 8 | bytes[size - 6] << 16 |
                    static_cast<uint32_t>(bytes[size - 5]) << 24;
  // Replace FileMetaData's stop byte by an unknown binary field 100 of 100 KB, then stop:
  // long-form field header 0x08 (binary), zigzag i16 100 = varint 0xC8 0x01.
  std::vector<uint8_t> extra = {0x08, 0xC8, 0x01};
  const uint32_t blob = 100 * 1000;
  for (uint32_t v = blob; ; v >>= 7) {
    if (v < 0x80) { extra.push_back(static_cast<uint8_t>(v)); break; }
    extra.push_back(static_cast<uint8_t>(v & 0x7F) | 0x80);
  }
  extra.insert(extra.end(), blob, 'x');
  extra.push_back(0x00);
  std::vector<uint8_t> grown(bytes.begin(), bytes.end() - 9);  // drop the stop byte + trailer
  grown.insert(grown.end(), extra.begin(), extra.end());
  length += static_cast<uint32_t>(extra.size()) - 1;
  for (int i = 0; i < 4; ++i) grown.push_back(static_cast<uint8_t>(length >> (8 * i)));
  grown.insert(grown.end(), {'P', 'A', 'R', '1'});

  io::MemoryObject file("mem://grown.parquet", grown);
  const ParquetFooter footer = readFooter(file);
  EXPECT_EQ(footer.metadata.num_rows, 8);
  EXPECT_EQ(footer.metadataLength, length);
  EXPECT_EQ(file.requestCount(), 2u);
  EXPECT_EQ(file.bytesRead(), length + 8u);  // nothing read twice
}

TEST(ReadFooterTest, EncryptedFooterIsRefusedAsUnsupported) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto path = parquetTestingDir() / "data/uniform_encryption.parquet.encrypted";
  auto file = io::openObject(path.string());
  const std::string message = messageOf<Unsupported>([&] { readFooter(*file); });
  EXPECT_NE(message.find("encryption is not supported"), std::string::npos) << message;
  EXPECT_NE(message.find("uniform_encryption"), std::string::npos) << message;
}

TEST(ReadFooterTest, PlaintextFooterOfAnEncryptedFileIsRefusedAsUnsupported) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto path = parquetTestingDir() / "data/encrypt_columns_plaintext_footer.parquet.encrypted";
  auto file = io::openObject(path.string());
  const std::string message = messageOf<Unsupported>([&] { readFooter(*file); });
  EXPECT_NE(message.find("encrypt"), std::string::npos) << message;
}

TEST(ReadFooterTest, TooSmallFileIsCorrupt) {
  io::MemoryObject file("mem://tiny", std::vector<uint8_t>{'P', 'A', 'R', '1'});
  const std::string message = messageOf<CorruptFile>([&] { readFooter(file); });
  EXPECT_NE(message.find("mem://tiny"), std::string::npos);
  EXPECT_NE(message.find("too small"), std::string::npos);
}

TEST(ReadFooterTest, WrongMagicIsCorruptAndShowsWhatWasFound) {
  std::vector<uint8_t> bytes(64, 0);
  bytes.insert(bytes.end(), {'O', 'R', 'C', '\n'});
  io::MemoryObject file("mem://x.orc", bytes);
  const std::string message = messageOf<CorruptFile>([&] { readFooter(file); });
  EXPECT_NE(message.find("'PAR1'"), std::string::npos) << message;
  EXPECT_NE(message.find("ORC\\x0a"), std::string::npos) << message;
}

TEST(ReadFooterTest, FooterLengthPastTheFileIsCorrupt) {
  std::vector<uint8_t> bytes = {'P', 'A', 'R', '1', 0, 0, 0, 0, 0xff, 0xff, 0, 0, 'P', 'A', 'R', '1'};
  io::MemoryObject file("mem://x", bytes);
  const std::string message = messageOf<CorruptFile>([&] { readFooter(file); });
  EXPECT_NE(message.find("65535"), std::string::npos) << message;
}

}  // namespace
}  // namespace quarry::parquet
