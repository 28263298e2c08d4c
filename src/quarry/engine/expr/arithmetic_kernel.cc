#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "quarry/common/error.h"
#include "quarry/engine/expr/bound_expr.h"
#include "quarry/engine/expr/decimal_arithmetic.h"
#include "quarry/engine/expr/type_rules.h"
#include "quarry/engine/expr/vector_kernels.h"

namespace quarry::engine {

namespace {

const char* operationName(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
      return "addition";
    case BinaryOp::kSubtract:
      return "subtraction";
    case BinaryOp::kMultiply:
      return "multiplication";
    case BinaryOp::kDivide:
      return "division";
    case BinaryOp::kModulo:
      return "modulo";
    default:
      return "arithmetic";
  }
}

const char* operatorSymbol(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
      return "+";
    case BinaryOp::kSubtract:
      return "-";
    case BinaryOp::kMultiply:
      return "*";
    case BinaryOp::kDivide:
      return "/";
    default:
      return "%";
  }
}

[[noreturn]] void throwOverflow(BinaryOp op, const Block& l, const Block& r, size_t i,
                                const DataType& type) {
  throw InvalidArgument(std::string("Overflow in ") + operationName(op) + " of " + type.toString() +
                        " (" + literalToString(l.scalarAt(i), l.type()) + " " + operatorSymbol(op) +
                        " " + literalToString(r.scalarAt(i), r.type()) + ")");
}

/// One step of integer arithmetic: writes the result, returns false on overflow,
/// clears `valid` on division by zero.
template <typename T>
inline bool integerStep(BinaryOp op, T a, T b, T& out, uint8_t& valid) {
  switch (op) {
    case BinaryOp::kAdd:
      return !__builtin_add_overflow(a, b, &out);
    case BinaryOp::kSubtract:
      return !__builtin_sub_overflow(a, b, &out);
    case BinaryOp::kMultiply:
      return !__builtin_mul_overflow(a, b, &out);
    case BinaryOp::kDivide:
    case BinaryOp::kModulo:
      if (b == 0) {
        out = 0;
        valid = 0;
        return true;
      }
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) {  // MIN / -1 overflows; MIN % -1 is 0
          if (op == BinaryOp::kModulo) {
            out = 0;
            return true;
          }
          return !__builtin_sub_overflow(T{0}, a, &out);
        }
      }
      out = op == BinaryOp::kDivide ? a / b : a % b;
      return true;
    default:
      return false;
  }
}

/// Integer (or scale-0 Int128) arithmetic over blocks already of type T.
/// `limit` bounds |result| (decimals: 10^precision), 0 for none.
template <typename T>
Block integerArithmetic(BinaryOp op, const Block& l, const Block& r, const DataType& type,
                        Int128 limit, const Block& originalLeft, const Block& originalRight) {
  const size_t n = l.size();
  std::span<const T> a = l.values<T>();
  std::span<const T> b = r.values<T>();
  std::vector<T> out(n);
  std::vector<uint8_t> valid = andValidity(l, r);
  const bool division = op == BinaryOp::kDivide || op == BinaryOp::kModulo;
  if (division && valid.empty()) valid.assign(n, 1);
  bool ok = true;
  uint8_t ignored = 1;
  for (size_t i = 0; i < n; ++i) {
    uint8_t& v = division ? valid[i] : ignored;
    bool step = integerStep<T>(op, a[i], b[i], out[i], v);
    if constexpr (std::is_same_v<T, Int128>) {
      if (limit != 0) step &= out[i] < limit && out[i] > -limit;
    }
    ok &= step;
  }
  if (!ok) {
    for (size_t i = 0; i < n; ++i) {
      if (l.isNull(i) || r.isNull(i)) continue;
      T result{};
      uint8_t v = 1;
      bool step = integerStep<T>(op, a[i], b[i], result, v);
      if constexpr (std::is_same_v<T, Int128>) {
        if (limit != 0) step &= result < limit && result > -limit;
      }
      if (!step) throwOverflow(op, originalLeft, originalRight, i, type);
    }
  }
  if (!valid.empty()) {
    for (size_t i = 0; i < n; ++i) {
      if (!valid[i]) out[i] = 0;
    }
  }
  return Block::fromValues(type, std::move(out), std::move(valid));
}

Block doubleArithmetic(BinaryOp op, const Block& left, const Block& right, const DataType& type) {
  Block ls;
  Block rs;
  const Block& l = castedView(left, type, ls);
  const Block& r = castedView(right, type, rs);
  const size_t n = l.size();
  std::span<const double> a = l.values<double>();
  std::span<const double> b = r.values<double>();
  std::vector<double> out(n);
  std::vector<uint8_t> valid = andValidity(l, r);
  switch (op) {
    case BinaryOp::kAdd:
      for (size_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
      break;
    case BinaryOp::kSubtract:
      for (size_t i = 0; i < n; ++i) out[i] = a[i] - b[i];
      break;
    case BinaryOp::kMultiply:
      for (size_t i = 0; i < n; ++i) out[i] = a[i] * b[i];
      break;
    case BinaryOp::kDivide:
    case BinaryOp::kModulo:
      if (valid.empty()) valid.assign(n, 1);
      for (size_t i = 0; i < n; ++i) {
        if (b[i] == 0) {
          valid[i] = 0;  // x / 0 and x % 0 are null
          out[i] = 0;
        } else {
          out[i] = op == BinaryOp::kDivide ? a[i] / b[i] : std::fmod(a[i], b[i]);
        }
      }
      break;
    default:
      throw std::logic_error("arithmeticBlocks: not arithmetic");
  }
  if (!valid.empty()) {
    for (size_t i = 0; i < n; ++i) {
      if (!valid[i]) out[i] = 0;
    }
  }
  return Block::fromValues(type, std::move(out), std::move(valid));
}

}  // namespace

Block arithmeticBlocks(BinaryOp op, const Block& left, const Block& right, const DataType& type) {
  const size_t n = left.size();
  if (type.kind == TypeKind::kNull || left.type().kind == TypeKind::kNull ||
      right.type().kind == TypeKind::kNull) {
    return Block::nulls(type, n);
  }
  Block ls;
  Block rs;
  switch (type.kind) {
    case TypeKind::kDouble:
      return doubleArithmetic(op, left, right, type);
    case TypeKind::kInt32:
      return integerArithmetic<int32_t>(op, castedView(left, type, ls), castedView(right, type, rs),
                                        type, 0, left, right);
    case TypeKind::kInt64:
      return integerArithmetic<int64_t>(op, castedView(left, type, ls), castedView(right, type, rs),
                                        type, 0, left, right);
    case TypeKind::kUInt64:
      return integerArithmetic<uint64_t>(op, castedView(left, type, ls),
                                         castedView(right, type, rs), type, 0, left, right);
    case TypeKind::kDecimal: {
      const Int128 limit = pow10Int128(type.precision);
      if (op == BinaryOp::kMultiply) {
        // Unscaled product at scale s1 + s2: no rescaling needed.
        const Block& l = castedView(left, asDecimal(left.type()), ls);
        const Block& r = castedView(right, asDecimal(right.type()), rs);
        return integerArithmetic<Int128>(op, l, r, type, limit, left, right);
      }
      // + - % (and / of two integers joined as decimal(38,0)) at the result's scale.
      // The values are read as unscaled integers, so only the scale has to match.
      const auto atScale = [&](const Block& b, Block& storage) -> const Block& {
        if (b.type().kind == TypeKind::kDecimal && b.type().scale == type.scale) return b;
        return castedView(b, DataType::decimal(38, type.scale), storage);
      };
      return integerArithmetic<Int128>(op, atScale(left, ls), atScale(right, rs), type, limit, left,
                                       right);
    }
    default:
      break;
  }
  throw std::logic_error("arithmeticBlocks: result type " + type.toString());
}

Block negateBlock(const Block& in, const DataType& type) {
  if (type.kind == TypeKind::kNull || in.type().kind == TypeKind::kNull)
    return Block::nulls(type, in.size());
  const Block zero = [&] {
    switch (type.kind) {
      case TypeKind::kInt32:
        return Block::fromValues(type, std::vector<int32_t>(in.size()));
      case TypeKind::kInt64:
        return Block::fromValues(type, std::vector<int64_t>(in.size()));
      case TypeKind::kDouble:
        return Block();
      default:
        return Block::fromValues(DataType::decimal(1, 0), std::vector<Int128>(in.size()));
    }
  }();
  if (type.kind == TypeKind::kDouble) {
    std::span<const double> v = in.values<double>();
    std::vector<double> out(v.size());
    for (size_t i = 0; i < v.size(); ++i) out[i] = -v[i];
    if (in.hasNulls()) {
      for (size_t i = 0; i < v.size(); ++i) out[i] = in.validity()[i] ? out[i] : 0.0;
    }
    return Block::fromValues(type, std::move(out),
                             std::vector<uint8_t>(in.validity().begin(), in.validity().end()));
  }
  // 0 - x with the subtraction's overflow check ("Overflow in subtraction of int32 (0 -
  // -2147483648)").
  return arithmeticBlocks(BinaryOp::kSubtract, zero, in, type);
}

}  // namespace quarry::engine
