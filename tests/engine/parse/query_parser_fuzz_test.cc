// Randomized checks that the parser never crashes and that the printer and
// parser agree: random token soups and mutated queries end in a tree or a
// QueryError; random trees print to text that parses back to them.
#include <gtest/gtest.h>

#include <random>

#include "quarry/common/error.h"
#include "quarry/engine/parse/query_diagnostic.h"
#include "quarry/engine/parse/query_parser.h"
#include "quarry/engine/parse/query_printer.h"

namespace quarry::engine {
namespace {

constexpr uint32_t kSeed = 20261130;

/// Parses `text`; a success must round-trip through the printer, a failure must
/// be a QueryError whose position lies inside the text (or just past it).
void parsesOrFailsCleanly(const std::string& text) {
  try {
    const Query query = parseQuery(text);
    const std::string printed = printQuery(query);
    EXPECT_EQ(parseQuery(printed), query) << text << "\nprinted: " << printed;
  } catch (const QueryError& error) {
    EXPECT_GE(error.line(), 1) << text;
    EXPECT_GE(error.column(), 1) << text;
    EXPECT_LE(error.line(), 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n')))
        << text;
    EXPECT_FALSE(renderQueryError(error, text).empty());
  }
}

TEST(QueryParserFuzz, RandomTokenSequencesNeverCrash) {
  static const char* const kTokens[] = {"FROM",
                                        "\"t\"",
                                        "'u'",
                                        "WITH",
                                        "{",
                                        "}",
                                        ":",
                                        "\"format\"",
                                        "\"orc\"",
                                        "|",
                                        "WHERE",
                                        "EVAL",
                                        "STATS",
                                        "SORT",
                                        "KEEP",
                                        "DROP",
                                        "RENAME",
                                        "LIMIT",
                                        "BY",
                                        "AS",
                                        "ASC",
                                        "DESC",
                                        "NULLS",
                                        "FIRST",
                                        "LAST",
                                        "AND",
                                        "OR",
                                        "NOT",
                                        "IS",
                                        "NULL",
                                        "IN",
                                        "LIKE",
                                        "RLIKE",
                                        "CASE",
                                        "WHEN",
                                        "THEN",
                                        "ELSE",
                                        "END",
                                        "TRUE",
                                        "FALSE",
                                        "DATE",
                                        "TIMESTAMP",
                                        "'1995-06-17'",
                                        "'1995-06-17 10:00:00'",
                                        "a",
                                        "b.c",
                                        "`x y`",
                                        "_file.path",
                                        "count",
                                        "round",
                                        "case",
                                        "(",
                                        ")",
                                        ",",
                                        "*",
                                        "+",
                                        "-",
                                        "/",
                                        "%",
                                        "=",
                                        "==",
                                        "!=",
                                        "<",
                                        "<=",
                                        ">",
                                        ">=",
                                        "0",
                                        "1",
                                        "12.50",
                                        "1e3",
                                        "18446744073709551616",
                                        "//c\n",
                                        "/*c*/",
                                        "\n"};
  std::mt19937 random(kSeed);
  std::uniform_int_distribution<size_t> pick(0, std::size(kTokens) - 1);
  std::uniform_int_distribution<int> length(1, 30);
  for (int round = 0; round < 5000; ++round) {
    std::string text = round % 2 == 0 ? "FROM \"t\" " : "";
    const int count = length(random);
    for (int i = 0; i < count; ++i) {
      text += kTokens[pick(random)];
      text += ' ';
    }
    parsesOrFailsCleanly(text);
  }
}

TEST(QueryParserFuzz, TruncatedAndMutatedQueriesNeverCrash) {
  const std::string query =
      "FROM \"a/*.parquet\", 'b' WITH {\"format\": \"parquet\", \"schema_resolution\": "
      "\"strict\"}\n"
      "| WHERE x > 5 AND NOT y IS NULL OR z NOT IN (1, 2.5, -3e2) AND s LIKE 'a\\\\*'\n"
      "| EVAL r = round(x, 2), c = CASE WHEN a THEN `w n` ELSE case(b, 1, 2) END\n"
      "| STATS n = COUNT(*), AVG(x) BY k, d = date_trunc(\"month\", DATE '1995-06-17')\n"
      "| SORT n DESC NULLS LAST, k /* c */ | KEEP a.b, _file.size | DROP q // x\n"
      "| RENAME a AS b | LIMIT 10";
  for (size_t cut = 0; cut <= query.size(); ++cut) parsesOrFailsCleanly(query.substr(0, cut));
  std::mt19937 random(kSeed);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int round = 0; round < 5000; ++round) {
    std::string mutated = query;
    for (int edits = 1 + round % 4; edits > 0; --edits) {
      const size_t at = std::uniform_int_distribution<size_t>(0, mutated.size() - 1)(random);
      switch (byte(random) % 3) {
        case 0:
          mutated[at] = static_cast<char>(byte(random));
          break;
        case 1:
          mutated.erase(at, 1);
          break;
        default:
          mutated.insert(at, 1, "()|,'\"`*-/"[byte(random) % 10]);
          break;
      }
    }
    parsesOrFailsCleanly(mutated);
  }
}

/// Builds random expression trees over every node kind and literal kind.
class RandomExpressions {
 public:
  explicit RandomExpressions(uint32_t seed) : random_(seed) {}

  Expr expr(int depth) {
    const int kinds = depth <= 0 ? 2 : 10;
    switch (below(kinds)) {
      case 0:
        return make(literal());
      case 1:
        return make(ColumnRef{name()});
      case 2:
        return make(UnaryExpr{below(2) ? UnaryOp::kNot : UnaryOp::kNegate, expr(depth - 1)});
      case 3:
      case 4:
        return make(BinaryExpr{static_cast<BinaryOp>(below(13)), expr(depth - 1), expr(depth - 1)});
      case 5:
        return make(IsNullExpr{expr(depth - 1), below(2) == 1});
      case 6:
        return make(InExpr{expr(depth - 1), list(depth - 1, 1), below(2) == 1});
      case 7:
        return make(LikeExpr{expr(depth - 1), text(), below(2) == 1, below(2) == 1});
      case 8: {
        CaseExpr result;
        for (int i = 1 + below(3); i > 0; --i) {
          result.whens.push_back(WhenClause{expr(depth - 1), expr(depth - 1)});
        }
        if (below(2)) result.otherwise = Box<Expr>(expr(depth - 1));
        return make(std::move(result));
      }
      default: {
        static const char* const kFunctions[] = {"round", "count", "coalesce", "f_2", "date"};
        CallExpr call{kFunctions[below(5)], {}};
        if (below(6) == 0) {
          call.args.push_back(make(Star{}));
        } else {
          call.args = list(depth - 1, 0);
        }
        return make(std::move(call));
      }
    }
  }

  Identifier name() {
    static const char* const kParts[] = {"a",    "b_1", "_file", "path",  "by", "end",      "NULL",
                                         "date", "asc", "x y",   "t`ick", "9x", "\xC3\xA9", "FROM"};
    Identifier id;
    for (int parts = 1 + below(3); parts > 0; --parts) id.parts.push_back(kParts[below(14)]);
    return id;
  }

  int below(int bound) { return std::uniform_int_distribution<int>(0, bound - 1)(random_); }

 private:
  static Expr make(ExprNode node) { return Expr{std::move(node), {}}; }

  std::vector<Expr> list(int depth, int minimum) {
    std::vector<Expr> out;
    for (int i = minimum + below(3); i > 0; --i) out.push_back(expr(depth));
    return out;
  }

  std::string text() {
    static const char* const kTexts[] = {
        "", "a%", "\"q\"", "back\\slash", "line\nbreak", "\x01", "it's", "\xE2\x82\xAC"};
    return kTexts[below(8)];
  }

  Literal literal() {
    switch (below(8)) {
      case 0:
        return NullLiteral{};
      case 1:
        return BooleanLiteral{below(2) == 1};
      case 2: {
        static const uint64_t kValues[] = {0, 1, 42, 9223372036854775808u, 18446744073709551615u};
        return IntegerLiteral{kValues[below(5)]};
      }
      case 3: {
        static const DecimalLiteral kValues[] = {{"1250", 2},
                                                 {"1", 3},
                                                 {"0", 1},
                                                 {"18446744073709551616", 0},
                                                 {"12345678901234567890123456789012345678", 38}};
        return kValues[below(5)];
      }
      case 4: {
        static const double kValues[] = {0.0, 1.5, 1e300, 2.2250738585072014e-308, 0.1};
        return DoubleLiteral{kValues[below(5)]};
      }
      case 5:
        return StringLiteral{text()};
      case 6:
        return DateLiteral{Date{below(2) ? -719528 : 9131}};
      default:
        return TimestampLiteral{LocalDateTime{below(2) ? 803383200 : -1, below(2) ? 0 : 123456789}};
    }
  }

  std::mt19937 random_;
};

TEST(QueryParserFuzz, RandomExpressionTreesPrintAndParseBack) {
  RandomExpressions random(kSeed);
  for (int round = 0; round < 5000; ++round) {
    const Expr expr = random.expr(1 + round % 6);
    const std::string printed = printExpr(expr);
    Expr reparsed;
    try {
      reparsed = parseExpression(printed);
    } catch (const QueryError& error) {
      FAIL() << "printed text does not parse: " << printed << "\n" << error.what();
    }
    ASSERT_EQ(reparsed, expr) << printed << "\nreprinted: " << printExpr(reparsed);
  }
}

TEST(QueryParserFuzz, RandomQueriesPrintAndParseBack) {
  RandomExpressions random(kSeed + 1);
  for (int round = 0; round < 3000; ++round) {
    Query query;
    query.from.sources.push_back(SourceUri{"data/\"x\"*.parquet", {}});
    if (random.below(2)) query.from.format = SourceFormat::kOrc;
    if (random.below(2)) query.from.schemaResolution = SchemaResolution::kUnionByName;
    for (int i = random.below(6); i > 0; --i) {
      switch (random.below(8)) {
        case 0:
          query.commands.push_back({WhereCommand{random.expr(3)}, {}});
          break;
        case 1:
          query.commands.push_back({EvalCommand{{Assignment{random.name(), random.expr(3)}}}, {}});
          break;
        case 2: {
          StatsCommand stats;
          for (int j = random.below(3); j >= 0; --j) {
            stats.aggregates.push_back(StatsItem{random.name(), random.expr(2), std::nullopt});
            // Sometimes an aggregate's own `WHERE condition`.
            std::optional<Expr> filter;
            if (random.below(3) == 0) filter = random.expr(2);
            stats.aggregates.push_back(StatsItem{std::nullopt, random.expr(2), std::move(filter)});
          }
          for (int j = random.below(3); j > 0; --j) {
            stats.groups.push_back(StatsItem{std::nullopt, random.expr(2), std::nullopt});
          }
          query.commands.push_back({std::move(stats), {}});
          break;
        }
        case 3:
          query.commands.push_back(
              {SortCommand{{SortKey{random.expr(2), random.below(2) == 1, random.below(2) == 1}}},
               {}});
          break;
        case 4:
          query.commands.push_back({KeepCommand{{random.name(), random.name()}}, {}});
          break;
        case 5:
          query.commands.push_back({DropCommand{{random.name()}}, {}});
          break;
        case 6:
          query.commands.push_back({RenameCommand{{RenamePair{random.name(), random.name()}}}, {}});
          break;
        default:
          query.commands.push_back({LimitCommand{random.below(1000)}, {}});
          break;
      }
    }
    const std::string printed = printQuery(query);
    Query reparsed;
    try {
      reparsed = parseQuery(printed);
    } catch (const QueryError& error) {
      FAIL() << "printed text does not parse: " << printed << "\n" << error.what();
    }
    ASSERT_EQ(reparsed, query) << printed;
  }
}

}  // namespace
}  // namespace quarry::engine
