#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "quarry/common/values.h"
#include "quarry/engine/parse/source_position.h"
#include "quarry/engine/parse/time_span.h"

/// The syntax tree of one query: a FROM clause, then the piped commands in the
/// order written. The parser builds it (query_parser.h), the printer renders it
/// back as canonical text (query_printer.h), and the analyzer resolves names and
/// types on it. Nothing here knows a schema: a column is a name, a function is a
/// name and its arguments.
///
/// Every node keeps where it was written. Equality compares what a tree means,
/// not where it came from: positions are left out, so that a tree printed and
/// parsed again equals the original.
namespace quarry::engine {

/// Owns one value on the heap with value semantics (deep copy, deep equality),
/// which is how a tree node holds a child of its own type.
template <typename T>
class Box {
 public:
  Box(T value) : value_(std::make_unique<T>(std::move(value))) {}  // NOLINT: implicit by design
  Box(const Box& other) : value_(std::make_unique<T>(*other.value_)) {}
  Box(Box&&) noexcept = default;
  Box& operator=(const Box& other) {
    if (this != &other) value_ = std::make_unique<T>(*other.value_);
    return *this;
  }
  Box& operator=(Box&&) noexcept = default;
  ~Box() = default;

  const T& operator*() const { return *value_; }
  T& operator*() { return *value_; }
  const T* operator->() const { return value_.get(); }
  T* operator->() { return value_.get(); }
  bool operator==(const Box& other) const { return *value_ == *other.value_; }

 private:
  std::unique_ptr<T> value_;
};

// ---- Literals ------------------------------------------------------------

struct NullLiteral {
  bool operator==(const NullLiteral&) const = default;
};
struct BooleanLiteral {
  bool value = false;
  bool operator==(const BooleanLiteral&) const = default;
};
/// An integer as written, without sign (unary minus is a node of its own):
/// 0 .. 18446744073709551615, so that -9223372036854775808 can be written.
struct IntegerLiteral {
  uint64_t value = 0;
  bool operator==(const IntegerLiteral&) const = default;
};
/// An exact decimal as written: `12.50` is unscaled "1250", scale 2. Integers
/// past uint64 are decimals of scale 0. At most 38 digits (precision) in all.
struct DecimalLiteral {
  std::string unscaled;  // decimal digits without leading zeros; "0" for zero
  int32_t scale = 0;
  bool operator==(const DecimalLiteral&) const = default;
};
/// A literal with an exponent, `1.5e3`; always finite.
struct DoubleLiteral {
  double value = 0;
  bool operator==(const DoubleLiteral&) const = default;
};
struct StringLiteral {
  std::string value;  // escapes resolved; well-formed UTF-8
  bool operator==(const StringLiteral&) const = default;
};
/// `DATE 'YYYY-MM-DD'`.
struct DateLiteral {
  Date value;
  bool operator==(const DateLiteral&) const = default;
};
/// `TIMESTAMP 'YYYY-MM-DD HH:MM[:SS[.fffffffff]]'`: a wall-clock time; whether
/// it is compared as UTC or local is the analyzer's decision, per column.
struct TimestampLiteral {
  LocalDateTime value;
  bool operator==(const TimestampLiteral&) const = default;
};

/// `15 minutes`: an integer as written (without sign) and a unit (time_span.h).
struct TimeSpanLiteral {
  uint64_t count = 0;
  TimeSpanUnit unit = TimeSpanUnit::kDay;
  bool operator==(const TimeSpanLiteral&) const = default;
};

using Literal = std::variant<NullLiteral, BooleanLiteral, IntegerLiteral, DecimalLiteral,
                             DoubleLiteral, StringLiteral, DateLiteral, TimestampLiteral,
                             TimeSpanLiteral>;

// ---- Names ---------------------------------------------------------------

/// A column name: its dotted parts, `a.b.c` is {"a", "b", "c"} (a struct leaf),
/// `_file.path` is {"_file", "path"}, and `` `weird name` `` is one part. Case
/// is kept: column names are case-sensitive.
struct Identifier {
  std::vector<std::string> parts;
  SourcePosition position;
  /// KEEP's and DROP's `l_*`, `*_date`, `*`: ES|QL's pattern, each `*` of the
  /// parts any run of characters. Written only with bare words and `*`; a
  /// backquoted name is never a pattern (`` `COUNT(*)` `` is that column).
  bool pattern = false;
  /// Returns the parts joined by '.'.
  std::string dotted() const;
  bool operator==(const Identifier& other) const {
    return parts == other.parts && pattern == other.pattern;
  }
};

// ---- Expressions -----------------------------------------------------------

struct Expr;

enum class UnaryOp : uint8_t { kNegate, kNot };

enum class BinaryOp : uint8_t {
  kOr,
  kAnd,
  kEq,  // `=` and `==` alike
  kNe,  // `!=` and `<>` alike
  kLt,
  kLe,
  kGt,
  kGe,
  kAdd,
  kSubtract,
  kMultiply,
  kDivide,
  kModulo,
};

/// Returns the operator as the language writes it: "==", "AND", "+".
const char* binaryOpText(BinaryOp op);

struct ColumnRef {
  Identifier name;
  bool operator==(const ColumnRef&) const = default;
};
/// `*` as the only argument of a call: COUNT(*).
struct Star {
  bool operator==(const Star&) const = default;
};
struct UnaryExpr {
  UnaryOp op;
  Box<Expr> operand;
  bool operator==(const UnaryExpr&) const = default;
};
struct BinaryExpr {
  BinaryOp op;
  Box<Expr> left;
  Box<Expr> right;
  bool operator==(const BinaryExpr&) const = default;
};
/// `x IS NULL`, `x IS NOT NULL` (negated).
struct IsNullExpr {
  Box<Expr> operand;
  bool negated = false;
  bool operator==(const IsNullExpr&) const = default;
};
/// `x IN (a, b)`, `x NOT IN (...)` (negated).
struct InExpr {
  Box<Expr> operand;
  std::vector<Expr> list;  // at least one
  bool negated = false;
  bool operator==(const InExpr&) const = default;
};
/// `x LIKE "pattern"`, `x NOT LIKE "..."` (negated), and with `regex`
/// `x RLIKE "regex"`, `x NOT RLIKE "..."`. The pattern is a string literal kept
/// as written: for LIKE ES|QL's wildcards (`*` any run, `?` one character, `\`
/// escaping either or itself; expr/like_matcher.h reads it), for RLIKE a regular
/// expression matching the whole value (expr/regex_matcher.h).
struct LikeExpr {
  Box<Expr> operand;
  std::string pattern;
  bool negated = false;
  bool regex = false;
  bool operator==(const LikeExpr&) const = default;
};
struct WhenClause {
  Box<Expr> condition;
  Box<Expr> value;
  bool operator==(const WhenClause&) const = default;
};
/// `CASE WHEN c THEN v ... [ELSE e] END`; ES|QL's `case(c, v, ..., [e])` parses
/// to the same node.
struct CaseExpr {
  std::vector<WhenClause> whens;  // at least one
  std::optional<Box<Expr>> otherwise;
  bool operator==(const CaseExpr&) const = default;
};
/// A function or aggregate call; which names exist is the analyzer's business.
struct CallExpr {
  std::string function;  // lower case: names are case-insensitive
  std::vector<Expr> args;
  bool operator==(const CallExpr&) const = default;
};

using ExprNode = std::variant<Literal, ColumnRef, Star, UnaryExpr, BinaryExpr, IsNullExpr, InExpr,
                              LikeExpr, CaseExpr, CallExpr>;

/// An expression node and where it was written: the operator for binary, IS,
/// IN and LIKE nodes, the first token for the others.
struct Expr {
  ExprNode node;
  SourcePosition position;

  template <typename T>
  bool is() const {
    return std::holds_alternative<T>(node);
  }
  template <typename T>
  const T& as() const {
    return std::get<T>(node);
  }
  bool operator==(const Expr& other) const { return node == other.node; }
};

// ---- Commands --------------------------------------------------------------

enum class SourceFormat : uint8_t { kParquet, kOrc };
enum class SchemaResolution : uint8_t { kFirstFileWins, kStrict, kUnionByName };

struct SourceUri {
  std::string uri;  // a URI or a glob, as written
  SourcePosition position;
  bool operator==(const SourceUri& other) const { return uri == other.uri; }
};

/// One entry of WITH {"hive_types": {"year": "integer"}}: a partition column and
/// the type its values are read as (a name of kHiveTypeNames, lower case).
struct HiveType {
  std::string column;
  std::string type;
  SourcePosition position;
  bool operator==(const HiveType& other) const { return column == other.column && type == other.type; }
};

/// The type names WITH {"hive_types": ...} takes (DuckDB's spellings).
inline constexpr std::array<std::string_view, 13> kHiveTypeNames = {
    "integer", "int",    "bigint", "double",    "varchar", "string", "text",
    "date",    "timestamp", "boolean", "bool", "int32", "int64"};

/// `FROM "uri"[, "uri" ...] [WITH {"format": ..., "schema_resolution": ...,
/// "hive_partitioning": true|false, "hive_types": {...}}]`; an option not given
/// is left for the resolver to default.
struct FromClause {
  std::vector<SourceUri> sources;  // at least one
  std::optional<SourceFormat> format;
  std::optional<SchemaResolution> schemaResolution;
  /// Unset: hive partitions are read when every matched path has the same keys.
  std::optional<bool> hivePartitioning;
  std::vector<HiveType> hiveTypes;
  SourcePosition position;
  bool operator==(const FromClause& other) const {
    return sources == other.sources && format == other.format &&
           schemaResolution == other.schemaResolution &&
           hivePartitioning == other.hivePartitioning && hiveTypes == other.hiveTypes;
  }
};

struct WhereCommand {
  Expr condition;
  bool operator==(const WhereCommand&) const = default;
};

struct Assignment {
  Identifier name;
  Expr value;
  bool operator==(const Assignment&) const = default;
};
struct EvalCommand {
  std::vector<Assignment> assignments;  // at least one
  bool operator==(const EvalCommand&) const = default;
};

/// An aggregate or grouping of STATS, with the name given by `name =` if any.
/// An aggregate item is an expression over aggregate calls (`SUM(a) / COUNT(a)`,
/// `ROUND(AVG(p), 2)`); `WHERE filter` after it keeps only the rows where the
/// filter is true for each aggregate call in it.
struct StatsItem {
  std::optional<Identifier> name;
  Expr expr;
  std::optional<Expr> filter;  // aggregates only
  bool operator==(const StatsItem&) const = default;
};
/// `STATS [name =] agg [WHERE cond], ... [BY [name =] expr, ...]`: at least one
/// aggregate or one grouping.
struct StatsCommand {
  std::vector<StatsItem> aggregates;
  std::vector<StatsItem> groups;
  bool operator==(const StatsCommand&) const = default;
};

/// One SORT key. Null placement is resolved at parse time: NULLS LAST for
/// ascending, NULLS FIRST for descending unless written.
struct SortKey {
  Expr expr;
  bool ascending = true;
  bool nullsFirst = false;
  bool operator==(const SortKey&) const = default;
};
struct SortCommand {
  std::vector<SortKey> keys;  // at least one
  bool operator==(const SortCommand&) const = default;
};

struct KeepCommand {
  std::vector<Identifier> columns;  // at least one
  bool operator==(const KeepCommand&) const = default;
};
struct DropCommand {
  std::vector<Identifier> columns;  // at least one
  bool operator==(const DropCommand&) const = default;
};

struct RenamePair {
  Identifier from;
  Identifier to;
  bool operator==(const RenamePair&) const = default;
};
struct RenameCommand {
  std::vector<RenamePair> renames;  // at least one
  bool operator==(const RenameCommand&) const = default;
};

struct LimitCommand {
  int64_t count = 0;  // 0 .. INT64_MAX
  bool operator==(const LimitCommand&) const = default;
};

/// `MV_EXPAND column`: one row per value of a list column, the other columns
/// repeated; a null or empty list gives one row with null (ES|QL).
struct MvExpandCommand {
  Identifier column;
  bool operator==(const MvExpandCommand&) const = default;
};

/// `DISSECT column "pattern" [APPEND_SEPARATOR = "separator"]`: the pattern's
/// keys become string columns (expr/dissect_pattern.h).
struct DissectCommand {
  Identifier column;
  std::string pattern;
  std::string appendSeparator;  // "" unless given
  SourcePosition patternPosition;
  bool operator==(const DissectCommand& other) const {
    return column == other.column && pattern == other.pattern &&
           appendSeparator == other.appendSeparator;
  }
};

/// `GROK column "pattern"`: the pattern's `%{SYNTAX:name[:type]}` captures
/// become columns (expr/grok_pattern.h).
struct GrokCommand {
  Identifier column;
  std::string pattern;
  SourcePosition patternPosition;
  bool operator==(const GrokCommand& other) const {
    return column == other.column && pattern == other.pattern;
  }
};

/// `SAMPLE probability [SEED n]`: keeps each row with the probability (0 < p <
/// 1); with a seed, the same rows of the same input on every run.
struct SampleCommand {
  double probability = 0;
  std::optional<uint64_t> seed;
  bool operator==(const SampleCommand&) const = default;
};

/// `LOOKUP JOIN "file" ON key, ...`: a left join with a small Parquet or ORC
/// file (or glob), ES|QL's lookup index: each row gets the file's other columns
/// from every file row whose keys equal its own, or nulls when none does.
struct LookupJoinCommand {
  std::string uri;
  SourcePosition uriPosition;
  std::vector<Identifier> keys;
  bool operator==(const LookupJoinCommand& other) const {
    return uri == other.uri && keys == other.keys;
  }
};

using CommandNode = std::variant<WhereCommand, EvalCommand, StatsCommand, SortCommand, KeepCommand,
                                 DropCommand, RenameCommand, LimitCommand, MvExpandCommand,
                                 DissectCommand, GrokCommand, SampleCommand, LookupJoinCommand>;

/// A piped command and where its name was written.
struct Command {
  CommandNode node;
  SourcePosition position;

  template <typename T>
  bool is() const {
    return std::holds_alternative<T>(node);
  }
  template <typename T>
  const T& as() const {
    return std::get<T>(node);
  }
  bool operator==(const Command& other) const { return node == other.node; }
};

/// `ROW a = 1, b = "x"`: ES|QL's source of one row, its columns the values
/// given (any expression without columns), in place of FROM.
struct RowSource {
  std::vector<Assignment> fields;  // at least one
  SourcePosition position;
  bool operator==(const RowSource& other) const { return fields == other.fields; }
};

struct Query {
  FromClause from;              // empty when `row` is given
  std::optional<RowSource> row;
  std::vector<Command> commands;
  bool operator==(const Query&) const = default;
};

}  // namespace quarry::engine
