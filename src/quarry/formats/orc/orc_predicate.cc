#include "quarry/formats/orc/orc_predicate.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "quarry/common/error.h"
#include "quarry/formats/predicate/predicate_literal.h"

namespace quarry::orc {
namespace {

using Op = FilterPredicate::Op;
using Kind = OrcBoundNode::Kind;
using Domain = OrcBoundNode::Domain;
using Compare = OrcBoundNode::Compare;
using parquet::LiteralType;
using parquet::PredicateLiteral;

constexpr Int128 kNanosPerSecond = 1'000'000'000;

std::string columnRef(const OrcType& type) {
  return "Column '" + type.path + "' (" + type.toTypeString() + ")";
}

Compare compareOf(Op op) {
  switch (op) {
    case Op::kEq:
      return Compare::kEq;
    case Op::kNotEq:
      return Compare::kNotEq;
    case Op::kLt:
      return Compare::kLt;
    case Op::kLtEq:
      return Compare::kLtEq;
    case Op::kGt:
      return Compare::kGt;
    case Op::kGtEq:
      return Compare::kGtEq;
    default:
      return Compare::kIn;
  }
}

bool isEquality(Compare c) {
  return c == Compare::kEq || c == Compare::kNotEq || c == Compare::kIn;
}

/// The literal types a column of `type` takes.
std::vector<LiteralType> acceptedLiterals(const OrcType& type) {
  switch (type.kind) {
    case TypeKind::kBoolean:
      return {LiteralType::kBool};
    case TypeKind::kByte:
    case TypeKind::kShort:
    case TypeKind::kInt:
    case TypeKind::kLong:
      return {LiteralType::kInt32, LiteralType::kInt64};
    case TypeKind::kFloat:
      return {LiteralType::kFloat};
    case TypeKind::kDouble:
      return {LiteralType::kDouble};
    case TypeKind::kString:
    case TypeKind::kVarchar:
    case TypeKind::kChar:
      return {LiteralType::kString, LiteralType::kBytes};
    case TypeKind::kBinary:
      return {LiteralType::kBytes};
    case TypeKind::kDecimal:
      return {LiteralType::kDecimal};
    case TypeKind::kDate:
      return {LiteralType::kDate};
    case TypeKind::kTimestamp:
      return {LiteralType::kLocalDateTime};
    case TypeKind::kTimestampInstant:
      return {LiteralType::kInstant};
    default:
      return {};
  }
}

std::string typeList(const std::vector<LiteralType>& types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i)
    out += (i ? ", " : "") + parquet::literalTypeName(types[i]);
  return out;
}

Domain domainOf(TypeKind kind) {
  switch (kind) {
    case TypeKind::kFloat:
    case TypeKind::kDouble:
      return Domain::kFloat;
    case TypeKind::kString:
    case TypeKind::kVarchar:
    case TypeKind::kChar:
    case TypeKind::kBinary:
      return Domain::kBytes;
    case TypeKind::kTimestamp:
    case TypeKind::kTimestampInstant:
      return Domain::kTimestamp;
    default:
      return Domain::kInteger;
  }
}

/// The range of an ORC integer type.
void integerRange(TypeKind kind, Int128& lo, Int128& hi) {
  const int bits = kind == TypeKind::kByte    ? 8
                   : kind == TypeKind::kShort ? 16
                   : kind == TypeKind::kInt   ? 32
                                              : 64;
  hi = (Int128{1} << (bits - 1)) - 1;
  lo = -hi - 1;
}

Int128 pow10(int n) {
  Int128 v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

Int128 floorDiv(Int128 a, Int128 b) {
  Int128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

/// A literal placed in the column's key domain: its floor and ceiling there
/// (equal when the column holds it exactly), or past every key the column holds.
struct Placed {
  Int128 floor = 0;
  Int128 ceil = 0;
  int beyond = 0;  // -1 below every value the column holds, +1 above, 0 inside
  bool exact() const { return beyond == 0 && floor == ceil; }
};

class Binder {
 public:
  explicit Binder(const OrcSchema& schema)
      : schema_(schema), columns_(schema.columnCount(), false) {}

  std::vector<bool> takeColumns() { return std::move(columns_); }

  OrcBoundNode bind(const FilterPredicate& p) {
    OrcBoundNode out;
    switch (p.op()) {
      case Op::kAnd:
      case Op::kOr:
      case Op::kNot:
        out.kind = p.op() == Op::kAnd ? Kind::kAnd : p.op() == Op::kOr ? Kind::kOr : Kind::kNot;
        for (const FilterPredicate& child : p.children()) out.children.push_back(bind(child));
        return out;
      case Op::kIntersects:
        throw InvalidArgument("intersects on column '" + p.column() +
                              "': ORC files have no GEOMETRY or GEOGRAPHY columns");
      default:
        break;
    }
    const OrcType& column = resolve(p.column());
    out.column = &column;
    if (p.op() == Op::kIsNull || p.op() == Op::kIsNotNull) {
      out.kind = p.op() == Op::kIsNull ? Kind::kIsNull : Kind::kIsNotNull;
      return out;
    }
    out.kind = Kind::kCompare;
    out.compare = compareOf(p.op());
    out.domain = domainOf(column.kind);
    const std::string opText = parquet::opName(p.op());
    if (column.isCompound()) {
      throw InvalidArgument(columnRef(column) +
                            " is compound and takes isNull and isNotNull only; " + opText +
                            " is not one of them");
    }
    if (column.kind == TypeKind::kDecimal && column.precision == 0) {
      throw InvalidArgument(columnRef(column) +
                            " is a decimal without precision (Hive 0.11), whose values carry "
                            "their own scale; " +
                            opText + " with " + parquet::literalToString(p.literals().front()) +
                            " is not supported on it");
    }
    const std::vector<LiteralType> accepted = acceptedLiterals(column);
    for (const PredicateLiteral& literal : p.literals()) {
      const LiteralType type = parquet::literalType(literal);
      if (std::find(accepted.begin(), accepted.end(), type) == accepted.end()) {
        throw InvalidArgument(columnRef(column) + " does not take the " +
                              parquet::literalTypeName(type) + " literal " +
                              parquet::literalToString(literal) + " of " + opText + "; it takes " +
                              typeList(accepted));
      }
      addKey(out, column, literal, opText);
    }
    return out;
  }

 private:
  const OrcType& resolve(const std::string& path) {
    const OrcType* type = schema_.find(path);
    if (type == nullptr) {
      throw InvalidArgument("Column '" + path + "' is not in the ORC schema " +
                            schema_.root().toTypeString());
    }
    for (const OrcType* p = type->parent; p != nullptr; p = p->parent) {
      if (p->kind != TypeKind::kStruct) {
        throw InvalidArgument(columnRef(*type) + " lies under the " + toString(p->kind) + " '" +
                              p->path + "'; a filter reaches columns nested in structs only");
      }
    }
    for (uint32_t id = type->columnId; id <= type->maximumColumnId; ++id) columns_[id] = true;
    for (const OrcType* p = type->parent; p != nullptr; p = p->parent) columns_[p->columnId] = true;
    return *type;
  }

  /// Places `value` divided by `divisor` on the integers.
  static Placed place(Int128 value, Int128 divisor) {
    const Int128 f = floorDiv(value, divisor);
    return {f, f * divisor == value ? f : f + 1, 0};
  }

  Placed placeLiteral(const OrcType& column, const PredicateLiteral& literal, std::string& bound) {
    switch (parquet::literalType(literal)) {
      case LiteralType::kBool:
        return {std::get<bool>(literal) ? 1 : 0, std::get<bool>(literal) ? 1 : 0, 0};
      case LiteralType::kInt32:
      case LiteralType::kInt64: {
        const Int128 v = parquet::literalType(literal) == LiteralType::kInt32
                             ? Int128{std::get<int32_t>(literal)}
                             : Int128{std::get<int64_t>(literal)};
        Int128 lo, hi;
        integerRange(column.kind, lo, hi);
        bound = "holds integers in [" + std::to_string(static_cast<int64_t>(lo)) + ", " +
                std::to_string(static_cast<int64_t>(hi)) + "]";
        if (v < lo) return {v, v, -1};
        if (v > hi) return {v, v, 1};
        return {v, v, 0};
      }
      case LiteralType::kFloat: {
        const Int128 k = orcTotalOrderKey(static_cast<double>(std::get<float>(literal)));
        return {k, k, 0};
      }
      case LiteralType::kDouble: {
        const Int128 k = orcTotalOrderKey(std::get<double>(literal));
        return {k, k, 0};
      }
      case LiteralType::kDate: {
        const Int128 d = std::get<Date>(literal).daysSinceEpoch;
        return {d, d, 0};
      }
      case LiteralType::kLocalDateTime: {
        const auto& t = std::get<LocalDateTime>(literal);
        const Int128 n = Int128{t.epochSeconds} * kNanosPerSecond + t.nanos;
        return {n, n, 0};
      }
      case LiteralType::kInstant: {
        const auto& t = std::get<Instant>(literal);
        const Int128 n = Int128{t.epochSeconds} * kNanosPerSecond + t.nanos;
        return {n, n, 0};
      }
      case LiteralType::kDecimal:
        return placeDecimal(column, std::get<Decimal>(literal), bound);
      default:
        return {};
    }
  }

  static Placed placeDecimal(const OrcType& column, const Decimal& d, std::string& bound) {
    const int32_t scale = static_cast<int32_t>(column.scale);
    bound = "holds decimals of " + std::to_string(column.precision) + " digits, " +
            std::to_string(scale) + " after the point";
    const Int128 limit = pow10(static_cast<int>(column.precision));  // |unscaled| < limit
    // The literal's unscaled value: beyond 38 digits it is past every column value.
    const auto& bytes = d.unscaledBigEndian;
    const bool negative = !bytes.empty() && (bytes.front() & 0x80) != 0;
    size_t skip = 0;
    while (skip + 1 < bytes.size() && bytes[skip] == (negative ? 0xFF : 0x00) &&
           ((bytes[skip + 1] & 0x80) != 0) == negative) {
      ++skip;
    }
    if (bytes.size() - skip > 16) return {0, 0, negative ? -1 : 1};
    UInt128 raw = negative ? ~UInt128{0} : 0;
    for (size_t i = skip; i < bytes.size(); ++i) raw = (raw << 8) | bytes[i];
    const Int128 unscaled = static_cast<Int128>(raw);
    const int sign = unscaled < 0 ? -1 : 1;
    Placed placed;
    if (d.scale <= scale) {
      const int up = scale - d.scale;
      if (up > 38) return unscaled == 0 ? Placed{} : Placed{0, 0, sign};
      Int128 scaled;
      if (__builtin_mul_overflow(unscaled, pow10(up), &scaled)) return {0, 0, sign};
      placed = {scaled, scaled, 0};
    } else {
      const int down = d.scale - scale;
      if (down > 38) {
        // |unscaled| < 10^38 <= the divisor: the value lies within (-1, 1).
        placed = {unscaled < 0 ? -1 : 0, unscaled > 0 ? 1 : 0, 0};
      } else {
        placed = place(unscaled, pow10(down));
      }
    }
    if (placed.floor >= limit) return {placed.floor, placed.ceil, 1};
    if (placed.ceil <= -limit) return {placed.floor, placed.ceil, -1};
    return placed;
  }

  std::string bytesKey(const OrcType& column, const PredicateLiteral& literal) {
    if (parquet::literalType(literal) == LiteralType::kBytes) {
      const Bytes& b = std::get<Bytes>(literal);
      return std::string(b.begin(), b.end());
    }
    std::string text = std::get<std::string>(literal);
    if (column.kind == TypeKind::kChar) {
      // Count characters (UTF-8 lead bytes), pad with spaces to the declared length.
      size_t characters = 0;
      for (char c : text) characters += (static_cast<uint8_t>(c) & 0xC0) != 0x80 ? 1 : 0;
      if (characters < column.maximumLength) text.append(column.maximumLength - characters, ' ');
    }
    return text;
  }

  void addKey(OrcBoundNode& out, const OrcType& column, const PredicateLiteral& literal,
              const std::string& opText) {
    if (out.domain == Domain::kBytes) {
      out.byteKeys.push_back(bytesKey(column, literal));
      return;
    }
    std::string bound;
    const Placed placed = placeLiteral(column, literal, bound);
    if (isEquality(out.compare)) {
      if (!placed.exact()) {
        throw InvalidArgument(columnRef(column) + " " + bound + "; the equality literal " +
                              parquet::literalToString(literal) + " of " + opText +
                              " is not a value it can hold");
      }
      out.keys.push_back(placed.floor);
      return;
    }
    if (placed.beyond != 0) {
      // Past every value: lt / ltEq hold for every non-null row when above, none when below.
      const bool below = out.compare == Compare::kLt || out.compare == Compare::kLtEq;
      out.kind = Kind::kConstant;
      out.constant = (placed.beyond > 0) == below;
      return;
    }
    // Snap an ordered literal the column cannot hold: lt 1.255 at scale 2 is lt 1.26.
    switch (out.compare) {
      case Compare::kLt:
      case Compare::kGtEq:
        out.keys.push_back(placed.ceil);
        break;
      default:
        out.keys.push_back(placed.floor);
        break;
    }
  }

  const OrcSchema& schema_;
  std::vector<bool> columns_;
};

}  // namespace

int64_t orcTotalOrderKey(double value) {
  if (std::isnan(value)) return std::numeric_limits<int64_t>::max();
  const auto bits = std::bit_cast<int64_t>(value);
  // Negative doubles order reversed as integers: flip their magnitude bits.
  return bits < 0 ? bits ^ std::numeric_limits<int64_t>::max() : bits;
}

OrcBoundPredicate OrcBoundPredicate::bind(const FilterPredicate& predicate,
                                          const OrcSchema& schema) {
  Binder binder(schema);
  OrcBoundPredicate out;
  out.root_ = binder.bind(predicate);
  out.columns_ = binder.takeColumns();
  out.columns_[0] = true;
  return out;
}

}  // namespace quarry::orc
