#include "quarry/formats/codec/snappy_decompression.h"

#include <gtest/gtest.h>
#include <snappy.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/codec/compression.h"

// quarry's snappy decoder against libsnappy's compressor (and, for damaged blocks,
// against libsnappy's own decoder): every block the library writes decodes to the
// original bytes, with and without slack after the output, and every damaged block
// either fails cleanly or decodes exactly as libsnappy decodes it.
namespace quarry::parquet {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes compressWithLibsnappy(const Bytes& data) {
  std::string out;
  snappy::Compress(reinterpret_cast<const char*>(data.data()), data.size(), &out);
  return Bytes(out.begin(), out.end());
}

/// Decodes with quarry's decoder into a buffer guarded on both sides, checking that
/// the decoder wrote nothing outside [output, output + size + slack).
bool decodeGuarded(const Bytes& block, size_t size, size_t slack, Bytes& out, std::string* reason = nullptr) {
  constexpr size_t kGuard = 64;
  constexpr uint8_t kFill = 0xA5;
  Bytes buffer(kGuard + size + slack + kGuard, kFill);
  const char* error = decompressSnappyBlock(block, {buffer.data() + kGuard, size}, slack);
  for (size_t i = 0; i < kGuard; ++i) {
    EXPECT_EQ(buffer[i], kFill) << "wrote before the output";
    EXPECT_EQ(buffer[buffer.size() - 1 - i], kFill) << "wrote past the slack";
  }
  if (reason != nullptr && error != nullptr) *reason = error;
  out.assign(buffer.begin() + kGuard, buffer.begin() + static_cast<std::ptrdiff_t>(kGuard + size));
  return error == nullptr;
}

void expectRoundTrip(const Bytes& data, const std::string& what) {
  const Bytes block = compressWithLibsnappy(data);
  for (size_t slack : {size_t{0}, size_t{7}, size_t{64}}) {
    Bytes out;
    std::string reason;
    ASSERT_TRUE(decodeGuarded(block, data.size(), slack, out, &reason)) << what << ": " << reason;
    ASSERT_EQ(out, data) << what << ", slack " << slack;
  }
}

Bytes randomBytes(size_t size, std::mt19937& engine) {
  Bytes out(size);
  for (auto& b : out) b = static_cast<uint8_t>(engine());
  return out;
}

/// A period-`period` pattern with occasional changes: copies of every short offset.
Bytes periodicBytes(size_t size, size_t period, std::mt19937& engine) {
  Bytes out(size);
  const Bytes pattern = randomBytes(period, engine);
  for (size_t i = 0; i < size; ++i) {
    out[i] = pattern[i % period];
    if (engine() % 97 == 0) out[i] = static_cast<uint8_t>(engine());
  }
  return out;
}

/// Little-endian integers of a slowly growing sequence, as a sorted INT64 column.
Bytes sortedInt64s(size_t count) {
  Bytes out(count * 8);
  for (size_t i = 0; i < count; ++i) {
    const uint64_t v = 1000000 + i * 3 + (i % 7 == 0);
    std::memcpy(out.data() + i * 8, &v, 8);
  }
  return out;
}

/// Words from a small vocabulary with 4-byte length prefixes, as PLAIN strings.
Bytes plainStrings(size_t count, std::mt19937& engine) {
  static const char* kWords[] = {"furiously", "slyly ironic", "deposits", "the", "accounts among",
                                 "x", "carefully final packages haggle", ""};
  Bytes out;
  for (size_t i = 0; i < count; ++i) {
    std::string s;
    for (int w = engine() % 4; w >= 0; --w) s += std::string(kWords[engine() % 8]) + " ";
    const uint32_t n = static_cast<uint32_t>(s.size());
    out.insert(out.end(), reinterpret_cast<const uint8_t*>(&n), reinterpret_cast<const uint8_t*>(&n) + 4);
    out.insert(out.end(), s.begin(), s.end());
  }
  return out;
}

TEST(SnappyDecompression, DecodesTheWorkedExampleOfItsHeader) {
  const Bytes block = {0x0a, 0x08, 'a', 'b', 'c', 0x09, 0x03, 0x00, 'X'};
  Bytes out;
  ASSERT_TRUE(decodeGuarded(block, 10, 0, out));
  EXPECT_EQ(std::string(out.begin(), out.end()), "abcabcabcX");
}

TEST(SnappyDecompression, DecodesWhatLibsnappyWritesFromRandomBytes) {
  std::mt19937 engine(1);
  for (size_t size : {0, 1, 15, 16, 17, 60, 61, 255, 256, 257, 65535, 65536, 65537, 300000}) {
    expectRoundTrip(randomBytes(size, engine), "random " + std::to_string(size));
  }
}

TEST(SnappyDecompression, DecodesEveryShortCopyOffsetAndPattern) {
  std::mt19937 engine(2);
  for (size_t period = 1; period <= 40; ++period) {
    for (size_t size : {5, 23, 100, 4099}) {
      expectRoundTrip(periodicBytes(size, period, engine),
                      "period " + std::to_string(period) + ", size " + std::to_string(size));
    }
  }
  expectRoundTrip(Bytes(1 << 20, 0), "a megabyte of zeros");
}

TEST(SnappyDecompression, DecodesColumnLikePages) {
  std::mt19937 engine(3);
  expectRoundTrip(sortedInt64s(131072), "sorted int64");
  expectRoundTrip(plainStrings(20000, engine), "plain strings");
  // Half random, half repetitive: long literals next to long copies.
  Bytes mixed = randomBytes(70000, engine);
  const Bytes tail = periodicBytes(70000, 13, engine);
  mixed.insert(mixed.end(), tail.begin(), tail.end());
  expectRoundTrip(mixed, "mixed");
}

TEST(SnappyDecompression, DecodesCopiesWithFourByteOffsetsAndLongLiteralLengths) {
  // libsnappy never writes these (its offsets stay below 64 KiB), other writers may.
  Bytes block = {0x0c};                         // 12 bytes
  block.insert(block.end(), {0xf0, 0x03});  // literal, length in one more byte: 3 + 1
  block.insert(block.end(), {'w', 'x', 'y', 'z'});
  block.insert(block.end(), {0x1f, 0x04, 0x00, 0x00, 0x00});  // copy-4: length 8, offset 4
  Bytes out;
  ASSERT_TRUE(decodeGuarded(block, 12, 0, out));
  EXPECT_EQ(std::string(out.begin(), out.end()), "wxyzwxyzwxyz");
}

TEST(SnappyDecompression, RefusesEveryTruncationOfAValidBlock) {
  std::mt19937 engine(4);
  Bytes data = plainStrings(300, engine);
  const Bytes random = randomBytes(500, engine);
  data.insert(data.end(), random.begin(), random.end());
  const Bytes block = compressWithLibsnappy(data);
  for (size_t cut = 0; cut < block.size(); ++cut) {
    const Bytes prefix(block.begin(), block.begin() + static_cast<std::ptrdiff_t>(cut));
    Bytes out;
    EXPECT_FALSE(decodeGuarded(prefix, data.size(), 16, out)) << "cut at " << cut;
  }
}

TEST(SnappyDecompression, RefusesBadPreamblesAndCopiesBeforeTheStart) {
  Bytes out;
  EXPECT_FALSE(decodeGuarded({0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 0, 0, out));  // 6-byte varint
  EXPECT_FALSE(decodeGuarded({0xff, 0xff, 0xff, 0xff, 0x1f}, 0, 0, out));        // above 2^32 - 1
  EXPECT_FALSE(decodeGuarded({0x05}, 4, 0, out));                                 // another length
  EXPECT_FALSE(decodeGuarded({0x04, 0x01, 0x01}, 4, 64, out));                    // copy, nothing written yet
  EXPECT_FALSE(decodeGuarded({0x08, 0x04, 'a', 'b', 0x0d, 0x00}, 8, 64, out));   // offset 0
  EXPECT_FALSE(decodeGuarded({0x03, 0x0c, 'a', 'b', 'c', 'd'}, 3, 64, out));     // longer than announced
  EXPECT_FALSE(decodeGuarded({0x04, 0x0c, 'a', 'b'}, 4, 64, out));               // literal cut off
  EXPECT_FALSE(decodeGuarded({0x04, 0x04, 'a', 'b'}, 4, 64, out));               // shorter than announced
  EXPECT_FALSE(decodeGuarded({0x04, 0xf0}, 4, 64, out));                          // literal length cut off
}

TEST(SnappyDecompression, AgreesWithLibsnappyOnDamagedBlocks) {
  std::mt19937 engine(5);
  const Bytes data = plainStrings(400, engine);
  const Bytes block = compressWithLibsnappy(data);
  for (int trial = 0; trial < 3000; ++trial) {
    Bytes damaged = block;
    for (int flips = 1 + static_cast<int>(engine() % 3); flips > 0; --flips) {
      damaged[engine() % damaged.size()] ^= static_cast<uint8_t>(1u << (engine() % 8));
    }
    size_t length = 0;
    const char* in = reinterpret_cast<const char*>(damaged.data());
    if (!snappy::GetUncompressedLength(in, damaged.size(), &length) || length > (1u << 20)) continue;
    std::string expected(length, '\0');
    const bool libOk = snappy::RawUncompress(in, damaged.size(), expected.data());
    Bytes out;
    const bool ours = decodeGuarded(damaged, length, trial % 2 ? 64 : 0, out);
    ASSERT_EQ(ours, libOk) << "trial " << trial;
    if (ours) {
      EXPECT_EQ(std::string(out.begin(), out.end()), expected) << "trial " << trial;
    }
  }
}

TEST(SnappyDecompression, ReportsMalformedPagesAsCorruptFileThroughDecompress) {
  const Bytes block = {0x04, 0x0c, 'a', 'b'};
  Bytes out(4);
  EXPECT_THROW(decompress(CompressionCodec::SNAPPY, block, out), CorruptFile);
  try {
    decompress(CompressionCodec::SNAPPY, block, out);
  } catch (const CorruptFile& e) {
    EXPECT_NE(std::string(e.what()).find("a literal runs past the end of the input"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace quarry::parquet
