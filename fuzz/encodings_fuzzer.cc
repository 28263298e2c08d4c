// libFuzzer target for the value and level decoders. The first input byte picks
// a decoder and its parameters (bit width, physical type, value width); the rest
// is the page's bytes. Every decode must end in values or one of quarry's errors.
// Where a decoder can be read two ways (one batch, or batches of mixed sizes with
// skips), both must agree; a disagreement traps.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/encoding/byte_stream_split_decoder.h"
#include "quarry/formats/parquet/encoding/delta_binary_packed_decoder.h"
#include "quarry/formats/parquet/encoding/delta_byte_array_decoder.h"
#include "quarry/formats/parquet/encoding/delta_length_byte_array_decoder.h"
#include "quarry/formats/parquet/encoding/dictionary.h"
#include "quarry/formats/parquet/encoding/plain_decoder.h"
#include "quarry/formats/parquet/encoding/rle_bit_packed_decoder.h"

namespace {

using namespace quarry::parquet;

/// Values decoded per input at most: a few bytes can declare billions of values
/// (an RLE run, bit width 0 miniblocks), and the fuzzer must stay fast.
constexpr size_t kMaxValues = 1 << 15;
constexpr size_t kBatchSizes[] = {1, 7, 64, 300, 3, 1000, 8, 31};

template <typename F>
void refusedOrDecoded(F&& decode) {
  try {
    decode();
  } catch (const quarry::Error&) {
  }
}

/// Reads a decoder in one pass of large batches, then a fresh one in mixed
/// batches and skips, and checks the second against the first. `make` builds a
/// decoder; `read(decoder, out, n)` and `skip(decoder, n)` return counts.
template <typename T, typename Make, typename Read, typename Skip>
void readTwoWays(Make&& make, Read&& read, Skip&& skip) {
  std::vector<T> reference;
  try {
    auto decoder = make();
    std::vector<T> batch(1000);
    while (reference.size() < kMaxValues) {
      const size_t got = read(decoder, batch.data(), batch.size());
      reference.insert(reference.end(), batch.begin(), batch.begin() + got);
      if (got < batch.size()) break;
    }
  } catch (const quarry::Error&) {
  }
  if (reference.empty()) return;
  // The second pass only asks for values the first one decoded, so it must not fail.
  auto decoder = make();
  std::vector<T> batch(1000);
  size_t pos = 0;
  try {
    for (size_t step = 0; pos < reference.size(); ++step) {
      const size_t n = std::min(kBatchSizes[step % std::size(kBatchSizes)], reference.size() - pos);
      if (step % 3 == 2) {
        if (skip(decoder, n) != n) __builtin_trap();
      } else {
        if (read(decoder, batch.data(), n) != n) __builtin_trap();
        if (!std::equal(batch.begin(), batch.begin() + n, reference.begin() + pos)) {
          __builtin_trap();
        }
      }
      pos += n;
    }
  } catch (const quarry::Error&) {
    __builtin_trap();
  }
}

template <typename T>
void fuzzRle(std::span<const uint8_t> page, unsigned width, bool lengthPrefix) {
  readTwoWays<T>(
      [&] {
        return lengthPrefix ? RleBitPackedDecoder::withLengthPrefix(page, width)
                            : RleBitPackedDecoder(page, width);
      },
      [](RleBitPackedDecoder& d, T* out, size_t n) { return d.getBatch(out, n); },
      [](RleBitPackedDecoder& d, size_t n) { return d.skip(n); });
}

template <typename T>
void fuzzDelta(std::span<const uint8_t> page) {
  readTwoWays<T>(
      [&] { return DeltaBinaryPackedDecoder<T>(page); },
      [](DeltaBinaryPackedDecoder<T>& d, T* out, size_t n) { return d.getBatch(out, n); },
      [](DeltaBinaryPackedDecoder<T>& d, size_t n) { return d.skip(n); });
  refusedOrDecoded([&] { DeltaBinaryPackedDecoder<T>(page).endOffset(); });
}

void fuzzDictionary(std::span<const uint8_t> page, size_t dictSize) {
  refusedOrDecoded([&] {
    auto indices = dictionaryIndexDecoder(page);
    std::vector<int64_t> dict(dictSize, 42);
    uint32_t idx[512];
    int64_t out[512];
    for (size_t total = 0; total < kMaxValues;) {
      const size_t got = indices.getBatch(idx, std::size(idx));
      gather(dict.data(), dict.size(), idx, got, out);
      total += got;
      if (got < std::size(idx)) break;
    }
  });
}

void fuzzPlain(std::span<const uint8_t> page, unsigned param) {
  refusedOrDecoded([&] {
    PlainDecoder decoder(page);
    for (size_t step = 0; !decoder.atEnd() && step < 64; ++step) {
      const size_t n = kBatchSizes[step % std::size(kBatchSizes)];
      std::vector<uint8_t> scratch(n * 12 + 1);
      std::vector<std::string_view> views(n);
      switch (param % 8) {
        case 0:
          decoder.decodeBooleans(scratch.data(), n);
          break;
        case 1:
          decoder.decodeInt32(reinterpret_cast<int32_t*>(scratch.data()), n / 4);
          break;
        case 2:
          decoder.decodeInt64(reinterpret_cast<int64_t*>(scratch.data()), n / 8);
          break;
        case 3:
          decoder.decodeInt96(reinterpret_cast<Int96*>(scratch.data()), n);
          break;
        case 4:
          decoder.decodeFloat(reinterpret_cast<float*>(scratch.data()), n / 4);
          break;
        case 5:
          decoder.decodeDouble(reinterpret_cast<double*>(scratch.data()), n / 8);
          break;
        case 6:
          decoder.decodeByteArrays(views.data(), n);
          break;
        default:
          decoder.decodeFixedLenByteArrays(n, param / 8 + 1);
          break;
      }
    }
  });
}

template <typename Decoder>
void fuzzByteArrays(std::span<const uint8_t> page) {
  readTwoWays<std::string>([&] { return Decoder(page); },
                           [](Decoder& d, std::string* out, size_t n) {
                             std::vector<std::string_view> views(n);
                             const size_t got = d.getBatch(views.data(), n);
                             for (size_t i = 0; i < got; ++i) out[i] = std::string(views[i]);
                             return got;
                           },
                           [](Decoder& d, size_t n) { return d.skip(n); });
}

void fuzzByteStreamSplit(std::span<const uint8_t> page, size_t width) {
  refusedOrDecoded([&] {
    ByteStreamSplitDecoder decoder(page, width);
    std::vector<uint8_t> out(width * 300);
    for (size_t step = 0; decoder.remaining() > 0; ++step) {
      const size_t n = std::min<size_t>(kBatchSizes[step % std::size(kBatchSizes)], 300);
      if (step % 3 == 2) {
        decoder.skip(n);
      } else {
        decoder.getBatch(out.data(), n);
      }
    }
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const unsigned kind = data[0] % 10;
  const unsigned param = data[0] / 10;  // 0..25
  const std::span<const uint8_t> page(data + 1, size - 1);
  switch (kind) {
    case 0:
      fuzzRle<uint32_t>(page, param, false);
      break;
    case 1:
      fuzzRle<uint32_t>(page, param + 7, param % 2 == 0);
      break;
    case 2:
      fuzzRle<int16_t>(page, param % 17, param % 2 == 0);
      break;
    case 3:
      fuzzRle<uint8_t>(page, param % 9, true);
      break;
    case 4:
      fuzzDictionary(page, param * 3);
      break;
    case 5:
      fuzzPlain(page, param);
      break;
    case 6:
      fuzzDelta<int32_t>(page);
      break;
    case 7:
      fuzzDelta<int64_t>(page);
      break;
    case 8:
      if (param % 2 == 0) {
        fuzzByteArrays<DeltaLengthByteArrayDecoder>(page);
      } else {
        fuzzByteArrays<DeltaByteArrayDecoder>(page);
      }
      break;
    default:
      fuzzByteStreamSplit(page, param + 1);
      break;
  }
  return 0;
}
