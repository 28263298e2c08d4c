#include "quarry/formats/orc/orc_row_filter.h"

#include <algorithm>
#include <string_view>

#include "quarry/common/error.h"
#include "quarry/formats/orc/encoding/timezone.h"

namespace quarry::orc {
namespace {

using Kind = OrcBoundNode::Kind;
using Domain = OrcBoundNode::Domain;
using Compare = OrcBoundNode::Compare;

constexpr int64_t kNoValue = -1;

/// The column vector of `type` in `stripe`, and for each row the index of its
/// value there (kNoValue where the row's value is null).
struct LeafValues {
  const ColumnVector* column = nullptr;
  std::vector<int64_t> valueOfRow;
};

LeafValues leafValues(const OrcType& type, const ColumnVector& stripe) {
  std::vector<const OrcType*> path;
  for (const OrcType* t = &type; t != nullptr; t = t->parent) path.push_back(t);
  std::reverse(path.begin(), path.end());  // root first
  const uint64_t rows = stripe.size;
  LeafValues out;
  out.valueOfRow.resize(rows);
  for (uint64_t r = 0; r < rows; ++r) out.valueOfRow[r] = static_cast<int64_t>(r);  // root slots
  const ColumnVector* column = &stripe;
  for (size_t level = 0;; ++level) {
    // Slots of `column` -> its values (or null).
    for (uint64_t r = 0; r < rows; ++r) {
      int64_t& slot = out.valueOfRow[r];
      if (slot == kNoValue) continue;
      const auto s = static_cast<uint64_t>(slot);
      slot = column->isNull(s) ? kNoValue : static_cast<int64_t>(column->valueIndex(s));
    }
    if (level + 1 == path.size()) break;
    const OrcType* child = path[level + 1];
    const auto position = static_cast<size_t>(
        std::find(path[level]->children.begin(), path[level]->children.end(), child) -
        path[level]->children.begin());
    if (position >= column->children.size() || !column->children[position]) {
      throw InvalidArgument("the filter column '" + type.path + "' was not decoded");
    }
    column = column->children[position].get();  // a struct's values are its children's slots
  }
  out.column = column;
  return out;
}

template <typename Key>
bool compareKey(Compare compare, const Key& value, const std::vector<Key>& keys) {
  switch (compare) {
    case Compare::kEq:
      return value == keys[0];
    case Compare::kNotEq:
      return value != keys[0];
    case Compare::kLt:
      return value < keys[0];
    case Compare::kLtEq:
      return value <= keys[0];
    case Compare::kGt:
      return value > keys[0];
    case Compare::kGtEq:
      return value >= keys[0];
    case Compare::kIn:
      return std::find(keys.begin(), keys.end(), value) != keys.end();
  }
  return false;
}

/// Runs `test(valueIndex)` over the rows' values; null rows stay unknown.
template <typename Test>
void evaluate(const LeafValues& leaf, std::vector<uint8_t>& out, Test test) {
  for (size_t r = 0; r < out.size(); ++r) {
    const int64_t v = leaf.valueOfRow[r];
    out[r] = static_cast<uint8_t>(v == kNoValue                    ? Truth::kUnknown
                                  : test(static_cast<uint64_t>(v)) ? Truth::kTrue
                                                                   : Truth::kFalse);
  }
}

constexpr Int128 kNanosPerSecond = 1'000'000'000;

void evaluateCompare(const OrcBoundNode& node, const LeafValues& leaf, std::vector<uint8_t>& out) {
  const ColumnVector& c = *leaf.column;
  switch (node.domain) {
    case Domain::kBytes: {
      std::vector<std::string_view> keys(node.byteKeys.begin(), node.byteKeys.end());
      const std::string_view bytes(c.bytes);
      evaluate(leaf, out, [&](uint64_t i) {
        return compareKey(node.compare, bytes.substr(c.offsets[i], c.offsets[i + 1] - c.offsets[i]),
                          keys);
      });
      return;
    }
    case Domain::kFloat:
      evaluate(leaf, out, [&](uint64_t i) {
        return compareKey<Int128>(node.compare, orcTotalOrderKey(c.doubles[i]), node.keys);
      });
      return;
    case Domain::kTimestamp: {
      // A timestamp compares on the writer's wall clock: its zone is looked up once.
      const Timezone* zone = c.type->kind == TypeKind::kTimestamp && !c.writerTimezone.empty()
                                 ? &Timezone::byName(c.writerTimezone)
                                 : nullptr;
      evaluate(leaf, out, [&](uint64_t i) {
        const Int128 seconds = zone != nullptr ? zone->utcToLocal(c.longs[i]) : c.longs[i];
        return compareKey<Int128>(node.compare, seconds * kNanosPerSecond + c.nanos[i], node.keys);
      });
      return;
    }
    case Domain::kInteger:
      if (!c.wideDecimals.empty()) {
        evaluate(leaf, out, [&](uint64_t i) {
          return compareKey<Int128>(node.compare, c.wideDecimals[i], node.keys);
        });
      } else {
        evaluate(leaf, out, [&](uint64_t i) {
          return compareKey<Int128>(node.compare, c.longs[i], node.keys);
        });
      }
      return;
  }
}

std::vector<uint8_t> evaluateNode(const OrcBoundNode& node, const ColumnVector& stripe) {
  const uint64_t rows = stripe.size;
  std::vector<uint8_t> out(rows, static_cast<uint8_t>(Truth::kUnknown));
  switch (node.kind) {
    case Kind::kAnd:
    case Kind::kOr: {
      const bool isAnd = node.kind == Kind::kAnd;
      // Kleene: and is false if any child is, true if all are; or the dual.
      std::fill(out.begin(), out.end(), static_cast<uint8_t>(isAnd ? Truth::kTrue : Truth::kFalse));
      const auto dominant = static_cast<uint8_t>(isAnd ? Truth::kFalse : Truth::kTrue);
      for (const OrcBoundNode& child : node.children) {
        const std::vector<uint8_t> c = evaluateNode(child, stripe);
        for (uint64_t r = 0; r < rows; ++r) {
          if (out[r] == dominant) continue;
          if (c[r] == dominant || c[r] == static_cast<uint8_t>(Truth::kUnknown)) out[r] = c[r];
        }
      }
      return out;
    }
    case Kind::kNot: {
      out = evaluateNode(node.children.front(), stripe);
      for (uint8_t& v : out) {
        if (v != static_cast<uint8_t>(Truth::kUnknown)) v ^= 1;
      }
      return out;
    }
    default:
      break;
  }
  const LeafValues leaf = leafValues(*node.column, stripe);
  switch (node.kind) {
    case Kind::kIsNull:
    case Kind::kIsNotNull: {
      const bool wantNull = node.kind == Kind::kIsNull;
      for (uint64_t r = 0; r < rows; ++r) {
        out[r] = static_cast<uint8_t>((leaf.valueOfRow[r] == kNoValue) == wantNull ? Truth::kTrue
                                                                                   : Truth::kFalse);
      }
      return out;
    }
    case Kind::kConstant:
      evaluate(leaf, out, [&](uint64_t) { return node.constant; });
      return out;
    default:
      evaluateCompare(node, leaf, out);
      return out;
  }
}

}  // namespace

std::vector<uint8_t> selectRows(const OrcBoundPredicate& predicate, const ColumnVector& stripe) {
  std::vector<uint8_t> truth = evaluateNode(predicate.root(), stripe);
  for (uint8_t& v : truth) v = v == static_cast<uint8_t>(Truth::kTrue) ? 1 : 0;
  return truth;
}

}  // namespace quarry::orc
