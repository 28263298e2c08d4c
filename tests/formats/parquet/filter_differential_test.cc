#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <sstream>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_reader.h"

// Differential test: random FilterPredicates over tests/fixtures/predicate_types.parquet
// evaluated by RowReader and, as SQL WHERE clauses, by DuckDB (through
// tests/differential/filter_oracle.mjs); the selected ids must agree row for row.
//
// QUARRY_PREDICATE_CASES sets the number of cases (default 20000),
// QUARRY_PREDICATE_SEED the seed (default fixed; "random" draws one and prints it).
// Skips loudly when node or the DuckDB oracle (`make oracle`) is missing.
//
// Known divergences kept out of the generator: DuckDB's -0.0 equals +0.0 (the spec
// orders -0.0 below +0.0), so no zero float literal is drawn; DuckDB has no
// sub-microsecond timestamps, so no such literal either.
namespace quarry::parquet {
namespace {

using P = FilterPredicate;

struct Case {
  P predicate;
  std::string sql;
};

/// A column of the fixture and how to draw a (literal, SQL literal) pair for it.
struct ColumnGen {
  std::string name;
  std::function<std::pair<PredicateLiteral, std::string>(std::mt19937_64&)> literal;
  bool ordered = true;
  bool settable = true;
};

template <typename T>
T pick(std::mt19937_64& rng, const std::vector<T>& values) {
  return values[std::uniform_int_distribution<size_t>(0, values.size() - 1)(rng)];
}

std::string sqlString(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string hexBlob(const Bytes& b) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out = "'";
  for (uint8_t v : b) out += std::string("\\x") + kHex[v >> 4] + kHex[v & 15];
  return out + "'::BLOB";
}

std::string floatText(double v) {
  if (std::isnan(v)) return "'NaN'";
  if (std::isinf(v)) return v > 0 ? "'Infinity'" : "'-Infinity'";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "'%.17g'", v);
  return buffer;
}

Decimal decimalOf(int64_t unscaled, int32_t scale) {
  Decimal d;
  d.scale = scale;
  for (int i = 7; i >= 0; --i) d.unscaledBigEndian.push_back(static_cast<uint8_t>(static_cast<uint64_t>(unscaled) >> (8 * i)));
  return d;
}

std::vector<ColumnGen> columns() {
  std::vector<ColumnGen> out;
  out.push_back({"id", [](std::mt19937_64& r) {
                   const int32_t v = pick<int32_t>(r, {-1, 0, 1, 4, 5, 8, 9, 10, std::numeric_limits<int32_t>::min()});
                   return std::pair<PredicateLiteral, std::string>{v, "CAST(" + std::to_string(int64_t{v}) + " AS INTEGER)"};
                 }});
  out.push_back({"i64", [](std::mt19937_64& r) {
                   const int64_t v = pick<int64_t>(r, {-11, -10, -9, 0, 1, 4, 10, std::numeric_limits<int64_t>::max(),
                                                       std::numeric_limits<int64_t>::min(), 3});
                   const std::string text = v == std::numeric_limits<int64_t>::min()
                                                ? "(-9223372036854775807 - 1)::BIGINT"
                                                : std::to_string(v) + "::BIGINT";
                   return std::pair<PredicateLiteral, std::string>{v, text};
                 }});
  out.push_back({"u32", [](std::mt19937_64& r) {
                   const uint32_t v = pick<uint32_t>(r, {0, 1, 7, 8, 2147483647u, 2147483648u, 4000000000u, 4294967295u, 4294967294u});
                   return std::pair<PredicateLiteral, std::string>{static_cast<int32_t>(v),
                                                                   std::to_string(v) + "::UINTEGER"};
                 }});
  out.push_back({"f", [](std::mt19937_64& r) {
                   const float v = pick<float>(r, {1.5f, 2.5f, 2.4999998f, 5.5f, -1.0f, NAN, INFINITY, -INFINITY, 1e-30f});
                   return std::pair<PredicateLiteral, std::string>{v, "CAST(" + floatText(v) + " AS FLOAT)"};
                 }});
  out.push_back({"dbl", [](std::mt19937_64& r) {
                   const double v = pick<double>(r, {-1.0, -0.5, 2.5, 3.5, 5.5, 1e308, NAN, INFINITY, -INFINITY, 4.4999999});
                   return std::pair<PredicateLiteral, std::string>{v, "CAST(" + floatText(v) + " AS DOUBLE)"};
                 }});
  out.push_back({"s", [](std::mt19937_64& r) {
                   const std::string v = pick<std::string>(r, {"apple", "banana", "cherry", "caf\xC3\xA9", "", "cafe", "fig",
                                                              "figs", "a", "zzz"});
                   return std::pair<PredicateLiteral, std::string>{v, sqlString(v)};
                 }});
  out.push_back({"bl", [](std::mt19937_64& r) {
                   const Bytes v = pick<Bytes>(r, {{0x00, 0xC8}, {0x00, 0xC9}, {0x01}, {0xFF}, {0x00}, {}, {0x02, 0x00}, {0x04}});
                   return std::pair<PredicateLiteral, std::string>{v, hexBlob(v)};
                 }});
  out.push_back({"d", [](std::mt19937_64& r) {
                   const int32_t day = pick<int32_t>(r, {20454, 20453, 20455, 0, -1, 11016, 20605, 20636, 20666});
                   return std::pair<PredicateLiteral, std::string>{Date{day}, "(DATE '1970-01-01' + " + std::to_string(day) + ")"};
                 }});
  out.push_back({"ts", [](std::mt19937_64& r) {
                   const int64_t micros = pick<int64_t>(r, {int64_t{20454} * 86'400'000'000, int64_t{20454} * 86'400'000'000 + 1,
                                                            int64_t{20454} * 86'400'000'000 - 1, 0, -1, 951825600000000});
                   return std::pair<PredicateLiteral, std::string>{Instant::ofEpochUnits(micros, 1'000'000),
                                                                   "(TIMESTAMPTZ '1970-01-01 00:00:00+00' + to_microseconds(" + std::to_string(micros) + "::BIGINT))"};
                 }});
  out.push_back({"d9", [](std::mt19937_64& r) {
                   const int64_t unscaled = pick<int64_t>(r, {125, 124, 126, 200, -125, 0, 999999999, 1250, 12500});
                   const int32_t scale = pick<int32_t>(r, {2, 3, 1});
                   const Decimal d = decimalOf(unscaled, scale);
                   return std::pair<PredicateLiteral, std::string>{d, d.toString()};
                 }});
  out.push_back({"d38", [](std::mt19937_64& r) {
                   const int64_t unscaled = pick<int64_t>(r, {125, -200, 1, -1, 0, 300, 5001, 12345});
                   const int32_t scale = pick<int32_t>(r, {2, 0, 4});
                   const Decimal d = decimalOf(unscaled, scale);
                   return std::pair<PredicateLiteral, std::string>{d, d.toString()};
                 }});
  out.push_back({"u64", [](std::mt19937_64& r) {
                   const uint64_t v = pick<uint64_t>(r, {0, 1, 9223372036854775807ull, 9223372036854775808ull,
                                                         18446744073709551615ull, 18446744073709551614ull, 42, 9});
                   return std::pair<PredicateLiteral, std::string>{static_cast<int64_t>(v),
                                                                   "CAST('" + std::to_string(v) + "' AS UBIGINT)"};
                 }});
  out.push_back({"i16", [](std::mt19937_64& r) {
                   const int32_t v = pick<int32_t>(r, {-4000, -1, 0, 1000, 4000, 100000, -100000, 2999});
                   return std::pair<PredicateLiteral, std::string>{v, "CAST(" + std::to_string(v) + " AS INTEGER)"};
                 }});
  out.push_back({"d18", [](std::mt19937_64& r) {
                   const int64_t unscaled = pick<int64_t>(r, {125000, 124999, -125000, 0, 999999999000, 400000, 1});
                   const int32_t scale = pick<int32_t>(r, {2, 3, 0});
                   const Decimal d = decimalOf(unscaled, scale);
                   return std::pair<PredicateLiteral, std::string>{d, d.toString()};
                 }});
  for (const char* name : {"tms", "tns", "tl"}) {
    out.push_back({name, [](std::mt19937_64& r) {
                     const int64_t micros = pick<int64_t>(r, {int64_t{20454} * 86'400'000'000, int64_t{20454} * 86'400'000'000 + 1,
                                                              int64_t{20454} * 86'400'000'000 + 1000,
                                                              int64_t{20454} * 86'400'000'000 - 1, 0, 951825600000000});
                     const Instant i = Instant::ofEpochUnits(micros, 1'000'000);
                     return std::pair<PredicateLiteral, std::string>{
                         LocalDateTime{i.epochSeconds, i.nanos},
                         "(TIMESTAMP '1970-01-01 00:00:00' + to_microseconds(" + std::to_string(micros) + "::BIGINT))"};
                   }});
  }
  out.push_back({"tm", [](std::mt19937_64& r) {
                   const int64_t micros = pick<int64_t>(r, {0, 1, 86'399'999'999, 43'200'000'000, 43'199'999'999});
                   return std::pair<PredicateLiteral, std::string>{
                       TimeOfDay{micros * 1000}, "(TIME '00:00:00' + to_microseconds(" + std::to_string(micros) + "::BIGINT))"};
                 }});
  return out;
}

const std::vector<std::string> kNullable = {"i64", "u32", "f", "dbl", "s", "bl", "d", "ts", "d9", "d38", "u64", "i16", "d18", "tms", "tns", "tl", "tm", "address",
                                            "address.city", "tags"};

std::string sqlColumn(const std::string& name) {
  return name == "address.city" ? "address.city" : "\"" + name + "\"";
}

Case randomLeaf(std::mt19937_64& rng, const std::vector<ColumnGen>& gens) {
  const int kind = std::uniform_int_distribution<int>(0, 9)(rng);
  if (kind == 0) {
    const std::string c = pick(rng, kNullable);
    return {P::isNull(c), sqlColumn(c) + " IS NULL"};
  }
  if (kind == 1) {
    const std::string c = pick(rng, kNullable);
    return {P::isNotNull(c), sqlColumn(c) + " IS NOT NULL"};
  }
  const ColumnGen& g = gens[std::uniform_int_distribution<size_t>(0, gens.size() - 1)(rng)];
  if (kind == 2) {
    std::vector<PredicateLiteral> values;
    std::string sql = sqlColumn(g.name) + " IN (";
    const int n = std::uniform_int_distribution<int>(1, 3)(rng);
    for (int i = 0; i < n; ++i) {
      auto [literal, text] = g.literal(rng);
      values.push_back(literal);
      sql += (i ? ", " : "") + text;
    }
    return {P::inLiterals(g.name, values), sql + ")"};
  }
  auto [literal, text] = g.literal(rng);
  static const char* kOps[] = {"=", "<>", "<", "<=", ">", ">="};
  const int op = std::uniform_int_distribution<int>(0, 5)(rng);
  auto build = [&](auto v) {
    switch (op) {
      case 0: return P::eq(g.name, v);
      case 1: return P::notEq(g.name, v);
      case 2: return P::lt(g.name, v);
      case 3: return P::ltEq(g.name, v);
      case 4: return P::gt(g.name, v);
      default: return P::gtEq(g.name, v);
    }
  };
  return {std::visit(build, literal), sqlColumn(g.name) + " " + kOps[op] + " " + text};
}

Case randomPredicate(std::mt19937_64& rng, const std::vector<ColumnGen>& gens, int depth) {
  const int kind = depth >= 2 ? 0 : std::uniform_int_distribution<int>(0, 5)(rng);
  if (kind <= 2) return randomLeaf(rng, gens);
  if (kind == 3) {
    Case c = randomPredicate(rng, gens, depth + 1);
    return {P::not_(c.predicate), "NOT (" + c.sql + ")"};
  }
  std::vector<P> children;
  std::string sql;
  const int n = std::uniform_int_distribution<int>(2, 3)(rng);
  for (int i = 0; i < n; ++i) {
    Case c = randomPredicate(rng, gens, depth + 1);
    children.push_back(c.predicate);
    sql += (i ? (kind == 4 ? " AND " : " OR ") : "") + ("(" + c.sql + ")");
  }
  return {kind == 4 ? P::and_(children) : P::or_(children), sql};
}

/// Reads the ids `predicate` selects, with metadata pruning on or off; adds the
/// reader's metrics to `metrics`.
std::string selectedIds(ParquetFileReader& file, const FilterPredicate& predicate, ReaderMetrics& metrics) {
  std::string got;
  auto rows = file.rowReader(ColumnProjection::columns("id"), predicate);
  while (rows->next()) got += (got.empty() ? "" : " ") + std::to_string(rows->getInt("id"));
  metrics += rows->metrics();
  return got;
}

/// Compares quarry with DuckDB on random predicates over `fixtureName` (under
/// tests/fixtures); with `alsoWithoutPruning`, also checks that a read with
/// metadata pruning off selects the same rows.
void runDifferential(const std::string& fixtureName, bool alsoWithoutPruning) {
  const std::string source = QUARRY_SOURCE_DIR;
  const std::string oracle = source + "/tests/differential/filter_oracle.mjs";
  if (!std::filesystem::exists(source + "/tools/oracle/node_modules/@duckdb")) {
    GTEST_SKIP() << "*** SKIPPED: the DuckDB oracle is not installed; run `make oracle` ***";
  }
  const std::string fixture = source + "/tests/fixtures/" + fixtureName;
  const char* casesEnv = std::getenv("QUARRY_PREDICATE_CASES");
  const char* seedEnv = std::getenv("QUARRY_PREDICATE_SEED");
  const int cases = casesEnv ? std::atoi(casesEnv) : 20000;
  uint64_t seed = 20260101;
  if (seedEnv && std::string(seedEnv) == "random") {
    seed = std::random_device{}();
  } else if (seedEnv) {
    seed = std::strtoull(seedEnv, nullptr, 10);
  }
  std::printf("[          ] %d cases, seed %llu\n", cases, static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  const auto gens = columns();
  std::vector<Case> all;
  for (int i = 0; i < cases; ++i) all.push_back(randomPredicate(rng, gens, 0));

  const auto dir = std::filesystem::temp_directory_path() /
                   ("quarry-filter-diff-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream queries(dir / "queries.sql");
    // DuckDB reads the file once; every WHERE then runs on the values it read.
    queries << "CREATE TEMP TABLE t AS SELECT * FROM read_parquet('" << fixture << "')\n";
    constexpr int kBatch = 250;
    for (int start = 0; start < cases; start += kBatch) {
      std::string q = "SELECT c, ids FROM (";
      for (int i = start; i < std::min(cases, start + kBatch); ++i) {
        if (i > start) q += " UNION ALL ";
        q += "SELECT " + std::to_string(i) +
             " AS c, string_agg(id::VARCHAR, ' ' ORDER BY id) AS ids FROM t WHERE " +
             all[static_cast<size_t>(i)].sql;
      }
      queries << q << ") ORDER BY c\n";
    }
  }
  const std::string command = "node '" + oracle + "' '" + (dir / "queries.sql").string() + "' > '" +
                              (dir / "answers.txt").string() + "'";
  const int status = std::system(command.c_str());
  if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
    std::filesystem::remove_all(dir);
    GTEST_SKIP() << "*** SKIPPED: the DuckDB oracle could not load ***";
  }
  ASSERT_EQ(status, 0) << command;
  std::map<int, std::string> expected;
  {
    std::ifstream answers(dir / "answers.txt");
    std::string line;
    while (std::getline(answers, line)) {
      const size_t tab = line.find('\t');
      if (tab == std::string::npos) continue;
      expected[std::stoi(line.substr(0, tab))] = line.substr(tab + 1);
    }
  }
  if (!std::getenv("QUARRY_PREDICATE_KEEP")) std::filesystem::remove_all(dir);
  ASSERT_EQ(expected.size(), static_cast<size_t>(cases));

  auto file = ParquetFileReader::open(fixture);
  ReaderOptions unpruned;
  unpruned.metadataPruning = false;
  auto fileWithoutPruning = ParquetFileReader::open(fixture, unpruned);
  ReaderMetrics metrics;
  ReaderMetrics unprunedMetrics;
  int failures = 0;
  int refused = 0;
  for (int i = 0; i < cases && failures < 20; ++i) {
    const Case& c = all[static_cast<size_t>(i)];
    std::string got;
    try {
      got = selectedIds(*file, c.predicate, metrics);
      if (alsoWithoutPruning) {
        const std::string unprunedIds = selectedIds(*fileWithoutPruning, c.predicate, unprunedMetrics);
        if (unprunedIds != got) got += " (without pruning: " + unprunedIds + ")";
      }
    } catch (const InvalidArgument& e) {
      // Equality with a literal the column cannot hold is refused by the spec;
      // DuckDB answers it (with no row for eq). Every other refusal is a failure.
      if (std::string(e.what()).find("is not a value it can hold") != std::string::npos) {
        ++refused;
        continue;
      }
      got = std::string("threw: ") + e.what();
    } catch (const std::exception& e) {
      got = std::string("threw: ") + e.what();
    }
    if (got != expected[i]) {
      ++failures;
      ADD_FAILURE() << "case " << i << ": " << c.predicate.toString() << "\n  SQL: " << c.sql << "\n  quarry: ["
                    << got << "]\n  duckdb: [" << expected[i] << "]";
    }
  }
  std::printf("[          ] %d cases refused as equality with a literal the column cannot hold\n", refused);
  std::printf("[          ] row groups: %lld considered, %lld pruned and %lld matched whole by statistics\n",
              static_cast<long long>(metrics.rowGroupsTotal),
              static_cast<long long>(metrics.rowGroupsPrunedByStatistics),
              static_cast<long long>(metrics.rowGroupsMatchedByStatistics));
  EXPECT_LT(refused, cases / 4);
  EXPECT_EQ(unprunedMetrics.rowGroupsPrunedByStatistics, 0);
}

TEST(FilterDifferentialTest, RandomPredicatesSelectTheRowsDuckDbSelects) {
  runDifferential("predicate_types.parquet", false);
}

// "All predicates, including those wrapped in not, are pushed down for row-group
// and page skipping." The same rows in eight row groups (single-row ones among
// them): pruning decides most of them from statistics, and must never change a result.
TEST(FilterDifferentialTest, PruningAcrossRowGroupsSelectsTheRowsDuckDbSelects) {
  runDifferential("predicate_types_row_groups.parquet", true);
}

}  // namespace
}  // namespace quarry::parquet
