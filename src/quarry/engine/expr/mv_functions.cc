#include "quarry/engine/expr/mv_functions.h"

#include <algorithm>
#include <array>
#include <span>
#include <stdexcept>
#include <string_view>

#include "quarry/common/error.h"
#include "quarry/engine/data/value_order.h"
#include "quarry/engine/expr/list_aggregator.h"
#include "quarry/engine/expr/scalar_functions.h"
#include "quarry/engine/expr/string_functions.h"

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

// ---- The functions that shape lists -------------------------------------------

struct MvShaper {
  std::string_view name;
  size_t minArgs;
  size_t maxArgs;
  const char* usage;
};
constexpr std::array<MvShaper, 7> kMvShapers = {{
    {"mv_median", 1, 1, "mv_median(list)"},
    {"mv_concat", 2, 2, "mv_concat(list, delimiter)"},
    {"mv_dedupe", 1, 1, "mv_dedupe(list)"},
    {"mv_sort", 1, 2, "mv_sort(list[, \"asc\"|\"desc\"])"},
    {"mv_slice", 2, 3, "mv_slice(list, start[, end])"},
    {"mv_append", 2, 2, "mv_append(a, b)"},
    {"mv_zip", 2, 3, "mv_zip(a, b[, delimiter])"},
}};

const MvShaper* findShaper(const std::string& name) {
  for (const MvShaper& f : kMvShapers) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

/// A value's type as a list (a value is a list of one); null stays null.
DataType asList(const DataType& t) {
  return t.isList() || t.kind == TypeKind::kNull ? t : DataType::list(t);
}

/// The element type of an argument: its elements' for a list, else its own.
DataType elementOf(const DataType& t) { return t.isList() ? t.elementType() : t; }

bool isStringOrNull(const DataType& t) {
  return t.kind == TypeKind::kString || t.kind == TypeKind::kNull;
}
bool isIntegerOrNull(const DataType& t) {
  return t.kind == TypeKind::kInt32 || t.kind == TypeKind::kInt64 || t.kind == TypeKind::kNull;
}

DataType bindShaper(const BoundExpr& call, const MvShaper& f, int line, int column) {
  const std::vector<BoundExprPtr>& args = call.children;
  const std::string usage = std::string("call it as ") + f.usage;
  if (args.size() < f.minArgs || args.size() > f.maxArgs) {
    failCall(call,
             "expected " + std::to_string(f.minArgs) +
                 (f.maxArgs > f.minArgs ? " or " + std::to_string(f.maxArgs) : "") +
                 " arguments, got " + std::to_string(args.size()),
             usage, line, column);
  }
  // Arguments past the lists are one value per row of the given kind.
  const auto scalar = [&](size_t i, bool (*accepts)(const DataType&), const char* what) {
    const DataType& t = args[i]->type;
    if (t.isList() || !accepts(t)) {
      failCall(call, "argument " + std::to_string(i + 1) + " must be " + what + ", got " + t.toString(),
               usage, line, column);
    }
  };
  const DataType first = args[0]->type;
  const DataType element = elementOf(first);
  if (f.name == "mv_median") {
    if (element.kind == TypeKind::kNull) return DataType::float64();
    if (element.kind != TypeKind::kInt32 && element.kind != TypeKind::kInt64 &&
        element.kind != TypeKind::kDouble) {
      failCall(call, "cannot take the median of " + first.toString(),
               "mv_median takes integers or doubles", line, column);
    }
    return element.kind == TypeKind::kDouble ? DataType::float64() : DataType::int64();
  }
  if (f.name == "mv_concat" || f.name == "mv_zip") {
    const size_t lists = f.name == "mv_concat" ? 1 : 2;
    for (size_t i = 0; i < args.size(); ++i) {
      if (i >= lists) {
        scalar(i, isStringOrNull, "a string");
      } else if (!isStringOrNull(elementOf(args[i]->type))) {
        failCall(call, "argument " + std::to_string(i + 1) + " must be strings, got " + args[i]->type.toString(),
                 usage, line, column);
      }
    }
    return f.name == "mv_concat" ? DataType::string() : DataType::list(DataType::string());
  }
  if (f.name == "mv_sort" && args.size() == 2) {
    scalar(1, isStringOrNull, "\"asc\" or \"desc\"");
  }
  if (f.name == "mv_slice") {
    for (size_t i = 1; i < args.size(); ++i) scalar(i, isIntegerOrNull, "an integer");
  }
  if (f.name == "mv_append") {
    const DataType other = elementOf(args[1]->type);
    if (element.kind == TypeKind::kNull) return asList(args[1]->type);
    if (other.kind != TypeKind::kNull && other != element) {
      failCall(call, "cannot append " + args[1]->type.toString() + " to " + first.toString(),
               "give both arguments one element type", line, column);
    }
  }
  return asList(first);
}

/// An argument read as lists: a list block, or a value block as lists of one.
class ListView {
 public:
  explicit ListView(const Block& block) : block_(block), isList_(block.type().isList()) {}

  const Block& elements() const { return isList_ ? block_.listElements() : block_; }

  /// The positions in elements() of row r's values (null elements left out).
  std::vector<uint64_t> values(size_t r) const {
    std::vector<uint64_t> out;
    if (block_.type().kind == TypeKind::kNull || block_.isNull(r)) return out;
    if (!isList_) {
      out.push_back(r);
      return out;
    }
    const std::span<const uint64_t> offsets = block_.listOffsets();
    const Block& e = block_.listElements();
    for (uint64_t k = offsets[r]; k < offsets[r + 1]; ++k) {
      if (!e.isNull(k)) out.push_back(k);
    }
    return out;
  }

 private:
  const Block& block_;
  bool isList_;
};

/// Builds a list block row by row; a row of no value is null.
class ListBuilder {
 public:
  explicit ListBuilder(const DataType& listType)
      : type_(listType), elements_(listType.elementType()) {}

  void append(const Block& from, const std::vector<uint64_t>& positions) {
    for (uint64_t k : positions) elements_.appendFrom(from, k);
    close(!positions.empty());
  }
  void appendStrings(const std::vector<std::string>& values) {
    for (const std::string& v : values) elements_.appendBytes(v);
    close(!values.empty());
  }
  Block finish() {
    return Block::fromList(type_, std::move(offsets_), std::move(elements_), std::move(validity_));
  }

 private:
  void close(bool valid) {
    offsets_.push_back(elements_.size());
    validity_.push_back(valid ? 1 : 0);
  }

  DataType type_;
  Block elements_;
  std::vector<uint64_t> offsets_{0};
  std::vector<uint8_t> validity_;
};

bool nullAt(const Block& b, size_t r) { return b.type().kind == TypeKind::kNull || b.isNull(r); }

void sortPositions(const Block& elements, std::vector<uint64_t>& at, bool ascending) {
  std::stable_sort(at.begin(), at.end(), [&](uint64_t a, uint64_t b) {
    const int c = compareNonNull(elements, a, elements, b);
    return ascending ? c < 0 : c > 0;
  });
}

Block medianBlock(const Block& arg, size_t n, const DataType& resultType) {
  const ListView view(arg);
  const Block& elements = view.elements();
  Block out(resultType);
  for (size_t r = 0; r < n; ++r) {
    std::vector<uint64_t> at = view.values(r);
    if (at.empty()) {
      out.appendNull();
      continue;
    }
    sortPositions(elements, at, true);
    const size_t mid = at.size() / 2;
    if (resultType.kind == TypeKind::kInt64) {
      const int64_t hi = integerAt(elements, at[mid]);
      const int64_t lo = at.size() % 2 == 1 ? hi : integerAt(elements, at[mid - 1]);
      // The mean of the middle two rounded down (toward negative infinity), without overflow.
      out.append<int64_t>((lo >> 1) + (hi >> 1) + (lo & hi & 1));
    } else {
      const std::span<const double> values = elements.values<double>();
      const double hi = values[at[mid]];
      out.append<double>(at.size() % 2 == 1 ? hi : (values[at[mid - 1]] + hi) / 2);
    }
  }
  return out;
}

Block shapeLists(const BoundExpr& call, const CallArgs& args, size_t n) {
  const std::string& name = call.name;
  if (name == "mv_median") return medianBlock(args[0], n, call.type);
  if (name == "mv_concat") {
    const ListView view(args[0]);
    Block out(DataType::string());
    std::string joined;
    for (size_t r = 0; r < n; ++r) {
      const std::vector<uint64_t> at = view.values(r);
      if (at.empty() || nullAt(args[1], r)) {
        out.appendNull();
        continue;
      }
      joined.clear();
      for (size_t k = 0; k < at.size(); ++k) {
        if (k > 0) joined += args[1].bytes(r);
        joined += view.elements().bytes(at[k]);
      }
      out.appendBytes(joined);
    }
    return out;
  }
  if (name == "mv_zip") {
    const ListView a(args[0]);
    const ListView b(args[1]);
    ListBuilder out(call.type);
    for (size_t r = 0; r < n; ++r) {
      const std::vector<uint64_t> left = a.values(r);
      const std::vector<uint64_t> right = b.values(r);
      std::vector<std::string> zipped;
      const bool noDelimiter = args.size() == 3 && nullAt(args[2], r);
      if (!noDelimiter) {
        const std::string delimiter = args.size() == 3 ? std::string(args[2].bytes(r)) : ",";
        for (size_t k = 0; k < std::max(left.size(), right.size()); ++k) {
          std::string pair;
          if (k < left.size()) pair += a.elements().bytes(left[k]);
          if (k < left.size() && k < right.size()) pair += delimiter;
          if (k < right.size()) pair += b.elements().bytes(right[k]);
          zipped.push_back(std::move(pair));
        }
      }
      out.appendStrings(zipped);
    }
    return out.finish();
  }
  if (name == "mv_append") {
    const ListView a(args[0]);
    const ListView b(args[1]);
    // Both sides' elements in one block, so that each row takes positions of one.
    Block both(call.type.elementType());
    both.appendAll(a.elements().type().kind == TypeKind::kNull ? Block::nulls(both.type(), a.elements().size()) : a.elements());
    const uint64_t shift = both.size();
    both.appendAll(b.elements().type().kind == TypeKind::kNull ? Block::nulls(both.type(), b.elements().size()) : b.elements());
    ListBuilder out(call.type);
    for (size_t r = 0; r < n; ++r) {
      std::vector<uint64_t> at = a.values(r);
      for (uint64_t k : b.values(r)) at.push_back(shift + k);
      out.append(both, at);
    }
    return out.finish();
  }
  const ListView view(args[0]);
  const Block& elements = view.elements();
  ListBuilder out(call.type);
  for (size_t r = 0; r < n; ++r) {
    std::vector<uint64_t> at = view.values(r);
    if (name == "mv_dedupe") {
      // Keeps each value's first occurrence, in the order written.
      std::vector<uint64_t> byValue = at;
      sortPositions(elements, byValue, true);  // stable: equal values by position
      std::vector<uint64_t> first;
      for (size_t k = 0; k < byValue.size(); ++k) {
        if (k == 0 || compareNonNull(elements, byValue[k - 1], elements, byValue[k]) != 0) {
          first.push_back(byValue[k]);
        }
      }
      std::sort(first.begin(), first.end());
      at = std::move(first);
    } else if (name == "mv_sort") {
      bool ascending = true;
      if (args.size() == 2) {
        if (nullAt(args[1], r)) {
          at.clear();
        } else {
          std::string order(args[1].bytes(r));
          for (char& c : order) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          if (order != "asc" && order != "desc") {
            throw InvalidArgument("mv_sort: the order must be \"asc\" or \"desc\", got \"" +
                                  std::string(args[1].bytes(r)) + "\"");
          }
          ascending = order == "asc";
        }
      }
      sortPositions(elements, at, ascending);
    } else if (name == "mv_slice") {
      if (nullAt(args[1], r) || (args.size() == 3 && nullAt(args[2], r))) {
        at.clear();
      } else {
        const int64_t size = static_cast<int64_t>(at.size());
        int64_t start = integerAt(args[1], r);
        int64_t end = args.size() == 3 ? integerAt(args[2], r) : start;
        if (start < 0) start += size;
        if (end < 0) end += size;
        start = std::max<int64_t>(start, 0);
        end = std::min<int64_t>(end, size - 1);
        std::vector<uint64_t> kept;
        for (int64_t k = start; k <= end; ++k) kept.push_back(at[static_cast<size_t>(k)]);
        at = std::move(kept);
      }
    }
    out.append(elements, at);
  }
  return out.finish();
}

}  // namespace

bool isMvFunction(const std::string& name) {
  return findMv(name) != nullptr || findShaper(name) != nullptr;
}

DataType bindMvFunction(const BoundExpr& call, int line, int column) {
  if (const MvShaper* shaper = findShaper(call.name)) return bindShaper(call, *shaper, line, column);
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

Block evaluateMvFunction(const BoundExpr& call, const CallArgs& args, size_t n) {
  if (findShaper(call.name) != nullptr) {
    if (call.type.kind == TypeKind::kNull) return Block::nulls(call.type, n);
    return shapeLists(call, args, n);
  }
  const Block& lists = args[0];
  if (lists.type().kind == TypeKind::kNull) return Block::nulls(call.type, lists.size());
  if (!lists.type().isList()) {
    const std::vector<Block> one{listsOfOne(lists)};
    return evaluateMvFunction(call, one, n);
  }
  if (picksAnElement(call.name)) return pickElement(lists, call.name == "mv_last");
  return aggregateEachList(findMv(call.name)->reduction, lists);
}

BoundExprPtr singleValueOf(BoundExprPtr list, std::shared_ptr<const WarningSite> site) {
  auto out = std::make_shared<BoundExpr>();
  out->warningSite = std::move(site);
  out->kind = BoundExpr::Kind::kCall;
  out->name = kSingleValueFunction;
  out->type = list->type.elementType();
  out->children.push_back(std::move(list));
  return out;
}

size_t listValueCount(const Block& lists, size_t row) {
  if (lists.isNull(row)) return 0;
  const Block& elements = lists.listElements();
  const std::span<const uint64_t> offsets = lists.listOffsets();
  size_t count = 0;
  for (uint64_t e = offsets[row]; e < offsets[row + 1]; ++e) count += !elements.isNull(e);
  return count;
}

Block singleValues(const Block& lists) {
  const Block& elements = lists.listElements();
  const std::span<const uint64_t> offsets = lists.listOffsets();
  Block out(lists.type().elementType());
  out.reserve(lists.size());
  for (size_t r = 0; r < lists.size(); ++r) {
    if (listValueCount(lists, r) != 1) {
      out.appendNull();
      continue;
    }
    uint64_t e = offsets[r];
    while (elements.isNull(e)) ++e;
    out.appendFrom(elements, e);
  }
  return out;
}

}  // namespace quarry::engine
