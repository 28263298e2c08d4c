#include "quarry/formats/orc/compression_chunks.h"

#include <gtest/gtest.h>
#include <lz4.h>
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

TEST(CompressionChunksTest, RefusesLzoAsUnsupported) {
  EXPECT_THROW(decompressStream({CompressionKind::kLzo, 64}, std::vector<uint8_t>{1, 2, 3}, "t"),
               Unsupported);
}

TEST(CompressionChunksTest, CopiesStreamsOfUncompressedFiles) {
  const std::vector<uint8_t> plain = {1, 2, 3};
  EXPECT_EQ(decompressStream({CompressionKind::kNone, 1}, plain, "t"), plain);
}

}  // namespace
}  // namespace quarry::orc
