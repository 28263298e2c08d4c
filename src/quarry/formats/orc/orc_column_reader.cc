#include "quarry/formats/orc/orc_column_reader.h"

#include <cstring>

#include "quarry/common/error.h"
#include "quarry/formats/orc/encoding/boolean_decoder.h"
#include "quarry/formats/orc/encoding/byte_rle_decoder.h"
#include "quarry/formats/orc/encoding/integer_decoder.h"
#include "quarry/formats/orc/encoding/timestamp_decoder.h"
#include "quarry/formats/orc/encoding/timezone.h"

namespace quarry::orc {
namespace {

/// RLE expands a few bytes to at most a few hundred values (a 2-byte RLEv1 run
/// holds 130, an RLEv2 run 512, a boolean run 1040); a column announcing more
/// slots than this per stream byte is corrupt, and must not be allocated.
constexpr uint64_t kMaxSlotsPerByte = 1100;

Int128 powerOfTen128(int exponent) {
  Int128 p = 1;
  for (int i = 0; i < exponent; ++i) p *= 10;
  return p;
}

class ColumnDecoder {
 public:
  ColumnDecoder(const StripeFooter& footer, const StripeStreams& streams,
                const std::vector<bool>& projected, const std::string& context)
      : footer_(footer), streams_(streams), projected_(projected), context_(context) {
    slotLimit_ = kMaxSlotsPerByte * (streams.totalBytes() + 1) + footer.rowCount;
  }

  std::unique_ptr<ColumnVector> decode(const OrcType& type, uint64_t slots) {
    const std::string where = columnContext(type);
    if (slots > slotLimit_) {
      throw CorruptFile(where + ": " + std::to_string(slots) +
                        " values are more than the stripe's streams can hold");
    }
    auto column = std::make_unique<ColumnVector>();
    try {
      constexpr uint64_t kSlotBytes = 1 + sizeof(int64_t);
      column->memory.add(slots > UINT64_MAX / kSlotBytes ? UINT64_MAX : slots * kSlotBytes,
                         "the values of a stripe's column");
    } catch (const MemoryLimitExceeded& e) {
      throw MemoryLimitExceeded(where + ": " + e.what() + "; use --memory-limit SIZE to raise the limit");
    }
    column->type = &type;
    column->size = slots;
    readPresent(*column, where);
    const uint64_t n = column->valueCount;
    const uint32_t id = type.columnId;
    switch (type.kind) {
      case TypeKind::kBoolean: {
        std::vector<uint8_t> bits(n);
        if (n > 0) {
          BooleanDecoder(streams_.require(id, proto::Stream::DATA, where), where + " DATA")
              .next(bits);
        }
        column->longs.assign(bits.begin(), bits.end());
        break;
      }
      case TypeKind::kByte: {
        std::vector<uint8_t> bytes(n);
        if (n > 0) {
          ByteRleDecoder(streams_.require(id, proto::Stream::DATA, where), where + " DATA")
              .next(bytes);
        }
        column->longs.resize(n);
        for (uint64_t i = 0; i < n; ++i) column->longs[i] = static_cast<int8_t>(bytes[i]);
        break;
      }
      case TypeKind::kShort:
      case TypeKind::kInt:
      case TypeKind::kLong:
      case TypeKind::kDate:
        column->longs = readIntegers(type, proto::Stream::DATA, true, n, where);
        break;
      case TypeKind::kFloat:
      case TypeKind::kDouble:
        readFloats(*column, n, where);
        break;
      case TypeKind::kString:
      case TypeKind::kVarchar:
      case TypeKind::kChar:
      case TypeKind::kBinary:
        readStrings(*column, n, where);
        break;
      case TypeKind::kTimestamp:
      case TypeKind::kTimestampInstant:
        readTimestamps(*column, n, where);
        break;
      case TypeKind::kDecimal:
        readDecimals(*column, n, where);
        break;
      case TypeKind::kStruct:
        for (const OrcType* child : type.children) {
          column->children.push_back(projected_[child->columnId] ? decode(*child, n) : nullptr);
        }
        break;
      case TypeKind::kList:
      case TypeKind::kMap: {
        const auto lengths = readIntegers(type, proto::Stream::LENGTH, false, n, where);
        column->offsets.resize(n + 1);
        uint64_t total = 0;
        for (uint64_t i = 0; i < n; ++i) {
          const auto length = static_cast<uint64_t>(lengths[i]);
          if (length > slotLimit_ || total + length > slotLimit_) {
            throw CorruptFile(where +
                              ": the LENGTH stream's lengths add up to more values than "
                              "the stripe's streams can hold, at value " +
                              std::to_string(i));
          }
          total += length;
          column->offsets[i + 1] = total;
        }
        for (const OrcType* child : type.children)
          column->children.push_back(decode(*child, total));
        break;
      }
      case TypeKind::kUnion: {
        std::vector<uint8_t> tags(n);
        if (n > 0) {
          ByteRleDecoder(streams_.require(id, proto::Stream::DATA, where), where + " DATA")
              .next(tags);
        }
        std::vector<uint64_t> counts(type.children.size());
        column->longs.resize(n);
        column->unionSlots.resize(n);
        for (uint64_t i = 0; i < n; ++i) {
          if (tags[i] >= counts.size()) {
            throw CorruptFile(where + ": union tag " + std::to_string(tags[i]) + " at value " +
                              std::to_string(i) + " names no variant (" +
                              std::to_string(counts.size()) + " variants)");
          }
          column->longs[i] = tags[i];
          column->unionSlots[i] = counts[tags[i]]++;
        }
        for (size_t v = 0; v < type.children.size(); ++v) {
          column->children.push_back(decode(*type.children[v], counts[v]));
        }
        break;
      }
    }
    if (type.kind == TypeKind::kTimestamp) column->writerTimezone = footer_.writerTimezone;
    return column;
  }

 private:
  std::string columnContext(const OrcType& type) const {
    return context_ + " column " + std::to_string(type.columnId) +
           (type.path.empty() ? "" : " '" + type.path + "'");
  }

  RleVersion rleVersion(const OrcType& type) const {
    const auto encoding = footer_.encoding(type.columnId);
    return encoding == proto::ColumnEncoding::DIRECT_V2 ||
                   encoding == proto::ColumnEncoding::DICTIONARY_V2
               ? RleVersion::kV2
               : RleVersion::kV1;
  }

  bool isDictionary(const OrcType& type) const {
    const auto encoding = footer_.encoding(type.columnId);
    return encoding == proto::ColumnEncoding::DICTIONARY ||
           encoding == proto::ColumnEncoding::DICTIONARY_V2;
  }

  void readPresent(ColumnVector& column, const std::string& where) {
    bool found = false;
    const auto bytes = streams_.find(column.type->columnId, proto::Stream::PRESENT, found);
    if (!found || column.size == 0) {
      column.valueCount = column.size;
      return;
    }
    column.present.resize(column.size);
    BooleanDecoder(bytes, where + " PRESENT").next(column.present);
    uint64_t count = 0;
    for (uint8_t& bit : column.present) {
      bit = bit != 0;
      count += bit;
    }
    column.valueCount = count;
    if (count == column.size) column.present.clear();
  }

  std::vector<int64_t> readIntegers(const OrcType& type, StreamKind kind, bool isSigned, uint64_t n,
                                    const std::string& where) {
    std::vector<int64_t> values(n);
    if (n == 0) return values;
    const auto bytes = streams_.require(type.columnId, kind, where);
    makeIntegerDecoder(rleVersion(type), bytes, isSigned, where + " " + toString(kind))
        ->next(values);
    return values;
  }

  void readFloats(ColumnVector& column, uint64_t n, const std::string& where) {
    const bool isFloat = column.type->kind == TypeKind::kFloat;
    const size_t width = isFloat ? 4 : 8;
    column.doubles.resize(n);
    if (n == 0) return;
    const auto bytes = streams_.require(column.type->columnId, proto::Stream::DATA, where);
    if (bytes.size() / width < n) {
      throw CorruptFile(where + ": the DATA stream holds " + std::to_string(bytes.size()) +
                        " bytes, too few for " + std::to_string(n) + " values");
    }
    // IEEE 754 little endian, as the hosts quarry runs on.
    if (isFloat) {
      for (uint64_t i = 0; i < n; ++i) {
        float f;
        std::memcpy(&f, bytes.data() + i * 4, 4);
        column.doubles[i] = f;
      }
    } else {
      std::memcpy(column.doubles.data(), bytes.data(), n * 8);
    }
  }

  void readStrings(ColumnVector& column, uint64_t n, const std::string& where) {
    const OrcType& type = *column.type;
    column.offsets.assign(n + 1, 0);
    if (n == 0) return;
    if (!isDictionary(type)) {
      const auto lengths = readIntegers(type, proto::Stream::LENGTH, false, n, where);
      const auto data = streams_.require(type.columnId, proto::Stream::DATA, where);
      uint64_t total = 0;
      for (uint64_t i = 0; i < n; ++i) {
        const auto length = static_cast<uint64_t>(lengths[i]);
        if (length > data.size() - total) {
          throw CorruptFile(where + ": value " + std::to_string(i) + "'s length " +
                            std::to_string(length) + " runs past the DATA stream (" +
                            std::to_string(data.size()) + " bytes)");
        }
        total += length;
        column.offsets[i + 1] = total;
      }
      column.bytes.assign(reinterpret_cast<const char*>(data.data()), total);
      return;
    }
    const uint64_t dictionarySize = footer_.dictionarySize(type.columnId);
    const auto lengthBytes = streams_.require(type.columnId, proto::Stream::LENGTH, where);
    if (dictionarySize > kMaxSlotsPerByte * (lengthBytes.size() + 1)) {
      throw CorruptFile(where + ": the dictionary size " + std::to_string(dictionarySize) +
                        " is more than the LENGTH stream can hold");
    }
    const auto lengths = readIntegers(type, proto::Stream::LENGTH, false, dictionarySize, where);
    const auto blob = streams_.require(type.columnId, proto::Stream::DICTIONARY_DATA, where);
    std::vector<uint64_t> starts(dictionarySize + 1, 0);
    for (uint64_t i = 0; i < dictionarySize; ++i) {
      const auto length = static_cast<uint64_t>(lengths[i]);
      if (length > blob.size() - starts[i]) {
        throw CorruptFile(where + ": dictionary entry " + std::to_string(i) + "'s length " +
                          std::to_string(lengths[i]) + " runs past the DICTIONARY_DATA stream (" +
                          std::to_string(blob.size()) + " bytes)");
      }
      starts[i + 1] = starts[i] + length;
    }
    const auto indices = readIntegers(type, proto::Stream::DATA, false, n, where);
    uint64_t total = 0;
    for (uint64_t i = 0; i < n; ++i) {
      const auto index = static_cast<uint64_t>(indices[i]);
      if (index >= dictionarySize) {
        throw CorruptFile(where + ": dictionary index " + std::to_string(index) + " at value " +
                          std::to_string(i) + " is past the dictionary's " +
                          std::to_string(dictionarySize) + " entries");
      }
      total += starts[index + 1] - starts[index];
      column.offsets[i + 1] = total;
    }
    column.bytes.resize(total);
    for (uint64_t i = 0; i < n; ++i) {
      const auto index = static_cast<uint64_t>(indices[i]);
      std::memcpy(column.bytes.data() + column.offsets[i], blob.data() + starts[index],
                  starts[index + 1] - starts[index]);
    }
  }

  void readTimestamps(ColumnVector& column, uint64_t n, const std::string& where) {
    const OrcType& type = *column.type;
    column.longs.resize(n);
    column.nanos.resize(n);
    if (n == 0) return;
    const Timezone& zone =
        type.kind == TypeKind::kTimestampInstant || footer_.writerTimezone.empty()
            ? Timezone::utc()
            : Timezone::byName(footer_.writerTimezone);
    TimestampDecoder decoder(
        rleVersion(type), streams_.require(type.columnId, proto::Stream::DATA, where),
        streams_.require(type.columnId, proto::Stream::SECONDARY, where), zone, where);
    std::vector<int64_t> nanos(n);
    decoder.nextInstants(column.longs, nanos);
    column.nanos.assign(nanos.begin(), nanos.end());
  }

  void readDecimals(ColumnVector& column, uint64_t n, const std::string& where) {
    const OrcType& type = *column.type;
    bool hasScales = false;
    streams_.find(type.columnId, proto::Stream::SECONDARY, hasScales);
    if (!hasScales && type.precision >= 1 && type.precision <= 18) {
      // Decimal64 (ORC 2.0 draft): unscaled values as signed RLE integers, no scales.
      column.longs = readIntegers(type, proto::Stream::DATA, true, n, where);
      return;
    }
    const auto scales = readIntegers(type, proto::Stream::SECONDARY, true, n, where);
    std::vector<Int128> values(n);
    if (n > 0) {
      const auto data = streams_.require(type.columnId, proto::Stream::DATA, where);
      size_t pos = 0;
      const std::string dataContext = where + " DATA";
      for (uint64_t i = 0; i < n; ++i) values[i] = readSignedVarint128(data, pos, dataContext);
    }
    if (type.precision == 0) {
      column.wideDecimals = std::move(values);
      column.decimalScales.assign(scales.begin(), scales.end());
      return;
    }
    const int target = static_cast<int>(type.scale);
    for (uint64_t i = 0; i < n; ++i) {
      const int64_t scale = scales[i];
      if (scale < 0 || scale > 38) {
        throw CorruptFile(where + ": decimal scale " + std::to_string(scale) + " at value " +
                          std::to_string(i) + " is outside 0..38");
      }
      if (scale < target) {
        values[i] *= powerOfTen128(target - static_cast<int>(scale));
      } else if (scale > target) {
        values[i] /= powerOfTen128(static_cast<int>(scale) - target);
      }
    }
    if (type.precision <= 18) {
      column.longs.resize(n);
      for (uint64_t i = 0; i < n; ++i) column.longs[i] = static_cast<int64_t>(values[i]);
    } else {
      column.wideDecimals = std::move(values);
    }
  }

  const StripeFooter& footer_;
  const StripeStreams& streams_;
  const std::vector<bool>& projected_;
  const std::string& context_;
  uint64_t slotLimit_ = 0;
};

}  // namespace

uint64_t ColumnVector::valueIndex(uint64_t slot) const {
  if (present.empty()) return slot;
  if (valueIndex_.empty()) {
    valueIndex_.resize(size);
    uint64_t next = 0;
    for (uint64_t i = 0; i < size; ++i) {
      valueIndex_[i] = next;
      next += present[i];
    }
  }
  return valueIndex_[slot];
}

int64_t ColumnVector::wallClockSeconds(uint64_t i) const {
  if (type->kind != TypeKind::kTimestamp || writerTimezone.empty()) return longs[i];
  return Timezone::byName(writerTimezone).utcToLocal(longs[i]);
}

std::unique_ptr<ColumnVector> decodeColumn(const OrcType& type, uint64_t slots,
                                           const StripeFooter& footer, const StripeStreams& streams,
                                           const std::vector<bool>& projected,
                                           const std::string& context) {
  return ColumnDecoder(footer, streams, projected, context).decode(type, slots);
}

}  // namespace quarry::orc
