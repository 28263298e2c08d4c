#include "quarry/formats/codec/compression.h"

#include <brotli/encode.h>
#include <gtest/gtest.h>
#include <lz4.h>
#include <lz4frame.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/footer.h"
#include "quarry/formats/parquet/metadata_decoder.h"
#include "quarry/io/storage.h"
#include "tests/support/testdata.h"

namespace quarry::parquet {
namespace {

using Bytes = std::vector<uint8_t>;

// ---- Data and the libraries' own compressors -------------------------------------

Bytes randomBytes(size_t size, uint32_t seed) {
  std::mt19937 engine(seed);
  Bytes out(size);
  for (auto& b : out) b = static_cast<uint8_t>(engine());
  return out;
}

/// Compressible bytes: short runs of a few words, as dictionary indices and text look.
Bytes repetitiveBytes(size_t size) {
  static const std::string kWords[] = {"parquet ", "page ", "quarry ", "aaaaaaaaaaaa", "\x00\x01"};
  Bytes out;
  out.reserve(size);
  for (size_t i = 0; out.size() < size; ++i) {
    const std::string& word = kWords[(i * 7 + i / 3) % 5];
    for (char c : word) {
      if (out.size() == size) break;
      out.push_back(static_cast<uint8_t>(c));
    }
  }
  return out;
}

Bytes compressSnappy(const Bytes& data) {
  std::string out;
  snappy::Compress(reinterpret_cast<const char*>(data.data()), data.size(), &out);
  return Bytes(out.begin(), out.end());
}

/// `windowBits` 15 + 16 writes a gzip member, 15 a zlib stream.
Bytes compressDeflate(const Bytes& data, int windowBits = 15 + 16) {
  z_stream stream{};
  EXPECT_EQ(
      deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY),
      Z_OK);
  Bytes out(deflateBound(&stream, data.size()) + 32);
  stream.next_in = const_cast<Bytef*>(data.data());
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = out.data();
  stream.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&stream, Z_FINISH), Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

Bytes compressZstd(const Bytes& data) {
  Bytes out(ZSTD_compressBound(data.size()));
  const size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

Bytes compressBrotli(const Bytes& data) {
  size_t size = std::max<size_t>(BrotliEncoderMaxCompressedSize(data.size()), 16);
  Bytes out(size);
  EXPECT_TRUE(BrotliEncoderCompress(5, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, data.size(),
                                    data.data(), &size, out.data()));
  out.resize(size);
  return out;
}

Bytes compressLz4Block(const Bytes& data) {
  Bytes out(LZ4_compressBound(static_cast<int>(data.size())) + 1);
  const int n = LZ4_compress_default(reinterpret_cast<const char*>(data.data()),
                                     reinterpret_cast<char*>(out.data()),
                                     static_cast<int>(data.size()), static_cast<int>(out.size()));
  EXPECT_GT(n, 0);
  out.resize(n);
  return out;
}

Bytes compressLz4Frame(const Bytes& data) {
  Bytes out(LZ4F_compressFrameBound(data.size(), nullptr));
  const size_t n = LZ4F_compressFrame(out.data(), out.size(), data.data(), data.size(), nullptr);
  EXPECT_FALSE(LZ4F_isError(n));
  out.resize(n);
  return out;
}

void appendBigEndian32(Bytes& out, size_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(value >> shift));
}

/// Writes Hadoop's LZ4 framing: blocks of `blockSize` input bytes, each split
/// into compressed chunks of at most `chunkSize` input bytes.
Bytes compressHadoopLz4(const Bytes& data, size_t blockSize = 1 << 18, size_t chunkSize = 1 << 18) {
  Bytes out;
  for (size_t block = 0; block < data.size() || (data.empty() && out.empty()); block += blockSize) {
    const size_t blockEnd = std::min(data.size(), block + blockSize);
    appendBigEndian32(out, blockEnd - block);
    size_t chunk = block;
    do {
      const size_t chunkEnd = std::min(blockEnd, chunk + chunkSize);
      const Bytes compressed =
          compressLz4Block(Bytes(data.begin() + chunk, data.begin() + chunkEnd));
      appendBigEndian32(out, compressed.size());
      out.insert(out.end(), compressed.begin(), compressed.end());
      chunk = chunkEnd;
    } while (chunk < blockEnd);
  }
  return out;
}

Bytes compressWith(CompressionCodec codec, const Bytes& data) {
  switch (codec) {
    case CompressionCodec::UNCOMPRESSED:
      return data;
    case CompressionCodec::SNAPPY:
      return compressSnappy(data);
    case CompressionCodec::GZIP:
      return compressDeflate(data);
    case CompressionCodec::ZSTD:
      return compressZstd(data);
    case CompressionCodec::BROTLI:
      return compressBrotli(data);
    case CompressionCodec::LZ4_RAW:
      return compressLz4Block(data);
    case CompressionCodec::LZ4:
      return compressHadoopLz4(data);
    default:
      ADD_FAILURE() << "no compressor for " << toString(codec);
      return {};
  }
}

Bytes decompressed(CompressionCodec codec, const Bytes& input, size_t size) {
  Bytes out(size);
  decompress(codec, input, out);
  return out;
}

/// Decompresses and reports whether it failed with CorruptFile; any other
/// outcome than success or CorruptFile fails the test.
bool rejectsAsCorrupt(CompressionCodec codec, const Bytes& input, size_t size) {
  Bytes out(size);
  try {
    decompress(codec, input, out);
    return false;
  } catch (const CorruptFile&) {
    return true;
  }
}

const CompressionCodec kCodecs[] = {CompressionCodec::UNCOMPRESSED, CompressionCodec::SNAPPY,
                                    CompressionCodec::GZIP,         CompressionCodec::BROTLI,
                                    CompressionCodec::LZ4,          CompressionCodec::ZSTD,
                                    CompressionCodec::LZ4_RAW};
const CompressionCodec kCompressingCodecs[] = {CompressionCodec::SNAPPY, CompressionCodec::GZIP,
                                               CompressionCodec::BROTLI, CompressionCodec::LZ4,
                                               CompressionCodec::ZSTD,   CompressionCodec::LZ4_RAW};

std::string codecName(const ::testing::TestParamInfo<CompressionCodec>& info) {
  return toString(info.param);
}

// ---- Every codec ----------------------------------------------------------------

class EveryCodec : public ::testing::TestWithParam<CompressionCodec> {};

TEST_P(EveryCodec, RoundTripsRandomRepetitiveAndTinyData) {
  const CompressionCodec codec = GetParam();
  const std::vector<Bytes> samples = {randomBytes(100'000, 1),
                                      repetitiveBytes(300'000),
                                      repetitiveBytes(3'000'000),
                                      randomBytes(1, 2),
                                      Bytes{},
                                      Bytes(70'000, 0)};
  for (const Bytes& data : samples) {
    EXPECT_EQ(decompressed(codec, compressWith(codec, data), data.size()), data)
        << toString(codec) << ", " << data.size() << " bytes";
  }
}

TEST_P(EveryCodec, AcceptsEmptyInputForEmptyOutput) {
  Bytes out;
  EXPECT_NO_THROW(decompress(GetParam(), {}, out));
}

TEST_P(EveryCodec, RejectsAnOutputSizeOtherThanTheDataSize) {
  const CompressionCodec codec = GetParam();
  const Bytes data = repetitiveBytes(10'000);
  const Bytes compressed = compressWith(codec, data);
  for (size_t size : {size_t{0}, size_t{1}, data.size() - 1, data.size() + 1, data.size() * 2}) {
    EXPECT_TRUE(rejectsAsCorrupt(codec, compressed, size)) << toString(codec) << " into " << size;
  }
}

TEST_P(EveryCodec, NamesTheCodecAndBothSizesInItsError) {
  const CompressionCodec codec = GetParam();
  const Bytes compressed = compressWith(codec, repetitiveBytes(5000));
  Bytes out(4321);
  try {
    decompress(codec, compressed, out);
    FAIL() << "expected CorruptFile";
  } catch (const CorruptFile& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(toString(codec)), std::string::npos) << message;
    EXPECT_NE(message.find("4321"), std::string::npos) << message;
    EXPECT_NE(message.find(std::to_string(compressed.size())), std::string::npos) << message;
  }
}

INSTANTIATE_TEST_SUITE_P(Codecs, EveryCodec, ::testing::ValuesIn(kCodecs), codecName);

class EveryCompressingCodec : public ::testing::TestWithParam<CompressionCodec> {};

TEST_P(EveryCompressingCodec, RejectsEveryTruncation) {
  const CompressionCodec codec = GetParam();
  const Bytes data = repetitiveBytes(20'000);
  const Bytes compressed = compressWith(codec, data);
  for (size_t keep = 0; keep < compressed.size(); keep += std::max<size_t>(1, keep / 8)) {
    EXPECT_TRUE(
        rejectsAsCorrupt(codec, Bytes(compressed.begin(), compressed.begin() + keep), data.size()))
        << toString(codec) << " cut to " << keep << " of " << compressed.size() << " bytes";
  }
}

TEST_P(EveryCompressingCodec, RejectsGarbage) {
  const CompressionCodec codec = GetParam();
  for (uint32_t seed = 0; seed < 50; ++seed) {
    const Bytes garbage = randomBytes(1 + seed * 37, seed);
    EXPECT_TRUE(rejectsAsCorrupt(codec, garbage, 1000 + seed)) << toString(codec) << " " << seed;
  }
}

// Flipped bytes may still decompress (the libraries cannot always tell), but the
// outcome is success or CorruptFile, never a crash or an overrun (run under ASan).
TEST_P(EveryCompressingCodec, SurvivesEveryFlippedByte) {
  const CompressionCodec codec = GetParam();
  const Bytes data = repetitiveBytes(3000);
  const Bytes compressed = compressWith(codec, data);
  for (size_t i = 0; i < compressed.size(); ++i) {
    for (uint8_t mask : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xff}}) {
      Bytes damaged = compressed;
      damaged[i] ^= mask;
      rejectsAsCorrupt(codec, damaged, data.size());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Codecs, EveryCompressingCodec, ::testing::ValuesIn(kCompressingCodecs),
                         codecName);

// ---- Codec-specific forms ---------------------------------------------------------

TEST(UncompressedPage, RejectsSizesThatDiffer) {
  EXPECT_TRUE(rejectsAsCorrupt(CompressionCodec::UNCOMPRESSED, Bytes(10, 1), 11));
  EXPECT_TRUE(rejectsAsCorrupt(CompressionCodec::UNCOMPRESSED, Bytes(10, 1), 9));
}

TEST(GzipPage, DecodesConcatenatedMembers) {
  const Bytes a = repetitiveBytes(5000);
  const Bytes b = randomBytes(3000, 7);
  Bytes input = compressDeflate(a);
  const Bytes second = compressDeflate(b);
  const Bytes empty = compressDeflate({});
  input.insert(input.end(), empty.begin(), empty.end());
  input.insert(input.end(), second.begin(), second.end());
  Bytes expected = a;
  expected.insert(expected.end(), b.begin(), b.end());
  EXPECT_EQ(decompressed(CompressionCodec::GZIP, input, expected.size()), expected);
}

TEST(GzipPage, DecodesAZlibStream) {
  const Bytes data = repetitiveBytes(5000);
  EXPECT_EQ(decompressed(CompressionCodec::GZIP, compressDeflate(data, 15), data.size()), data);
}

TEST(GzipPage, RejectsGarbageAfterTheLastMember) {
  const Bytes data = repetitiveBytes(5000);
  Bytes input = compressDeflate(data);
  input.push_back(0x42);
  EXPECT_TRUE(rejectsAsCorrupt(CompressionCodec::GZIP, input, data.size()));
}

TEST(ZstdPage, DecodesConcatenatedAndSkippableFrames) {
  const Bytes a = repetitiveBytes(5000);
  const Bytes b = randomBytes(3000, 8);
  Bytes input = compressZstd(a);
  // A skippable frame: magic 0x184D2A50 (little-endian), length 3, 3 bytes.
  for (uint8_t byte : {0x50, 0x2A, 0x4D, 0x18, 0x03, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03}) {
    input.push_back(byte);
  }
  const Bytes second = compressZstd(b);
  input.insert(input.end(), second.begin(), second.end());
  Bytes expected = a;
  expected.insert(expected.end(), b.begin(), b.end());
  EXPECT_EQ(decompressed(CompressionCodec::ZSTD, input, expected.size()), expected);
}

TEST(Lz4HadoopPage, DecodesSeveralBlocks) {
  const Bytes data = repetitiveBytes(1'000'000);
  const Bytes input = compressHadoopLz4(data, 100'000, 100'000);
  EXPECT_EQ(decompressed(CompressionCodec::LZ4, input, data.size()), data);
}

TEST(Lz4HadoopPage, DecodesSeveralChunksUnderOneBlockSize) {
  const Bytes data = randomBytes(300'000, 9);
  const Bytes input = compressHadoopLz4(data, 250'000, 64 * 1024);
  EXPECT_EQ(decompressed(CompressionCodec::LZ4, input, data.size()), data);
}

TEST(Lz4HadoopPage, DecodesTheFramingOfAnEmptyPage) {
  const Bytes input = {0, 0, 0, 0, 0, 0, 0, 1, 0};
  EXPECT_EQ(decompressed(CompressionCodec::LZ4, input, 0), Bytes{});
}

TEST(Lz4HadoopPage, DecodesTheWorkedExampleOfItsFormat) {
  const Bytes input = {0, 0, 0, 4, 0, 0, 0, 5, 0x40, 'a', 'a', 'a', 'a'};
  EXPECT_EQ(decompressed(CompressionCodec::LZ4, input, 4), Bytes(4, 'a'));
}

TEST(Lz4HadoopPage, RejectsAPrefixPromisingMoreThanThePage) {
  const Bytes data = repetitiveBytes(10'000);
  Bytes input = compressHadoopLz4(data);
  input[1] = 0x7f;  // block size far beyond the output
  EXPECT_TRUE(rejectsAsCorrupt(CompressionCodec::LZ4, input, data.size()));
  input = compressHadoopLz4(data);
  input[4] = 0x7f;  // chunk size far beyond the input
  EXPECT_TRUE(rejectsAsCorrupt(CompressionCodec::LZ4, input, data.size()));
}

TEST(Lz4LegacyPage, FallsBackToABareBlock) {
  const Bytes data = repetitiveBytes(50'000);
  EXPECT_EQ(decompressed(CompressionCodec::LZ4, compressLz4Block(data), data.size()), data);
}

TEST(Lz4LegacyPage, FallsBackToLz4Frames) {
  const Bytes a = repetitiveBytes(50'000);
  const Bytes b = randomBytes(5000, 3);
  Bytes input = compressLz4Frame(a);
  const Bytes second = compressLz4Frame(b);
  input.insert(input.end(), second.begin(), second.end());
  Bytes expected = a;
  expected.insert(expected.end(), b.begin(), b.end());
  EXPECT_EQ(decompressed(CompressionCodec::LZ4, input, expected.size()), expected);
  EXPECT_TRUE(rejectsAsCorrupt(CompressionCodec::LZ4, input, expected.size() - 1));
  EXPECT_TRUE(rejectsAsCorrupt(CompressionCodec::LZ4, Bytes(input.begin(), input.end() - 1),
                               expected.size()));
}

// Found by decompress_fuzzer's comparison with liblz4 (issue 31): liblz4 reads a
// skippable frame before the first frame as part of the sequence, and quarry
// ("a sequence of LZ4 frames, skippable frames included") refused the page.
TEST(Lz4LegacyPage, ReadsFramesThatStartWithASkippableFrame) {
  const Bytes data = repetitiveBytes(5000);
  for (const uint8_t low : {0x50, 0x5f}) {
    Bytes input = {low, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 'j', 'u', 'n', 'k'};
    const Bytes frame = compressLz4Frame(data);
    input.insert(input.end(), frame.begin(), frame.end());
    EXPECT_EQ(decompressed(CompressionCodec::LZ4, input, data.size()), data) << int{low};
  }
  // A magic next to the skippable range is none of them.
  Bytes input = {0x60, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 'j', 'u', 'n', 'k'};
  const Bytes frame = compressLz4Frame(data);
  input.insert(input.end(), frame.begin(), frame.end());
  EXPECT_TRUE(rejectsAsCorrupt(CompressionCodec::LZ4, input, data.size()));
}

TEST(Lz4RawPage, RejectsHadoopFraming) {
  const Bytes data = repetitiveBytes(10'000);
  EXPECT_TRUE(rejectsAsCorrupt(CompressionCodec::LZ4_RAW, compressHadoopLz4(data), data.size()));
}

TEST(LzoPage, IsUnsupportedNamingTheCodec) {
  Bytes out(10);
  try {
    decompress(CompressionCodec::LZO, Bytes(5, 0), out);
    FAIL() << "expected Unsupported";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("LZO compression is not supported"), std::string::npos)
        << e.what();
  }
}

TEST(UnknownCodec, IsUnsupportedNamingTheId) {
  Bytes out(10);
  try {
    decompress(static_cast<CompressionCodec>(42), Bytes(5, 0), out);
    FAIL() << "expected Unsupported";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("42"), std::string::npos) << e.what();
  }
}

// ---- parquet-testing files ----------------------------------------------------------

/// Decompresses one page as a reader would: the levels of a DATA_PAGE_V2 are
/// stored uncompressed ahead of the (possibly compressed) values.
void decompressPage(CompressionCodec codec, const PageHeader& header,
                    std::span<const uint8_t> page) {
  ASSERT_GE(header.uncompressed_page_size, 0);
  Bytes out(static_cast<size_t>(header.uncompressed_page_size));
  if (header.type != PageType::DATA_PAGE_V2 || !header.data_page_header_v2) {
    decompress(codec, page, out);
    return;
  }
  const DataPageHeaderV2& v2 = *header.data_page_header_v2;
  const int64_t levels =
      int64_t{v2.definition_levels_byte_length} + v2.repetition_levels_byte_length;
  if (levels < 0 || levels > static_cast<int64_t>(page.size()) ||
      levels > static_cast<int64_t>(out.size())) {
    throw CorruptFile("level lengths exceed the page: " + std::to_string(levels));
  }
  const auto n = static_cast<size_t>(levels);
  std::memcpy(out.data(), page.data(), n);
  decompress(v2.is_compressed ? codec : CompressionCodec::UNCOMPRESSED, page.subspan(n),
             std::span(out).subspan(n));
}

/// Decompresses the pages of every column chunk of `path` (only the first page
/// of each when `firstPageOnly`) whose codec `wanted` accepts; returns how many.
size_t decompressPagesOf(const std::filesystem::path& path, bool firstPageOnly,
                         const std::function<bool(CompressionCodec)>& wanted) {
  auto file = io::openObject(path.string());
  const ParquetFooter footer = readFooter(*file);
  size_t pages = 0;
  for (const RowGroup& rowGroup : footer.metadata.row_groups) {
    for (const ColumnChunk& chunk : rowGroup.columns) {
      if (!chunk.meta_data || !wanted(chunk.meta_data->codec)) continue;
      const ColumnMetaData& meta = *chunk.meta_data;
      // The chunk starts at its dictionary page when there is one. An offset
      // inside the leading magic is no offset: some writers store 0 for an
      // absent dictionary, others 0 for the data pages of a chunk without any.
      int64_t start = meta.data_page_offset;
      const int64_t dictionary = meta.dictionary_page_offset.value_or(0);
      if (dictionary >= 4 && (dictionary < start || start < 4)) start = dictionary;
      if (start < 0 || meta.total_compressed_size < 0 ||
          static_cast<uint64_t>(start) + meta.total_compressed_size > file->size()) {
        throw CorruptFile("column chunk outside the file at offset " + std::to_string(start));
      }
      Bytes bytes(static_cast<size_t>(meta.total_compressed_size));
      file->readAt(static_cast<uint64_t>(start), bytes);
      size_t offset = 0;
      while (offset < bytes.size()) {
        uint32_t headerSize = 0;
        const PageHeader header =
            decodePageHeader(std::span<const uint8_t>(bytes).subspan(offset), headerSize);
        offset += headerSize;
        if (header.compressed_page_size < 0 ||
            static_cast<size_t>(header.compressed_page_size) > bytes.size() - offset) {
          throw CorruptFile("page past its column chunk at offset " + std::to_string(offset));
        }
        const auto page = std::span<const uint8_t>(bytes).subspan(
            offset, static_cast<size_t>(header.compressed_page_size));
        if (header.type != PageType::INDEX_PAGE) decompressPage(meta.codec, header, page);
        offset += page.size();
        ++pages;
        if (firstPageOnly) break;
      }
    }
  }
  return pages;
}

class FirstPageOfEveryChunk : public ::testing::TestWithParam<CompressionCodec> {};

TEST_P(FirstPageOfEveryChunk, DecompressesInEveryFileUsingTheCodec) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const CompressionCodec codec = GetParam();
  std::set<std::string> filesUsingCodec;
  for (const auto& path : testing::filesUnder(testing::parquetTestingDir() / "data", ".parquet")) {
    try {
      const size_t pages =
          decompressPagesOf(path, true, [&](CompressionCodec c) { return c == codec; });
      if (pages > 0) filesUsingCodec.insert(path.filename().string());
    } catch (const std::exception& e) {
      ADD_FAILURE() << path.filename() << ": " << e.what();
    }
  }
  // The files the corpus provides for each codec must be among those read.
  const std::map<CompressionCodec, std::vector<std::string>> kKnownFiles = {
      {CompressionCodec::UNCOMPRESSED, {"alltypes_plain.parquet"}},
      {CompressionCodec::SNAPPY, {"alltypes_plain.snappy.parquet", "datapage_v2.snappy.parquet"}},
      {CompressionCodec::GZIP,
       {"concatenated_gzip_members.parquet", "byte_stream_split_extended.gzip.parquet"}},
      {CompressionCodec::BROTLI, {"large_string_map.brotli.parquet"}},
      {CompressionCodec::LZ4,
       {"hadoop_lz4_compressed.parquet", "hadoop_lz4_compressed_larger.parquet",
        "non_hadoop_lz4_compressed.parquet"}},
      {CompressionCodec::ZSTD, {"byte_stream_split.zstd.parquet"}},
      {CompressionCodec::LZ4_RAW,
       {"lz4_raw_compressed.parquet", "lz4_raw_compressed_larger.parquet"}},
  };
  for (const std::string& name : kKnownFiles.at(codec)) {
    EXPECT_TRUE(filesUsingCodec.count(name) == 1) << name << " not read as " << toString(codec);
  }
}

INSTANTIATE_TEST_SUITE_P(Codecs, FirstPageOfEveryChunk, ::testing::ValuesIn(kCodecs), codecName);

TEST(EveryPageOfParquetTesting, Decompresses) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  // Files whose pages cannot all be read, with the reason.
  const std::map<std::string, std::string> kExpectedFailures = {
      {"nation.dict-malformed.parquet",
       "intentionally malformed (Arrow's nation_dict_truncated_data_page): a page of column "
       "'name' runs past the column chunk's end"},
  };
  size_t pages = 0;
  std::vector<std::filesystem::path> files =
      testing::filesUnder(testing::parquetTestingDir() / "data", ".parquet");
  const auto variants =
      testing::filesUnder(testing::parquetTestingDir() / "shredded_variant", ".parquet");
  files.insert(files.end(), variants.begin(), variants.end());
  ASSERT_GT(files.size(), 50u);
  for (const auto& path : files) {
    const std::string name = path.filename().string();
    try {
      pages += decompressPagesOf(path, false, [](CompressionCodec) { return true; });
      EXPECT_EQ(kExpectedFailures.count(name), 0u) << name << " now decompresses";
    } catch (const std::exception& e) {
      EXPECT_EQ(kExpectedFailures.count(name), 1u) << name << ": " << e.what();
    }
  }
  EXPECT_GT(pages, 1000u);
}

// bad_data/ holds files broken in other ways than their compressed bytes; whatever
// their pages hold, decompressing them ends in success or one of quarry's errors.
TEST(EveryPageOfBadData, DecompressesOrFailsWithQuarrysError) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  for (const auto& path :
       testing::filesUnder(testing::parquetTestingDir() / "bad_data", ".parquet")) {
    try {
      decompressPagesOf(path, false, [](CompressionCodec) { return true; });
    } catch (const Error&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << path.filename() << ": not one of quarry's errors: " << e.what();
    }
  }
}

}  // namespace
}  // namespace quarry::parquet
