#include "quarry/formats/orc/compression_chunks.h"

#include <gtest/gtest.h>
#include <lz4.h>
#include <lzo/lzo1x.h>
#include <zlib.h>
#include <zstd.h>

#include <string>
#include <vector>

#include "quarry/common/error.h"

namespace quarry::orc {
namespace {

std::vector<uint8_t> header(size_t length, bool original) {
  const size_t v = length * 2 + (original ? 1 : 0);
  return {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8), static_cast<uint8_t>(v >> 16)};
}

std::vector<uint8_t> rawDeflate(const std::string& text) {
  z_stream s{};
  deflateInit2(&s, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
  std::vector<uint8_t> out(deflateBound(&s, text.size()));
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  s.avail_in = static_cast<uInt>(text.size());
  s.next_out = out.data();
  s.avail_out = static_cast<uInt>(out.size());
  deflate(&s, Z_FINISH);
  out.resize(out.size() - s.avail_out);
  deflateEnd(&s);
  return out;
}

/// An LZO1X block, as ORC's writers store a compressed LZO chunk.
std::vector<uint8_t> lzo1x(const std::string& text) {
  EXPECT_EQ(lzo_init(), LZO_E_OK);
  std::vector<uint8_t> out(text.size() + text.size() / 16 + 64 + 3);
  std::vector<uint8_t> work(LZO1X_1_MEM_COMPRESS);
  lzo_uint n = out.size();
  EXPECT_EQ(lzo1x_1_compress(reinterpret_cast<const uint8_t*>(text.data()), text.size(), out.data(),
                             &n, work.data()),
            LZO_E_OK);
  out.resize(n);
  return out;
}

std::vector<uint8_t> chunk(const std::vector<uint8_t>& body, bool original) {
  auto out = header(body.size(), original);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

std::string text(const std::vector<uint8_t>& bytes) {
  return std::string(bytes.begin(), bytes.end());
}

TEST(CompressionChunksTest, HeadersMatchTheSpecificationExamples) {
  // "the header for a chunk that compressed to 100,000 bytes would be [0x40, 0x0d,
  // 0x03]. The header for 5 bytes that did not compress would be [0x0b, 0x00, 0x00]."
  EXPECT_EQ(header(100000, false), (std::vector<uint8_t>{0x40, 0x0d, 0x03}));
  EXPECT_EQ(header(5, true), (std::vector<uint8_t>{0x0b, 0x00, 0x00}));
  const std::vector<uint8_t> original = {0x0b, 0x00, 0x00, 'h', 'e', 'l', 'l', 'o'};
  EXPECT_EQ(text(decompressStream({CompressionKind::kZlib, 1024}, original, "t")), "hello");
}

TEST(CompressionChunksTest, ConcatenatesOriginalAndZlibChunks) {
  auto stream = chunk(rawDeflate(std::string(1000, 'a')), false);
  const auto tail = chunk({'x', 'y'}, true);
  stream.insert(stream.end(), tail.begin(), tail.end());
  EXPECT_EQ(text(decompressStream({CompressionKind::kZlib, 1000}, stream, "t")),
            std::string(1000, 'a') + "xy");
}

TEST(CompressionChunksTest, DecodesLz4AndZstdChunks) {
  const std::string input(3000, 'q');
  std::vector<uint8_t> lz4(LZ4_compressBound(3000));
  lz4.resize(LZ4_compress_default(input.data(), reinterpret_cast<char*>(lz4.data()), 3000,
                                  static_cast<int>(lz4.size())));
  EXPECT_EQ(text(decompressStream({CompressionKind::kLz4, 4096}, chunk(lz4, false), "t")), input);
  std::vector<uint8_t> zstd(ZSTD_compressBound(3000));
  zstd.resize(ZSTD_compress(zstd.data(), zstd.size(), input.data(), input.size(), 3));
  EXPECT_EQ(text(decompressStream({CompressionKind::kZstd, 4096}, chunk(zstd, false), "t")), input);
}

TEST(CompressionChunksTest, RefusesAChunkInflatingBeyondTheBlockSize) {
  const auto stream = chunk(rawDeflate(std::string(1000, 'a')), false);
  EXPECT_THROW(decompressStream({CompressionKind::kZlib, 999}, stream, "t"), CorruptFile);
}

TEST(CompressionChunksTest, RefusesCutOffHeadersAndChunks) {
  EXPECT_THROW(
      decompressStream({CompressionKind::kZlib, 64}, std::vector<uint8_t>{0x0b, 0x00}, "t"),
      CorruptFile);
  EXPECT_THROW(decompressStream({CompressionKind::kSnappy, 64},
                                std::vector<uint8_t>{0x0b, 0x00, 0x00, 'a'}, "t"),
               CorruptFile);
}

// Issue 26, item 10: "ORC files compressed with LZO are refused". An LZO chunk is
// one LZO1X block; a corrupt one must be CorruptFile (lzo1x_decompress_safe).
TEST(CompressionChunksTest, DecodesLzo1xChunks) {
  const std::string input = "an LZO chunk, an LZO chunk, an LZO chunk, and an original one";
  auto stream = chunk(lzo1x(input), false);
  const auto original = chunk(std::vector<uint8_t>{'!', '?'}, true);
  stream.insert(stream.end(), original.begin(), original.end());
  EXPECT_EQ(text(decompressStream({CompressionKind::kLzo, 4096}, stream, "t")), input + "!?");
}

TEST(CompressionChunksTest, RefusesCorruptCutOffAndOversizedLzoChunksWithCorruptFile) {
  const std::string input(1000, 'a');
  const auto block = lzo1x(input);
  // Decodes to more than the compression block size.
  EXPECT_THROW(decompressStream({CompressionKind::kLzo, 999}, chunk(block, false), "t"), CorruptFile);
  // Cut off: the end-of-stream marker is missing.
  const std::vector<uint8_t> cut(block.begin(), block.end() - 3);
  EXPECT_THROW(decompressStream({CompressionKind::kLzo, 4096}, chunk(cut, false), "t"), CorruptFile);
  // Bytes after the end-of-stream marker.
  std::vector<uint8_t> longer = block;
  longer.push_back(0);
  EXPECT_THROW(decompressStream({CompressionKind::kLzo, 4096}, chunk(longer, false), "t"),
               CorruptFile);
  // Garbage that ends in the middle of an instruction.
  const std::vector<uint8_t> garbage = {0x00, 0xFF, 0xFF, 0xFF, 0x20, 0xFF, 0xFF, 0x11, 0x00, 0x00};
  EXPECT_THROW(decompressStream({CompressionKind::kLzo, 4096}, chunk(garbage, false), "t"),
               CorruptFile);
  try {
    decompressStream({CompressionKind::kLzo, 4096}, chunk(cut, false), "file f, stream s");
    FAIL() << "a cut-off LZO chunk was accepted";
  } catch (const CorruptFile& e) {
    EXPECT_NE(std::string(e.what()).find("file f, stream s: LZO chunk at stream offset 0"),
              std::string::npos)
        << e.what();
  }
}

TEST(CompressionChunksTest, CopiesStreamsOfUncompressedFiles) {
  const std::vector<uint8_t> plain = {1, 2, 3};
  EXPECT_EQ(decompressStream({CompressionKind::kNone, 1}, plain, "t"), plain);
}

}  // namespace
}  // namespace quarry::orc
