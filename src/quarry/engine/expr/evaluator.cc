#include "quarry/engine/expr/evaluator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "quarry/engine/expr/call_args.h"
#include "quarry/engine/expr/call_failures.h"
#include "quarry/engine/expr/like_matcher.h"
#include "quarry/engine/expr/mv_functions.h"
#include "quarry/engine/expr/regex_matcher.h"
#include "quarry/engine/expr/scalar_functions.h"
#include "quarry/engine/expr/vector_kernels.h"

namespace quarry::engine {

namespace {

/// Evaluates `expr`, borrowing the page's block for a column and using
/// `storage` for anything computed.
const Block& evaluateInto(const BoundExpr& expr, const Page& page, Block& storage,
                          Warnings* warnings);

/// evaluate(), counting the rows a node fails on into `warnings` unless it is null.
Block evaluateNode(const BoundExpr& expr, const Page& page, Warnings* warnings);

bool isComparison(BinaryOp op) {
  return op == BinaryOp::kEq || op == BinaryOp::kNe || op == BinaryOp::kLt || op == BinaryOp::kLe ||
         op == BinaryOp::kGt || op == BinaryOp::kGe;
}

bool isArithmetic(BinaryOp op) {
  return op == BinaryOp::kAdd || op == BinaryOp::kSubtract || op == BinaryOp::kMultiply ||
         op == BinaryOp::kDivide || op == BinaryOp::kModulo;
}

/// Counts the rows where `expr`, a node that can fail (its warningSite set), gave
/// null in `out` although no operand is null there (`operandNull(row)`), and
/// describes the first ones `warnings` still records. Nothing is looked at when
/// `out` has no null.
template <typename OperandNull, typename Describe>
void recordFailures(const BoundExpr& expr, const Block& out, Warnings* warnings,
                    const OperandNull& operandNull, const Describe& describe) {
  if (warnings == nullptr || !expr.warningSite || !out.hasNulls()) return;
  const size_t wanted = warnings->wanted(*expr.warningSite);
  uint64_t failures = 0;
  std::vector<std::string> messages;
  for (size_t i = 0; i < out.size(); ++i) {
    if (!out.isNull(i) || operandNull(i)) continue;
    ++failures;
    if (messages.size() < wanted) messages.push_back(describe(i));
  }
  if (failures > 0) warnings->add(*expr.warningSite, failures, messages);
}

Block literalBlock(const BoundExpr& expr, size_t n) {
  if (std::holds_alternative<std::monostate>(expr.literal)) return Block::nulls(expr.type, n);
  if (expr.type.isBytes()) {
    Block out(expr.type);
    out.reserve(n);
    const std::string& value = std::get<std::string>(expr.literal);
    for (size_t i = 0; i < n; ++i) out.appendBytes(value);
    return out;
  }
  return std::visit(
      [&](const auto& value) -> Block {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, std::monostate> || std::is_same_v<T, std::string>) {
          throw std::logic_error("literalBlock: " + expr.type.toString());
        } else {
          return Block::fromValues(expr.type, std::vector<T>(n, value));
        }
      },
      expr.literal);
}

/// Three-valued AND / OR over boolean blocks: false AND null = false, true OR null = true.
Block logic(BinaryOp op, const Block& l, const Block& r) {
  const size_t n = l.size();
  if (l.type().kind == TypeKind::kNull && r.type().kind == TypeKind::kNull) {
    return Block::nulls(DataType::boolean(), n);
  }
  // A NULL-typed side is a boolean block of nulls.
  const Block lb =
      l.type().kind == TypeKind::kNull ? Block::nulls(DataType::boolean(), n) : Block();
  const Block rb =
      r.type().kind == TypeKind::kNull ? Block::nulls(DataType::boolean(), n) : Block();
  const Block& left = l.type().kind == TypeKind::kNull ? lb : l;
  const Block& right = r.type().kind == TypeKind::kNull ? rb : r;
  std::span<const uint8_t> a = left.values<uint8_t>();
  std::span<const uint8_t> b = right.values<uint8_t>();
  std::vector<uint8_t> out(n);
  if (!left.hasNulls() && !right.hasNulls()) {
    if (op == BinaryOp::kAnd) {
      for (size_t i = 0; i < n; ++i) out[i] = a[i] & b[i];
    } else {
      for (size_t i = 0; i < n; ++i) out[i] = a[i] | b[i];
    }
    return Block::fromValues(DataType::boolean(), std::move(out));
  }
  const std::vector<uint8_t> ones(n, 1);
  std::span<const uint8_t> va = left.hasNulls() ? left.validity() : std::span<const uint8_t>(ones);
  std::span<const uint8_t> vb =
      right.hasNulls() ? right.validity() : std::span<const uint8_t>(ones);
  std::vector<uint8_t> valid(n);
  if (op == BinaryOp::kAnd) {
    // Known when both are known, or when either is a known false.
    for (size_t i = 0; i < n; ++i) {
      const uint8_t x = a[i] & va[i];
      const uint8_t y = b[i] & vb[i];
      out[i] = x & y;
      valid[i] = (va[i] & vb[i]) | (va[i] & (x ^ 1)) | (vb[i] & (y ^ 1));
    }
  } else {
    // Known when both are known, or when either is a known true.
    for (size_t i = 0; i < n; ++i) {
      const uint8_t x = a[i] & va[i];
      const uint8_t y = b[i] & vb[i];
      out[i] = x | y;
      valid[i] = (va[i] & vb[i]) | x | y;
    }
  }
  return booleanBlock(std::move(out), std::move(valid));
}

Block notBlock(const Block& in) {
  if (in.type().kind == TypeKind::kNull) return Block::nulls(DataType::boolean(), in.size());
  std::span<const uint8_t> a = in.values<uint8_t>();
  std::vector<uint8_t> out(a.size());
  for (size_t i = 0; i < a.size(); ++i) out[i] = a[i] ^ 1;
  return booleanBlock(std::move(out),
                      std::vector<uint8_t>(in.validity().begin(), in.validity().end()));
}

Block isNullBlock(const Block& in, bool negated) {
  std::vector<uint8_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) out[i] = static_cast<uint8_t>(in.isNull(i) != negated);
  return Block::fromValues(DataType::boolean(), std::move(out));
}

Block inBlock(const BoundExpr& expr, const Page& page, Warnings* warnings) {
  Block operandStorage;
  const Block& operand = evaluateInto(*expr.children[0], page, operandStorage, warnings);
  // x IN (a, b) is (x = a) OR (x = b) under three-valued logic: null when
  // nothing matches and some comparison is null.
  Block result;
  for (size_t k = 1; k < expr.children.size(); ++k) {
    const BoundExpr& itemExpr = *expr.children[k];
    std::optional<Block> equal;
    if (itemExpr.kind == BoundExpr::Kind::kLiteral) {
      equal = compareWithConstant(BinaryOp::kEq, operand, itemExpr.literal, itemExpr.type);
    }
    if (!equal) {
      Block itemStorage;
      equal = compareBlocks(BinaryOp::kEq, operand,
                            evaluateInto(itemExpr, page, itemStorage, warnings));
    }
    result = k == 1 ? std::move(*equal) : logic(BinaryOp::kOr, result, *equal);
  }
  return expr.negated ? notBlock(result) : result;
}

/// LIKE and RLIKE: `matcher` (the expression's compiled pattern) over each
/// value; null where the value is.
template <typename Matcher>
Block patternBlock(const BoundExpr& expr, const Page& page, const Matcher& matcher,
                   Warnings* warnings) {
  Block storage;
  const Block& in = evaluateInto(*expr.children[0], page, storage, warnings);
  if (in.type().kind == TypeKind::kNull) return Block::nulls(DataType::boolean(), in.size());
  std::vector<uint8_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    out[i] = static_cast<uint8_t>(matcher.matches(in.bytes(i)) != expr.negated);
  }
  return booleanBlock(std::move(out),
                      std::vector<uint8_t>(in.validity().begin(), in.validity().end()));
}

/// CASE evaluates each condition only on the rows no earlier condition took, and
/// each value only on the rows that take it, so that a branch not taken cannot
/// fail (an overflow in it) or cost anything.
Block caseBlock(const BoundExpr& expr, const Page& page, Warnings* warnings) {
  const size_t n = page.positionCount();
  const size_t whens = expr.children.size() / 2;
  const bool hasElse = expr.children.size() % 2 == 1;
  // Row i takes values[choice[i]] at position slot[i]; kNone: no branch, null.
  constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> choice(n, kNone);
  std::vector<uint32_t> slot(n, 0);
  std::vector<Block> values;
  values.reserve(whens + 2);
  std::vector<uint32_t> remaining(n);
  for (size_t i = 0; i < n; ++i) remaining[i] = static_cast<uint32_t>(i);
  const auto branch = [&](const BoundExpr& valueExpr, const std::vector<uint32_t>& rows) {
    const uint32_t index = static_cast<uint32_t>(values.size());
    const Block value = rows.size() == n ? evaluateNode(valueExpr, page, warnings)
                                         : evaluateNode(valueExpr, page.take(rows), warnings);
    values.push_back(castBlock(value, expr.type));
    for (size_t k = 0; k < rows.size(); ++k) {
      choice[rows[k]] = index;
      slot[rows[k]] = static_cast<uint32_t>(k);
    }
  };
  for (size_t w = 0; w < whens && !remaining.empty(); ++w) {
    const Page subset = remaining.size() == n ? Page() : page.take(remaining);
    const Page& rowsPage = remaining.size() == n ? page : subset;
    Block storage;
    const Block& condition = evaluateInto(*expr.children[2 * w], rowsPage, storage, warnings);
    if (condition.type().kind == TypeKind::kNull) continue;
    std::span<const uint8_t> c = condition.values<uint8_t>();  // zero at null positions
    std::vector<uint32_t> taken;
    std::vector<uint32_t> rest;
    for (size_t k = 0; k < remaining.size(); ++k) (c[k] ? taken : rest).push_back(remaining[k]);
    if (!taken.empty()) branch(*expr.children[2 * w + 1], taken);
    remaining = std::move(rest);
  }
  if (hasElse && !remaining.empty()) branch(*expr.children.back(), remaining);
  values.push_back(Block::nulls(expr.type, 1));
  const uint32_t nullBranch = static_cast<uint32_t>(values.size() - 1);
  Block out(expr.type);
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const bool none = choice[i] == kNone;
    out.appendFrom(values[none ? nullBranch : choice[i]], none ? 0 : slot[i]);
  }
  return out;
}

const Block& evaluateInto(const BoundExpr& expr, const Page& page, Block& storage,
                          Warnings* warnings) {
  if (expr.kind == BoundExpr::Kind::kColumn) return page.block(static_cast<size_t>(expr.column));
  storage = evaluateNode(expr, page, warnings);
  return storage;
}

Block evaluateNode(const BoundExpr& expr, const Page& page, Warnings* warnings) {
  const size_t n = page.positionCount();
  switch (expr.kind) {
    case BoundExpr::Kind::kColumn:
      return page.block(static_cast<size_t>(expr.column));
    case BoundExpr::Kind::kLiteral:
      return literalBlock(expr, n);
    case BoundExpr::Kind::kUnary: {
      Block storage;
      const Block& in = evaluateInto(*expr.children[0], page, storage, warnings);
      if (expr.unaryOp == UnaryOp::kNot) return notBlock(in);
      Block out = negateBlock(in, expr.type);
      recordFailures(
          expr, out, warnings, [&](size_t i) { return in.isNull(i); },
          [&](size_t i) { return describeNegationFailure(in, i, expr.type); });
      return out;
    }
    case BoundExpr::Kind::kBinary: {
      if (isComparison(expr.binaryOp)) {
        // column op literal (or literal op column): compare without materializing the literal.
        const BoundExpr& a = *expr.children[0];
        const BoundExpr& b = *expr.children[1];
        if (b.kind == BoundExpr::Kind::kLiteral || a.kind == BoundExpr::Kind::kLiteral) {
          const bool literalRight = b.kind == BoundExpr::Kind::kLiteral;
          const BoundExpr& literal = literalRight ? b : a;
          Block storage;
          const Block& column = evaluateInto(literalRight ? a : b, page, storage, warnings);
          const BinaryOp op = literalRight ? expr.binaryOp : flipComparison(expr.binaryOp);
          if (std::optional<Block> out =
                  compareWithConstant(op, column, literal.literal, literal.type)) {
            return std::move(*out);
          }
          const Block constant = literalBlock(literal, n);
          return literalRight ? compareBlocks(op, column, constant)
                              : compareBlocks(expr.binaryOp, constant, column);
        }
      }
      if (isArithmetic(expr.binaryOp) && (expr.children[0]->kind == BoundExpr::Kind::kLiteral ||
                                          expr.children[1]->kind == BoundExpr::Kind::kLiteral)) {
        // column op literal (or literal op column): the literal is converted once.
        const bool literalRight = expr.children[1]->kind == BoundExpr::Kind::kLiteral;
        const BoundExpr& literal = *expr.children[literalRight ? 1 : 0];
        Block storage;
        const Block& column =
            evaluateInto(*expr.children[literalRight ? 0 : 1], page, storage, warnings);
        std::optional<Block> out = arithmeticWithConstant(expr.binaryOp, column, literal.literal,
                                                          literal.type, !literalRight, expr.type);
        if (!out) {
          const Block constant = literalBlock(literal, n);
          out = literalRight ? arithmeticBlocks(expr.binaryOp, column, constant, expr.type)
                             : arithmeticBlocks(expr.binaryOp, constant, column, expr.type);
        }
        if (!std::holds_alternative<std::monostate>(literal.literal)) {
          std::optional<Block> constant;  // the literal as one position, for the messages
          recordFailures(
              expr, *out, warnings, [&](size_t i) { return column.isNull(i); },
              [&](size_t i) {
                if (!constant) constant = literalBlock(literal, 1);
                return literalRight ? describeArithmeticFailure(expr.binaryOp, column, i, *constant,
                                                                0, expr.type)
                                    : describeArithmeticFailure(expr.binaryOp, *constant, 0, column,
                                                                i, expr.type);
              });
        }
        return std::move(*out);
      }
      Block leftStorage;
      Block rightStorage;
      const Block& l = evaluateInto(*expr.children[0], page, leftStorage, warnings);
      const Block& r = evaluateInto(*expr.children[1], page, rightStorage, warnings);
      switch (expr.binaryOp) {
        case BinaryOp::kAnd:
        case BinaryOp::kOr:
          return logic(expr.binaryOp, l, r);
        case BinaryOp::kEq:
        case BinaryOp::kNe:
        case BinaryOp::kLt:
        case BinaryOp::kLe:
        case BinaryOp::kGt:
        case BinaryOp::kGe:
          return compareBlocks(expr.binaryOp, l, r);
        default: {
          Block out = arithmeticBlocks(expr.binaryOp, l, r, expr.type);
          recordFailures(
              expr, out, warnings, [&](size_t i) { return l.isNull(i) || r.isNull(i); },
              [&](size_t i) {
                return describeArithmeticFailure(expr.binaryOp, l, i, r, i, expr.type);
              });
          return out;
        }
      }
    }
    case BoundExpr::Kind::kIsNull: {
      Block storage;
      return isNullBlock(evaluateInto(*expr.children[0], page, storage, warnings), expr.negated);
    }
    case BoundExpr::Kind::kIn:
      return inBlock(expr, page, warnings);
    case BoundExpr::Kind::kLike:
      return patternBlock(expr, page, *expr.likeMatcher, warnings);
    case BoundExpr::Kind::kRLike:
      return patternBlock(expr, page, *expr.regexMatcher, warnings);
    case BoundExpr::Kind::kCase:
      return caseBlock(expr, page, warnings);
    case BoundExpr::Kind::kCall: {
      // A column argument is the page's block itself; the others are evaluated into `storage`,
      // reserved first so that the arguments' references stay valid.
      std::vector<Block> storage(expr.children.size());
      CallArgs args;
      args.reserve(expr.children.size());
      for (size_t k = 0; k < expr.children.size(); ++k)
        args.push_back(evaluateInto(*expr.children[k], page, storage[k], warnings));
      Block out = evaluateCall(expr, args, n);
      // $single_value fails on a list of several values; none is null in.
      const bool singleValue = expr.name == kSingleValueFunction;
      recordFailures(
          expr, out, warnings,
          [&](size_t row) {
            if (singleValue) return listValueCount(args[0], row) < 2;
            return std::any_of(args.begin(), args.end(),
                               [&](const Block& arg) { return arg.isNull(row); });
          },
          [&](size_t row) { return describeCallFailure(expr, args, row); });
      return out;
    }
  }
  throw std::logic_error("evaluate: unknown expression kind");
}

}  // namespace

Block evaluate(const BoundExpr& expr, const Page& page) {
  return evaluateNode(expr, page, nullptr);
}

Block evaluate(const BoundExpr& expr, const Page& page, Warnings& warnings) {
  return evaluateNode(expr, page, &warnings);
}

}  // namespace quarry::engine
