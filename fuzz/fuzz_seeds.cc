// Writes the generated part of the fuzz seed corpus, one folder per target, for
// the targets whose input no test file holds as such: what quarry's own
// serializers write (cluster pages, file splits), what the tests' reference
// encoders write (Parquet and ORC encoded streams, written from the specs), and
// what the compression libraries write (decompress_fuzzer's modes), and WKB
// values of every geometry type (wkb_text_fuzzer). Seeds are valid inputs, so that
// the fuzzers start inside the formats and mutate from there; tools/fuzz-corpus.sh
// adds the seeds cut from test files.
//
//   fuzz_seeds OUT_DIR     writes OUT_DIR/<target>/<name>, prints the counts
#include <lz4.h>
#include <lz4frame.h>
#include <snappy.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "quarry/cluster/wire.h"
#include "quarry/engine/source/file_split.h"
#include "tests/formats/orc/encoding/orc_stream_writer.h"
#include "tests/formats/parquet/encoding/test_encoders.h"

namespace {

using Bytes = std::vector<uint8_t>;
namespace fs = std::filesystem;

class SeedWriter {
 public:
  explicit SeedWriter(fs::path out) : out_(std::move(out)) {}

  void write(const std::string& target, const std::string& name, const Bytes& bytes) {
    fs::create_directories(out_ / target);
    std::ofstream file(out_ / target / name, std::ios::binary);
    file.write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    if (!file) throw std::runtime_error("cannot write " + (out_ / target / name).string());
    ++counts_[target];
  }

  void write(const std::string& target, const std::string& name, const std::string& bytes) {
    write(target, name, Bytes(bytes.begin(), bytes.end()));
  }

  /// One byte that picks the decoder, then the stream: the encodings fuzzers' input.
  void writeTagged(const std::string& target, const std::string& name, uint8_t tag,
                   const Bytes& stream) {
    Bytes bytes{tag};
    bytes.insert(bytes.end(), stream.begin(), stream.end());
    write(target, name, bytes);
  }

  const std::map<std::string, int>& counts() const { return counts_; }

 private:
  fs::path out_;
  std::map<std::string, int> counts_;
};

// --- cluster_page_fuzzer: pages as a data node sends them ----------------------

using quarry::engine::Block;
using quarry::engine::DataType;
using quarry::engine::Page;
using quarry::engine::TimeUnit;

/// A page in cluster_page_fuzzer's fixed schema (every kind), `rows` rows, every
/// third one null.
Page fixedSchemaPage(size_t rows) {
  std::vector<uint8_t> validity(rows);
  for (size_t i = 0; i < rows; ++i) validity[i] = i % 3 == 1 ? 0 : 1;
  auto values = [&](auto make) {
    using T = decltype(make(size_t{0}));
    std::vector<T> v(rows);
    for (size_t i = 0; i < rows; ++i) v[i] = validity[i] ? make(i) : T{};
    return v;
  };
  auto bytes = [&](DataType type, auto make) {
    Block block(type);
    for (size_t i = 0; i < rows; ++i) {
      if (validity[i]) {
        block.appendBytes(make(i));
      } else {
        block.appendNull();
      }
    }
    return block;
  };
  std::vector<Block> blocks;
  blocks.push_back(Block::nulls(DataType::null(), rows));
  blocks.push_back(Block::fromValues<uint8_t>(
      DataType::boolean(), values([](size_t i) { return uint8_t(i % 2); }), validity));
  blocks.push_back(Block::fromValues<int32_t>(
      DataType::int32(), values([](size_t i) { return int32_t(i * 7) - 3; }), validity));
  blocks.push_back(Block::fromValues<int64_t>(
      DataType::int64(), values([](size_t i) { return int64_t(i) << 40; }), validity));
  blocks.push_back(Block::fromValues<uint64_t>(
      DataType::uint64(), values([](size_t i) { return ~uint64_t(i); }), validity));
  blocks.push_back(Block::fromValues<double>(
      DataType::float64(), values([](size_t i) { return i * 0.5 - 1; }), validity));
  blocks.push_back(Block::fromValues<quarry::engine::Int128>(
      DataType::decimal(20, 2),
      values([](size_t i) { return quarry::engine::Int128(i) * 12345 - 99; }), validity));
  blocks.push_back(bytes(DataType::string(), [](size_t i) { return "s" + std::to_string(i); }));
  blocks.push_back(bytes(DataType::binary(), [](size_t i) { return std::string(i % 5, '\xff'); }));
  blocks.push_back(Block::fromValues<int32_t>(
      DataType::date(), values([](size_t i) { return int32_t(19000 + i); }), validity));
  blocks.push_back(Block::fromValues<int64_t>(DataType::time(TimeUnit::kMicros),
                                              values([](size_t i) { return int64_t(i) * 1000000; }),
                                              validity));
  blocks.push_back(Block::fromValues<int64_t>(
      DataType::timestamp(TimeUnit::kNanos, true),
      values([](size_t i) { return int64_t(i) * 1700000000; }), validity));
  blocks.push_back(
      bytes(DataType::uuid(), [](size_t i) { return std::string(16, static_cast<char>(i)); }));
  return Page(std::move(blocks), rows);
}

/// The page as a data node puts it on the wire, checked to convert back.
std::string serializedPage(const Page& page) {
  quarry::cluster::proto::Page message;
  quarry::cluster::toProto(page, &message);
  quarry::engine::Schema schema;
  for (size_t c = 0; c < page.blockCount(); ++c)
    schema.push_back({"c" + std::to_string(c), page.block(c).type()});
  if (quarry::cluster::fromProto(message, schema).positionCount() != page.positionCount()) {
    throw std::logic_error("a generated page does not convert back");
  }
  return message.SerializeAsString();
}

void clusterPages(SeedWriter& seeds) {
  for (const size_t rows : {0, 1, 3, 40}) {
    seeds.write("cluster_page_fuzzer", "fixed_schema_" + std::to_string(rows) + "_rows",
                serializedPage(fixedSchemaPage(rows)));
  }
  // One column of each kind on its own: the declared-schema pass reaches each
  // kind's checks without the others'.
  const Page every = fixedSchemaPage(5);
  for (size_t c = 0; c < every.blockCount(); ++c) {
    seeds.write("cluster_page_fuzzer", "column_" + std::to_string(c),
                serializedPage(Page({every.block(c)}, every.positionCount())));
  }
}

// --- file_split_fuzzer: splits as a coordinator sends them ---------------------

/// The split as a coordinator serializes it, checked to decode to itself.
Bytes serializedSplit(const quarry::engine::FileSplit& split) {
  Bytes bytes = quarry::engine::serialize(split);
  if (!(quarry::engine::deserializeFileSplit(bytes) == split)) {
    throw std::logic_error("a generated split does not decode to itself");
  }
  return bytes;
}

void fileSplits(SeedWriter& seeds) {
  using namespace quarry::engine;
  FileSplit plain;
  plain.uri = "/data/x.parquet";
  plain.length = 77;
  plain.format = "parquet";
  seeds.write("file_split_fuzzer", "plain", serializedSplit(plain));

  FileSplit identity = plain;
  identity.uri = "s3://bucket/key.orc";
  identity.format = "orc";
  identity.start = 4;
  identity.units = 3;
  identity.fileSize = 123456;
  identity.fileVersion = "\"etag-1\"";
  seeds.write("file_split_fuzzer", "identity", serializedSplit(identity));

  FileSplit statistics = identity;
  auto stats = std::make_shared<SourceStatistics>();
  stats->rowCount = 300;
  stats->columns["b"] = {0, true, false};
  stats->columns["i"] = {1, int64_t{-5}, int64_t{9}};
  stats->columns["f"] = {2, -0.5, 1e300};
  stats->columns["s"] = {std::nullopt, std::string("abc"), std::string("xyz")};
  stats->columns["d"] = {3, quarry::Date{18000}, quarry::Date{19000}};
  stats->columns["t"] = {0, quarry::Instant{-1, 5}, quarry::Instant{1700000000, 999999999}};
  stats->columns["n"] = {300, std::nullopt, std::nullopt};
  statistics.statistics = stats;
  statistics.units = 1;
  statistics.rows = {{0, 50}, {100, 150}, {299, 300}};
  seeds.write("file_split_fuzzer", "statistics_and_rows", serializedSplit(statistics));
}

// --- encodings_fuzzer: Parquet value and level encodings -----------------------

/// encodings_fuzzer's first byte: decoder kind (0-9) + 10 * its parameter.
uint8_t parquetTag(unsigned kind, unsigned param) {
  return static_cast<uint8_t>(kind + 10 * param);
}

void parquetEncodings(SeedWriter& seeds) {
  namespace t = quarry::parquet::testing;
  const std::string target = "encodings_fuzzer";
  std::vector<uint64_t> small;
  for (uint64_t i = 0; i < 300; ++i) small.push_back(i % 7 == 0 ? 5 : i % 5);  // runs and literals
  for (const unsigned width : {1u, 3u, 8u}) {
    std::vector<uint64_t> v;
    for (uint64_t x : small) v.push_back(x & ((uint64_t{1} << width) - 1));
    const Bytes hybrid = t::encodeHybrid(v, width);
    seeds.writeTagged(target, "rle_w" + std::to_string(width), parquetTag(0, width), hybrid);
    Bytes prefixed;
    t::appendLe32(prefixed, static_cast<uint32_t>(hybrid.size()));
    prefixed.insert(prefixed.end(), hybrid.begin(), hybrid.end());
    seeds.writeTagged(target, "levels_w" + std::to_string(width), parquetTag(3, width), prefixed);
    // Dictionary indices: the bit width byte, then the hybrid runs.
    Bytes indices{static_cast<uint8_t>(width)};
    indices.insert(indices.end(), hybrid.begin(), hybrid.end());
    seeds.writeTagged(target, "dictionary_w" + std::to_string(width), parquetTag(4, 20), indices);
  }
  std::vector<uint64_t> wide;
  for (uint64_t i = 0; i < 100; ++i) wide.push_back((i * 2654435761u) & 0xfffff);
  seeds.writeTagged(target, "rle_w20", parquetTag(0, 20), t::encodeHybrid(wide, 20));

  std::vector<int32_t> ints32;
  std::vector<int64_t> ints64;
  for (int i = 0; i < 400; ++i) {
    ints32.push_back(i * i - 1000);
    ints64.push_back((int64_t{i} << 33) - i);
  }
  seeds.writeTagged(target, "delta_int32", parquetTag(6, 0), t::encodeDeltaBinaryPacked(ints32));
  seeds.writeTagged(target, "delta_int64", parquetTag(7, 0), t::encodeDeltaBinaryPacked(ints64));
  seeds.writeTagged(
      target, "delta_int64_small_blocks", parquetTag(7, 0),
      t::encodeDeltaBinaryPacked(ints64, {.blockSize = 32, .miniblocks = 1, .unusedBitWidth = 9}));

  std::vector<std::string> strings;
  for (int i = 0; i < 60; ++i)
    strings.push_back("prefix/" + std::to_string(i * 37) + std::string(i % 4, 'x'));
  seeds.writeTagged(target, "delta_length_byte_array", parquetTag(8, 0),
                    t::encodeDeltaLengthByteArray(strings));
  seeds.writeTagged(target, "delta_byte_array", parquetTag(8, 1), t::encodeDeltaByteArray(strings));

  Bytes plain;
  for (int i = 0; i < 64; ++i) t::appendLe32(plain, static_cast<uint32_t>(i * 1000003));
  for (unsigned param = 0; param < 8; ++param) {
    seeds.writeTagged(target, "plain_" + std::to_string(param), parquetTag(5, param), plain);
  }
  Bytes byteArrays;
  for (const std::string& s : strings) {
    t::appendLe32(byteArrays, static_cast<uint32_t>(s.size()));
    byteArrays.insert(byteArrays.end(), s.begin(), s.end());
  }
  seeds.writeTagged(target, "plain_byte_arrays", parquetTag(5, 6), byteArrays);
  for (const unsigned width : {4u, 8u, 2u}) {
    seeds.writeTagged(target, "byte_stream_split_w" + std::to_string(width),
                      parquetTag(9, width - 1), t::encodeByteStreamSplit(plain, width));
  }
}

// --- orc_encodings_fuzzer: ORC stream encodings --------------------------------

/// orc_encodings_fuzzer's first byte: decoder kind (0-8) + 9 * its parameter.
uint8_t orcTag(unsigned kind, unsigned param) {
  return static_cast<uint8_t>(kind + 9 * param);
}

/// Two streams for the decoders that read two: the first byte gives the first
/// stream's length in units of 4 (orc_encodings_fuzzer's split).
Bytes twoStreams(Bytes first, const Bytes& second) {
  first.resize((first.size() + 3) / 4 * 4, 0);
  Bytes out{static_cast<uint8_t>(first.size() / 4)};
  out.insert(out.end(), first.begin(), first.end());
  out.insert(out.end(), second.begin(), second.end());
  return out;
}

void orcEncodings(SeedWriter& seeds) {
  namespace t = quarry::orc::testing;
  const std::string target = "orc_encodings_fuzzer";
  // RLEv1: a run (count - 3, delta, base varint) and a literal group (-count, varints).
  Bytes v1{0x61, 0x00, 0x07, 0xfb, 0x02, 0x03, 0x04, 0x07, 0x0b};
  seeds.writeTagged(target, "rle_v1_unsigned", orcTag(0, 0), v1);
  seeds.writeTagged(target, "rle_v1_signed", orcTag(1, 0), v1);
  // RLEv2: each of the four sub-encodings (the spec's examples' shapes).
  Bytes v2;
  t::putShortRepeat(v2, 10000, 2, 5);
  t::putDirect(v2, {23713, 43806, 57005, 48879}, 16);
  t::putDelta(v2, 2, 3, 10, {0, 1, 0, 1, 2, 0, 1, 0}, 2);
  t::putPatchedBase(v2, 2000, 2, {30,  20,  10,  40,  50,  60,  70,  80,  90,  100,
                                  110, 120, 130, 140, 150, 160, 170, 180, 190, 0},
                    8, {{4, 0xfff}}, 12, 3);
  seeds.writeTagged(target, "rle_v2_unsigned", orcTag(2, 0), v2);
  seeds.writeTagged(target, "rle_v2_signed", orcTag(3, 0), v2);
  std::vector<uint8_t> bytes;
  for (int i = 0; i < 200; ++i) bytes.push_back(static_cast<uint8_t>(i < 100 ? 7 : i * 13));
  const Bytes byteRle = t::encodeByteRle(bytes);
  seeds.writeTagged(target, "byte_rle", orcTag(4, 0), byteRle);
  seeds.writeTagged(target, "boolean", orcTag(5, 0), byteRle);
  // Decimals: unbounded zigzag varints, then the scales as integer RLE.
  Bytes digits;
  for (const int64_t v : {int64_t{0}, int64_t{-1}, int64_t{123456789}, int64_t{-99999999999}})
    t::putVarint(digits, t::zigzag(v));
  Bytes scales;
  t::putShortRepeat(scales, t::zigzag(2), 1, 4);
  for (const unsigned param : {0u, 1u, 2u}) {
    seeds.writeTagged(target, "decimal_" + std::to_string(param), orcTag(6, param),
                      twoStreams(digits, scales));
  }
  // Timestamps: seconds since 2015 as signed RLE, nanos with their trailing-zero code.
  Bytes seconds;
  t::putDirect(seconds, {t::zigzag(0), t::zigzag(-86400), t::zigzag(1000000)}, 24);
  Bytes nanos;
  t::putDirect(nanos, {0, (5u << 3) | 2, 999999999u << 3}, 32);
  for (const unsigned param : {1u, 3u}) {
    seeds.writeTagged(target, "timestamp_" + std::to_string(param), orcTag(7, param),
                      twoStreams(seconds, nanos));
  }
  Bytes doubles;
  for (const double d : {0.0, -1.5, 1e300}) {
    const auto* p = reinterpret_cast<const uint8_t*>(&d);
    doubles.insert(doubles.end(), p, p + sizeof d);
  }
  seeds.writeTagged(target, "double", orcTag(8, 0), doubles);
}

// --- decompress_fuzzer: what the compression libraries write --------------------

/// decompress_fuzzer's header: the mode byte, the uncompressed size (little endian).
Bytes decompressInput(unsigned mode, unsigned param, uint32_t size, const Bytes& payload) {
  Bytes out{static_cast<uint8_t>(mode + 6 * param), static_cast<uint8_t>(size),
            static_cast<uint8_t>(size >> 8), static_cast<uint8_t>(size >> 16),
            static_cast<uint8_t>(size >> 24)};
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

void decompressInputs(SeedWriter& seeds) {
  const std::string target = "decompress_fuzzer";
  // Text with repeats, and bytes with none: what pages hold between the two.
  std::string text;
  for (int i = 0; i < 60; ++i)
    text += "trip " + std::to_string(i % 9) + ", vendor VTS, fare 12.50; ";
  Bytes noisy(700);
  uint32_t state = 1;
  for (uint8_t& b : noisy) b = static_cast<uint8_t>((state = state * 1103515245 + 12345) >> 16);
  const std::map<std::string, Bytes> payloads = {
      {"text", Bytes(text.begin(), text.end())}, {"noise", noisy}, {"empty", {}}};
  for (const auto& [name, payload] : payloads) {
    const auto size = static_cast<uint32_t>(payload.size());
    std::string snappyBlock;
    snappy::Compress(reinterpret_cast<const char*>(payload.data()), payload.size(), &snappyBlock);
    const Bytes snappyBytes(snappyBlock.begin(), snappyBlock.end());
    seeds.write(target, "snappy_page_" + name, decompressInput(0, 1, size, snappyBytes));
    seeds.write(target, "snappy_block_" + name, decompressInput(1, 0, size, snappyBytes));

    Bytes zstdFrame(ZSTD_compressBound(payload.size()));
    zstdFrame.resize(
        ZSTD_compress(zstdFrame.data(), zstdFrame.size(), payload.data(), payload.size(), 3));
    seeds.write(target, "zstd_page_" + name, decompressInput(0, 6, size, zstdFrame));
    seeds.write(target, "zstd_frame_" + name, decompressInput(2, 0, size, zstdFrame));

    Bytes lz4Block(static_cast<size_t>(LZ4_compressBound(static_cast<int>(payload.size()))));
    lz4Block.resize(static_cast<size_t>(LZ4_compress_default(
        reinterpret_cast<const char*>(payload.data()), reinterpret_cast<char*>(lz4Block.data()),
        static_cast<int>(payload.size()), static_cast<int>(lz4Block.size()))));
    seeds.write(target, "lz4_raw_page_" + name, decompressInput(0, 7, size, lz4Block));
    seeds.write(target, "lz4_block_" + name, decompressInput(3, 0, size, lz4Block));
    Bytes lz4Frame(LZ4F_compressFrameBound(payload.size(), nullptr));
    lz4Frame.resize(LZ4F_compressFrame(lz4Frame.data(), lz4Frame.size(), payload.data(),
                                       payload.size(), nullptr));
    seeds.write(target, "lz4_frame_" + name, decompressInput(3, 0, size, lz4Frame));

    // Round trips (mode 4: 7 codecs) and ORC streams (mode 5: 4 codecs) of the payload.
    for (unsigned param = 0; param < 7; ++param) {
      seeds.write(target, "round_trip_" + std::to_string(param) + "_" + name,
                  decompressInput(4, param, 300, payload));
    }
    for (unsigned param = 0; param < 4; ++param) {
      seeds.write(target, "orc_stream_" + std::to_string(param) + "_" + name,
                  decompressInput(5, param, 256, payload));
    }
  }
}


/// WKB values (wkb_text_fuzzer's input), in both byte orders: every geometry type
/// in XY, Z, M and ZM (ISO codes 1000/2000/3000 and EWKB's high bits), empty ones,
/// and collections that nest them.
class WkbBuilder {
 public:
  explicit WkbBuilder(bool littleEndian) : littleEndian_(littleEndian) {}
  WkbBuilder& header(uint32_t type) {
    bytes_.push_back(littleEndian_ ? 1 : 0);
    return u32(type);
  }
  WkbBuilder& u32(uint32_t v) { return put(&v, 4); }
  WkbBuilder& f64(double v) { return put(&v, 8); }
  WkbBuilder& coordinates(int dimensions, double base) {
    for (int d = 0; d < dimensions; ++d) f64(base + d * 0.5);
    return *this;
  }
  const Bytes& bytes() const { return bytes_; }

 private:
  WkbBuilder& put(const void* value, size_t size) {
    uint8_t b[8];
    std::memcpy(b, value, size);
    if (!littleEndian_) std::reverse(b, b + size);
    bytes_.insert(bytes_.end(), b, b + size);
    return *this;
  }
  bool littleEndian_;
  Bytes bytes_;
};

void wkbValues(SeedWriter& seeds) {
  const std::string target = "wkb_text_fuzzer";
  struct Flavour {
    const char* name;
    uint32_t offset;  // added to the base type code
    uint32_t ewkbBits;
    int dimensions;
  };
  const Flavour flavours[] = {{"xy", 0, 0, 2},           {"z", 1000, 0, 3},
                              {"m", 2000, 0, 3},         {"zm", 3000, 0, 4},
                              {"ewkb_z", 0, 0x80000000u, 3}, {"ewkb_zm", 0, 0xC0000000u, 4}};
  for (const bool little : {true, false}) {
    const std::string order = little ? "le_" : "be_";
    for (const Flavour& f : flavours) {
      auto type = [&](uint32_t base) { return (base + f.offset) | f.ewkbBits; };
      auto write = [&](const std::string& name, const WkbBuilder& wkb) {
        seeds.write(target, order + f.name + "_" + name, wkb.bytes());
      };
      WkbBuilder point(little);
      point.header(type(1)).coordinates(f.dimensions, 1);
      write("point", point);
      WkbBuilder line(little);
      line.header(type(2)).u32(3);
      for (int i = 0; i < 3; ++i) line.coordinates(f.dimensions, i);
      write("linestring", line);
      WkbBuilder polygon(little);
      polygon.header(type(3)).u32(2);
      for (int ring = 0; ring < 2; ++ring) {
        polygon.u32(4);
        for (int i = 0; i < 4; ++i) polygon.coordinates(f.dimensions, ring * 10 + (i % 3));
      }
      write("polygon", polygon);
      WkbBuilder multi(little);
      multi.header(type(4)).u32(2);
      for (int i = 0; i < 2; ++i) multi.header(type(1)).coordinates(f.dimensions, i);
      write("multipoint", multi);
      WkbBuilder multiLine(little);
      multiLine.header(type(5)).u32(1).header(type(2)).u32(2);
      multiLine.coordinates(f.dimensions, 0).coordinates(f.dimensions, 1);
      write("multilinestring", multiLine);
      WkbBuilder multiPolygon(little);
      multiPolygon.header(type(6)).u32(1).header(type(3)).u32(1).u32(4);
      for (int i = 0; i < 4; ++i) multiPolygon.coordinates(f.dimensions, i % 3);
      write("multipolygon", multiPolygon);
      WkbBuilder collection(little);
      collection.header(type(7)).u32(3);
      collection.header(type(1)).coordinates(f.dimensions, 7);
      collection.header(type(2)).u32(0);
      collection.header(type(7)).u32(1).header(type(1)).coordinates(f.dimensions, 8);
      write("geometrycollection", collection);
      WkbBuilder empty(little);
      empty.header(type(3)).u32(0);
      write("empty_polygon", empty);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: fuzz_seeds OUT_DIR\n";
    return 2;
  }
  try {
    SeedWriter seeds(argv[1]);
    clusterPages(seeds);
    fileSplits(seeds);
    parquetEncodings(seeds);
    orcEncodings(seeds);
    decompressInputs(seeds);
    wkbValues(seeds);
    for (const auto& [target, count] : seeds.counts())
      std::cout << "fuzz_seeds: " << target << " " << count << "\n";
  } catch (const std::exception& e) {
    std::cerr << "fuzz_seeds: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
