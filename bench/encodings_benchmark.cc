// Throughput of the hottest value decoders, in values per second: dictionary
// indices of bit width 10 through the RLE/bit-packed hybrid, raw bit unpacking at
// several widths, and DELTA_BINARY_PACKED INT64. Batches of 1024 values, the size
// a column reader asks for.
//
// Usage: encodings_benchmark [benchmark flags]

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "quarry/formats/parquet/encoding/bit_unpacking.h"
#include "quarry/formats/parquet/encoding/delta_binary_packed_decoder.h"
#include "quarry/formats/parquet/encoding/rle_bit_packed_decoder.h"

namespace quarry::parquet {
namespace {

constexpr size_t kValues = 1 << 20;
constexpr size_t kBatch = 1024;

void appendUleb128(std::vector<uint8_t>& out, uint64_t value) {
  for (; value >= 0x80; value >>= 7) out.push_back(static_cast<uint8_t>(value | 0x80));
  out.push_back(static_cast<uint8_t>(value));
}

/// Packs values LSB first at `width` bits, appending to `out`.
void appendPacked(std::vector<uint8_t>& out, const std::vector<uint64_t>& values, unsigned width) {
  const size_t start = out.size();
  out.resize(start + (values.size() * width + 7) / 8, 0);
  size_t bit = 0;
  for (uint64_t value : values) {
    for (unsigned b = 0; b < width; ++b, ++bit) {
      if ((value >> b) & 1) out[start + bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
    }
  }
}

std::vector<uint64_t> randomValues(size_t n, unsigned width, uint64_t seed) {
  std::mt19937_64 random(seed);
  const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  std::vector<uint64_t> values(n);
  for (auto& v : values) v = random() & mask;
  return values;
}

/// Dictionary indices as writers produce them for a high-cardinality column:
/// bit-packed runs of 512 values (writers cap runs) with a short RLE run now and then.
void BM_RleDictionaryIndicesWidth10(benchmark::State& state) {
  std::vector<uint8_t> page = {10};
  const auto values = randomValues(kValues, 10, 1);
  for (size_t i = 0; i < kValues; i += 512) {
    if (i % 4096 == 0) {
      appendUleb128(page, 16 << 1);
      page.push_back(static_cast<uint8_t>(values[i]));
      page.push_back(static_cast<uint8_t>(values[i] >> 8));
    }
    appendUleb128(page, (512 / 8) << 1 | 1);
    appendPacked(page, std::vector<uint64_t>(values.begin() + i, values.begin() + i + 512), 10);
  }
  std::vector<uint32_t> out(kBatch);
  size_t decoded = 0;
  for (auto _ : state) {
    auto decoder = RleBitPackedDecoder::forDictionaryIndices(page);
    while (size_t got = decoder.getBatch(out.data(), out.size())) {
      decoded += got;
      benchmark::DoNotOptimize(out.data());
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(decoded));
  state.SetBytesProcessed(static_cast<int64_t>(page.size() * state.iterations()));
}
BENCHMARK(BM_RleDictionaryIndicesWidth10);

void BM_UnpackBits32(benchmark::State& state) {
  const unsigned width = static_cast<unsigned>(state.range(0));
  std::vector<uint8_t> packed;
  appendPacked(packed, randomValues(kValues, width, 2), width);
  std::vector<uint32_t> out(kBatch);
  for (auto _ : state) {
    for (size_t i = 0; i < kValues; i += kBatch) {
      unpackBits(packed, i, kBatch, width, out.data());
      benchmark::DoNotOptimize(out.data());
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(kValues * state.iterations()));
}
BENCHMARK(BM_UnpackBits32)->Arg(1)->Arg(3)->Arg(8)->Arg(10)->Arg(17)->Arg(32);

void BM_UnpackBits64(benchmark::State& state) {
  const unsigned width = static_cast<unsigned>(state.range(0));
  std::vector<uint8_t> packed;
  appendPacked(packed, randomValues(kValues, width, 3), width);
  std::vector<uint64_t> out(kBatch);
  for (auto _ : state) {
    for (size_t i = 0; i < kValues; i += kBatch) {
      unpackBits(packed, i, kBatch, width, out.data());
      benchmark::DoNotOptimize(out.data());
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(kValues * state.iterations()));
}
BENCHMARK(BM_UnpackBits64)->Arg(13)->Arg(40)->Arg(64);

/// Timestamps a second or so apart with jitter: deltas of about 10 bits, the
/// shape of event-time columns DELTA_BINARY_PACKED is chosen for.
std::vector<uint8_t> encodeDeltaInt64(const std::vector<int64_t>& values) {
  std::vector<uint8_t> out;
  appendUleb128(out, 128);
  appendUleb128(out, 4);
  appendUleb128(out, values.size());
  appendUleb128(out,
                static_cast<uint64_t>(values[0]) << 1 ^ static_cast<uint64_t>(values[0] >> 63));
  for (size_t start = 1; start < values.size(); start += 128) {
    const size_t end = std::min(values.size(), start + 128);
    int64_t minDelta = INT64_MAX;
    for (size_t i = start; i < end; ++i) minDelta = std::min(minDelta, values[i] - values[i - 1]);
    appendUleb128(out,
                  static_cast<uint64_t>(minDelta) << 1 ^ static_cast<uint64_t>(minDelta >> 63));
    std::vector<std::vector<uint64_t>> miniblocks(4);
    for (size_t i = start; i < end; ++i) {
      miniblocks[(i - start) / 32].push_back(
          static_cast<uint64_t>(values[i] - values[i - 1] - minDelta));
    }
    std::vector<unsigned> widths;
    for (auto& m : miniblocks) {
      uint64_t all = 0;
      for (uint64_t v : m) all |= v;
      widths.push_back(static_cast<unsigned>(std::bit_width(all)));
      out.push_back(static_cast<uint8_t>(widths.back()));
    }
    for (size_t m = 0; m < 4 && !miniblocks[m].empty(); ++m) {
      miniblocks[m].resize(32, 0);
      appendPacked(out, miniblocks[m], widths[m]);
    }
  }
  return out;
}

void BM_DeltaBinaryPackedInt64(benchmark::State& state) {
  std::mt19937_64 random(4);
  std::vector<int64_t> values(kValues);
  int64_t t = 1'700'000'000'000;
  for (auto& v : values) v = t += 1000 + static_cast<int64_t>(random() % 1024) - 512;
  const auto page = encodeDeltaInt64(values);
  std::vector<int64_t> out(kBatch);
  size_t decoded = 0;
  for (auto _ : state) {
    DeltaBinaryPackedDecoder<int64_t> decoder(page);
    while (size_t got = decoder.getBatch(out.data(), out.size())) {
      decoded += got;
      benchmark::DoNotOptimize(out.data());
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(decoded));
}
BENCHMARK(BM_DeltaBinaryPackedInt64);

}  // namespace
}  // namespace quarry::parquet

BENCHMARK_MAIN();
