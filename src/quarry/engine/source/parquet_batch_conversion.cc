#include "quarry/engine/source/parquet_batch_conversion.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "quarry/common/big_endian.h"
#include "quarry/common/error.h"
#include "quarry/common/little_endian.h"
#include "quarry/engine/source/parquet_list_column.h"

namespace quarry::engine {

namespace {

using parquet::LogicalType;
using parquet::PhysicalType;
using LKind = LogicalType::Kind;

double halfToDouble(uint16_t h) {
  const int sign = (h >> 15) & 1;
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  double v = 0;
  if (exponent == 0) {
    v = std::ldexp(mantissa, -24);
  } else if (exponent == 31) {
    v = mantissa == 0 ? INFINITY : NAN;
  } else {
    v = std::ldexp(mantissa + 1024, exponent - 25);
  }
  return sign ? -v : v;
}

double bigEndianDecimalToDouble(std::string_view bytes, int32_t scale) {
  const bool negative = !bytes.empty() && static_cast<uint8_t>(bytes[0]) >= 0x80;
  // The magnitude of the two's complement value, accumulated in long double.
  long double magnitude = 0;
  if (negative) {
    // -x = ~x + 1: accumulate the complement, then add one.
    for (char c : bytes)
      magnitude = magnitude * 256 + static_cast<uint8_t>(~static_cast<uint8_t>(c));
    magnitude += 1;
  } else {
    for (char c : bytes) magnitude = magnitude * 256 + static_cast<uint8_t>(c);
  }
  const long double v = magnitude / std::pow(10.0L, scale);
  return static_cast<double>(negative ? -v : v);
}

/// Sets `out` (of the leaf's engine type) to `rows` of `batch`, each value
/// through `convert(denseIndex)`, written straight into the block's storage (a
/// null's position holds zero).
template <typename T, typename Convert>
void fillFixed(const parquet::ColumnBatch& batch, const BatchRows& rows, Block& out,
               Convert convert) {
  const parquet::ColumnChunkData& data = batch.data();
  const size_t n = static_cast<size_t>(rows.count);
  std::vector<T> values(n);
  if (data.definitionLevels.empty() && data.valueCount == batch.rowCount()) {
    if (rows.selected == nullptr) {
      for (size_t k = 0; k < n; ++k) values[k] = convert(rows.offset + static_cast<int64_t>(k));
    } else {
      for (size_t k = 0; k < n; ++k) values[k] = convert(rows.selected[k]);
    }
    out = Block::fromValues(out.type(), std::move(values));
    return;
  }
  const int64_t* index = batch.valueIndex().data();
  std::vector<uint8_t> validity(n, 1);
  bool anyNull = false;
  for (size_t k = 0; k < n; ++k) {
    const int64_t v = index[rows[k]];
    if (v < 0) {
      validity[k] = 0;
      anyNull = true;
    } else {
      values[k] = convert(v);
    }
  }
  out = Block::fromValues(out.type(), std::move(values),
                          anyNull ? std::move(validity) : std::vector<uint8_t>{});
}

void fillBytes(const parquet::ColumnBatch& batch, const BatchRows& rows, Block& out) {
  const parquet::ColumnChunkData& data = batch.data();
  const size_t n = static_cast<size_t>(rows.count);
  out.reserve(n);
  if (data.definitionLevels.empty() && data.valueCount == batch.rowCount()) {
    if (data.valueWidth == 0 &&
        rows.selected == nullptr) {  // BYTE_ARRAY: one copy of the run's bytes
      out.appendBytesRun(reinterpret_cast<const char*>(data.byteData.data()),
                         std::span<const int64_t>(data.offsets.data() + rows.offset, n + 1));
      return;
    }
    for (size_t k = 0; k < n; ++k) out.appendBytes(data.bytes(rows[k]));
    return;
  }
  std::span<const int64_t> index = batch.valueIndex();
  std::vector<uint8_t> validity(n, 1);
  bool anyNull = false;
  for (size_t k = 0; k < n; ++k) {
    const int64_t v = index[static_cast<size_t>(rows[k])];
    if (v < 0) {
      out.appendBytes({});
      validity[k] = 0;
      anyNull = true;
    } else {
      out.appendBytes(data.bytes(v));
    }
  }
  if (anyNull) out.setValidity(std::move(validity));
}

/// `rows` of a chunk in the dictionary form as a dictionary block; ids were
/// checked against the dictionary when decoded.
Block fillDictionaryIds(const parquet::ColumnBatch& batch, const DataType& type,
                        const BatchRows& rows, ParquetColumnConversion::DictionaryCache& cache) {
  const parquet::ColumnChunkData& data = batch.data();
  if (cache.parquet != data.dictionary) {
    auto dictionary = std::make_shared<ByteDictionary>();
    dictionary->offsets.reserve(data.dictionary->count + 1);
    dictionary->data.reserve(data.dictionary->bytes.size());
    for (size_t k = 0; k < data.dictionary->count; ++k)
      dictionary->append(data.dictionary->entry(k));
    cache.parquet = data.dictionary;
    cache.engine = std::move(dictionary);
  }
  const size_t n = static_cast<size_t>(rows.count);
  std::vector<uint32_t> ids(n);
  const uint32_t* from = data.dictionaryIds.data();
  if (data.definitionLevels.empty() && data.valueCount == batch.rowCount()) {
    if (rows.selected == nullptr) {
      std::copy(from + rows.offset, from + rows.offset + rows.count, ids.begin());
    } else {
      for (size_t k = 0; k < n; ++k) ids[k] = from[rows.selected[k]];
    }
    return Block::fromDictionary(type, cache.engine, std::move(ids));
  }
  std::span<const int64_t> index = batch.valueIndex();
  std::vector<uint8_t> validity(n, 1);
  for (size_t k = 0; k < n; ++k) {
    const int64_t v = index[static_cast<size_t>(rows[k])];
    ids[k] = v < 0 ? 0 : from[v];
    validity[k] = v >= 0;
  }
  return Block::fromDictionary(type, cache.engine, std::move(ids), std::move(validity));
}

/// `rows` of `batch` as a block of `type` (the leaf's engine type).
Block convertBatch(const parquet::ColumnBatch& batch, const DataType& type, const BatchRows& rows,
                   const std::string& uri,
                   ParquetColumnConversion::DictionaryCache& dictionaryCache) {
  const parquet::SchemaNode& leaf = batch.leaf();
  const parquet::ColumnChunkData& data = batch.data();
  Block out(type);
  // A type without values, or a chunk of nulls only (ColumnChunkData::allNull).
  if (type.kind == TypeKind::kNull || data.allNull)
    return Block::nulls(type, static_cast<size_t>(rows.count));
  switch (*leaf.physicalType) {
    case PhysicalType::BOOLEAN: {
      auto v = data.values<uint8_t>();
      fillFixed<uint8_t>(batch, rows, out, [&](int64_t i) { return v[i]; });
      return out;
    }
    case PhysicalType::INT32: {
      auto v = data.values<int32_t>();
      switch (type.kind) {
        case TypeKind::kInt64:  // INT(32, unsigned)
          fillFixed<int64_t>(batch, rows, out,
                             [&](int64_t i) { return int64_t{static_cast<uint32_t>(v[i])}; });
          return out;
        case TypeKind::kTime:  // TIME(MILLIS)
          fillFixed<int64_t>(batch, rows, out, [&](int64_t i) { return int64_t{v[i]}; });
          return out;
        case TypeKind::kDecimal:
          fillFixed<Int128>(batch, rows, out, [&](int64_t i) { return Int128{v[i]}; });
          return out;
        default:  // int32, date; INT(8|16, unsigned) values are their int32 values
          fillFixed<int32_t>(batch, rows, out, [&](int64_t i) { return v[i]; });
          return out;
      }
    }
    case PhysicalType::INT64: {
      auto v = data.values<int64_t>();
      switch (type.kind) {
        case TypeKind::kUInt64:
          fillFixed<uint64_t>(batch, rows, out,
                              [&](int64_t i) { return static_cast<uint64_t>(v[i]); });
          return out;
        case TypeKind::kDecimal:
          fillFixed<Int128>(batch, rows, out, [&](int64_t i) { return Int128{v[i]}; });
          return out;
        default:  // int64, time, timestamp
          fillFixed<int64_t>(batch, rows, out, [&](int64_t i) { return v[i]; });
          return out;
      }
    }
    case PhysicalType::INT96: {
      const uint8_t* base = data.fixedValues.data();
      fillFixed<int64_t>(batch, rows, out, [&](int64_t i) {
        const uint8_t* p = base + i * 12;
        const int64_t nanosOfDay = loadLittleEndian<int64_t>(p);
        const int64_t julianDay = loadLittleEndian<int32_t>(p + 8);
        constexpr int64_t kUnixEpochJulianDay = 2440588;
        constexpr int64_t kNanosPerDay = 86'400'000'000'000;
        int64_t nanos = 0;
        if (__builtin_mul_overflow(julianDay - kUnixEpochJulianDay, kNanosPerDay, &nanos) ||
            __builtin_add_overflow(nanos, nanosOfDay, &nanos)) {
          throw InvalidArgument(uri + ": column " + leaf.path + ": the INT96 timestamp (day " +
                                std::to_string(julianDay) + ", nanosecond " +
                                std::to_string(nanosOfDay) +
                                ") is outside the range of timestamp(ns)");
        }
        return nanos;
      });
      return out;
    }
    case PhysicalType::FLOAT: {
      auto v = data.values<float>();
      fillFixed<double>(batch, rows, out, [&](int64_t i) { return double{v[i]}; });
      return out;
    }
    case PhysicalType::DOUBLE: {
      auto v = data.values<double>();
      fillFixed<double>(batch, rows, out, [&](int64_t i) { return v[i]; });
      return out;
    }
    case PhysicalType::BYTE_ARRAY:
    case PhysicalType::FIXED_LEN_BYTE_ARRAY: {
      if (type.kind == TypeKind::kDecimal) {
        // Fixed width: one dispatch on it per batch, not per value.
        const uint8_t* base = data.fixedValues.data();
        if (data.valueWidth > 0 && withByteWidth(data.valueWidth, [&]<size_t W>() {
              fillFixed<Int128>(batch, rows, out,
                                [&](int64_t i) { return bigEndianInt128<W>(base + i * W); });
            })) {
          return out;
        }
        fillFixed<Int128>(batch, rows, out, [&](int64_t i) {
          const std::string_view b = data.bytes(i);
          if (b.size() > 16) {
            throw CorruptFile(uri + ": column " + leaf.path + ": a " + type.toString() +
                              " value of " + std::to_string(b.size()) + " bytes");
          }
          return bigEndianInt128(reinterpret_cast<const uint8_t*>(b.data()), b.size());
        });
        return out;
      }
      if (type.kind == TypeKind::kDouble && leaf.logicalType.kind == LKind::DECIMAL) {
        const int32_t scale = leaf.logicalType.scale;
        fillFixed<double>(batch, rows, out, [&](int64_t i) {
          return bigEndianDecimalToDouble(data.bytes(i), scale);
        });
        return out;
      }
      if (type.kind == TypeKind::kDouble) {  // FLOAT16
        fillFixed<double>(batch, rows, out, [&](int64_t i) {
          const std::string_view b = data.bytes(i);
          return halfToDouble(static_cast<uint16_t>(static_cast<uint8_t>(b[0]) |
                                                    (static_cast<uint8_t>(b[1]) << 8)));
        });
        return out;
      }
      if (data.dictionary) return fillDictionaryIds(batch, type, rows, dictionaryCache);
      fillBytes(batch, rows, out);
      return out;
    }
  }
  throw Unsupported(uri + ": column " + leaf.path + ": an unknown physical type");
}

/// `rows` of a list column's `batch` as a block of `type` (a list type): the
/// rows' element slots converted as a flat column's rows are, in one pass.
Block convertListBatch(const parquet::ColumnBatch& batch, const DataType& type,
                       const BatchRows& rows, const std::string& uri,
                       ParquetColumnConversion::DictionaryCache& dictionaryCache) {
  ListRows shape = listRows(batch, rows.offset, rows.count, rows.selected);
  const BatchRows elementRows{shape.firstSlot, shape.slotCount,
                              shape.gathered ? shape.slots.data() : nullptr};
  Block elements = convertBatch(batch, type.elementType(), elementRows, uri, dictionaryCache);
  return Block::fromList(type, std::move(shape.offsets), std::move(elements),
                         std::move(shape.validity));
}

}  // namespace

Block ParquetColumnConversion::convert(const parquet::ColumnBatch& batch, const BatchRows& rows) {
  if (type_.isList()) return convertListBatch(batch, type_, rows, uri_, dictionary_);
  return convertBatch(batch, type_, rows, uri_, dictionary_);
}

}  // namespace quarry::engine
