#include "quarry/engine/parse/query_printer.h"

#include <charconv>
#include <string_view>

#include "quarry/engine/parse/expression_parser.h"
#include "quarry/engine/parse/temporal_literal.h"

namespace quarry::engine {
namespace {

// Binding strength, loosest first; a child binding looser than its slot needs
// parentheses.
enum Precedence : int {
  kOr = 1,
  kAnd = 2,
  kNot = 3,
  kComparison = 4,  // also IS NULL, IN, LIKE, RLIKE
  kAdditive = 5,
  kMultiplicative = 6,
  kUnary = 7,
  kPrimary = 8,
};

Precedence binaryPrecedence(BinaryOp op) {
  switch (op) {
    case BinaryOp::kOr:
      return kOr;
    case BinaryOp::kAnd:
      return kAnd;
    case BinaryOp::kAdd:
    case BinaryOp::kSubtract:
      return kAdditive;
    case BinaryOp::kMultiply:
    case BinaryOp::kDivide:
    case BinaryOp::kModulo:
      return kMultiplicative;
    default:
      return kComparison;
  }
}

Precedence precedenceOf(const Expr& expr) {
  if (const auto* binary = std::get_if<BinaryExpr>(&expr.node)) return binaryPrecedence(binary->op);
  if (const auto* unary = std::get_if<UnaryExpr>(&expr.node)) {
    return unary->op == UnaryOp::kNot ? kNot : kUnary;
  }
  if (expr.is<IsNullExpr>() || expr.is<InExpr>() || expr.is<LikeExpr>()) return kComparison;
  return kPrimary;
}

bool isBareWord(std::string_view part) {
  if (part.empty()) return false;
  const char first = part[0];
  if (!((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z') || first == '_')) {
    return false;
  }
  for (char c : part) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) {
      return false;
    }
  }
  // BY is a keyword only in STATS, but a column `by` first in STATS would read
  // as the start of the groupings.
  const bool isBy = part.size() == 2 && (part[0] | 0x20) == 'b' && (part[1] | 0x20) == 'y';
  return !isBy && !ExpressionParser::isReservedWord(part);
}

std::string printLiteral(const Literal& literal) {
  struct Visitor {
    std::string operator()(const NullLiteral&) const { return "NULL"; }
    std::string operator()(const BooleanLiteral& b) const { return b.value ? "TRUE" : "FALSE"; }
    std::string operator()(const IntegerLiteral& i) const { return std::to_string(i.value); }
    std::string operator()(const DecimalLiteral& d) const {
      if (d.scale <= 0) return d.unscaled;
      std::string digits = d.unscaled;
      const auto scale = static_cast<size_t>(d.scale);
      if (digits.size() <= scale) digits.insert(0, scale + 1 - digits.size(), '0');
      digits.insert(digits.size() - scale, 1, '.');
      return digits;
    }
    std::string operator()(const DoubleLiteral& d) const {
      // Scientific notation keeps the exponent, so the text reads back as a
      // double; the shortest form reads back as the same double.
      char buffer[64];
      const auto result =
          std::to_chars(buffer, buffer + sizeof buffer, d.value, std::chars_format::scientific);
      return std::string(buffer, result.ptr);
    }
    std::string operator()(const StringLiteral& s) const { return quoteString(s.value); }
    std::string operator()(const DateLiteral& d) const {
      return "DATE '" + d.value.toString() + "'";
    }
    std::string operator()(const TimestampLiteral& t) const {
      return "TIMESTAMP '" + formatTimestampLiteral(t.value) + "'";
    }
    std::string operator()(const TimeSpanLiteral& t) const {
      std::string out = std::to_string(t.count) + " " + timeSpanUnitName(t.unit);
      if (t.count != 1) out += 's';
      return out;
    }
  };
  return std::visit(Visitor{}, literal);
}

class ExprPrinter {
 public:
  explicit ExprPrinter(std::string& out) : out_(out) {}

  /// Writes `expr`, in parentheses when it binds looser than `slot`.
  void print(const Expr& expr, int slot) {
    const bool parenthesize = precedenceOf(expr) < slot;
    if (parenthesize) out_ += '(';
    std::visit([this](const auto& node) { write(node); }, expr.node);
    if (parenthesize) out_ += ')';
  }

 private:
  void write(const Literal& literal) { out_ += printLiteral(literal); }
  void write(const ColumnRef& column) { out_ += printIdentifier(column.name); }
  void write(const Star&) { out_ += '*'; }
  void write(const UnaryExpr& unary) {
    if (unary.op == UnaryOp::kNot) {
      out_ += "NOT ";
      print(*unary.operand, kNot);
    } else {
      out_ += '-';
      // A nested minus gets parentheses: "-(-x)" reads better than "--x".
      print(*unary.operand, unary.operand->is<UnaryExpr>() ? kPrimary : kUnary);
    }
  }
  void write(const BinaryExpr& binary) {
    const Precedence own = binaryPrecedence(binary.op);
    // Left-associative: the right child needs parentheses at equal precedence,
    // and comparisons do not chain at all.
    print(*binary.left, own == kComparison ? own + 1 : own);
    out_ += ' ';
    out_ += binaryOpText(binary.op);
    out_ += ' ';
    print(*binary.right, own + 1);
  }
  void write(const IsNullExpr& isNull) {
    print(*isNull.operand, kAdditive);
    out_ += isNull.negated ? " IS NOT NULL" : " IS NULL";
  }
  void write(const InExpr& in) {
    print(*in.operand, kAdditive);
    out_ += in.negated ? " NOT IN (" : " IN (";
    list(in.list);
    out_ += ')';
  }
  void write(const LikeExpr& like) {
    print(*like.operand, kAdditive);
    out_ += like.negated ? " NOT " : " ";
    out_ += like.regex ? "RLIKE " : "LIKE ";
    out_ += quoteString(like.pattern);
  }
  void write(const CaseExpr& caseExpr) {
    out_ += "CASE";
    for (const WhenClause& when : caseExpr.whens) {
      out_ += " WHEN ";
      print(*when.condition, kOr);
      out_ += " THEN ";
      print(*when.value, kOr);
    }
    if (caseExpr.otherwise) {
      out_ += " ELSE ";
      print(**caseExpr.otherwise, kOr);
    }
    out_ += " END";
  }
  void write(const CallExpr& call) {
    out_ += call.function;
    out_ += '(';
    list(call.args);
    out_ += ')';
  }
  void list(const std::vector<Expr>& exprs) {
    for (size_t i = 0; i < exprs.size(); ++i) {
      if (i > 0) out_ += ", ";
      print(exprs[i], kOr);
    }
  }

  std::string& out_;
};

std::string_view formatName(SourceFormat format) {
  return format == SourceFormat::kParquet ? "parquet" : "orc";
}

std::string_view resolutionName(SchemaResolution resolution) {
  switch (resolution) {
    case SchemaResolution::kFirstFileWins:
      return "first_file_wins";
    case SchemaResolution::kStrict:
      return "strict";
    case SchemaResolution::kUnionByName:
      return "union_by_name";
  }
  return "?";
}

void printFrom(const FromClause& from, std::string& out) {
  out += "FROM ";
  for (size_t i = 0; i < from.sources.size(); ++i) {
    if (i > 0) out += ", ";
    out += quoteString(from.sources[i].uri);
  }
  if (!from.format && !from.schemaResolution && !from.hivePartitioning && from.hiveTypes.empty()) return;
  std::vector<std::string> options;
  if (from.format) options.push_back("\"format\": \"" + std::string(formatName(*from.format)) + "\"");
  if (from.schemaResolution) {
    options.push_back("\"schema_resolution\": \"" + std::string(resolutionName(*from.schemaResolution)) + "\"");
  }
  if (from.hivePartitioning) {
    options.push_back(std::string("\"hive_partitioning\": ") + (*from.hivePartitioning ? "true" : "false"));
  }
  if (!from.hiveTypes.empty()) {
    std::string types = "\"hive_types\": {";
    for (size_t i = 0; i < from.hiveTypes.size(); ++i) {
      if (i > 0) types += ", ";
      types += quoteString(from.hiveTypes[i].column) + ": " + quoteString(from.hiveTypes[i].type);
    }
    options.push_back(types + "}");
  }
  out += " WITH {";
  for (size_t i = 0; i < options.size(); ++i) out += (i > 0 ? ", " : "") + options[i];
  out += '}';
}

void printStatsItems(const std::vector<StatsItem>& items, std::string& out) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    if (items[i].name) out += printIdentifier(*items[i].name) + " = ";
    out += printExpr(items[i].expr);
    if (items[i].filter) out += " WHERE " + printExpr(*items[i].filter);
  }
}

void printNames(const std::vector<Identifier>& names, std::string& out) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ", ";
    out += printIdentifier(names[i]);
  }
}

struct CommandPrinter {
  std::string& out;

  void operator()(const WhereCommand& where) const { out += "WHERE " + printExpr(where.condition); }
  void operator()(const EvalCommand& eval) const {
    out += "EVAL ";
    for (size_t i = 0; i < eval.assignments.size(); ++i) {
      if (i > 0) out += ", ";
      out +=
          printIdentifier(eval.assignments[i].name) + " = " + printExpr(eval.assignments[i].value);
    }
  }
  void operator()(const StatsCommand& stats) const {
    out += "STATS";
    if (!stats.aggregates.empty()) {
      out += ' ';
      printStatsItems(stats.aggregates, out);
    }
    if (!stats.groups.empty()) {
      out += " BY ";
      printStatsItems(stats.groups, out);
    }
  }
  void operator()(const SortCommand& sort) const {
    out += "SORT ";
    for (size_t i = 0; i < sort.keys.size(); ++i) {
      const SortKey& key = sort.keys[i];
      if (i > 0) out += ", ";
      out += printExpr(key.expr);
      out += key.ascending ? " ASC" : " DESC";
      out += key.nullsFirst ? " NULLS FIRST" : " NULLS LAST";
    }
  }
  void operator()(const KeepCommand& keep) const {
    out += "KEEP ";
    printNames(keep.columns, out);
  }
  void operator()(const DropCommand& drop) const {
    out += "DROP ";
    printNames(drop.columns, out);
  }
  void operator()(const RenameCommand& rename) const {
    out += "RENAME ";
    for (size_t i = 0; i < rename.renames.size(); ++i) {
      if (i > 0) out += ", ";
      out +=
          printIdentifier(rename.renames[i].from) + " AS " + printIdentifier(rename.renames[i].to);
    }
  }
  void operator()(const LimitCommand& limit) const {
    out += "LIMIT " + std::to_string(limit.count);
  }
  void operator()(const MvExpandCommand& expand) const {
    out += "MV_EXPAND " + printIdentifier(expand.column);
  }
  void operator()(const DissectCommand& dissect) const {
    out += "DISSECT " + printIdentifier(dissect.column) + " " + quoteString(dissect.pattern);
    if (!dissect.appendSeparator.empty()) {
      out += " APPEND_SEPARATOR = " + quoteString(dissect.appendSeparator);
    }
  }
  void operator()(const SampleCommand& sample) const {
    // The shortest text that reads back as the same double.
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof(buffer), sample.probability);
    std::string number(buffer, result.ptr);
    if (number.find_first_of(".e") == std::string::npos) number += ".0";
    if (number.front() == '.') number.insert(number.begin(), '0');
    out += "SAMPLE " + number;
    if (sample.seed) out += " SEED " + std::to_string(*sample.seed);
  }
  void operator()(const GrokCommand& grok) const {
    out += "GROK " + printIdentifier(grok.column) + " " + quoteString(grok.pattern);
  }
  void operator()(const LookupJoinCommand& lookup) const {
    out += "LOOKUP JOIN " + quoteString(lookup.uri) + " ON ";
    for (size_t i = 0; i < lookup.keys.size(); ++i) {
      if (i > 0) out += ", ";
      out += printIdentifier(lookup.keys[i]);
    }
  }
};

}  // namespace

std::string quoteString(std::string_view value) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (const char c : value) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (byte < 0x20 || byte == 0x7F) {
          out += "\\u00";
          out += kHex[byte >> 4];
          out += kHex[byte & 0xF];
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::string printIdentifier(const Identifier& name) {
  if (name.pattern) return name.dotted();  // bare words and `*`, as written
  std::string out;
  for (size_t i = 0; i < name.parts.size(); ++i) {
    if (i > 0) out += '.';
    const std::string& part = name.parts[i];
    if (isBareWord(part)) {
      out += part;
      continue;
    }
    out += '`';
    for (const char c : part) {
      if (c == '`') out += '`';
      out += c;
    }
    out += '`';
  }
  return out;
}

std::string printExpr(const Expr& expr) {
  std::string out;
  ExprPrinter(out).print(expr, kOr);
  return out;
}

std::string printQuery(const Query& query) {
  std::string out;
  if (query.row) {
    out += "ROW ";
    for (size_t i = 0; i < query.row->fields.size(); ++i) {
      const Assignment& field = query.row->fields[i];
      if (i > 0) out += ", ";
      out += printIdentifier(field.name) + " = " + printExpr(field.value);
    }
  } else {
    printFrom(query.from, out);
  }
  for (const Command& command : query.commands) {
    out += " | ";
    std::visit(CommandPrinter{out}, command.node);
  }
  return out;
}

}  // namespace quarry::engine
