#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tests/formats/parquet/filter_differential.h"
#include "tests/formats/parquet/parquet_fixture_writer.h"
#include "tests/support/fixture_file.h"

// Differential test for the types DuckDB cannot write (so predicate_types.parquet
// lacks them): FLOAT16, INT96 timestamps, DECIMAL over BYTE_ARRAY, TIME(MILLIS) on
// INT32, TIME(NANOS) on INT64 and INT(8/16, unsigned). The file is written at test
// time by parquet_fixture_writer.h (four row groups: PLAIN, dictionary, dictionary
// then PLAIN pages; exact statistics with null_count and nan_count), and DuckDB
// reads it as FLOAT, TIMESTAMP, DECIMAL(20,2), TIME, TIME_NS, INTEGER and INTEGER. Random predicates are compared with DuckDB's WHERE row for row, read
// with metadata pruning on and off (filter_differential.h; QUARRY_PREDICATE_CASES,
// default 3000; QUARRY_PREDICATE_SEED).
//
// Known divergences kept out of the generator:
// - DuckDB's -0.0 equals +0.0 (the spec orders -0.0 below +0.0): the column holds
//   both zeros, but no zero literal is drawn.
// - DuckDB has one NaN; the spec's total order puts a negative-sign NaN below
//   -infinity: only the positive quiet NaN is stored.
// - DuckDB's TIME is microseconds: TIME(MILLIS) literals are whole microseconds
//   (TIME_NS and TIMESTAMP_NS, DuckDB's types for TIME(NANOS) and INT96, take
//   nanosecond literals).
// - DuckDB reads INT96 as a microsecond TIMESTAMP: the stored instants are whole
//   microseconds (within TIMESTAMP_NS's range, 1677..2262, for the literals).
namespace quarry::parquet {
namespace {

using namespace quarry::parquet::testing;
using Int128 = __int128;

constexpr int kRows = 48;
constexpr int kRowGroups = 4;
constexpr int64_t kNanosPerDay = 86'400'000'000'000;
constexpr int32_t kUnixEpochJulianDay = 2'440'588;

// ---- Stored values ---------------------------------------------------------

std::string half(uint16_t bits) { return le(bits); }

const std::vector<Raw> kHalves = {
    half(0x7E00), half(0x8000), half(0x0000), half(0x7C00), half(0xFC00), half(0x7BFF),
    half(0xFBFF), half(0x0001), half(0x0400), half(0x3C00), half(0x3E00), half(0xC100),
    half(0x2E66), std::nullopt, half(0x3DFF)};

/// INT96 of an instant in nanoseconds since the epoch.
std::string int96Of(int64_t epochNanos) {
  const int64_t day = epochNanos >= 0 ? epochNanos / kNanosPerDay : -((-epochNanos - 1) / kNanosPerDay) - 1;
  return int96(epochNanos - day * kNanosPerDay, static_cast<int32_t>(day + kUnixEpochJulianDay));
}

// Whole microseconds: DuckDB reads INT96 as TIMESTAMP (microseconds, flooring
// the nanoseconds), so a stored sub-microsecond part would be compared after
// that rounding. Literals still carry nanoseconds (DuckDB compares TIMESTAMP
// with TIMESTAMP_NS exactly).
const std::vector<int64_t> kInstants = {
    0,                              // the epoch
    1000,                           // and a microsecond after it
    -1000,                          // 1969-12-31 23:59:59.999999
    946'728'000'123'456'000,        // 2000-01-01 12:00:00.123456
    946'728'000'123'457'000,
    -2'208'988'800'000'000'000,     // 1900-01-01
    -2'208'988'799'999'999'000,     // 1900-01-01 plus a microsecond
    9'000'000'000'000'000'000,      // 2255-03-14 16:00
    -9'000'000'000'000'000'000,     // 1684-10-19 08:00
    1'700'000'000'999'999'000,
};

std::string minimalTwosComplement(Int128 v) {
  std::string out;
  for (int i = 15; i >= 0; --i) out += static_cast<char>(static_cast<uint8_t>(static_cast<unsigned __int128>(v) >> (8 * i)));
  // Drop leading bytes that only repeat the sign.
  size_t start = 0;
  while (start + 1 < out.size() &&
         ((out[start] == 0 && !(out[start + 1] & 0x80)) ||
          (static_cast<uint8_t>(out[start]) == 0xFF && (out[start + 1] & 0x80)))) {
    ++start;
  }
  return out.substr(start);
}

Int128 pow10(int n) {
  Int128 v = 1;
  while (n-- > 0) v *= 10;
  return v;
}

const Int128 kDecimalMax = pow10(20) - 1;  // DECIMAL(20,2)'s largest unscaled value

const std::vector<Raw> kDecimals = {
    minimalTwosComplement(0),
    minimalTwosComplement(1),
    minimalTwosComplement(-1),
    minimalTwosComplement(12345),
    minimalTwosComplement(-12345),
    bytes({0x00, 0x00, 0x30, 0x39}),  // 123.45 with redundant sign bytes
    bytes({0xFF, 0xFF, 0xCF, 0xC7}),  // -123.45 likewise
    minimalTwosComplement(pow10(18) + 1),
    minimalTwosComplement(kDecimalMax),
    minimalTwosComplement(-kDecimalMax),
    minimalTwosComplement(Int128{9'223'372'036'854'775'807} + 1),
    std::nullopt,
    minimalTwosComplement(-200),
};

const std::vector<int32_t> kMillis = {0, 1, 43'200'000, 86'399'999, 12'345'678, 43'199'999};
const std::vector<int64_t> kNanosOfDay = {0, 1, 999, 1000, 43'200'000'000'000, 86'399'999'999'999,
                                          12'345'678'901'234, 12'345'678'901'000};
const std::vector<int32_t> kU8 = {0, 1, 127, 128, 200, 255};
const std::vector<int32_t> kU16 = {0, 1, 32767, 32768, 40000, 65535};

/// A column's values, cycled with a stride of its own so that rows mix them.
template <typename T, typename F>
std::vector<Raw> cycle(const std::vector<T>& values, size_t stride, size_t nullEvery, F encode) {
  std::vector<Raw> out;
  for (size_t i = 0; i < kRows; ++i) {
    if (nullEvery != 0 && i % nullEvery == nullEvery - 1) {
      out.push_back(std::nullopt);
      continue;
    }
    out.push_back(encode(values[(i * stride + i / values.size()) % values.size()]));
  }
  return out;
}

// ---- Statistics ----------------------------------------------------------

int64_t intOf(const std::string& s) {
  int64_t v = 0;
  std::memcpy(&v, s.data(), s.size());
  if (s.size() == 4) v = static_cast<int32_t>(v);
  return v;
}

Int128 decimalValue(const std::string& s) {
  Int128 v = (static_cast<uint8_t>(s[0]) & 0x80) ? -1 : 0;
  for (char c : s) v = v * 256 + static_cast<uint8_t>(c);
  return v;
}

float halfValue(const std::string& s) {
  return Float16{static_cast<uint16_t>(static_cast<uint8_t>(s[0]) | static_cast<uint8_t>(s[1]) << 8)}.toFloat();
}

/// Exact statistics of one chunk under `less`; NaN halves are counted, not bounds.
Statistics statisticsOf(const std::vector<Raw>& values, const std::function<bool(const std::string&, const std::string&)>& less,
                        bool isHalf) {
  std::optional<std::string> min, max;
  int64_t nulls = 0, nans = 0;
  for (const auto& v : values) {
    if (!v) {
      ++nulls;
      continue;
    }
    if (isHalf && std::isnan(halfValue(*v))) {
      ++nans;
      continue;
    }
    if (!min || less(*v, *min)) min = *v;
    if (!max || less(*max, *v)) max = *v;
  }
  if (isHalf && min && halfValue(*min) == 0) min = half(0x8000);  // a zero bound: -0.0 below,
  if (isHalf && max && halfValue(*max) == 0) max = half(0x0000);  // +0.0 above
  return boundsOf(min, max, nulls, isHalf ? std::optional<int64_t>(nans) : std::nullopt);
}

struct WrittenColumn {
  SchemaElement element;
  std::vector<Raw> values;
  std::function<bool(const std::string&, const std::string&)> less;  // null: no bounds
  bool isHalf = false;
};

std::vector<WrittenColumn> writtenColumns() {
  using K = LogicalType::Kind;
  auto byInt = [](const std::string& a, const std::string& b) { return intOf(a) < intOf(b); };
  std::vector<WrittenColumn> out;
  SchemaElement id = leafElement("id", PhysicalType::INT32);
  id.repetition_type = FieldRepetitionType::REQUIRED;
  std::vector<int32_t> ids;
  for (int32_t i = 0; i < kRows; ++i) ids.push_back(i);
  out.push_back({id, cycle(ids, 1, 0, [](int32_t v) { return le(v); }), byInt});
  out.push_back({withLogical(leafElement("f16", PhysicalType::FIXED_LEN_BYTE_ARRAY, 2), logical(K::FLOAT16)),
                 cycle(kHalves, 7, 0, [](const Raw& v) { return v; }),
                 [](const std::string& a, const std::string& b) { return halfValue(a) < halfValue(b); }, true});
  out.push_back({leafElement("i96", PhysicalType::INT96), cycle(kInstants, 3, 11, int96Of), nullptr});
  SchemaElement dec = withLogical(leafElement("dec", PhysicalType::BYTE_ARRAY), decimalType(20, 2));
  dec.converted_type = ConvertedType::DECIMAL;
  dec.scale = 2;
  dec.precision = 20;
  out.push_back({dec, cycle(kDecimals, 5, 0, [](const Raw& v) { return v; }),
                 [](const std::string& a, const std::string& b) { return decimalValue(a) < decimalValue(b); }});
  out.push_back({withLogical(leafElement("tms", PhysicalType::INT32), timeType(K::TIME, TimeUnit::MILLIS, false)),
                 cycle(kMillis, 5, 7, [](int32_t v) { return le(v); }), byInt});
  out.push_back({withLogical(leafElement("tns", PhysicalType::INT64), timeType(K::TIME, TimeUnit::NANOS, false)),
                 cycle(kNanosOfDay, 3, 9, [](int64_t v) { return le(v); }), byInt});
  out.push_back({withLogical(leafElement("u8", PhysicalType::INT32), intType(8, false)),
                 cycle(kU8, 5, 8, [](int32_t v) { return le(v); }), byInt});
  out.push_back({withLogical(leafElement("u16", PhysicalType::INT32), intType(16, false)),
                 cycle(kU16, 7, 10, [](int32_t v) { return le(v); }), byInt});
  return out;
}

/// Writes the file: kRowGroups row groups of PLAIN, dictionary and mixed pages.
void writeFile(const std::filesystem::path& path) {
  const auto columns = writtenColumns();
  ParquetFixtureWriter w;
  for (const auto& c : columns) w.column(c.element);
  constexpr size_t kPerGroup = kRows / kRowGroups;
  for (size_t g = 0; g < kRowGroups; ++g) {
    std::vector<FixtureChunk> chunks;
    for (const auto& c : columns) {
      FixtureChunk chunk;
      chunk.values.assign(c.values.begin() + static_cast<std::ptrdiff_t>(g * kPerGroup),
                          c.values.begin() + static_cast<std::ptrdiff_t>((g + 1) * kPerGroup));
      if (c.less) {
        chunk.statistics = statisticsOf(chunk.values, c.less, c.isHalf);
      } else {
        Statistics nullsOnly;
        int64_t nulls = 0;
        for (const auto& v : chunk.values) nulls += v ? 0 : 1;
        nullsOnly.null_count = nulls;
        chunk.statistics = nullsOnly;
      }
      chunk.pages = g == 1   ? FixtureChunk::Pages::kDictionary
                    : g == 2 ? FixtureChunk::Pages::kDictionaryThenPlain
                             : FixtureChunk::Pages::kPlain;
      chunks.push_back(std::move(chunk));
    }
    w.rowGroup(std::move(chunks));
  }
  const std::vector<uint8_t> bytes = w.bytes();
  quarry::testing::writeFileBytes(path, bytes);
}

// ---- Literals ----------------------------------------------------------------

using Drawn = std::pair<PredicateLiteral, std::string>;

Decimal decimalOf128(Int128 unscaled, int32_t scale) {
  Decimal d;
  d.scale = scale;
  const std::string b = minimalTwosComplement(unscaled);
  d.unscaledBigEndian.assign(b.begin(), b.end());
  return d;
}

std::vector<ColumnGen> generators() {
  std::vector<ColumnGen> out;
  out.push_back({"id", [](std::mt19937_64& r) {
                   const int32_t v = pick<int32_t>(r, {-1, 0, 1, 11, 12, 24, 47, 48});
                   return Drawn{v, "CAST(" + std::to_string(v) + " AS INTEGER)"};
                 }});
  // No zero literal (see the top).
  out.push_back({"f16", [](std::mt19937_64& r) {
                   const float v = pick<float>(r, {1.0f, 1.5f, 1.4990234375f, 1.25f, -2.5f, 0.0999755859375f, 0.1f,
                                                   65504.0f, -65504.0f, 65520.0f, 5.9604645e-8f, 2.9802322e-8f,
                                                   6.1035156e-5f, NAN, INFINITY, -INFINITY, -1.0f});
                   return Drawn{v, "CAST(" + floatText(v) + " AS FLOAT)"};
                 }});
  // "a float no IEEE half represents" (0.1, 65520, 2^-25) is not a value it can hold.
  out.back().holds = [](const PredicateLiteral& literal) {
    const auto* f = std::get_if<float>(&literal);
    if (f == nullptr || std::isnan(*f) || std::isinf(*f) || *f == 0) return true;
    const double a = std::fabs(static_cast<double>(*f));
    if (a > 65504) return false;
    int exponent = 0;
    std::frexp(a, &exponent);  // a = m * 2^exponent, m in [0.5, 1)
    const double quantum = std::ldexp(1.0, std::max(exponent - 1, -14) - 10);
    return std::floor(a / quantum) == a / quantum;
  };
  // INT96 takes quarry::Instant literals only (not LocalDateTime); nanosecond
  // neighbours of the stored instants included.
  out.push_back({"i96", [](std::mt19937_64& r) {
                   const int64_t nanos = pick(r, kInstants) + pick<int64_t>(r, {0, 0, 0, 1, -1, 1000, -1000});
                   const Instant i = Instant::ofEpochUnits(nanos, 1'000'000'000);
                   return Drawn{i, "CAST('" + i.toString(9) + "' AS TIMESTAMP_NS)"};
                 }});
  out.push_back({"dec", [](std::mt19937_64& r) {
                   const Int128 base = pick<Int128>(r, {0, 1, -1, 12345, -12345, pow10(18) + 1, kDecimalMax,
                                                        -kDecimalMax, Int128{9'223'372'036'854'775'807} + 1, -200, 5});
                   const Int128 unscaled = base + pick<Int128>(r, {0, 0, 1, -1});
                   const int32_t scale = pick<int32_t>(r, {2, 2, 0, 3, 4});
                   const Decimal d = decimalOf128(unscaled, scale);
                   return Drawn{d, d.toString()};
                 }});
  out.back().holds = decimalHolds(2, 1 << 20);  // DECIMAL(20,2) over BYTE_ARRAY: any width, scale 2
  out.push_back({"tms", [](std::mt19937_64& r) {
                   int64_t micros = int64_t{pick(r, kMillis)} * 1000 + pick<int64_t>(r, {0, 0, 1000, -1000, 1, -1});
                   // A time of day outside 00:00..24:00 wraps round in DuckDB's TIME arithmetic.
                   if (micros < 0 || micros >= kNanosPerDay / 1000) micros = 0;
                   return Drawn{TimeOfDay{micros * 1000},
                                "(TIME '00:00:00' + to_microseconds(" + std::to_string(micros) + "::BIGINT))"};
                 }});
  out.back().holds = unitHolds(1'000'000);  // TIME(MILLIS)
  out.push_back({"tns", [](std::mt19937_64& r) {
                   const int64_t nanos = pick(r, kNanosOfDay) + pick<int64_t>(r, {0, 0, 1, -1, 1000});
                   const TimeOfDay t{nanos < 0 || nanos >= kNanosPerDay ? 0 : nanos};
                   return Drawn{t, "CAST('" + t.toString(9) + "' AS TIME_NS)"};
                 }});
  // "An unsigned column's literal is the stored two's-complement bit pattern ...
  // Comparisons order by the unsigned magnitude regardless": -1 is 4294967295.
  for (const char* name : {"u8", "u16"}) {
    out.push_back({name, [](std::mt19937_64& r) {
                     const int32_t v = pick<int32_t>(r, {0, 1, 127, 128, 200, 255, 256, 32767, 32768, 40000, 65535, 65536, -1});
                     return Drawn{v, "CAST(" + std::to_string(static_cast<uint32_t>(v)) + " AS BIGINT)"};
                   }});
  }
  return out;
}

const std::vector<std::string> kNullable = {"f16", "i96", "dec", "tms", "tns", "u8", "u16"};

TEST(FilterDifferentialWrittenTypesTest, RandomPredicatesSelectTheRowsDuckDbSelects) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("quarry-filter-diff-written-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "written_types.parquet";
  writeFile(file);
  runDifferential(file.string(), generators(), kNullable, true, 3000);
  if (!std::getenv("QUARRY_PREDICATE_KEEP")) std::filesystem::remove_all(dir);
}

// "Equality ... against a value the column cannot store ... throws
// IllegalArgumentException when the reader is built" (a half no IEEE half
// represents, a decimal past the scale, a TIME finer than MILLIS); ordered
// predicates with the same literals are answered.
TEST(FilterDifferentialWrittenTypesTest, RefusesEqualityWithLiteralsTheColumnCannotHold) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("quarry-filter-refusals-written-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "written_types.parquet";
  writeFile(file);
  EXPECT_GE(checkRefusalRules(file.string(), generators()), 5);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace quarry::parquet
