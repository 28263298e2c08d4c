#include "quarry/formats/parquet/encoding/delta_binary_packed_decoder.h"

#include <algorithm>
#include <iterator>
#include <string>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/encoding/bit_unpacking.h"
#include "quarry/formats/parquet/encoding/leb128.h"

namespace quarry::parquet {
namespace {

constexpr const char* kHeader = "DELTA_BINARY_PACKED header";
constexpr const char* kBlockHeader = "DELTA_BINARY_PACKED block header";

std::string at(size_t offset) {
  return " at offset " + std::to_string(offset);
}

}  // namespace

template <typename T>
DeltaBinaryPackedDecoder<T>::DeltaBinaryPackedDecoder(std::span<const uint8_t> data, size_t start)
    : data_(data), pos_(start) {
  const uint64_t blockSize = readUleb128(data_, pos_, kHeader);
  miniblocksPerBlock_ = readUleb128(data_, pos_, kHeader);
  valueCount_ = readUleb128(data_, pos_, kHeader);
  last_ = static_cast<Unsigned>(zigzagDecode(readUleb128(data_, pos_, kHeader)));
  if (blockSize == 0 || blockSize % 128 != 0 || blockSize > kMaxBlockSize) {
    throw CorruptFile(std::string(kHeader) + at(start) + ": block size " +
                      std::to_string(blockSize) + " is not a positive multiple of 128 up to 2^31");
  }
  if (miniblocksPerBlock_ == 0 || blockSize % miniblocksPerBlock_ != 0 ||
      (blockSize / miniblocksPerBlock_) % 8 != 0) {
    throw CorruptFile(std::string(kHeader) + at(start) + ": " +
                      std::to_string(miniblocksPerBlock_) +
                      " miniblocks do not divide a block of " + std::to_string(blockSize) +
                      " values into miniblocks of a multiple of 8 values");
  }
  valuesPerMiniblock_ = blockSize / miniblocksPerBlock_;
  remaining_ = valueCount_;
  firstPending_ = valueCount_ > 0;
  nextMiniblock_ = miniblocksPerBlock_;
}

template <typename T>
void DeltaBinaryPackedDecoder<T>::readBlockHeader() {
  blockOffset_ = pos_;
  minDelta_ = static_cast<Unsigned>(zigzagDecode(readUleb128(data_, pos_, kBlockHeader)));
  if (data_.size() - pos_ < miniblocksPerBlock_) {
    throw CorruptFile(std::string(kBlockHeader) + at(blockOffset_) + ": the " +
                      std::to_string(miniblocksPerBlock_) +
                      " miniblock bit widths are cut off by the end of the data" +
                      at(data_.size()));
  }
  bitWidths_ = data_.data() + pos_;
  pos_ += miniblocksPerBlock_;
  nextMiniblock_ = 0;
}

template <typename T>
void DeltaBinaryPackedDecoder<T>::startMiniblock() {
  if (nextMiniblock_ == miniblocksPerBlock_) readBlockHeader();
  const unsigned width = bitWidths_[nextMiniblock_];
  // INT32 deltas may take up to 64 bits: writers that compute them in 64-bit
  // arithmetic (DuckDB does) need 33 for values spanning the whole INT32 range.
  // Summed modulo 2^32, the wide deltas give back the values exactly.
  if (width > 64) {
    throw CorruptFile("DELTA_BINARY_PACKED data: miniblock " + std::to_string(nextMiniblock_) +
                      " of the block" + at(blockOffset_) + " has bit width " +
                      std::to_string(width) + ", more than 64");
  }
  const uint64_t bytes = valuesPerMiniblock_ / 8 * width;
  if (data_.size() - pos_ < bytes) {
    throw CorruptFile("DELTA_BINARY_PACKED data: miniblock " + std::to_string(nextMiniblock_) +
                      " of the block" + at(blockOffset_) + " needs " + std::to_string(bytes) +
                      " bytes" + at(pos_) + " for " + std::to_string(valuesPerMiniblock_) +
                      " deltas of " + std::to_string(width) + " bits, but only " +
                      std::to_string(data_.size() - pos_) + " remain");
  }
  packed_ = data_.subspan(pos_);
  pos_ += bytes;
  bitWidth_ = width;
  miniblockNext_ = 0;
  miniblockRemaining_ = valuesPerMiniblock_;
  ++nextMiniblock_;
}

template <typename T>
size_t DeltaBinaryPackedDecoder<T>::getBatch(T* out, size_t n) {
  const size_t count = static_cast<size_t>(std::min<uint64_t>(n, remaining_));
  size_t done = 0;
  if (count > 0 && firstPending_) {
    out[0] = static_cast<T>(last_);
    firstPending_ = false;
    done = 1;
  }
  // T and its unsigned type may alias: the deltas are unpacked in place, then
  // summed with wrap-around.
  Unsigned* values = reinterpret_cast<Unsigned*>(out);
  while (done < count) {
    if (miniblockRemaining_ == 0) startMiniblock();
    const size_t chunk = static_cast<size_t>(std::min<uint64_t>(count - done, miniblockRemaining_));
    Unsigned* chunkValues = values + done;
    if (sizeof(Unsigned) < 8 && bitWidth_ > sizeof(Unsigned) * 8) {
      unpackWideDeltas(chunk, chunkValues);
    } else {
      unpackBits(packed_, miniblockNext_, chunk, bitWidth_, chunkValues);
    }
    Unsigned last = last_;
    const Unsigned minDelta = minDelta_;
    for (size_t i = 0; i < chunk; ++i) {
      last += minDelta + chunkValues[i];
      chunkValues[i] = last;
    }
    last_ = last;
    miniblockNext_ += chunk;
    miniblockRemaining_ -= chunk;
    done += chunk;
  }
  remaining_ -= count;
  return count;
}

template <typename T>
void DeltaBinaryPackedDecoder<T>::unpackWideDeltas(size_t count, Unsigned* out) const {
  uint64_t wide[256];
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(count - done, std::size(wide));
    unpackBits(packed_, miniblockNext_ + done, n, bitWidth_, wide);
    for (size_t i = 0; i < n; ++i) out[done + i] = static_cast<Unsigned>(wide[i]);
    done += n;
  }
}

template <typename T>
size_t DeltaBinaryPackedDecoder<T>::skip(size_t n) {
  T scratch[256];
  size_t done = 0;
  while (done < n) {
    const size_t got = getBatch(scratch, std::min<size_t>(n - done, std::size(scratch)));
    if (got == 0) break;
    done += got;
  }
  return done;
}

template <typename T>
size_t DeltaBinaryPackedDecoder<T>::endOffset() const {
  DeltaBinaryPackedDecoder walker = *this;
  uint64_t deltas = walker.remaining_ - (walker.firstPending_ ? 1 : 0);
  deltas -= std::min(deltas, walker.miniblockRemaining_);
  // Each step consumes at least a block header byte or a miniblock of deltas,
  // so this ends within the data's size or the declared count.
  while (deltas > 0) {
    walker.startMiniblock();
    deltas -= std::min(deltas, walker.valuesPerMiniblock_);
  }
  return walker.pos_;
}

template class DeltaBinaryPackedDecoder<int32_t>;
template class DeltaBinaryPackedDecoder<int64_t>;

}  // namespace quarry::parquet
