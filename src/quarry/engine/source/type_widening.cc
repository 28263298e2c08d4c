#include "quarry/engine/source/type_widening.h"

#include <algorithm>

#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

TimeUnit finer(TimeUnit a, TimeUnit b) {
  return unitsPerSecond(a) >= unitsPerSecond(b) ? a : b;
}

Int128 pow10(int32_t n) {
  Int128 v = 1;
  for (int32_t i = 0; i < n; ++i) v *= 10;
  return v;
}

template <typename From, typename To, typename F>
Block convert(const Block& in, const DataType& to, F&& f) {
  Block out(to);
  out.reserve(in.size());
  std::span<const From> values = in.values<From>();
  for (size_t i = 0; i < values.size(); ++i) out.append<To>(f(values[i], i));
  if (in.hasNulls()) out.setValidity(std::vector<uint8_t>(in.validity().begin(), in.validity().end()));
  return out;
}

}  // namespace

std::optional<DataType> commonType(const DataType& a, const DataType& b) {
  if (a == b) return a;
  if (a.kind == TypeKind::kNull) return b;
  if (b.kind == TypeKind::kNull) return a;
  if (a.isList() || b.isList()) {
    // Lists widen by their elements: list<int32> and list<int64> meet at list<int64>.
    if (!a.isList() || !b.isList()) return std::nullopt;
    const std::optional<DataType> element = commonType(a.elementType(), b.elementType());
    if (!element || element->kind == TypeKind::kNull) return std::nullopt;
    return DataType::list(*element);
  }
  auto pair = [&](TypeKind x, TypeKind y) {
    return (a.kind == x && b.kind == y) || (a.kind == y && b.kind == x);
  };
  if (pair(TypeKind::kInt32, TypeKind::kInt64)) return DataType::int64();
  if (pair(TypeKind::kInt32, TypeKind::kDouble)) return DataType::float64();
  if (a.kind == TypeKind::kDecimal && b.kind == TypeKind::kDecimal) {
    const int32_t scale = std::max(a.scale, b.scale);
    const int32_t precision = std::max(a.precision - a.scale, b.precision - b.scale) + scale;
    if (precision > 38) return std::nullopt;
    return DataType::decimal(precision, scale);
  }
  if (a.kind == TypeKind::kTime && b.kind == TypeKind::kTime) {
    return DataType::time(finer(a.unit, b.unit));
  }
  if (a.kind == TypeKind::kTimestamp && b.kind == TypeKind::kTimestamp &&
      a.utcAdjusted == b.utcAdjusted) {
    return DataType::timestamp(finer(a.unit, b.unit), a.utcAdjusted);
  }
  return std::nullopt;
}

bool widensTo(const DataType& from, const DataType& to) {
  const auto common = commonType(from, to);
  return common && *common == to;
}

Block widenBlock(Block block, const DataType& to, const std::string& what) {
  const DataType& from = block.type();
  if (from == to) return block;
  if (from.kind == TypeKind::kNull) return Block::nulls(to, block.size());
  if (!widensTo(from, to)) {
    throw InvalidArgument(what + ": a " + from.toString() + " column cannot be read as " +
                          to.toString());
  }
  switch (to.kind) {
    case TypeKind::kList: {
      std::vector<uint64_t> offsets(block.listOffsets().begin(), block.listOffsets().end());
      std::vector<uint8_t> validity(block.validity().begin(), block.validity().end());
      Block elements = widenBlock(block.listElements(), to.elementType(), what);
      return Block::fromList(to, std::move(offsets), std::move(elements), std::move(validity));
    }
    case TypeKind::kInt64:
      return convert<int32_t, int64_t>(block, to, [](int32_t v, size_t) { return int64_t{v}; });
    case TypeKind::kDouble:
      return convert<int32_t, double>(block, to, [](int32_t v, size_t) { return double(v); });
    case TypeKind::kDecimal: {
      const Int128 factor = pow10(to.scale - from.scale);
      return convert<Int128, Int128>(block, to, [&](Int128 v, size_t) { return v * factor; });
    }
    case TypeKind::kTime:
    case TypeKind::kTimestamp: {
      const int64_t factor = unitsPerSecond(to.unit) / unitsPerSecond(from.unit);
      return convert<int64_t, int64_t>(block, to, [&](int64_t v, size_t i) {
        int64_t out = 0;
        if (__builtin_mul_overflow(v, factor, &out) && !block.isNull(i)) {
          throw InvalidArgument(what + ": the " + from.toString() + " value " + std::to_string(v) +
                                " does not fit " + to.toString());
        }
        return out;
      });
    }
    default:
      break;
  }
  throw InvalidArgument(what + ": a " + from.toString() + " column cannot be read as " +
                        to.toString());
}

}  // namespace quarry::engine
