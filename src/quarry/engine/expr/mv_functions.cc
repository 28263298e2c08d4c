#include "quarry/engine/expr/mv_functions.h"

#include <array>
#include <span>
#include <stdexcept>
#include <string_view>

#include "quarry/common/error.h"
#include "quarry/engine/expr/list_aggregator.h"

namespace quarry::engine {
namespace {

struct MvFunction {
  std::string_view name;
  AggregateFunction reduction;  // unused by mv_first and mv_last
};

constexpr std::array<MvFunction, 7> kMvFunctions = {{
    {"mv_count", AggregateFunction::kCount},
    {"mv_min", AggregateFunction::kMin},
    {"mv_max", AggregateFunction::kMax},
    {"mv_sum", AggregateFunction::kSum},
    {"mv_avg", AggregateFunction::kAvg},
    {"mv_first", AggregateFunction::kMin},
    {"mv_last", AggregateFunction::kMin},
}};

const MvFunction* findMv(const std::string& name) {
  for (const MvFunction& f : kMvFunctions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

bool picksAnElement(const std::string& name) {
  return name == "mv_first" || name == "mv_last";
}

/// Per list its first (or last) non-null element; null where there is none.
Block pickElement(const Block& lists, bool last) {
  const Block& elements = lists.listElements();
  const std::span<const uint64_t> offsets = lists.listOffsets();
  Block out(lists.type().elementType());
  out.reserve(lists.size());
  for (size_t r = 0; r < lists.size(); ++r) {
    bool found = false;
    if (!lists.isNull(r)) {
      for (uint64_t k = 0; k < offsets[r + 1] - offsets[r]; ++k) {
        const uint64_t e = last ? offsets[r + 1] - 1 - k : offsets[r] + k;
        if (elements.isNull(e)) continue;
        out.appendFrom(elements, e);
        found = true;
        break;
      }
    }
    if (!found) out.appendNull();
  }
  return out;
}

}  // namespace

bool isMvFunction(const std::string& name) {
  return findMv(name) != nullptr;
}

DataType bindMvFunction(const BoundExpr& call, int line, int column) {
  const MvFunction* f = findMv(call.name);
  if (f == nullptr) throw std::logic_error("bindMvFunction: " + call.name);
  if (call.children.size() != 1) {
    throw QueryError(
        call.name + ": expected 1 argument, got " + std::to_string(call.children.size()), line,
        column, "call it as " + call.name + "(list)");
  }
  const DataType& given = call.children[0]->type;
  if (given.kind == TypeKind::kNull)
    return f->reduction == AggregateFunction::kCount ? DataType::int64() : given;
  const DataType arg = given.isList() ? given : DataType::list(given);  // a value: a list of one
  if (picksAnElement(call.name)) return arg.elementType();
  try {
    return aggregateResultType(f->reduction, arg);
  } catch (const InvalidArgument&) {
    throw QueryError(call.name + ": cannot reduce a " + arg.toString(), line, column,
                     call.name + " takes a list of numbers");
  }
}

/// `values` as a list block of one element per row (a null value: [null]).
Block listsOfOne(const Block& values) {
  std::vector<uint64_t> offsets(values.size() + 1);
  for (size_t r = 0; r <= values.size(); ++r) offsets[r] = r;
  return Block::fromList(DataType::list(values.type()), std::move(offsets), values);
}

Block evaluateMvFunction(const BoundExpr& call, const Block& lists) {
  if (lists.type().kind == TypeKind::kNull) return Block::nulls(call.type, lists.size());
  if (!lists.type().isList()) return evaluateMvFunction(call, listsOfOne(lists));
  if (picksAnElement(call.name)) return pickElement(lists, call.name == "mv_last");
  return aggregateEachList(findMv(call.name)->reduction, lists);
}

}  // namespace quarry::engine
