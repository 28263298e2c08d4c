#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "quarry/formats/orc/orc_file_reader.h"
#include "tests/formats/parquet/filter_differential.h"
#include "tests/support/build_paths.h"
#include "tests/support/sanitizer.h"

// Differential test of ORC filtering: chDB writes ORC files
// (tests/differential/orc_filter_oracle.mjs), random FilterPredicates select rows
// through OrcRowReader, with metadata pruning on and off, and the same
// conditions as SQL WHERE clauses select rows through chDB; the ids must agree.
// The predicate generator is the Parquet differential's (filter_differential.h):
// QUARRY_PREDICATE_CASES and QUARRY_PREDICATE_SEED apply here too.
//
// Kept out of the generator: NaN and zero float literals and values (ClickHouse
// compares NaN as unordered and -0.0 equal to +0.0, the spec by Double.compare),
// and the boolean column (FilterPredicate has no boolean set form; the unit
// tests cover booleans).
namespace quarry::orc {
namespace {

using namespace quarry::parquet::testing;
using parquet::PredicateLiteral;

std::string text(const char* format, double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, v);
  return buffer;
}

std::pair<PredicateLiteral, std::string> int32Literal(std::mt19937_64& r, int32_t lo, int32_t hi) {
  const int32_t v = std::uniform_int_distribution<int32_t>(lo, hi)(r);
  return {v, "toInt64(" + std::to_string(v) + ")"};
}

std::pair<PredicateLiteral, std::string> decimalLiteral(int64_t unscaled, int32_t scale) {
  const Decimal d = decimalOf(unscaled, scale);
  return {d, "toDecimal128('" + d.toString() + "', " + std::to_string(scale) + ")"};
}

/// Generators mirroring orc_filter_oracle.mjs's columns; `rows` is the fixture's row count.
std::vector<ColumnGen> columns(int64_t rows) {
  std::vector<ColumnGen> out;
  const auto n = [rows](std::mt19937_64& r) {
    return std::uniform_int_distribution<int64_t>(-2, rows + 1)(r);
  };
  out.push_back({"id", [rows](std::mt19937_64& r) {
                   return int32Literal(r, -3, static_cast<int32_t>(rows) + 2);
                 }});
  out.push_back(
      {"i8", [](std::mt19937_64& r) {
         // 127 and -128 are the type's ends; 1000 is past them (equality refused).
         const int32_t v =
             pick<int32_t>(r, {-100, -99, -1, 0, 50, 99, 100, 127, -128, 1000, -1000});
         return std::pair<PredicateLiteral, std::string>{v, "toInt64(" + std::to_string(v) + ")"};
       }});
  out.push_back({"i16", [](std::mt19937_64& r) { return int32Literal(r, -3010, 3700); }});
  out.push_back({"i32", [](std::mt19937_64& r) { return int32Literal(r, -510, 510); }});
  out.push_back(
      {"i64", [n](std::mt19937_64& r) {
         const int64_t v = n(r) * 1000003 - 5000000000 + pick<int64_t>(r, {0, 0, 1, -1});
         return std::pair<PredicateLiteral, std::string>{v, "toInt64(" + std::to_string(v) + ")"};
       }});
  out.push_back(
      {"f32", [](std::mt19937_64& r) {
         const int k = std::uniform_int_distribution<int>(-2, 101)(r);
         float v = static_cast<float>(static_cast<double>(static_cast<float>(k)) / 4 - 12.3);
         if (k == 101) v = 1e30f;
         if (k == -2) v = 1.5f;
         return std::pair<PredicateLiteral, std::string>{v, "toFloat32('" + text("%.9g", v) + "')"};
       }});
  out.push_back({"f64", [n](std::mt19937_64& r) {
                   const double v = static_cast<double>(n(r)) / 8 + 0.1;
                   return std::pair<PredicateLiteral, std::string>{
                       v, "toFloat64('" + text("%.17g", v) + "')"};
                 }});
  out.push_back({"s", [](std::mt19937_64& r) {
                   const int k = std::uniform_int_distribution<int>(-3, 305)(r);
                   const std::string v = k == -1   ? ""
                                         : k == -2 ? "s"
                                         : k == -3 ? "t"
                                                   : "s" + std::to_string(k);
                   return std::pair<PredicateLiteral, std::string>{v, sqlString(v)};
                 }});
  out.push_back({"dec9", [](std::mt19937_64& r) {
                   const int32_t scale = pick<int32_t>(r, {2, 2, 1, 3});
                   int64_t unscaled = std::uniform_int_distribution<int64_t>(-12600, 12600)(r);
                   if (scale == 1) unscaled /= 10;
                   if (scale == 3) unscaled = unscaled * 10 + pick<int64_t>(r, {0, 5});
                   return decimalLiteral(unscaled, scale);
                 }});
  out.push_back({"dec18", [](std::mt19937_64& r) {
                   const int32_t scale = pick<int32_t>(r, {4, 4, 0, 6});
                   int64_t unscaled =
                       std::uniform_int_distribution<int64_t>(-43000000, 43000000)(r);
                   if (scale == 0) unscaled /= 10000;
                   if (scale == 6) unscaled = unscaled * 100 + pick<int64_t>(r, {0, 1});
                   return decimalLiteral(unscaled, scale);
                 }});
  out.push_back({"dec38", [](std::mt19937_64& r) {
                   const int32_t scale = pick<int32_t>(r, {10, 10, 2, 12});
                   int64_t unscaled =
                       std::uniform_int_distribution<int64_t>(-34000000, 34000000)(r);
                   if (scale == 10)
                     unscaled = unscaled * 1000000 + pick<int64_t>(r, {0, 666666, 333333, 1});
                   if (scale == 12) unscaled = unscaled * 100000000 + pick<int64_t>(r, {0, 1});
                   return decimalLiteral(unscaled, scale);
                 }});
  out.push_back({"d", [](std::mt19937_64& r) {
                   const int32_t v = std::uniform_int_distribution<int32_t>(-220, 290)(r);
                   return std::pair<PredicateLiteral, std::string>{
                       Date{v}, "addDays(toDate32('1970-01-01'), " + std::to_string(v) + ")"};
                 }});
  out.push_back({"ts", [n](std::mt19937_64& r) {
                   const int64_t nanos = (int64_t{1577836800000} + n(r) * 1234567) * 1'000'000 +
                                         pick<int64_t>(r, {0, 0, 1'000'000, -1'000'000, 500});
                   const Instant i = Instant::ofEpochUnits(nanos, 1'000'000'000);
                   return std::pair<PredicateLiteral, std::string>{
                       LocalDateTime{i.epochSeconds, i.nanos},
                       "fromUnixTimestamp64Nano(toInt64(" + std::to_string(nanos) + "), 'UTC')"};
                 }});
  out.push_back({"t.a", [](std::mt19937_64& r) { return int32Literal(r, -1, 51); }});
  out.push_back({"t.b", [](std::mt19937_64& r) {
                   const std::string v =
                       "x" + std::to_string(std::uniform_int_distribution<int>(0, 18)(r));
                   return std::pair<PredicateLiteral, std::string>{v, sqlString(v)};
                 }});
  return out;
}

const std::vector<std::string> kNullable = {"i8", "i32", "f32", "s",  "dec9", "dec38",
                                            "ts", "t.a", "t",   "id", "i64"};

/// Returns the ids (ascending, space-separated) `predicate` selects; adds metrics.
std::string selectedIds(OrcFileReader& file, const FilterPredicate& predicate, bool pruning,
                        OrcScanMetrics& metrics) {
  OrcScanOptions options;
  options.filter = predicate;
  options.metadataPruning = pruning;
  OrcRowReader rows(file, file.project({"id"}), options);
  std::vector<int64_t> ids;
  while (rows.next()) {
    const ColumnVector& id = *rows.root().children[0];
    ids.push_back(id.longs[id.valueIndex(rows.slot())]);
  }
  const OrcScanMetrics& m = rows.metrics();
  metrics.stripesTotal += m.stripesTotal;
  metrics.stripesPrunedByStatistics += m.stripesPrunedByStatistics;
  metrics.stripesMatchedByStatistics += m.stripesMatchedByStatistics;
  metrics.stridesTotal += m.stridesTotal;
  metrics.stridesSkipped += m.stridesSkipped;
  metrics.stridesMatchedByStatistics += m.stridesMatchedByStatistics;
  std::sort(ids.begin(), ids.end());
  std::string out;
  for (int64_t id : ids) out += (out.empty() ? "" : " ") + std::to_string(id);
  return out;
}

class OrcFilterDifferentialTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string source = QUARRY_SOURCE_DIR;
    if (!std::filesystem::exists(source + "/tools/oracle/node_modules/chdb")) {
      skip_ = "chDB is not installed; run `make oracle`";
      return;
    }
    dir_ = std::filesystem::temp_directory_path() /
           ("quarry-orc-filter-diff-" + std::to_string(::getpid()));
    const std::string command = "node '" + source +
                                "/tests/differential/orc_filter_oracle.mjs' write '" +
                                dir_.string() + "'";
    const int status = std::system(command.c_str());
    if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
      skip_ = "chDB could not load";
    } else if (status != 0) {
      skip_ = "failed: " + command;
    }
  }
  static void TearDownTestSuite() {
    if (!dir_.empty() && !std::getenv("QUARRY_PREDICATE_KEEP")) std::filesystem::remove_all(dir_);
  }

  /// Runs `defaultCases` random predicates (sanitizerScaledCases) over `file`
  /// (chDB queries `oracleFile`, the same rows) and checks quarry with pruning on
  /// and off against chDB.
  void run(const std::string& file, const std::string& oracleFile, int64_t rows, int defaultCases,
           OrcScanMetrics& metrics) {
    if (skip_.rfind("failed", 0) == 0) FAIL() << skip_;
    if (!skip_.empty()) GTEST_SKIP() << "*** SKIPPED: " << skip_ << " ***";
    const char* casesEnv = std::getenv("QUARRY_PREDICATE_CASES");
    const char* seedEnv = std::getenv("QUARRY_PREDICATE_SEED");
    const int cases =
        casesEnv ? std::atoi(casesEnv) : ::quarry::testing::sanitizerScaledCases(defaultCases);
    const uint64_t seed = seedEnv ? std::strtoull(seedEnv, nullptr, 10) : 20261130;
    std::printf("[          ] %s: %d cases, seed %llu\n", file.c_str(), cases,
                static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    const std::vector<ColumnGen> gens = columns(rows);
    std::vector<Case> all;
    for (int i = 0; i < cases; ++i) all.push_back(randomPredicate(rng, gens, kNullable));
    const auto where = dir_ / (file + ".where");
    const auto answers = dir_ / (file + ".answers");
    {
      std::ofstream out(where);
      for (const Case& c : all) out << c.sql << "\n";
    }
    const std::string command = "node '" + std::string(QUARRY_SOURCE_DIR) +
                                "/tests/differential/orc_filter_oracle.mjs' query '" +
                                (dir_ / oracleFile).string() + "' '" + where.string() + "' > '" +
                                answers.string() + "'";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    std::vector<std::string> expected;
    {
      std::ifstream in(answers);
      std::string line;
      while (std::getline(in, line)) expected.push_back(line);
    }
    ASSERT_EQ(expected.size(), all.size());
    auto reader = OrcFileReader::open((dir_ / file).string());
    OrcScanMetrics unpruned;
    int failures = 0;
    int refused = 0;
    for (size_t i = 0; i < all.size() && failures < 20; ++i) {
      const Case& c = all[i];
      std::string got;
      try {
        got = selectedIds(*reader, c.predicate, true, metrics);
        const std::string without = selectedIds(*reader, c.predicate, false, unpruned);
        if (without != got) got += " (without pruning: " + without + ")";
      } catch (const InvalidArgument& e) {
        // "Equality with a literal the column cannot hold ... throws": chDB answers it.
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
        ADD_FAILURE() << "case " << i << ": " << c.predicate.toString() << "\n  SQL: " << c.sql
                      << "\n  quarry: [" << got.substr(0, 400) << "]\n  chDB:   ["
                      << expected[i].substr(0, 400) << "]";
      }
    }
    std::printf("[          ] %d refused (equality with a literal the column cannot hold)\n",
                refused);
    std::printf(
        "[          ] stripes: %lld, %lld pruned, %lld matched whole; row groups: %lld, %lld "
        "skipped, "
        "%lld matched whole\n",
        static_cast<long long>(metrics.stripesTotal),
        static_cast<long long>(metrics.stripesPrunedByStatistics),
        static_cast<long long>(metrics.stripesMatchedByStatistics),
        static_cast<long long>(metrics.stridesTotal),
        static_cast<long long>(metrics.stridesSkipped),
        static_cast<long long>(metrics.stridesMatchedByStatistics));
    EXPECT_LT(refused, cases / 4);
    EXPECT_EQ(unpruned.stripesPrunedByStatistics + unpruned.stridesSkipped, 0);
  }

  static inline std::string skip_;
  static inline std::filesystem::path dir_;
};

// "All predicates, including those wrapped in not, are pushed down for row-group
// and page skipping": one stripe of 20 row groups; pruning must never change a result.
TEST_F(OrcFilterDifferentialTest, RandomPredicatesSelectTheRowsChdbSelects) {
  OrcScanMetrics metrics;
  run("filter.orc", "filter.orc", 20000, 3000, metrics);
  if (HasFatalFailure() || IsSkipped()) return;
  EXPECT_GT(metrics.stridesSkipped, 0);
  EXPECT_GT(metrics.stridesMatchedByStatistics, 0);
}

// The same over several stripes of 500-row row groups: stripes are pruned too.
TEST_F(OrcFilterDifferentialTest, StripePruningSelectsTheRowsChdbSelects) {
  if (skip_.empty()) {
    ASSERT_GE(OrcFileReader::open((dir_ / "filter_stripes.orc").string())->stripeCount(), 2u);
  }
  OrcScanMetrics metrics;
  run("filter_stripes.orc", "filter_stripes_small.orc", 5000, 1500, metrics);
  if (HasFatalFailure() || IsSkipped()) return;
  EXPECT_GT(metrics.stripesPrunedByStatistics, 0);
  EXPECT_GT(metrics.stripesMatchedByStatistics, 0);
  EXPECT_GT(metrics.stridesSkipped, 0);
}

// The writer's time zone is America/New_York: timestamps compare on its wall
// clock (chDB reads with input_format_orc_reader_time_zone_name = GMT, which shows
// it), and their statistics, whichever clock a writer records them on, must never
// prune a matching row group.
TEST_F(OrcFilterDifferentialTest, WallClockOfAnotherZoneSelectsTheRowsChdbSelects) {
  OrcScanMetrics metrics;
  run("filter_new_york.orc", "filter_new_york.orc", 20000, 1000, metrics);
}

}  // namespace
}  // namespace quarry::orc
