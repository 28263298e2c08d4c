#include "quarry/engine/parse/query_parser.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <string>
#include <vector>

#include "quarry/common/name_hint.h"
#include "quarry/engine/parse/expression_parser.h"
#include "quarry/engine/parse/lexer.h"
#include "quarry/engine/parse/token_cursor.h"

namespace quarry::engine {
namespace {

constexpr std::array<std::string_view, 13> kCommands = {
    "WHERE", "EVAL",      "STATS",   "SORT", "KEEP",   "DROP",  "RENAME",
    "LIMIT", "MV_EXPAND", "DISSECT", "GROK", "SAMPLE", "LOOKUP"};
constexpr const char* kCommandList =
    "commands are WHERE, EVAL, STATS, SORT, KEEP, DROP, RENAME, LIMIT, MV_EXPAND, DISSECT, GROK, "
    "SAMPLE and LOOKUP JOIN";

std::vector<Token> boundTokens(std::string_view text, const QueryParameters& parameters) {
  std::vector<Token> tokens = tokenize(text);
  bindParameters(tokens, parameters);
  return tokens;
}

class QueryParser {
 public:
  explicit QueryParser(std::string_view text, const QueryParameters& parameters = {})
      : cursor_(boundTokens(text, parameters)), expressions_(cursor_) {}

  Query parse() {
    Query query;
    if (cursor_.atKeyword("ROW")) {
      query.row = parseRow();
    } else {
      query.from = parseFrom();
    }
    while (cursor_.accept(TokenKind::kPipe)) {
      query.commands.push_back(parseCommand());
    }
    if (!cursor_.at(TokenKind::kEnd)) {
      std::string hint;
      if (cursor_.peek().kind == TokenKind::kIdentifier) {
        hint = lastClause_ == "FROM" ? "options go in WITH {...}; commands follow '|'"
                                     : "separate commands with '|'";
      }
      cursor_.failExpected("'|' or end of query after " + lastClause_, hint);
    }
    return query;
  }

  Expr parseLoneExpression() {
    Expr expr = expressions_.parseExpression();
    if (!cursor_.at(TokenKind::kEnd)) cursor_.failExpected("end of expression");
    return expr;
  }

 private:
  /// `ROW name = expr, ...`, read as EVAL's assignments are.
  RowSource parseRow() {
    RowSource row;
    row.position = cursor_.next().position;
    lastClause_ = "ROW";
    do {
      Identifier name = expressions_.parseIdentifier("a column name after ROW");
      cursor_.expect(TokenKind::kAssign, "'='", "after the ROW column " + name.dotted(),
                     "ROW names each value: ROW a = 1, b = \"x\"");
      row.fields.push_back(Assignment{std::move(name), expressions_.parseExpression()});
    } while (cursor_.accept(TokenKind::kComma));
    return row;
  }

  FromClause parseFrom() {
    const Token& first = cursor_.peek();
    if (!first.isKeyword("FROM")) {
      const std::string found = first.kind == TokenKind::kEnd ? "an empty query" : first.describe();
      TokenCursor::fail(first, "a query starts with FROM or ROW, found " + found,
                        "start with the files to read: FROM \"data/*.parquet\" | ...");
    }
    FromClause from;
    from.position = cursor_.next().position;
    lastClause_ = "FROM";
    do {
      const Token& uri = cursor_.peek();
      if (uri.kind != TokenKind::kString) {
        const std::string hint = uri.kind == TokenKind::kIdentifier
                                     ? "quote the path: FROM \"" + std::string(uri.source) + "\""
                                     : "write FROM \"path/or/glob/*.parquet\"";
        cursor_.failExpected("a quoted URI or glob after FROM", hint);
      }
      cursor_.next();
      if (uri.text.empty()) TokenCursor::fail(uri, "empty URI after FROM");
      from.sources.push_back(SourceUri{uri.text, uri.position});
    } while (cursor_.accept(TokenKind::kComma));
    if (cursor_.acceptKeyword("WITH")) parseWith(from);
    return from;
  }

  void parseWith(FromClause& from) {
    static constexpr std::array<std::string_view, 4> kOptions = {"format", "schema_resolution",
                                                                 "hive_partitioning", "hive_types"};
    static constexpr const char* kOptionList =
        "options are \"format\", \"schema_resolution\", \"hive_partitioning\" and \"hive_types\"";
    const Token& open = cursor_.expect(TokenKind::kLeftBrace, "'{'", "after WITH",
                                       "write WITH {\"format\": \"parquet\"}");
    do {
      const Token& key = cursor_.peek();
      if (key.kind != TokenKind::kString) cursor_.failExpected("a quoted option name", kOptionList);
      cursor_.next();
      if (std::find(kOptions.begin(), kOptions.end(), key.text) == kOptions.end()) {
        const std::string guess = closestName(key.text, kOptions);
        TokenCursor::fail(key, "unknown WITH option " + std::string(key.source),
                          guess.empty() ? kOptionList : "did you mean \"" + std::string(guess) + "\"?");
      }
      cursor_.expect(TokenKind::kColon, "':'", "after the option name \"" + key.text + "\"");
      if (key.text == "hive_partitioning") {
        parseHivePartitioning(key, from);
        continue;
      }
      if (key.text == "hive_types") {
        parseHiveTypes(key, from);
        continue;
      }
      const Token& value = cursor_.expect(TokenKind::kString, "a quoted value",
                                          "for the option \"" + key.text + "\"");
      if (key.text == "format") {
        if (from.format) TokenCursor::fail(key, "option \"format\" given twice");
        if (value.text == "parquet") {
          from.format = SourceFormat::kParquet;
        } else if (value.text == "orc") {
          from.format = SourceFormat::kOrc;
        } else {
          TokenCursor::fail(value, "unknown format " + std::string(value.source),
                            "format is \"parquet\" or \"orc\"");
        }
      } else if (key.text == "schema_resolution") {
        if (from.schemaResolution)
          TokenCursor::fail(key, "option \"schema_resolution\" given twice");
        if (value.text == "first_file_wins") {
          from.schemaResolution = SchemaResolution::kFirstFileWins;
        } else if (value.text == "strict") {
          from.schemaResolution = SchemaResolution::kStrict;
        } else if (value.text == "union_by_name") {
          from.schemaResolution = SchemaResolution::kUnionByName;
        } else {
          TokenCursor::fail(value, "unknown schema_resolution " + std::string(value.source),
                            "schema_resolution is \"first_file_wins\", \"strict\" or "
                            "\"union_by_name\"");
        }
      }
    } while (cursor_.accept(TokenKind::kComma));
    cursor_.expect(TokenKind::kRightBrace, "',' or '}'",
                   "to close the WITH options at line " + std::to_string(open.position.line) +
                       ", column " + std::to_string(open.position.column),
                   "options are \"name\": \"value\" pairs between '{' and '}'");
  }

  /// `"hive_partitioning": true` or `false`, bare or quoted.
  void parseHivePartitioning(const Token& key, FromClause& from) {
    if (from.hivePartitioning) TokenCursor::fail(key, "option \"hive_partitioning\" given twice");
    const Token& value = cursor_.peek();
    std::string text = value.kind == TokenKind::kString ? value.text : std::string(value.source);
    for (char& c : text) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if ((value.kind != TokenKind::kString && value.kind != TokenKind::kIdentifier) ||
        (text != "true" && text != "false")) {
      cursor_.failExpected("true or false for the option \"hive_partitioning\"",
                           "write \"hive_partitioning\": false to read key=value folders as plain folders");
    }
    cursor_.next();
    from.hivePartitioning = text == "true";
  }

  /// `"hive_types": {"column": "type", ...}`.
  void parseHiveTypes(const Token& key, FromClause& from) {
    if (!from.hiveTypes.empty()) TokenCursor::fail(key, "option \"hive_types\" given twice");
    const Token& open = cursor_.expect(TokenKind::kLeftBrace, "'{'", "after \"hive_types\":",
                                       "write \"hive_types\": {\"year\": \"integer\"}");
    do {
      const Token& column = cursor_.expect(TokenKind::kString, "a quoted partition column name",
                                           "in \"hive_types\"");
      cursor_.expect(TokenKind::kColon, "':'", "after the partition column \"" + column.text + "\"");
      const Token& type = cursor_.expect(TokenKind::kString, "a quoted type name",
                                         "for the partition column \"" + column.text + "\"");
      std::string name = type.text;
      for (char& c : name) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
      if (std::find(kHiveTypeNames.begin(), kHiveTypeNames.end(), name) == kHiveTypeNames.end()) {
        const std::string guess = closestName(name, kHiveTypeNames);
        TokenCursor::fail(type, "unknown hive type " + std::string(type.source),
                          guess.empty() ? "types are integer, bigint, double, varchar, date, timestamp "
                                          "and boolean"
                                        : "did you mean \"" + std::string(guess) + "\"?");
      }
      for (const HiveType& have : from.hiveTypes) {
        if (have.column == column.text) {
          TokenCursor::fail(column, "partition column \"" + column.text + "\" given twice in hive_types");
        }
      }
      from.hiveTypes.push_back(HiveType{column.text, name, column.position});
    } while (cursor_.accept(TokenKind::kComma));
    cursor_.expect(TokenKind::kRightBrace, "',' or '}'",
                   "to close \"hive_types\" at line " + std::to_string(open.position.line) +
                       ", column " + std::to_string(open.position.column));
  }

  Command parseCommand() {
    const Token& name = cursor_.peek();
    if (name.kind != TokenKind::kIdentifier || name.quoted || name.parts.size() != 1) {
      cursor_.failExpected("a command after '|'", kCommandList);
    }
    cursor_.next();
    const SourcePosition position = name.position;
    std::string upper = name.parts[0];
    for (char& c : upper) {
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    lastClause_ = upper;
    if (upper == "WHERE") return {WhereCommand{expressions_.parseExpression()}, position};
    if (upper == "EVAL") return {parseEval(), position};
    if (upper == "STATS") return {parseStats(), position};
    if (upper == "SORT") return {parseSort(), position};
    if (upper == "KEEP") return {KeepCommand{parseNames("a column name to KEEP")}, position};
    if (upper == "DROP") return {DropCommand{parseNames("a column name to DROP")}, position};
    if (upper == "RENAME") return {parseRename(), position};
    if (upper == "LIMIT") return {parseLimit(), position};
    if (upper == "MV_EXPAND") {
      return {MvExpandCommand{expressions_.parseIdentifier("a column name to MV_EXPAND")},
              position};
    }
    if (upper == "DISSECT") return {parseDissect(), position};
    if (upper == "GROK") return {parseColumnAndPattern<GrokCommand>("GROK"), position};
    if (upper == "SAMPLE") return {parseSample(), position};
    if (upper == "LOOKUP") return {parseLookupJoin(), position};
    const std::string guess = closestName(name.parts[0], kCommands);
    TokenCursor::fail(name, "unknown command " + name.describe() + " after '|'",
                      guess.empty() ? kCommandList : "did you mean " + std::string(guess) + "?");
  }

  /// `column "pattern"` after DISSECT or GROK, into `command`'s fields.
  template <typename PatternCommand>
  PatternCommand parseColumnAndPattern(const std::string& name) {
    PatternCommand command;
    command.column = expressions_.parseIdentifier("a column name to " + name);
    const Token& pattern = cursor_.peek();
    if (pattern.kind != TokenKind::kString) {
      cursor_.failExpected("a quoted pattern after " + name + " " + command.column.dotted(),
                           name == "GROK" ? "write GROK message \"%{IP:client} %{WORD:method}\""
                                          : "write DISSECT message \"%{date} %{level} %{text}\"");
    }
    cursor_.next();
    command.pattern = pattern.text;
    command.patternPosition = pattern.position;
    return command;
  }

  DissectCommand parseDissect() {
    DissectCommand dissect = parseColumnAndPattern<DissectCommand>("DISSECT");
    if (cursor_.acceptKeyword("APPEND_SEPARATOR")) {
      cursor_.expect(TokenKind::kAssign, "'='", "after APPEND_SEPARATOR",
                     "write APPEND_SEPARATOR = \" \"");
      dissect.appendSeparator =
          cursor_.expect(TokenKind::kString, "a quoted separator", "after APPEND_SEPARATOR =").text;
    }
    return dissect;
  }

  /// `LOOKUP JOIN "file" ON key, ...` (after LOOKUP).
  LookupJoinCommand parseLookupJoin() {
    const char* hint = "write LOOKUP JOIN \"regions.parquet\" ON RegionID";
    cursor_.expectKeyword("JOIN", "after LOOKUP", hint);
    const Token& uri = cursor_.peek();
    if (uri.kind != TokenKind::kString) {
      cursor_.failExpected("a quoted file name after LOOKUP JOIN",
                           uri.kind == TokenKind::kIdentifier
                               ? "quote the path: LOOKUP JOIN \"" + std::string(uri.source) + "\""
                               : std::string(hint));
    }
    cursor_.next();
    if (uri.text.empty()) TokenCursor::fail(uri, "empty file name after LOOKUP JOIN");
    LookupJoinCommand lookup;
    lookup.uri = uri.text;
    lookup.uriPosition = uri.position;
    cursor_.expectKeyword("ON", "after the LOOKUP JOIN file", hint);
    do {
      lookup.keys.push_back(expressions_.parseIdentifier("a key column after ON"));
    } while (cursor_.accept(TokenKind::kComma));
    return lookup;
  }

  SampleCommand parseSample() {
    const char* hint = "SAMPLE keeps each row with a probability: SAMPLE 0.1 [SEED 42]";
    const Token& probability = cursor_.peek();
    if (probability.kind != TokenKind::kDecimal && probability.kind != TokenKind::kDouble &&
        probability.kind != TokenKind::kInteger) {
      cursor_.failExpected("a probability after SAMPLE", hint);
    }
    cursor_.next();
    SampleCommand sample;
    sample.probability = std::strtod(probability.text.c_str(), nullptr);
    if (!(sample.probability > 0 && sample.probability < 1)) {
      TokenCursor::fail(probability,
                        "SAMPLE's probability " + std::string(probability.source) +
                            " is not between 0 and 1 (both excluded)",
                        hint);
    }
    if (cursor_.acceptKeyword("SEED")) {
      const Token& seed = cursor_.peek();
      uint64_t value = 0;
      const auto [end, error] =
          std::from_chars(seed.text.data(), seed.text.data() + seed.text.size(), value);
      if (seed.kind != TokenKind::kInteger || error != std::errc() ||
          end != seed.text.data() + seed.text.size()) {
        cursor_.failExpected("a whole number from 0 to 18446744073709551615 after SEED", hint);
      }
      cursor_.next();
      sample.seed = value;
    }
    return sample;
  }

  EvalCommand parseEval() {
    EvalCommand eval;
    do {
      Identifier name = expressions_.parseIdentifier("a column name to EVAL");
      cursor_.expect(TokenKind::kAssign, "'='", "after the EVAL column " + name.dotted(),
                     "EVAL names each value: EVAL total = price * quantity");
      eval.assignments.push_back(Assignment{std::move(name), expressions_.parseExpression()});
    } while (cursor_.accept(TokenKind::kComma));
    return eval;
  }

  /// Reads `[name =] expr`: a name is an identifier followed by a single '='.
  /// An aggregate may be followed by `WHERE condition`, its own filter.
  StatsItem parseStatsItem(bool aggregate) {
    StatsItem item{std::nullopt, Expr{}, std::nullopt};
    if (cursor_.at(TokenKind::kIdentifier) && cursor_.peek(1).kind == TokenKind::kAssign) {
      item.name = expressions_.parseIdentifier("a column name");
      cursor_.next();
    }
    item.expr = expressions_.parseExpression();
    if (cursor_.atKeyword("WHERE")) {
      if (!aggregate) {
        TokenCursor::fail(cursor_.peek(), "a BY key takes no WHERE",
                          "filter the rows before STATS with | WHERE ..., or filter one "
                          "aggregate: STATS c = COUNT(*) WHERE cond BY key");
      }
      cursor_.next();
      item.filter = expressions_.parseExpression();
    }
    return item;
  }

  /// `by = ...` names an aggregate; BY anywhere else starts the groupings.
  bool atGroupingKeyword() const {
    return cursor_.atKeyword("BY") && cursor_.peek(1).kind != TokenKind::kAssign;
  }

  StatsCommand parseStats() {
    StatsCommand stats;
    if (!atGroupingKeyword()) {
      if (cursor_.at(TokenKind::kEnd) || cursor_.at(TokenKind::kPipe)) {
        cursor_.failExpected("an aggregate or BY after STATS",
                             "write STATS c = COUNT(*) BY key, or STATS BY key");
      }
      do {
        if (!stats.aggregates.empty() && atGroupingKeyword()) {
          TokenCursor::fail(cursor_.peek(), "expected an aggregate after ',', found 'BY'",
                            "remove the trailing ','");
        }
        stats.aggregates.push_back(parseStatsItem(true));
      } while (cursor_.accept(TokenKind::kComma));
    }
    if (cursor_.acceptKeyword("BY")) {
      do {
        stats.groups.push_back(parseStatsItem(false));
      } while (cursor_.accept(TokenKind::kComma));
    }
    return stats;
  }

  SortCommand parseSort() {
    SortCommand sort;
    do {
      SortKey key{expressions_.parseExpression(), true, false};
      if (cursor_.acceptKeyword("DESC")) {
        key.ascending = false;
      } else {
        cursor_.acceptKeyword("ASC");
      }
      key.nullsFirst = !key.ascending;
      if (cursor_.acceptKeyword("NULLS")) {
        if (cursor_.acceptKeyword("FIRST")) {
          key.nullsFirst = true;
        } else {
          cursor_.expectKeyword("LAST", "or FIRST after NULLS", "write NULLS FIRST or NULLS LAST");
          key.nullsFirst = false;
        }
      }
      sort.keys.push_back(std::move(key));
    } while (cursor_.accept(TokenKind::kComma));
    return sort;
  }

  std::vector<Identifier> parseNames(std::string_view what) {
    std::vector<Identifier> names;
    do {
      names.push_back(parseNamePattern(what));
    } while (cursor_.accept(TokenKind::kComma));
    return names;
  }

  /// A column name, or ES|QL's pattern of them: bare words and `*` written
  /// together, without spaces (`l_*`, `*_date`, `l_*price`, `*`).
  Identifier parseNamePattern(std::string_view what) {
    const auto bare = [](const Token& t) { return t.kind == TokenKind::kIdentifier && !t.quoted; };
    const Token& first = cursor_.peek();
    const auto touches = [](const Token& a, const Token& b) {
      return a.source.data() + a.source.size() == b.source.data();
    };
    const bool starts = first.kind == TokenKind::kStar ||
                        (bare(first) && cursor_.peek(1).kind == TokenKind::kStar &&
                         touches(first, cursor_.peek(1)));
    if (!starts) return expressions_.parseIdentifier(what);
    std::string text;
    const Token* last = nullptr;
    while ((cursor_.at(TokenKind::kStar) || bare(cursor_.peek())) &&
           (last == nullptr || touches(*last, cursor_.peek()))) {
      last = &cursor_.next();
      if (last->kind == TokenKind::kStar) {
        text += '*';
      } else {
        for (size_t i = 0; i < last->parts.size(); ++i) text += (i > 0 ? "." : "") + last->parts[i];
      }
    }
    Identifier name{{}, first.position};
    name.pattern = true;
    size_t start = 0;
    for (size_t dot = text.find('.'); dot != std::string::npos; dot = text.find('.', start)) {
      name.parts.push_back(text.substr(start, dot - start));
      start = dot + 1;
    }
    name.parts.push_back(text.substr(start));
    return name;
  }

  RenameCommand parseRename() {
    RenameCommand rename;
    do {
      Identifier from = expressions_.parseIdentifier("a column name to RENAME");
      cursor_.expectKeyword("AS", "after the RENAME column " + from.dotted(),
                            "write RENAME old_name AS new_name");
      Identifier to = expressions_.parseIdentifier("the new column name after AS");
      rename.renames.push_back(RenamePair{std::move(from), std::move(to)});
    } while (cursor_.accept(TokenKind::kComma));
    return rename;
  }

  LimitCommand parseLimit() {
    const Token& count = cursor_.peek();
    const char* hint = "LIMIT takes a whole number of rows, e.g. LIMIT 10";
    if (count.kind != TokenKind::kInteger) {
      const std::string found =
          count.kind == TokenKind::kMinus ? "a negative number" : count.describe();
      TokenCursor::fail(count, "LIMIT takes a non-negative integer, found " + found, hint);
    }
    cursor_.next();
    int64_t value = 0;
    const auto [end, error] =
        std::from_chars(count.text.data(), count.text.data() + count.text.size(), value);
    if (error != std::errc() || end != count.text.data() + count.text.size()) {
      TokenCursor::fail(count, "LIMIT " + count.text + " is larger than 9223372036854775807", hint);
    }
    return LimitCommand{value};
  }

  TokenCursor cursor_;
  ExpressionParser expressions_;
  std::string lastClause_;
};

}  // namespace

Query parseQuery(std::string_view text, const QueryParameters& parameters) {
  return QueryParser(text, parameters).parse();
}

Expr parseExpression(std::string_view text) {
  return QueryParser(text).parseLoneExpression();
}

}  // namespace quarry::engine
