#include "quarry/engine/parse/query_parser.h"

#include <gtest/gtest.h>

#include "quarry/common/error.h"
#include "quarry/engine/parse/query_printer.h"

namespace quarry::engine {
namespace {

QueryError queryError(std::string_view text) {
  try {
    parseQuery(text);
  } catch (const QueryError& error) {
    return error;
  }
  ADD_FAILURE() << "no error for " << text;
  return QueryError("none", 0, 0);
}

std::vector<std::string> dotted(const std::vector<Identifier>& names) {
  std::vector<std::string> out;
  for (const Identifier& name : names) out.push_back(name.dotted());
  return out;
}

TEST(QueryParser, ReadsFromWithSeveralUrisAndOptions) {
  const Query query = parseQuery(
      R"(FROM "s3://bucket/logs/*.parquet", "data/x.orc" WITH {"format": "orc", "schema_resolution": "union_by_name"})");
  ASSERT_EQ(query.from.sources.size(), 2u);
  EXPECT_EQ(query.from.sources[0].uri, "s3://bucket/logs/*.parquet");
  EXPECT_EQ(query.from.sources[1].uri, "data/x.orc");
  EXPECT_EQ(query.from.sources[1].position.column, 36);
  EXPECT_EQ(query.from.format, SourceFormat::kOrc);
  EXPECT_EQ(query.from.schemaResolution, SchemaResolution::kUnionByName);
  EXPECT_TRUE(query.commands.empty());
}

TEST(QueryParser, LeavesOptionsNotGivenUnset) {
  const Query query = parseQuery(R"(from 'a.parquet')");
  EXPECT_FALSE(query.from.format.has_value());
  EXPECT_FALSE(query.from.schemaResolution.has_value());
  EXPECT_EQ(parseQuery(R"(FROM "a" WITH {"schema_resolution": "strict"})").from.schemaResolution,
            SchemaResolution::kStrict);
  EXPECT_EQ(
      parseQuery(R"(FROM "a" WITH {"schema_resolution": "first_file_wins", "format": "parquet"})")
          .from.format,
      SourceFormat::kParquet);
}

TEST(QueryParser, ReadsWhere) {
  const Query query = parseQuery(R"(FROM "t" | WHERE x > 5 AND _file.path LIKE '*2024*')");
  ASSERT_EQ(query.commands.size(), 1u);
  EXPECT_EQ(printExpr(query.commands[0].as<WhereCommand>().condition),
            "x > 5 AND _file.path LIKE \"*2024*\"");
  EXPECT_EQ(query.commands[0].position.column, 12);
}

// `x LIKE ("a*", "b*")`: a list of patterns, true when any matches (the LIKEs
// joined by OR; NOT LIKE (...) when none does); RLIKE alike.
TEST(QueryParser, ReadsLikeAndRlikeListsAsOrs) {
  auto condition = [](const std::string& where) {
    return printExpr(parseQuery(R"(FROM "t" | WHERE )" + where).commands[0].as<WhereCommand>().condition);
  };
  EXPECT_EQ(condition(R"(s LIKE ("a*", "b?"))"), "s LIKE \"a*\" OR s LIKE \"b?\"");
  EXPECT_EQ(condition(R"(s NOT LIKE ("a*", "b?", "c"))"),
            "NOT (s LIKE \"a*\" OR s LIKE \"b?\" OR s LIKE \"c\")");
  EXPECT_EQ(condition(R"(s RLIKE ("a.*"))"), "s RLIKE \"a.*\"");
  const QueryError error = queryError(R"(FROM "t" | WHERE s LIKE ("a*", 3))");
  EXPECT_NE(error.message().find("expected a string pattern in the LIKE list, found number 3"), std::string::npos)
      << error.message();
  EXPECT_NE(queryError(R"(FROM "t" | WHERE s RLIKE ("a*" "b"))").message().find("',' or ')'"),
            std::string::npos);
}

TEST(QueryParser, ReadsEvalAssignments) {
  const Query query = parseQuery(R"(FROM "t" | EVAL total = price * qty, `net price` = total - 1)");
  const auto& eval = query.commands[0].as<EvalCommand>();
  ASSERT_EQ(eval.assignments.size(), 2u);
  EXPECT_EQ(eval.assignments[0].name.dotted(), "total");
  EXPECT_EQ(eval.assignments[1].name.dotted(), "net price");
  EXPECT_EQ(printExpr(eval.assignments[1].value), "total - 1");
}

TEST(QueryParser, EvalNeedsAName) {
  const QueryError error = queryError(R"(FROM "t" | EVAL price * 2)");
  EXPECT_NE(error.message().find("expected '=' after the EVAL column price"), std::string::npos);
  EXPECT_NE(error.hint().find("EVAL total ="), std::string::npos);
}

TEST(QueryParser, ReadsStatsWithNamesAndGroups) {
  const Query query = parseQuery(
      R"(FROM "t" | STATS c = COUNT(*), COUNT(x), d = COUNT_DISTINCT(y), MIN(a), MAX(a), SUM(a), avg = AVG(a) BY k, m = date_trunc('month', d))");
  const auto& stats = query.commands[0].as<StatsCommand>();
  ASSERT_EQ(stats.aggregates.size(), 7u);
  EXPECT_EQ(stats.aggregates[0].name->dotted(), "c");
  EXPECT_FALSE(stats.aggregates[1].name.has_value());
  EXPECT_EQ(printExpr(stats.aggregates[2].expr), "count_distinct(y)");
  EXPECT_EQ(stats.aggregates[6].name->dotted(), "avg");
  ASSERT_EQ(stats.groups.size(), 2u);
  EXPECT_FALSE(stats.groups[0].name.has_value());
  EXPECT_EQ(stats.groups[1].name->dotted(), "m");
}

TEST(QueryParser, ReadsStatsWithOnlyAggregatesOrOnlyGroups) {
  EXPECT_TRUE(
      parseQuery(R"(FROM "t" | STATS count(*))").commands[0].as<StatsCommand>().groups.empty());
  const Query query = parseQuery(R"(FROM "t" | STATS BY k)");
  const auto& byOnly = query.commands[0].as<StatsCommand>();
  EXPECT_TRUE(byOnly.aggregates.empty());
  EXPECT_EQ(byOnly.groups.size(), 1u);
  EXPECT_NE(queryError(R"(FROM "t" | STATS)").message().find("expected an aggregate or BY"),
            std::string::npos);
}

// ES|QL: `STATS [column1 =] expression1 [WHERE boolean_expression1][, ...] [BY ...]`;
// the filter belongs to its aggregate item, never to a BY key.
TEST(QueryParser, ReadsAFilterAfterEachAggregate) {
  const Query query = parseQuery(
      R"(FROM "t" | STATS c = COUNT(*) WHERE x > 1, SUM(a) / COUNT(a), m = MAX(y) where y < 3 BY k)");
  const auto& stats = query.commands[0].as<StatsCommand>();
  ASSERT_EQ(stats.aggregates.size(), 3u);
  ASSERT_TRUE(stats.aggregates[0].filter.has_value());
  EXPECT_EQ(printExpr(*stats.aggregates[0].filter), "x > 1");
  EXPECT_FALSE(stats.aggregates[1].filter.has_value());
  EXPECT_EQ(printExpr(stats.aggregates[1].expr), "sum(a) / count(a)");
  ASSERT_TRUE(stats.aggregates[2].filter.has_value());
  EXPECT_EQ(printExpr(*stats.aggregates[2].filter), "y < 3");
  ASSERT_EQ(stats.groups.size(), 1u);
  const QueryError error = queryError(R"(FROM "t" | STATS c = COUNT(*) BY k WHERE x > 1)");
  EXPECT_EQ(error.message(), "a BY key takes no WHERE");
  EXPECT_NE(error.hint().find("| WHERE"), std::string::npos);
}

// ES|QL: "The ROW source command produces a row with one or more columns with
// values that you specify."
TEST(QueryParser, ReadsRowInPlaceOfFrom) {
  const Query query = parseQuery(R"(ROW a = 1, b = "two", c = round(1.5) | KEEP a)");
  ASSERT_TRUE(query.row.has_value());
  ASSERT_EQ(query.row->fields.size(), 3u);
  EXPECT_EQ(query.row->fields[1].name.dotted(), "b");
  EXPECT_EQ(printExpr(query.row->fields[2].value), "round(1.5)");
  EXPECT_TRUE(query.from.sources.empty());
  EXPECT_EQ(query.commands.size(), 1u);
  EXPECT_EQ(queryError(R"(ROW a)").message(),
            "expected '=' after the ROW column a, found end of query");
}

TEST(QueryParser, StatsNameByIsAColumnNotTheKeyword) {
  const Query query = parseQuery(R"(FROM "t" | STATS by = count(*) BY k)");
  const auto& stats = query.commands[0].as<StatsCommand>();
  EXPECT_EQ(stats.aggregates[0].name->dotted(), "by");
  EXPECT_EQ(stats.groups.size(), 1u);
}

// Null placement resolved at parse time: NULLS LAST ascending, NULLS FIRST descending.
TEST(QueryParser, ReadsSortKeysWithDirectionsAndNullPlacement) {
  const Query query =
      parseQuery(R"(FROM "t" | SORT a, b DESC, c ASC NULLS FIRST, d desc nulls last, e + 1)");
  const auto& sort = query.commands[0].as<SortCommand>();
  ASSERT_EQ(sort.keys.size(), 5u);
  EXPECT_TRUE(sort.keys[0].ascending);
  EXPECT_FALSE(sort.keys[0].nullsFirst);
  EXPECT_FALSE(sort.keys[1].ascending);
  EXPECT_TRUE(sort.keys[1].nullsFirst);
  EXPECT_TRUE(sort.keys[2].ascending);
  EXPECT_TRUE(sort.keys[2].nullsFirst);
  EXPECT_FALSE(sort.keys[3].ascending);
  EXPECT_FALSE(sort.keys[3].nullsFirst);
  EXPECT_EQ(printExpr(sort.keys[4].expr), "e + 1");
  EXPECT_NE(queryError(R"(FROM "t" | SORT a NULLS)").message().find("expected LAST or FIRST"),
            std::string::npos);
}

TEST(QueryParser, ReadsKeepDropAndRename) {
  const Query query = parseQuery(
      R"(FROM "t" | KEEP a, s.leaf, `weird name`, _file.path, _file.size | DROP b | RENAME a AS x, `s`.leaf AS y)");
  ASSERT_EQ(query.commands.size(), 3u);
  EXPECT_EQ(dotted(query.commands[0].as<KeepCommand>().columns),
            (std::vector<std::string>{"a", "s.leaf", "weird name", "_file.path", "_file.size"}));
  EXPECT_EQ(dotted(query.commands[1].as<DropCommand>().columns), (std::vector<std::string>{"b"}));
  const auto& rename = query.commands[2].as<RenameCommand>();
  ASSERT_EQ(rename.renames.size(), 2u);
  EXPECT_EQ(rename.renames[1].from.dotted(), "s.leaf");
  EXPECT_EQ(rename.renames[1].to.dotted(), "y");
  EXPECT_NE(queryError(R"(FROM "t" | RENAME a b)").message().find("expected AS"),
            std::string::npos);
}

TEST(QueryParser, ReadsLimit) {
  EXPECT_EQ(parseQuery(R"(FROM "t" | LIMIT 10)").commands[0].as<LimitCommand>().count, 10);
  EXPECT_EQ(parseQuery(R"(FROM "t" | LIMIT 0)").commands[0].as<LimitCommand>().count, 0);
  EXPECT_EQ(
      parseQuery(R"(FROM "t" | LIMIT 9223372036854775807)").commands[0].as<LimitCommand>().count,
      INT64_MAX);
}

// ES|QL: "MV_EXPAND column", one column.
TEST(QueryParser, ReadsMvExpand) {
  const Query query = parseQuery(R"(FROM "t" | mv_expand tags | MV_EXPAND s.leaf)");
  ASSERT_EQ(query.commands.size(), 2u);
  EXPECT_EQ(query.commands[0].as<MvExpandCommand>().column.dotted(), "tags");
  EXPECT_EQ(query.commands[1].as<MvExpandCommand>().column.dotted(), "s.leaf");
  EXPECT_NE(queryError(R"(FROM "t" | MV_EXPAND)").message().find("a column name to MV_EXPAND"),
            std::string::npos);
  EXPECT_EQ(queryError(R"(FROM "t" | MV_EXPANDS a)").hint(), "did you mean MV_EXPAND?");
}

// ES|QL: "LOOKUP JOIN <lookup_index> ON <join_condition>", the condition a field
// name or "a comma-separated list of field names"; quarry's index is a quoted file.
TEST(QueryParser, ReadsLookupJoin) {
  const Query query =
      parseQuery(R"(FROM "t" | lookup join "z.parquet" ON zone | LOOKUP JOIN "d/*.orc" on a, s.b)");
  ASSERT_EQ(query.commands.size(), 2u);
  const auto& first = query.commands[0].as<LookupJoinCommand>();
  EXPECT_EQ(first.uri, "z.parquet");
  ASSERT_EQ(first.keys.size(), 1u);
  EXPECT_EQ(first.keys[0].dotted(), "zone");
  EXPECT_EQ(first.uriPosition.column, 24);
  const auto& second = query.commands[1].as<LookupJoinCommand>();
  EXPECT_EQ(second.uri, "d/*.orc");
  ASSERT_EQ(second.keys.size(), 2u);
  EXPECT_EQ(second.keys[1].dotted(), "s.b");
  EXPECT_NE(queryError(R"(FROM "t" | LOOKUP "z" ON a)").message().find("JOIN"), std::string::npos);
  EXPECT_EQ(queryError(R"(FROM "t" | LOOKUP JOIN zones ON a)").hint(),
            "quote the path: LOOKUP JOIN \"zones\"");
  EXPECT_NE(queryError(R"(FROM "t" | LOOKUP JOIN "z" a)").message().find("ON"), std::string::npos);
  EXPECT_NE(queryError(R"(FROM "t" | LOOKUP JOIN "z" ON)").message().find("a key column after ON"),
            std::string::npos);
  EXPECT_NE(queryError(R"(FROM "t" | LOOKUP JOIN "" ON a)").message().find("empty file name"),
            std::string::npos);
}

// ES|QL: "DISSECT input "pattern" [APPEND_SEPARATOR="<separator>"]" and
// "GROK input "pattern"".
TEST(QueryParser, ReadsDissectAndGrok) {
  const Query query = parseQuery(
      R"(FROM "t" | DISSECT msg "%{a} %{+a}" APPEND_SEPARATOR="-" | dissect m "%{x}" | GROK msg """%{IP:ip}\s""")");
  ASSERT_EQ(query.commands.size(), 3u);
  const auto& dissect = query.commands[0].as<DissectCommand>();
  EXPECT_EQ(dissect.column.dotted(), "msg");
  EXPECT_EQ(dissect.pattern, "%{a} %{+a}");
  EXPECT_EQ(dissect.appendSeparator, "-");
  EXPECT_EQ(query.commands[1].as<DissectCommand>().appendSeparator, "");
  EXPECT_EQ(query.commands[2].as<GrokCommand>().pattern, "%{IP:ip}\\s");
  EXPECT_NE(queryError(R"(FROM "t" | GROK msg %{IP:ip})")
                .message()
                .find("a quoted pattern after GROK msg"),
            std::string::npos);
  EXPECT_NE(
      queryError(R"(FROM "t" | DISSECT msg "%{a}" APPEND_SEPARATOR ",")").message().find("'='"),
      std::string::npos);
}

// ES|QL: "SAMPLE probability ... between 0 and 1, exclusive"; SEED is quarry's.
TEST(QueryParser, ReadsSample) {
  const Query query = parseQuery(R"(FROM "t" | SAMPLE 0.25 | sample 1e-3 SEED 42)");
  EXPECT_EQ(query.commands[0].as<SampleCommand>().probability, 0.25);
  EXPECT_FALSE(query.commands[0].as<SampleCommand>().seed);
  EXPECT_EQ(query.commands[1].as<SampleCommand>().probability, 1e-3);
  EXPECT_EQ(query.commands[1].as<SampleCommand>().seed, 42u);
  for (const char* bad :
       {R"(FROM "t" | SAMPLE 1)", R"(FROM "t" | SAMPLE 0)", R"(FROM "t" | SAMPLE 1.5)"}) {
    EXPECT_NE(queryError(bad).message().find("is not between 0 and 1"), std::string::npos) << bad;
  }
  EXPECT_NE(queryError(R"(FROM "t" | SAMPLE x)").message().find("a probability after SAMPLE"),
            std::string::npos);
  EXPECT_NE(queryError(R"(FROM "t" | SAMPLE 0.5 SEED -1)").message().find("after SEED"),
            std::string::npos);
}

TEST(QueryParser, KeywordsAreCaseInsensitive) {
  EXPECT_EQ(parseQuery(R"(from "t" | where a is not null | sort a desc nulls first | limit 1)"),
            parseQuery(R"(FROM "t" | WHERE a IS NOT NULL | SORT a DESC NULLS FIRST | LIMIT 1)"));
}

TEST(QueryParser, ColumnNamesAreCaseSensitive) {
  EXPECT_NE(parseQuery(R"(FROM "t" | KEEP Name)"), parseQuery(R"(FROM "t" | KEEP name)"));
}

TEST(QueryParser, AcceptsCommentsAndLineBreaksAnywhere) {
  const Query query = parseQuery(
      "// daily totals\nFROM \"t\" /* all files */\n| WHERE x > 1 // big ones\n| LIMIT 5\n");
  ASSERT_EQ(query.commands.size(), 2u);
  EXPECT_EQ(query.commands[0].position.line, 3);
  EXPECT_EQ(query.commands[0].position.column, 3);
  EXPECT_EQ(query.commands[1].position.line, 4);
}

TEST(QueryParser, RunsTpchQ6) {
  const Query query = parseQuery(R"(
    FROM "lineitem/*.parquet"
    | WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'
        AND l_discount >= 0.05 AND l_discount <= 0.07 AND l_quantity < 24
    | STATS revenue = SUM(l_extendedprice * l_discount))");
  ASSERT_EQ(query.commands.size(), 2u);
  EXPECT_EQ(printExpr(query.commands[1].as<StatsCommand>().aggregates[0].expr),
            "sum(l_extendedprice * l_discount)");
}

// The issue: "A bad query is a QueryError with line, column and a hint."
TEST(QueryParser, MissingFromSaysHowToStart) {
  const QueryError error = queryError(R"(WHERE x > 1)");
  EXPECT_EQ(error.line(), 1);
  EXPECT_EQ(error.column(), 1);
  EXPECT_NE(error.message().find("a query starts with FROM or ROW, found 'WHERE'"),
            std::string::npos);
  EXPECT_NE(error.hint().find("FROM \"data/*.parquet\""), std::string::npos);
  EXPECT_NE(queryError("  ").message().find("found an empty query"), std::string::npos);
}

TEST(QueryParser, UnquotedFromPathGetsAQuotingHint) {
  const QueryError error = queryError("FROM logs");
  EXPECT_EQ(error.column(), 6);
  EXPECT_EQ(error.hint(), "quote the path: FROM \"logs\"");
}

TEST(QueryParser, UnknownCommandSuggestsTheClosestOne) {
  const QueryError typo = queryError(R"(FROM "t" | WEHRE x > 1)");
  EXPECT_EQ(typo.column(), 12);
  EXPECT_NE(typo.message().find("unknown command 'WEHRE' after '|'"), std::string::npos);
  EXPECT_EQ(typo.hint(), "did you mean WHERE?");
  const QueryError unknown = queryError("FROM \"t\"\n| SELECT x");
  EXPECT_EQ(unknown.line(), 2);
  EXPECT_EQ(unknown.column(), 3);
  EXPECT_NE(unknown.hint().find("commands are WHERE, EVAL"), std::string::npos);
  EXPECT_NE(queryError(R"(FROM "t" |)").message().find("expected a command after '|'"),
            std::string::npos);
}

TEST(QueryParser, MissingPipeBetweenCommandsGetsAHint) {
  const QueryError error = queryError(R"(FROM "t" | WHERE x > 1 LIMIT 5)");
  EXPECT_EQ(error.column(), 24);
  EXPECT_NE(error.message().find("expected '|' or end of query after WHERE, found 'LIMIT'"),
            std::string::npos);
  EXPECT_EQ(error.hint(), "separate commands with '|'");
}

TEST(QueryParser, MisspelledWithGetsAHint) {
  const QueryError error = queryError(R"(FROM "t" WTH {"format": "orc"})");
  EXPECT_EQ(error.column(), 10);
  EXPECT_NE(error.message().find("expected '|' or end of query after FROM, found 'WTH'"),
            std::string::npos);
  EXPECT_EQ(error.hint(), "options go in WITH {...}; commands follow '|'");
}

TEST(QueryParser, UnclosedStringPointsAtItsStart) {
  const QueryError error = queryError("FROM \"t\" | WHERE name == \"abc | LIMIT 1");
  EXPECT_EQ(error.column(), 26);
  EXPECT_NE(error.message().find("unclosed string"), std::string::npos);
  EXPECT_FALSE(error.hint().empty());
}

TEST(QueryParser, UnclosedParenthesisNamesTheCall) {
  // "expected ')' to close the call of round at line 1, column 12; hint: ..."
  const QueryError error = queryError(R"(FROM "t" | EVAL r = round(x, 2 | LIMIT 1)");
  EXPECT_EQ(error.column(), 32);
  EXPECT_NE(error.message().find(
                "expected ',' or ')' to close the call of round at line 1, column 26, found '|'"),
            std::string::npos);
  EXPECT_FALSE(error.hint().empty());
}

TEST(QueryParser, TrailingCommaGetsAHintInEveryList) {
  for (const char* text :
       {R"(FROM "t" | KEEP a, b,)", R"(FROM "t" | DROP a, | LIMIT 1)", R"(FROM "t", | LIMIT 1)",
        R"(FROM "t" | EVAL x = 1, )", R"(FROM "t" | STATS count(*), BY k)", R"(FROM "t" | SORT a,)",
        R"(FROM "t" | WHERE x IN (1, 2,))", R"(FROM "t" WITH {"format": "orc",})"}) {
    EXPECT_EQ(queryError(text).hint(), "remove the trailing ','") << text;
  }
}

TEST(QueryParser, BadWithOptionsAreNamed) {
  const QueryError unknown = queryError(R"(FROM "t" WITH {"fromat": "orc"})");
  EXPECT_EQ(unknown.column(), 16);
  EXPECT_NE(unknown.message().find("unknown WITH option \"fromat\""), std::string::npos);
  EXPECT_EQ(unknown.hint(), "did you mean \"format\"?");
  const QueryError format = queryError(R"(FROM "t" WITH {"format": "csv"})");
  EXPECT_EQ(format.column(), 26);
  EXPECT_NE(format.message().find("unknown format \"csv\""), std::string::npos);
  EXPECT_EQ(format.hint(), "format is \"parquet\" or \"orc\"");
  EXPECT_NE(
      queryError(R"(FROM "t" WITH {"schema_resolution": "loose"})").hint().find("union_by_name"),
      std::string::npos);
  EXPECT_NE(
      queryError(R"(FROM "t" WITH {"format": "orc", "format": "orc"})").message().find("twice"),
      std::string::npos);
  EXPECT_NE(queryError(R"(FROM "t" WITH format)").message().find("expected '{' after WITH"),
            std::string::npos);
  EXPECT_NE(queryError(R"(FROM "t" WITH {"format" "orc"})").message().find("expected ':'"),
            std::string::npos);
  EXPECT_NE(queryError(R"(FROM "t" WITH {"format": "orc")").message().find("expected ',' or '}'"),
            std::string::npos);
}

TEST(QueryParser, LimitMustBeANonNegativeInteger) {
  for (const char* text :
       {R"(FROM "t" | LIMIT abc)", R"(FROM "t" | LIMIT 1.5)", R"(FROM "t" | LIMIT -1)",
        R"(FROM "t" | LIMIT )", R"(FROM "t" | LIMIT '5')"}) {
    const QueryError error = queryError(text);
    EXPECT_NE(error.message().find("LIMIT takes a non-negative integer"), std::string::npos)
        << text;
    EXPECT_EQ(error.column(), 18) << text;
    EXPECT_EQ(error.hint(), "LIMIT takes a whole number of rows, e.g. LIMIT 10") << text;
  }
  EXPECT_NE(queryError(R"(FROM "t" | LIMIT 9223372036854775808)").message().find("larger than"),
            std::string::npos);
}

TEST(QueryParser, ReservedWordAsAKeepColumnNeedsBackquotes) {
  const QueryError error = queryError(R"(FROM "t" | KEEP null)");
  EXPECT_NE(error.hint().find("`null`"), std::string::npos);
  EXPECT_EQ(dotted(parseQuery(R"(FROM "t" | KEEP `null`)").commands[0].as<KeepCommand>().columns),
            (std::vector<std::string>{"null"}));
}

// ES|QL's KEEP and DROP take patterns: bare words and `*` written together.
TEST(QueryParser, KeepAndDropReadWildcardPatterns) {
  const Query q = parseQuery(R"(FROM "t" | KEEP l_*, *_date, l_*price, *, a, `COUNT(*)` | DROP *x*)");
  const auto& keep = q.commands[0].as<KeepCommand>().columns;
  ASSERT_EQ(keep.size(), 6u);
  EXPECT_EQ(dotted(keep), (std::vector<std::string>{"l_*", "*_date", "l_*price", "*", "a", "COUNT(*)"}));
  for (size_t i = 0; i < 4; ++i) EXPECT_TRUE(keep[i].pattern) << keep[i].dotted();
  EXPECT_FALSE(keep[4].pattern);
  EXPECT_FALSE(keep[5].pattern);  // backquoted: a name, its * a character
  EXPECT_TRUE(q.commands[1].as<DropCommand>().columns[0].pattern);
  // A space ends the name: `l_ *` is a name and a stray '*'.
  queryError(R"(FROM "t" | KEEP l_ *)");
}

TEST(QueryParser, ErrorTextCarriesPositionAndHint) {
  const QueryError error = queryError(R"(FROM "t" | LIMIT x)");
  EXPECT_STREQ(error.what(),
               "LIMIT takes a non-negative integer, found 'x' at line 1, column 18; "
               "hint: LIMIT takes a whole number of rows, e.g. LIMIT 10");
}

TEST(QueryParser, HivePartitioningOptions) {
  const FromClause on = parseQuery(R"(FROM "d/**/*.parquet" WITH {"hive_partitioning": true})").from;
  EXPECT_EQ(on.hivePartitioning, std::optional<bool>(true));
  EXPECT_EQ(parseQuery(R"(FROM "d" WITH {"hive_partitioning": "false"})").from.hivePartitioning,
            std::optional<bool>(false));
  EXPECT_EQ(parseQuery(R"(FROM "d" WITH {"hive_partitioning": FALSE})").from.hivePartitioning,
            std::optional<bool>(false));
  const FromClause typed =
      parseQuery(R"(FROM "d" WITH {"hive_types": {"year": "INTEGER", "day": "date"}, "format": "parquet"})").from;
  ASSERT_EQ(typed.hiveTypes.size(), 2u);
  EXPECT_EQ(typed.hiveTypes[0].column, "year");
  EXPECT_EQ(typed.hiveTypes[0].type, "integer");
  EXPECT_EQ(typed.hiveTypes[1].type, "date");
  EXPECT_EQ(parseQuery(printQuery(parseQuery(R"(FROM "d" WITH {"hive_partitioning": false, "hive_types": {"y": "bigint"}})"))),
            parseQuery(R"(FROM "d" WITH {"hive_partitioning": false, "hive_types": {"y": "bigint"}})"));
  EXPECT_NE(queryError(R"(FROM "d" WITH {"hive_partitioning": 1})").message().find("true or false"), std::string::npos);
  const QueryError type = queryError(R"(FROM "d" WITH {"hive_types": {"y": "integr"}})");
  EXPECT_NE(type.message().find("unknown hive type \"integr\""), std::string::npos);
  EXPECT_EQ(type.hint(), "did you mean \"integer\"?");
  EXPECT_NE(queryError(R"(FROM "d" WITH {"hive_types": {"y": "date", "y": "date"}})").message().find("twice"),
            std::string::npos);
  EXPECT_EQ(queryError(R"(FROM "d" WITH {"hive_partitionin": true})").hint(), "did you mean \"hive_partitioning\"?");
}

}  // namespace
}  // namespace quarry::engine
