#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_reader.h"
#include "tests/support/build_paths.h"
#include "tests/support/sanitizer.h"

// The machinery of the FilterPredicate differential tests
// (filter_differential_test.cc, filter_differential_written_types_test.cc): random
// predicates over a file's columns, evaluated by RowReader and, as SQL WHERE
// clauses, by DuckDB (through tests/differential/filter_oracle.mjs); the selected
// ids must agree row for row. Every file has an INT32 column "id".
//
// QUARRY_PREDICATE_CASES sets the number of cases, QUARRY_PREDICATE_SEED the seed
// (default fixed; "random" draws one and prints it), QUARRY_PREDICATE_KEEP keeps
// the queries and DuckDB's answers in the temp dir. Skips loudly when node or the
// DuckDB oracle (`make oracle`) is missing.
namespace quarry::parquet::testing {

using P = FilterPredicate;

struct Case {
  P predicate;
  std::string sql;
  /// The columns of the equality leaves (eq, notEq, in, under any NOT, AND, OR)
  /// whose literal the column cannot hold: the spec refuses the predicate when
  /// the reader is built ("Literals the column cannot hold"), so it is refused
  /// iff this is not empty.
  std::vector<std::string> refusedBy = {};
};

/// A column of the fixture and how to draw a (literal, SQL literal) pair for it.
/// `holds`: whether the column can hold a literal (the spec's "Literals the column
/// cannot hold": finer than its unit, more decimal places than its scale, past its
/// carrier); none: it holds every literal drawn for it.
struct ColumnGen {
  std::string name;
  std::function<std::pair<PredicateLiteral, std::string>(std::mt19937_64&)> literal;
  bool ordered = true;
  bool settable = true;
  std::function<bool(const PredicateLiteral&)> holds = nullptr;
};

/// The spec's rule for a DECIMAL column of `scale` whose unscaled values are
/// `bytes`-byte two's-complement integers (INT32: 4, INT64: 8, FIXED_LEN_BYTE_ARRAY(n): n):
/// a BigDecimal literal "carrying a digit the column's scale cannot hold" or past
/// the carrier's range is not a value it can hold. Other literals hold.
inline std::function<bool(const PredicateLiteral&)> decimalHolds(int32_t scale, int bytes) {
  return [scale, bytes](const PredicateLiteral& literal) {
    const auto* d = std::get_if<Decimal>(&literal);
    if (d == nullptr) return true;
    __int128 v = !d->unscaledBigEndian.empty() && (d->unscaledBigEndian[0] & 0x80) ? -1 : 0;
    for (const uint8_t b : d->unscaledBigEndian) v = v * 256 + b;
    for (int32_t s = d->scale; s > scale; --s) {
      if (v % 10 != 0) return false;
      v /= 10;
    }
    for (int32_t s = d->scale; s < scale; ++s) v *= 10;
    if (bytes >= 16) return true;
    const __int128 limit = static_cast<__int128>(1) << (8 * bytes - 1);
    return v >= -limit && v < limit;
  };
}

/// The spec's rule for a TIMESTAMP or TIME column of `nanosPerUnit` (1'000'000 for
/// MILLIS): a literal finer than the unit is not a value it can hold.
inline std::function<bool(const PredicateLiteral&)> unitHolds(int64_t nanosPerUnit) {
  return [nanosPerUnit](const PredicateLiteral& literal) {
    if (const auto* i = std::get_if<Instant>(&literal)) return i->nanos % nanosPerUnit == 0;
    if (const auto* l = std::get_if<LocalDateTime>(&literal)) return l->nanos % nanosPerUnit == 0;
    if (const auto* t = std::get_if<TimeOfDay>(&literal)) return t->nanosOfDay % nanosPerUnit == 0;
    return true;
  };
}

// An equality leaf keeps a literal its column cannot hold with this chance; else
// the literal is drawn again. The refusals stay under 2 % of the cases
// (runDifferential checks it), and each one is checked against the rule; ordered
// leaves keep every literal, since the spec answers them exactly.
constexpr double kKeepUnholdableEquality = 0.05;

template <typename T>
T pick(std::mt19937_64& rng, const std::vector<T>& values) {
  return values[std::uniform_int_distribution<size_t>(0, values.size() - 1)(rng)];
}

inline std::string sqlString(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

inline std::string hexBlob(const Bytes& b) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out = "'";
  for (uint8_t v : b) out += std::string("\\x") + kHex[v >> 4] + kHex[v & 15];
  return out + "'::BLOB";
}

inline std::string floatText(double v) {
  if (std::isnan(v)) return "'NaN'";
  if (std::isinf(v)) return v > 0 ? "'Infinity'" : "'-Infinity'";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "'%.17g'", v);
  return buffer;
}

inline Decimal decimalOf(int64_t unscaled, int32_t scale) {
  Decimal d;
  d.scale = scale;
  for (int i = 7; i >= 0; --i) d.unscaledBigEndian.push_back(static_cast<uint8_t>(static_cast<uint64_t>(unscaled) >> (8 * i)));
  return d;
}

/// Quotes a column name for SQL; a dotted path (a struct field) stays as written.
inline std::string sqlColumn(const std::string& name) {
  return name.find('.') != std::string::npos ? name : "\"" + name + "\"";
}

/// Draws a comparison, IN or null test; null tests pick a column of `nullable`.
inline Case randomLeaf(std::mt19937_64& rng, const std::vector<ColumnGen>& gens,
                       const std::vector<std::string>& nullable) {
  const int kind = std::uniform_int_distribution<int>(0, 9)(rng);
  if (kind == 0) {
    const std::string c = pick(rng, nullable);
    return {P::isNull(c), sqlColumn(c) + " IS NULL"};
  }
  if (kind == 1) {
    const std::string c = pick(rng, nullable);
    return {P::isNotNull(c), sqlColumn(c) + " IS NOT NULL"};
  }
  const ColumnGen& g = gens[std::uniform_int_distribution<size_t>(0, gens.size() - 1)(rng)];
  // An equality literal: one the column holds, but for kKeepUnholdableEquality of
  // the unholdable draws; `refused` tells whether one was kept.
  bool refused = false;
  auto equalityLiteral = [&]() {
    auto drawn = g.literal(rng);
    for (int tries = 0; g.holds && !g.holds(drawn.first) && tries < 20; ++tries) {
      if (std::bernoulli_distribution(kKeepUnholdableEquality)(rng)) break;
      drawn = g.literal(rng);
    }
    if (g.holds && !g.holds(drawn.first)) refused = true;
    return drawn;
  };
  auto refusedBy = [&]() { return refused ? std::vector<std::string>{g.name} : std::vector<std::string>{}; };
  if (kind == 2) {
    std::vector<PredicateLiteral> values;
    std::string sql = sqlColumn(g.name) + " IN (";
    const int n = std::uniform_int_distribution<int>(1, 3)(rng);
    for (int i = 0; i < n; ++i) {
      auto [literal, text] = equalityLiteral();
      values.push_back(literal);
      sql += (i ? ", " : "") + text;
    }
    return {P::inLiterals(g.name, values), sql + ")", refusedBy()};
  }
  static const char* kOps[] = {"=", "<>", "<", "<=", ">", ">="};
  const int op = std::uniform_int_distribution<int>(0, 5)(rng);
  auto [literal, text] = op <= 1 ? equalityLiteral() : g.literal(rng);
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
  return {std::visit(build, literal), sqlColumn(g.name) + " " + kOps[op] + " " + text, refusedBy()};
}

/// Draws a predicate tree of leaves, NOT, AND and OR, at most three levels deep.
inline Case randomPredicate(std::mt19937_64& rng, const std::vector<ColumnGen>& gens,
                            const std::vector<std::string>& nullable, int depth = 0) {
  const int kind = depth >= 2 ? 0 : std::uniform_int_distribution<int>(0, 5)(rng);
  if (kind <= 2) return randomLeaf(rng, gens, nullable);
  if (kind == 3) {
    Case c = randomPredicate(rng, gens, nullable, depth + 1);
    return {P::not_(c.predicate), "NOT (" + c.sql + ")", c.refusedBy};
  }
  std::vector<P> children;
  std::string sql;
  std::vector<std::string> refusedBy = {};
  const int n = std::uniform_int_distribution<int>(2, 3)(rng);
  for (int i = 0; i < n; ++i) {
    Case c = randomPredicate(rng, gens, nullable, depth + 1);
    children.push_back(c.predicate);
    refusedBy.insert(refusedBy.end(), c.refusedBy.begin(), c.refusedBy.end());
    sql += (i ? (kind == 4 ? " AND " : " OR ") : "") + ("(" + c.sql + ")");
  }
  return {kind == 4 ? P::and_(children) : P::or_(children), sql, refusedBy};
}

/// "tests refusals separately against the spec's refusal rules": for each column
/// of `gens` with a rule (`holds`), every literal its generator draws that the
/// column cannot hold must be refused, when the reader is built, in every equality
/// form ("eq, notEq, a set form and its negation", and under NOT, AND and OR),
/// with an error naming the column; and answered in every ordered form ("is
/// answered exactly"; the differential compares those rows with DuckDB). Literals
/// the column holds are answered in every form. Returns the unholdable literals
/// checked; a column with a rule must have some.
inline int checkRefusalRules(const std::string& fixture, const std::vector<ColumnGen>& gens) {
  auto file = ParquetFileReader::open(fixture);
  // The error when a reader with `predicate` is built, or "" when it builds.
  auto refusal = [&](const P& predicate) -> std::string {
    try {
      file->rowReader(ColumnProjection::columns("id"), predicate);
      return "";
    } catch (const InvalidArgument& e) {
      return e.what();
    }
  };
  int checked = 0;
  for (const ColumnGen& g : gens) {
    if (!g.holds) continue;
    std::mt19937_64 rng(20260102);
    std::map<std::string, PredicateLiteral> unholdable;
    std::map<std::string, PredicateLiteral> holdable;
    for (int i = 0; i < 500; ++i) {
      auto [literal, text] = g.literal(rng);
      (g.holds(literal) ? holdable : unholdable).emplace(text, literal);
    }
    EXPECT_FALSE(unholdable.empty()) << g.name << ": its generator draws no literal the column cannot hold";
    EXPECT_FALSE(holdable.empty()) << g.name << ": its generator draws no literal the column holds";
    const PredicateLiteral aHeldOne = holdable.empty() ? PredicateLiteral{} : holdable.begin()->second;
    auto forms = [&](const PredicateLiteral& literal) {
      const P eq = std::visit([&](auto v) { return P::eq(g.name, v); }, literal);
      const P notEq = std::visit([&](auto v) { return P::notEq(g.name, v); }, literal);
      const P in = P::inLiterals(g.name, {aHeldOne, literal});
      return std::vector<std::pair<std::string, P>>{
          {"eq", eq}, {"notEq", notEq}, {"in", P::inLiterals(g.name, {literal})}, {"in beside a held literal", in},
          {"not eq", P::not_(eq)}, {"not in", P::not_(in)},
          {"and", P::and_({P::isNotNull("id"), eq})}, {"or", P::or_({P::isNull("id"), notEq})},
          {"not (and (or))", P::not_(P::and_({P::isNotNull("id"), P::or_({P::isNull("id"), in})}))}};
    };
    auto ordered = [&](const PredicateLiteral& literal) {
      return std::vector<P>{std::visit([&](auto v) { return P::lt(g.name, v); }, literal),
                            std::visit([&](auto v) { return P::ltEq(g.name, v); }, literal),
                            std::visit([&](auto v) { return P::gt(g.name, v); }, literal),
                            std::visit([&](auto v) { return P::gtEq(g.name, v); }, literal)};
    };
    for (const auto& [text, literal] : unholdable) {
      ++checked;
      for (const auto& [form, predicate] : forms(literal)) {
        const std::string what = refusal(predicate);
        EXPECT_TRUE(what.find("'" + g.name + "'") != std::string::npos &&
                    what.find("is not a value it can hold") != std::string::npos)
            << g.name << " " << form << " " << text << ": the spec refuses it, got "
            << (what.empty() ? std::string("a reader") : "\"" + what + "\"");
      }
      if (!g.ordered) continue;
      for (const P& predicate : ordered(literal)) {
        EXPECT_EQ(refusal(predicate), "") << predicate.toString() << ": an ordered predicate is answered";
      }
    }
    for (const auto& [text, literal] : holdable) {
      for (const auto& [form, predicate] : forms(literal)) {
        EXPECT_EQ(refusal(predicate), "") << g.name << " " << form << " " << text << ": the column holds it";
      }
    }
  }
  std::printf("[          ] %d literals the column cannot hold, refused in every equality form\n", checked);
  return checked;
}

/// Reads the ids `predicate` selects, with metadata pruning on or off; adds the
/// reader's metrics to `metrics`.
inline std::string selectedIds(ParquetFileReader& file, const FilterPredicate& predicate, ReaderMetrics& metrics) {
  std::vector<int32_t> ids;
  auto rows = file.rowReader(ColumnProjection::columns("id"), predicate);
  while (rows->next()) ids.push_back(rows->getInt("id"));
  metrics += rows->metrics();
  // In id order, as the oracle aggregates them (a fixture need not be sorted by id).
  std::sort(ids.begin(), ids.end());
  std::string got;
  for (const int32_t id : ids) got += (got.empty() ? "" : " ") + std::to_string(id);
  return got;
}

/// Compares quarry with DuckDB on random predicates over the Parquet file at
/// `fixture` (its columns drawn from `gens`, null tests on `nullable`); with
/// `alsoWithoutPruning`, also checks that a read with metadata pruning off
/// selects the same rows. Cases: QUARRY_PREDICATE_CASES, else `defaultCases` (a
/// quarter of them in the sanitizer build: sanitizerScaledCases).
/// The pruned reads' metrics, summed, go to `prunedMetrics` where given.
inline void runDifferential(const std::string& fixture, const std::vector<ColumnGen>& gens,
                            const std::vector<std::string>& nullable, bool alsoWithoutPruning,
                            int defaultCases = 20000, ReaderMetrics* prunedMetrics = nullptr) {
  const std::string source = QUARRY_SOURCE_DIR;
  const std::string oracle = source + "/tests/differential/filter_oracle.mjs";
  if (!std::filesystem::exists(source + "/tools/oracle/node_modules/@duckdb")) {
    GTEST_SKIP() << "*** SKIPPED: the DuckDB oracle is not installed; run `make oracle` ***";
  }
  const char* casesEnv = std::getenv("QUARRY_PREDICATE_CASES");
  const char* seedEnv = std::getenv("QUARRY_PREDICATE_SEED");
  const int cases =
      casesEnv ? std::atoi(casesEnv) : ::quarry::testing::sanitizerScaledCases(defaultCases);
  uint64_t seed = 20260101;
  if (seedEnv && std::string(seedEnv) == "random") {
    seed = std::random_device{}();
  } else if (seedEnv) {
    seed = std::strtoull(seedEnv, nullptr, 10);
  }
  std::printf("[          ] %d cases, seed %llu\n", cases, static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  std::vector<Case> all;
  for (int i = 0; i < cases; ++i) all.push_back(randomPredicate(rng, gens, nullable));

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
      // Equality with a literal the column cannot hold is refused by the spec
      // (DuckDB answers it): a refusal must be one the rule predicts, naming one
      // of the columns it predicts. Every other refusal is a failure.
      const std::string what = e.what();
      if (what.find("is not a value it can hold") != std::string::npos) {
        bool named = false;
        for (const std::string& column : c.refusedBy) named |= what.find("'" + column + "'") != std::string::npos;
        if (!c.refusedBy.empty() && named) {
          ++refused;
          continue;
        }
        ++failures;
        ADD_FAILURE() << "case " << i << ": " << c.predicate.toString() << "\n  refused (" << what
                      << "), but the spec's rule refuses it only for "
                      << (c.refusedBy.empty() ? std::string("none of its literals") : "column " + c.refusedBy[0]);
        continue;
      }
      got = std::string("threw: ") + e.what();
    } catch (const std::exception& e) {
      got = std::string("threw: ") + e.what();
    }
    if (!c.refusedBy.empty()) {
      ++failures;
      ADD_FAILURE() << "case " << i << ": " << c.predicate.toString() << "\n  answered ([" << got
                    << "]), but the spec refuses equality with a literal column " << c.refusedBy[0]
                    << " cannot hold";
      continue;
    }
    if (got != expected[i]) {
      ++failures;
      ADD_FAILURE() << "case " << i << ": " << c.predicate.toString() << "\n  SQL: " << c.sql << "\n  quarry: ["
                    << got << "]\n  duckdb: [" << expected[i] << "]";
    }
  }
  std::printf("[          ] %d cases refused as equality with a literal the column cannot hold "
              "(%.2f %%, under 2 %%)\n", refused, 100.0 * refused / std::max(cases, 1));
  std::printf("[          ] row groups: %lld considered, %lld pruned and %lld matched whole by statistics\n",
              static_cast<long long>(metrics.rowGroupsTotal),
              static_cast<long long>(metrics.rowGroupsPrunedByStatistics),
              static_cast<long long>(metrics.rowGroupsMatchedByStatistics));
  std::printf("[          ] pages: %lld of %lld skipped; %lld row groups pruned by the page index\n",
              static_cast<long long>(metrics.pagesSkipped), static_cast<long long>(metrics.pagesTotal),
              static_cast<long long>(metrics.rowGroupsPrunedByPageIndex));
  // "the filter differential counts refusals, caps them (under 2 %)": refused
  // cases compare no rows with DuckDB.
  EXPECT_LT(refused * 50, cases);
  EXPECT_EQ(unprunedMetrics.rowGroupsPrunedByStatistics, 0);
  if (prunedMetrics != nullptr) *prunedMetrics = metrics;
}

}  // namespace quarry::parquet::testing
