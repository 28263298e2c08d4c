#include "quarry/engine/expr/expression_binder.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <utility>

#include "quarry/common/error.h"
#include "quarry/common/name_hint.h"
#include "quarry/engine/expr/call_failures.h"
#include "quarry/engine/expr/conversion_functions.h"
#include "quarry/engine/expr/decimal_arithmetic.h"
#include "quarry/engine/expr/mv_functions.h"
#include "quarry/engine/expr/regex_matcher.h"
#include "quarry/engine/expr/scalar_functions.h"
#include "quarry/engine/expr/temporal_functions.h"
#include "quarry/engine/expr/type_rules.h"
#include "quarry/engine/expr/vector_kernels.h"
#include "quarry/engine/parse/query_printer.h"

namespace quarry::engine {

namespace {

using Kind = BoundExpr::Kind;

std::shared_ptr<BoundExpr> literalNode(DataType type, Scalar value) {
  auto node = std::make_shared<BoundExpr>();
  node->kind = Kind::kLiteral;
  node->type = type;
  node->literal = std::move(value);
  return node;
}

/// An integer literal with its sign (the magnitude as written, up to 2^64 - 1).
BoundExprPtr integerLiteral(uint64_t magnitude, bool negative) {
  if (!negative) {
    if (magnitude <= static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) {
      return literalNode(DataType::int32(), static_cast<int32_t>(magnitude));
    }
    if (magnitude <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return literalNode(DataType::int64(), static_cast<int64_t>(magnitude));
    }
    return literalNode(DataType::uint64(), magnitude);
  }
  if (magnitude <= 2147483648ULL) {
    return literalNode(DataType::int32(), static_cast<int32_t>(-static_cast<int64_t>(magnitude)));
  }
  if (magnitude <= 9223372036854775808ULL) {
    return literalNode(DataType::int64(), static_cast<int64_t>(0 - magnitude));  // two's complement
  }
  return literalNode(DataType::decimal(38, 0), -static_cast<Int128>(magnitude));
}

BoundExprPtr decimalLiteral(const DecimalLiteral& d, bool negative, const SourcePosition& at) {
  const std::optional<Int128> unscaled = parseUnscaled(d.unscaled);
  if (!unscaled || d.scale > 38) {
    throw QueryError("the number " + d.unscaled + " has more than 38 digits", at.line, at.column,
                     "write it as a double, with an exponent: 1.5e40");
  }
  const Int128 value = negative ? -*unscaled : *unscaled;
  if (d.scale == 0) return literalNode(DataType::decimal(38, 0), value);
  const int32_t digits = static_cast<int32_t>(d.unscaled.size());
  const int32_t precision = std::min(38, std::max(digits, d.scale + 1));
  return literalNode(DataType::decimal(std::max(precision, d.scale), d.scale), value);
}

BoundExprPtr bindLiteral(const Literal& literal, const SourcePosition& at) {
  struct Visitor {
    const SourcePosition& at;
    BoundExprPtr operator()(const NullLiteral&) const {
      return literalNode(DataType::null(), std::monostate{});
    }
    BoundExprPtr operator()(const BooleanLiteral& b) const {
      return literalNode(DataType::boolean(), static_cast<uint8_t>(b.value ? 1 : 0));
    }
    BoundExprPtr operator()(const IntegerLiteral& i) const {
      return integerLiteral(i.value, false);
    }
    BoundExprPtr operator()(const DecimalLiteral& d) const { return decimalLiteral(d, false, at); }
    BoundExprPtr operator()(const DoubleLiteral& d) const {
      return literalNode(DataType::float64(), d.value);
    }
    BoundExprPtr operator()(const StringLiteral& s) const {
      return literalNode(DataType::string(), s.value);
    }
    BoundExprPtr operator()(const DateLiteral& d) const {
      return literalNode(DataType::date(), d.value.daysSinceEpoch);
    }
    BoundExprPtr operator()(const TimestampLiteral& t) const {
      const bool nanos = t.value.nanos % 1000 != 0;
      const int64_t perSecond = nanos ? 1'000'000'000 : 1'000'000;
      int64_t units = 0;
      if (__builtin_mul_overflow(t.value.epochSeconds, perSecond, &units) ||
          __builtin_add_overflow(units, nanos ? t.value.nanos : t.value.nanos / 1000, &units)) {
        throw QueryError("the timestamp is out of range for nanoseconds", at.line, at.column,
                         "write at most 6 fraction digits");
      }
      return literalNode(DataType::timestamp(nanos ? TimeUnit::kNanos : TimeUnit::kMicros, false),
                         units);
    }
    BoundExprPtr operator()(const TimeSpanLiteral& t) const {
      const std::string text = TimeSpan{static_cast<int64_t>(t.count), t.unit}.toString();
      throw QueryError("the time span " + text + " stands only where a span is taken", at.line,
                       at.column,
                       "write it as DATE_TRUNC's first argument, BUCKET's second, or add it to or "
                       "subtract it from a date or timestamp: DATE_TRUNC(" + text +
                           ", ts), ts + " + text);
    }
  };
  return std::visit(Visitor{at}, literal);
}

/// The span `ast` writes, a time span literal or one negated, as a literal node
/// (bound_expr.h's timeSpan); nullptr for any other expression.
BoundExprPtr boundSpan(const Expr& ast) {
  bool negative = false;
  const Expr* e = &ast;
  if (e->is<UnaryExpr>() && e->as<UnaryExpr>().op == UnaryOp::kNegate) {
    negative = true;
    e = &*e->as<UnaryExpr>().operand;
  }
  if (!e->is<Literal>()) return nullptr;
  const auto* span = std::get_if<TimeSpanLiteral>(&e->as<Literal>());
  if (span == nullptr) return nullptr;
  if (span->count > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    throw QueryError("the time span count " + std::to_string(span->count) + " is out of range",
                     e->position.line, e->position.column, "counts reach 9223372036854775807");
  }
  const auto count = static_cast<int64_t>(span->count);
  auto node = literalNode(DataType::int64(), negative ? -count : count);
  node->timeSpan = TimeSpan{negative ? -count : count, span->unit};
  return node;
}

}  // namespace

void requireScalar(const BoundExpr& expr, const SourcePosition& at, const std::string& use) {
  if (!expr.type.isList()) return;
  throw QueryError(
      use + " takes one value per row, but " + expr.toString() + " is a multi-valued " +
          expr.type.toString(),
      at.line, at.column,
      "reduce the list to one value with MV_COUNT, MV_MIN, MV_MAX, MV_SUM, MV_AVG, MV_FIRST or "
      "MV_LAST; a list itself passes through KEEP, DROP, RENAME, EVAL copy = list and IS NULL");
}

namespace {

class Binder {
 public:
  explicit Binder(const Schema& input) : input_(input) {}

  BoundExprPtr bind(const Expr& ast) {
    const SourcePosition& at = ast.position;
    // The expression whose operands bindScalar binds, for their warnings.
    const Expr* enclosing = std::exchange(current_, &ast);
    struct Restore {
      const Expr*& current;
      const Expr* saved;
      ~Restore() { current = saved; }
    } restore{current_, enclosing};
    return std::visit(
        [&](const auto& node) -> BoundExprPtr {
          using T = std::decay_t<decltype(node)>;
          if constexpr (std::is_same_v<T, Literal>) {
            return bindLiteral(node, at);
          } else if constexpr (std::is_same_v<T, ColumnRef>) {
            return bindColumn(node.name);
          } else if constexpr (std::is_same_v<T, Star>) {
            throw QueryError("* is only allowed as the argument of COUNT(*)", at.line, at.column,
                             "name a column instead");
          } else if constexpr (std::is_same_v<T, UnaryExpr>) {
            return withWarningSite(bindUnary(node, at), ast);
          } else if constexpr (std::is_same_v<T, BinaryExpr>) {
            return withWarningSite(bindBinary(node, at), ast);
          } else if constexpr (std::is_same_v<T, IsNullExpr>) {
            auto out = make(Kind::kIsNull, DataType::boolean());
            out->negated = node.negated;
            out->children.push_back(bind(*node.operand));
            return out;
          } else if constexpr (std::is_same_v<T, InExpr>) {
            return bindIn(node, at);
          } else if constexpr (std::is_same_v<T, LikeExpr>) {
            return bindLike(node, at);
          } else if constexpr (std::is_same_v<T, CaseExpr>) {
            return bindCase(node, at);
          } else {
            return withWarningSite(bindCall(node, at), ast);
          }
        },
        ast.node);
  }

 private:
  /// Returns `bound` marked with where `ast` was written when it can fail for a
  /// row (a call call_failures.h lists, a division, integer or decimal arithmetic
  /// that can overflow), so that the evaluator reports its failures as warnings;
  /// else `bound` itself.
  static BoundExprPtr withWarningSite(BoundExprPtr bound, const Expr& ast) {
    const bool exact = isIntegerKind(bound->type.kind) || bound->type.kind == TypeKind::kDecimal;
    const bool arithmetic =
        bound->binaryOp == BinaryOp::kAdd || bound->binaryOp == BinaryOp::kSubtract ||
        bound->binaryOp == BinaryOp::kMultiply || bound->binaryOp == BinaryOp::kDivide ||
        bound->binaryOp == BinaryOp::kModulo;
    const bool canFail =
        (bound->kind == Kind::kCall && callCanFail(bound->name)) ||
        (bound->kind == Kind::kBinary &&
         (bound->binaryOp == BinaryOp::kDivide || bound->binaryOp == BinaryOp::kModulo ||
          (arithmetic && exact))) ||
        (bound->kind == Kind::kUnary && bound->unaryOp == UnaryOp::kNegate && exact);
    if (!canFail) return bound;
    auto marked = std::make_shared<BoundExpr>(*bound);
    marked->warningSite = std::make_shared<const WarningSite>(
        WarningSite{ast.position.line, ast.position.column, printExpr(ast)});
    return marked;
  }

  /// Whether the function `name` takes a list's one value as ES|QL's single-value
  /// functions do. COALESCE passes a multi-value through in ES|QL and the
  /// conversions convert each value, neither of which quarry does: a list is
  /// refused there rather than answered otherwise.
  static bool takesOneValue(const std::string& name) {
    return name != "coalesce" && !isConversionFunction(name);
  }

  /// Binds an operand that must be one value per row. A list is refused
  /// (requireScalar) unless `listAsSingleValue`: then, as ES|QL's operators and
  /// single-value functions do, it is its one value, and null with a warning
  /// where it has several ($single_value, mv_functions.h), the warning naming the
  /// expression the operand belongs to.
  BoundExprPtr bindScalar(const Expr& ast, const std::string& use, bool listAsSingleValue = true) {
    BoundExprPtr out = bind(ast);
    if (listAsSingleValue && out->type.isList() && current_ != nullptr) {
      return singleValueOf(std::move(out), std::make_shared<const WarningSite>(WarningSite{
                                               current_->position.line, current_->position.column,
                                               printExpr(*current_)}));
    }
    requireScalar(*out, ast.position, use);
    return out;
  }

  static std::shared_ptr<BoundExpr> make(Kind kind, DataType type) {
    auto node = std::make_shared<BoundExpr>();
    node->kind = kind;
    node->type = type;
    return node;
  }

  BoundExprPtr bindColumn(const Identifier& name) {
    const std::string dotted = name.dotted();
    const int index = fieldIndex(input_, dotted);
    if (index < 0) {
      std::vector<std::string> names;
      names.reserve(input_.size());
      for (const Field& f : input_) names.push_back(f.name);
      throw UnknownColumnError(dotted, "unknown column " + printIdentifier(name), name.position.line,
                               name.position.column, closestHint(dotted, names, "the columns are"));
    }
    auto out = make(Kind::kColumn, input_[static_cast<size_t>(index)].type);
    out->column = index;
    out->name = dotted;
    return out;
  }

  BoundExprPtr bindUnary(const UnaryExpr& node, const SourcePosition& at) {
    const Expr& operand = *node.operand;
    if (node.op == UnaryOp::kNegate && operand.is<Literal>()) {
      // Fold the sign into the literal: -2147483648 is an int32, -9223372036854775808 an int64.
      const Literal& literal = operand.as<Literal>();
      if (const auto* i = std::get_if<IntegerLiteral>(&literal))
        return integerLiteral(i->value, true);
      if (const auto* d = std::get_if<DecimalLiteral>(&literal))
        return decimalLiteral(*d, true, operand.position);
      if (const auto* d = std::get_if<DoubleLiteral>(&literal))
        return literalNode(DataType::float64(), -d->value);
    }
    BoundExprPtr child = bindScalar(operand, node.op == UnaryOp::kNot ? "NOT" : "unary minus");
    const DataType& t = child->type;
    std::shared_ptr<BoundExpr> out;
    if (node.op == UnaryOp::kNot) {
      if (t.kind != TypeKind::kBoolean && t.kind != TypeKind::kNull) {
        throw QueryError(
            "NOT needs a boolean, got " + child->toString() + " of type " + t.toString(), at.line,
            at.column, "compare it first, e.g. NOT (x > 0)");
      }
      out = make(Kind::kUnary, DataType::boolean());
    } else {
      if (!t.isNumeric() && t.kind != TypeKind::kNull) {
        throw QueryError("cannot negate " + child->toString() + " of type " + t.toString(), at.line,
                         at.column, "unary minus takes a number");
      }
      out = make(Kind::kUnary, t.kind == TypeKind::kUInt64 ? DataType::decimal(20, 0) : t);
    }
    out->unaryOp = node.op;
    out->children.push_back(std::move(child));
    return out;
  }

  /// Reads a TIMESTAMP literal compared with a UTC-adjusted timestamp as UTC.
  static void adjustTimestampLiteral(BoundExprPtr& literal, const DataType& other) {
    if (literal->kind != Kind::kLiteral || literal->type.kind != TypeKind::kTimestamp ||
        other.kind != TypeKind::kTimestamp || literal->type.utcAdjusted == other.utcAdjusted) {
      return;
    }
    auto copy = std::make_shared<BoundExpr>(*literal);
    copy->type.utcAdjusted = other.utcAdjusted;
    literal = std::move(copy);
  }

  static void checkComparable(BoundExprPtr& left, BoundExprPtr& right, const SourcePosition& at) {
    adjustTimestampLiteral(left, right->type);
    adjustTimestampLiteral(right, left->type);
    const DataType& a = left->type;
    const DataType& b = right->type;
    if (comparable(a, b)) return;
    const std::string message = "cannot compare " + left->toString() + " (" + a.toString() +
                                ") with " + right->toString() + " (" + b.toString() + ")";
    std::string hint =
        "compare values of one kind: numbers, strings, booleans, dates and timestamps";
    const auto isLiteral = [](const BoundExprPtr& e) { return e->kind == Kind::kLiteral; };
    const auto isTemporal = [](const DataType& t) {
      return t.kind == TypeKind::kDate || t.kind == TypeKind::kTimestamp ||
             t.kind == TypeKind::kTime;
    };
    if (a.kind == TypeKind::kTimestamp && b.kind == TypeKind::kTimestamp) {
      hint = "a UTC-adjusted timestamp and a local one do not compare";
    } else if (a.kind == TypeKind::kString && b.isNumeric() && isLiteral(right)) {
      hint = "compare with a string literal: " + quoteString(right->toString());
    } else if (b.kind == TypeKind::kString && a.isNumeric() && isLiteral(left)) {
      hint = "compare with a string literal: " + quoteString(left->toString());
    } else if ((a.kind == TypeKind::kString && isLiteral(left) && b.isNumeric()) ||
               (b.kind == TypeKind::kString && isLiteral(right) && a.isNumeric())) {
      hint = "write the number without quotes";
    } else if ((isTemporal(a) && b.kind == TypeKind::kString) ||
               (isTemporal(b) && a.kind == TypeKind::kString)) {
      hint = "write a typed literal: DATE 'YYYY-MM-DD' or TIMESTAMP 'YYYY-MM-DD HH:MM:SS'";
    }
    throw QueryError(message, at.line, at.column, hint);
  }

  BoundExprPtr bindBinary(const BinaryExpr& node, const SourcePosition& at) {
    const std::string use = std::string("the operator ") + binaryOpText(node.op);
    if (node.op == BinaryOp::kAdd || node.op == BinaryOp::kSubtract) {
      BoundExprPtr span = boundSpan(*node.right);
      const Expr* instant = &*node.left;
      if (!span && node.op == BinaryOp::kAdd) {
        span = boundSpan(*node.left);
        instant = &*node.right;
      }
      if (span) return bindSpanArithmetic(node.op, bindScalar(*instant, use), std::move(span), at);
    }
    BoundExprPtr left = bindScalar(*node.left, use);
    BoundExprPtr right = bindScalar(*node.right, use);
    std::shared_ptr<BoundExpr> out;
    switch (node.op) {
      case BinaryOp::kAnd:
      case BinaryOp::kOr: {
        for (const BoundExprPtr& side : {left, right}) {
          if (side->type.kind != TypeKind::kBoolean && side->type.kind != TypeKind::kNull) {
            throw QueryError(std::string(node.op == BinaryOp::kAnd ? "AND" : "OR") +
                                 " needs booleans, got " + side->toString() + " of type " +
                                 side->type.toString(),
                             at.line, at.column, "compare it first, e.g. x > 0");
          }
        }
        out = make(Kind::kBinary, DataType::boolean());
        break;
      }
      case BinaryOp::kEq:
      case BinaryOp::kNe:
      case BinaryOp::kLt:
      case BinaryOp::kLe:
      case BinaryOp::kGt:
      case BinaryOp::kGe:
        checkComparable(left, right, at);
        out = make(Kind::kBinary, DataType::boolean());
        break;
      default: {
        const std::optional<DataType> type = arithmeticResultType(node.op, left->type, right->type);
        if (!type) {
          throw QueryError("cannot compute " + left->toString() + " (" + left->type.toString() +
                               ") " + binaryOpText(node.op) + " " + right->toString() + " (" +
                               right->type.toString() + ")",
                           at.line, at.column, "arithmetic takes numbers");
        }
        out = make(Kind::kBinary, *type);
        break;
      }
    }
    out->binaryOp = node.op;
    out->children = {std::move(left), std::move(right)};
    return out;
  }

  /// `instant + span`, `instant - span` (and `span + instant`): the call $add_span
  /// (temporal_functions.h), negated for a subtraction.
  static BoundExprPtr bindSpanArithmetic(BinaryOp op, BoundExprPtr instant, BoundExprPtr span,
                                         const SourcePosition& at) {
    auto out = make(Kind::kCall, DataType::null());
    out->name = "$add_span";
    out->negated = op == BinaryOp::kSubtract;
    out->children = {std::move(instant), std::move(span)};
    out->type = bindScalarFunction(*out, at.line, at.column);
    return out;
  }

  BoundExprPtr bindIn(const InExpr& node, const SourcePosition& at) {
    auto out = make(Kind::kIn, DataType::boolean());
    out->negated = node.negated;
    BoundExprPtr operand = bindScalar(*node.operand, "IN");
    out->children.push_back(operand);
    for (const Expr& item : node.list) {
      BoundExprPtr value = bindScalar(item, "IN");
      BoundExprPtr probe = operand;
      checkComparable(probe, value, item.position.line > 0 ? item.position : at);
      out->children.push_back(std::move(value));
    }
    return out;
  }

  BoundExprPtr bindLike(const LikeExpr& node, const SourcePosition& at) {
    const char* op = node.regex ? "RLIKE" : "LIKE";
    BoundExprPtr operand = bindScalar(*node.operand, op);
    if (operand->type.kind != TypeKind::kString && operand->type.kind != TypeKind::kNull) {
      throw QueryError(std::string(op) + " needs a string, got " + operand->toString() +
                           " of type " + operand->type.toString(),
                       at.line, at.column,
                       std::string(op) + " matches strings; compare other types with = or <");
    }
    auto out = make(node.regex ? Kind::kRLike : Kind::kLike, DataType::boolean());
    out->negated = node.negated;
    out->pattern = node.pattern;
    try {
      if (node.regex) {
        out->regexMatcher = std::make_shared<const RegexMatcher>(node.pattern);
      } else {
        out->likeMatcher = std::make_shared<const LikeMatcher>(node.pattern);
      }
    } catch (const InvalidArgument& e) {
      throw QueryError(e.what(), at.line, at.column,
                       node.regex
                           ? "RLIKE takes RE2's syntax and matches the whole value; write \\ "
                             "before a character to match it literally (\\\\( in a "
                             "double-quoted string, \\( in a \"\"\"triple-quoted\"\"\" one)"
                           : "LIKE's wildcards are * and ?; write \\* for a literal *, \\? for ? "
                             "and \\\\ for \\ (in a double-quoted string each \\ is written "
                             "\\\\, in a \"\"\"triple-quoted\"\"\" one as it is)");
    }
    out->children.push_back(std::move(operand));
    return out;
  }

  BoundExprPtr bindCase(const CaseExpr& node, const SourcePosition& at) {
    auto out = make(Kind::kCase, DataType::null());
    DataType type = DataType::null();
    const auto addValue = [&](const Expr& value) {
      BoundExprPtr bound = bindScalar(value, "a CASE value", false);
      const std::optional<DataType> joined = commonSuperType(type, bound->type);
      if (!joined) {
        throw QueryError("CASE values of types " + type.toString() + " and " +
                             bound->type.toString() + " do not mix",
                         value.position.line, value.position.column,
                         "give every branch the same kind of value");
      }
      type = *joined;
      out->children.push_back(std::move(bound));
    };
    for (const WhenClause& when : node.whens) {
      BoundExprPtr condition = bindScalar(*when.condition, "a CASE condition", false);
      if (condition->type.kind != TypeKind::kBoolean && condition->type.kind != TypeKind::kNull) {
        throw QueryError("a CASE condition must be a boolean, got " + condition->toString() +
                             " of type " + condition->type.toString(),
                         when.condition->position.line, when.condition->position.column,
                         "compare it, e.g. x > 0");
      }
      out->children.push_back(std::move(condition));
      addValue(*when.value);
    }
    if (node.otherwise) addValue(**node.otherwise);
    (void)at;
    out->type = type;
    return out;
  }

  BoundExprPtr bindCall(const CallExpr& node, const SourcePosition& at) {
    const std::string& name = node.function;
    const auto aggregates = aggregateFunctionNames();
    if (std::find(aggregates.begin(), aggregates.end(), name) != aggregates.end()) {
      throw QueryError("aggregate " + name + " is only allowed in STATS", at.line, at.column,
                       "compute it with STATS, e.g. STATS x = " + name + "(...)");
    }
    const auto functions = scalarFunctionNames();
    if (std::find(functions.begin(), functions.end(), name) == functions.end()) {
      throw QueryError("unknown function " + name, at.line, at.column,
                       closestHint(name, functions, "the functions are", SIZE_MAX));
    }
    auto out = make(Kind::kCall, DataType::null());
    out->name = name;
    // The mv_ functions take lists; every other function one value per row.
    const bool takesList = isMvFunction(name);
    for (const Expr& arg : node.args) {
      // DATE_TRUNC's first argument and BUCKET's second may be a time span.
      BoundExprPtr span = takesTimeSpan(name, out->children.size()) ? boundSpan(arg) : nullptr;
      if (span) {
        out->children.push_back(std::move(span));
      } else {
        out->children.push_back(
            takesList ? bind(arg) : bindScalar(arg, "the function " + name, takesOneValue(name)));
      }
    }
    out->type = bindScalarFunction(*out, at.line, at.column);
    return out;
  }

  const Schema& input_;
  const Expr* current_ = nullptr;  // the expression bind() is binding
};

}  // namespace

BoundExprPtr bindExpression(const Expr& ast, const Schema& input) {
  return Binder(input).bind(ast);
}

}  // namespace quarry::engine
