#include "quarry/engine/plan/stats_planning.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "quarry/common/error.h"
#include "quarry/common/name_hint.h"
#include "quarry/engine/expr/expression_binder.h"
#include "quarry/engine/expr/scalar_functions.h"
#include "quarry/engine/parse/expr_walk.h"
#include "quarry/engine/parse/query_printer.h"
#include "quarry/engine/plan/aggregate_arguments.h"
#include "quarry/engine/plan/plan_building.h"

namespace quarry::engine::planning {

namespace {

// ---- Names of unnamed STATS items ------------------------------------------------

/// The byte offset of `at` (1-based line, column in code points) in `text`, or npos.
size_t byteOffset(std::string_view text, SourcePosition at) {
  size_t i = 0;
  for (int line = 1; line < at.line; ++line) {
    i = text.find('\n', i);
    if (i == std::string_view::npos) return i;
    ++i;
  }
  for (int column = 1; column < at.column && i < text.size(); ++column) {
    ++i;
    while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80)
      ++i;  // continuation bytes
  }
  return i <= text.size() ? i : std::string_view::npos;
}

bool isWordByte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

/// The text of a STATS item starting at `at`: up to a ',', '|' or BY outside
/// parentheses and quotes, trimmed; "" when it cannot be found.
std::string itemText(std::string_view text, SourcePosition at) {
  const size_t start = byteOffset(text, at);
  if (start == std::string_view::npos) return "";
  int depth = 0;
  size_t i = start;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\'' || c == '"' || c == '`') {
      for (++i; i < text.size() && text[i] != c; ++i) {
        if (text[i] == '\\' && c != '`') ++i;
      }
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth > 0) continue;
    if (c == ',' || c == '|' || depth < 0) break;
    if ((c == 'B' || c == 'b') && i + 1 < text.size() &&
        (text[i + 1] == 'Y' || text[i + 1] == 'y') && (i == start || !isWordByte(text[i - 1])) &&
        (i + 2 >= text.size() || !isWordByte(text[i + 2]))) {
      break;
    }
  }
  std::string_view item = text.substr(start, i - start);
  while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back())))
    item.remove_suffix(1);
  return std::string(item);
}

/// An unnamed item's column name: a column's own name (`BY \`COUNT(*)\`` keeps
/// the column `COUNT(*)`, not its quotes); a call's text as written where its
/// position is its first token, else the printed expression.
std::string itemName(const StatsItem& item, std::string_view text) {
  if (item.name) return item.name->dotted();
  if (const auto* column = std::get_if<ColumnRef>(&item.expr.node)) return column->name.dotted();
  if (!text.empty() && item.expr.is<CallExpr>()) {
    std::string written = itemText(text, item.expr.position);
    if (!written.empty()) return written;
  }
  return printExpr(item.expr);
}

/// SUM(e + c), SUM(c + e) or SUM(e - c) of an int32 expression e and an int32
/// literal c: what the planner answers as SUM(e) + c * COUNT(e), so that many sums
/// of one column plus constants (ClickBench's 90 `SUM(ResolutionWidth + k)`) are
/// one SUM, COUNT, MIN and MAX of the column instead of an evaluation and a sum
/// each. Exact: SUM of int32 values is an int64 that no count of rows below 2^32
/// overflows, and MIN(e) and MAX(e) tell whether some row's e + c overflows int32.
/// The per-row evaluation would make such a row's value null and leave it out of
/// the sum, which SUM(e) + c * COUNT(e) cannot: the `$sum_offset` function raises
/// an error then, naming the values and the conversion that avoids it
/// (scalar_functions.h).
struct SumOffset {
  BoundExprPtr operand;   // e
  BoundExprPtr constant;  // c
  bool subtract = false;  // e - c
};

std::optional<SumOffset> sumOffsetOf(const BoundExprPtr& argument) {
  const BoundExpr& bound = *argument;
  if (bound.kind != BoundExpr::Kind::kBinary || bound.type.kind != TypeKind::kInt32)
    return std::nullopt;
  if (bound.binaryOp != BinaryOp::kAdd && bound.binaryOp != BinaryOp::kSubtract)
    return std::nullopt;
  const auto isConstant = [](const BoundExpr& e) {
    return e.kind == BoundExpr::Kind::kLiteral && e.type.kind == TypeKind::kInt32 &&
           std::holds_alternative<int32_t>(e.literal);
  };
  const auto isOperand = [](const BoundExpr& e) {
    return e.kind != BoundExpr::Kind::kLiteral && e.type.kind == TypeKind::kInt32;
  };
  const BoundExprPtr& left = bound.children[0];
  const BoundExprPtr& right = bound.children[1];
  if (isConstant(*right) && isOperand(*left)) {
    return SumOffset{left, right, bound.binaryOp == BinaryOp::kSubtract};
  }
  if (bound.binaryOp == BinaryOp::kAdd && isConstant(*left) && isOperand(*right))
    return SumOffset{right, left, false};
  return std::nullopt;
}

BoundExprPtr columnRef(int channel, const Field& field) {
  auto ref = std::make_shared<BoundExpr>();
  ref->kind = BoundExpr::Kind::kColumn;
  ref->column = channel;
  ref->name = field.name;
  ref->type = field.type;
  return ref;
}

const AggregateName* findAggregate(const std::string& function) {
  for (const AggregateName& candidate : statsAggregates()) {
    if (function == candidate.name) return &candidate;
  }
  return nullptr;
}

bool isAggregateCall(const Expr& expr) {
  return expr.is<CallExpr>() && findAggregate(expr.as<CallExpr>().function) != nullptr;
}

/// The aggregate calls of one STATS command. Each distinct call (with its item's
/// filter) is a slot: one AggregateSpec, or for SUM(e + c) a value computed from
/// the SUM, COUNT, MIN and MAX of e that every such sum of e shares (SumOffset).
/// A slot's value is an expression over the aggregation's output: the groups,
/// then the specs.
class StatsAggregates {
 public:
  StatsAggregates(const Schema& input, std::vector<std::pair<std::string, BoundExprPtr>>& pending,
                  int groups)
      : input_(input), pending_(pending), groups_(groups) {}

  /// The slot of `call`, an aggregate call, filtered by `filter` when given. A new
  /// slot's spec is named `specName`, else as the call and filter print.
  int slot(const Expr& call, const std::optional<Expr>& filter, const std::string& specName = {}) {
    std::string key = printExpr(call);
    if (filter) key += " WHERE " + printExpr(*filter);
    const auto [it, added] = slots_.try_emplace(key, static_cast<int>(values_.size()));
    if (added) {
      names_.push_back(key);
      values_.push_back(bindCall(call, filter, specName.empty() ? key : specName));
    }
    return it->second;
  }

  const std::vector<AggregateSpec>& specs() const { return specs_; }
  const BoundExprPtr& value(int slot) const { return values_[static_cast<size_t>(slot)]; }
  const std::string& name(int slot) const { return names_[static_cast<size_t>(slot)]; }

  /// The schema an expression over slots is bound against: the groups under
  /// their names, then each slot under its call's printed text.
  Schema bindingSchema(const Schema& groupFields) const {
    Schema out = groupFields;
    for (size_t k = 0; k < values_.size(); ++k) out.push_back({names_[k], values_[k]->type});
    return out;
  }

  /// `bound` (over bindingSchema) with each slot column replaced by the slot's value.
  BoundExprPtr substitute(const BoundExprPtr& bound) const {
    if (bound->kind == BoundExpr::Kind::kColumn) {
      return bound->column >= groups_ ? values_[static_cast<size_t>(bound->column - groups_)]
                                      : bound;
    }
    if (bound->children.empty()) return bound;
    auto copy = std::make_shared<BoundExpr>(*bound);
    for (BoundExprPtr& child : copy->children) child = substitute(child);
    return copy;
  }

 private:
  BoundExprPtr specValue(AggregateSpec spec) {
    const int k = static_cast<int>(specs_.size());
    const Field field{spec.name, aggregateResultType(spec.function, spec.inputType)};
    specs_.push_back(std::move(spec));
    return columnRef(groups_ + k, field);
  }

  /// The channel of an argument: a column of the input, or one evaluated into `pending`.
  int argumentChannel(const Expr& argument, DataType& type, const char* prefix) {
    const int channel =
        channelFor(argument, input_, prefix + std::to_string(values_.size()), pending_, nullptr);
    type = channel < static_cast<int>(input_.size())
               ? input_[channel].type
               : pending_[channel - input_.size()].second->type;
    return channel;
  }

  BoundExprPtr bindCall(const Expr& expr, const std::optional<Expr>& filter,
                        const std::string& name) {
    const CallExpr& call = expr.as<CallExpr>();
    const SourcePosition at = expr.position;
    const AggregateName* known = findAggregate(call.function);
    for (const Expr& arg : call.args) {
      forEachNode(arg, [&](const Expr& inner) {
        if (isAggregateCall(inner)) {
          throw QueryError("aggregates do not nest: " + printExpr(inner) + " inside " + known->name,
                           inner.position.line, inner.position.column,
                           "aggregate once in STATS, then again in a second STATS");
        }
      });
    }
    if (filter) requireCondition(*filter);
    const bool star = call.args[0].is<Star>();
    if (star && known->function != AggregateFunction::kCount) {
      throw QueryError(std::string("`*` is an argument of COUNT only, not of ") + known->name,
                       at.line, at.column);
    }
    AggregateSpec spec;
    spec.name = name;
    spec.function = known->function;
    bindAggregateConstants(call, *known, input_, at, spec);
    // A filter keeps a row's value where it holds, else makes it null, which every
    // aggregate skips: AGG(x) WHERE c is AGG(CASE WHEN c THEN x END), and
    // COUNT(*) WHERE c counts CASE WHEN c THEN TRUE END.
    const auto filtered = [&](Expr argument) {
      if (!filter) return argument;
      return Expr{CaseExpr{{WhenClause{*filter, std::move(argument)}}, std::nullopt},
                  filter->position};
    };
    if (spec.function == AggregateFunction::kWeightedAvg) {
      // The weight too: WEIGHTED_AVG adds the weight of a row whose value is null.
      spec.weightChannel = argumentChannel(filtered(call.args[1]), spec.weightType, "$weight");
      if (spec.weightType.isList() ||
          (!spec.weightType.isNumeric() && spec.weightType.kind != TypeKind::kNull)) {
        throw QueryError("WEIGHTED_AVG cannot take a weight of type " + spec.weightType.toString(),
                         call.args[1].position.line, call.args[1].position.column);
      }
    }
    if (star && !filter) {
      spec.function = AggregateFunction::kCountStar;
      spec.inputType = DataType::int64();
      return specValue(std::move(spec));
    }
    if (!filter && spec.function == AggregateFunction::kSum) {
      if (std::optional<SumOffset> offset = sumOffsetOf(bindExpression(call.args[0], input_))) {
        return sumOffsetValue(*offset, name);
      }
    }
    // A list argument aggregates its elements (list_aggregator.h).
    spec.inputChannel =
        argumentChannel(filtered(star ? Expr{Literal{BooleanLiteral{true}}, at} : call.args[0]),
                        spec.inputType, "$arg");
    try {
      aggregateResultType(spec.function, spec.inputType);
    } catch (const InvalidArgument&) {
      throw QueryError(
          std::string(known->name) + " cannot take a value of type " + spec.inputType.toString(),
          at.line, at.column);
    }
    return specValue(std::move(spec));
  }

  void requireCondition(const Expr& filter) const {
    const BoundExprPtr bound = bindExpression(filter, input_);
    if (bound->type.kind != TypeKind::kBoolean && bound->type.kind != TypeKind::kNull) {
      throw QueryError("an aggregate's WHERE needs a boolean condition, got " + printExpr(filter) +
                           " of type " + bound->type.toString(),
                       filter.position.line, filter.position.column,
                       "compare it, e.g. WHERE x > 0");
    }
  }

  BoundExprPtr sumOffsetValue(const SumOffset& offset, const std::string& name) {
    int channel = offset.operand->column;
    if (offset.operand->kind != BoundExpr::Kind::kColumn) {
      pending_.emplace_back("$arg" + std::to_string(values_.size()), offset.operand);
      channel = static_cast<int>(input_.size() + pending_.size() - 1);
    }
    auto combined = std::make_shared<BoundExpr>();
    combined->kind = BoundExpr::Kind::kCall;
    combined->name = "$sum_offset";
    combined->type = DataType::int64();
    combined->negated = offset.subtract;
    // SUM, COUNT, MIN and MAX of the operand, shared by every SumOffset of it.
    // (Found by function and channel, never by name: a user may name a column `$SUM(3)`.)
    for (AggregateFunction function : {AggregateFunction::kSum, AggregateFunction::kCount,
                                       AggregateFunction::kMin, AggregateFunction::kMax}) {
      const auto [it, added] = sharedSpecs_.try_emplace({function, channel}, nullptr);
      if (added) {
        it->second = specValue(AggregateSpec{
            function, channel, DataType::int32(),
            std::string("$") + aggregateName(function) + "(" + std::to_string(channel) + ")"});
      }
      combined->children.push_back(it->second);
    }
    combined->children.push_back(offset.constant);
    auto itemLiteral = std::make_shared<BoundExpr>();
    itemLiteral->kind = BoundExpr::Kind::kLiteral;
    itemLiteral->type = DataType::string();
    itemLiteral->literal = name;
    combined->children.push_back(std::move(itemLiteral));
    return combined;
  }

  const Schema& input_;
  std::vector<std::pair<std::string, BoundExprPtr>>& pending_;
  const int groups_;
  std::vector<AggregateSpec> specs_;
  std::map<std::string, int> slots_;  // by printed call and filter
  std::vector<std::string> names_;    // per slot
  std::vector<BoundExprPtr> values_;  // per slot
  std::map<std::pair<AggregateFunction, int>, BoundExprPtr> sharedSpecs_;
};

/// `expr` with each aggregate call replaced by a column named as its slot;
/// counts the calls in `found`.
Expr replaceAggregates(const Expr& expr, StatsAggregates& aggregates,
                       const std::optional<Expr>& filter, int& found) {
  if (isAggregateCall(expr)) {
    ++found;
    const int k = aggregates.slot(expr, filter);
    return Expr{ColumnRef{Identifier{{aggregates.name(k)}, expr.position}}, expr.position};
  }
  Expr out = expr;
  forEachChild(out,
               [&](Expr& child) { child = replaceAggregates(child, aggregates, filter, found); });
  return out;
}

/// `expr` with each reference to the column `name` outside aggregate calls (a BY
/// key's, in an expression over aggregates) replaced by `value`.
Expr replaceGroupReference(const Expr& expr, const std::string& name, const Expr& value) {
  if (isAggregateCall(expr)) return expr;
  if (expr.is<ColumnRef>() && expr.as<ColumnRef>().name.dotted() == name) return value;
  Expr out = expr;
  forEachChild(out, [&](Expr& child) { child = replaceGroupReference(child, name, value); });
  return out;
}

PlanNodePtr planGroupedStats(PlanNodePtr input, const StatsCommand& stats, std::string_view text) {
  const Schema& schema = input->schema;
  std::vector<std::pair<std::string, BoundExprPtr>> pending;
  std::vector<int> groupChannels;
  std::vector<std::string> groupNames;
  for (size_t i = 0; i < stats.groups.size(); ++i) {
    const StatsItem& item = stats.groups[i];
    const std::string name = itemName(item, text);
    groupChannels.push_back(
        channelFor(item.expr, schema, "$group" + std::to_string(i), pending, "a BY key"));
    groupNames.push_back(name);
  }
  const int groups = static_cast<int>(groupChannels.size());
  Schema groupFields;
  for (int g = 0; g < groups; ++g) {
    const int channel = groupChannels[g];
    const DataType& type = channel < static_cast<int>(schema.size())
                               ? schema[channel].type
                               : pending[channel - schema.size()].second->type;
    groupFields.push_back({groupNames[g], type});
  }
  StatsAggregates aggregates(schema, pending, groups);
  // Per item, its name and its value: an expression over the aggregation's output.
  std::vector<std::pair<std::string, BoundExprPtr>> items;
  for (const StatsItem& item : stats.aggregates) {
    const std::string name = itemName(item, text);
    const SourcePosition at = item.expr.position;
    if (isAggregateCall(item.expr)) {
      items.emplace_back(name, aggregates.value(aggregates.slot(item.expr, item.filter, name)));
      continue;
    }
    int found = 0;
    const Expr rewritten = replaceAggregates(item.expr, aggregates, item.filter, found);
    if (found == 0 && item.expr.is<CallExpr>()) {
      const std::string& function = item.expr.as<CallExpr>().function;
      const auto scalars = scalarFunctionNames();
      if (std::find(scalars.begin(), scalars.end(), function) == scalars.end()) {
        const std::string guess = closestName(function, aggregateFunctionNames());
        throw QueryError("unknown aggregate `" + function + "`", at.line, at.column,
                         guess.empty() ? "the aggregates are " + statsAggregateList()
                                       : "did you mean " + guess + "?");
      }
    }
    if (found == 0) {
      throw QueryError("STATS computes aggregates; `" + printExpr(item.expr) + "` has none",
                       at.line, at.column,
                       "aggregate it, e.g. MAX(" + printExpr(item.expr) + "), or move it to BY");
    }
    BoundExprPtr bound;
    try {
      bound = bindExpression(rewritten, aggregates.bindingSchema(groupFields));
    } catch (const UnknownColumnError& e) {
      throw QueryError("`" + e.columnName() + "` is neither inside an aggregate nor a BY key",
                       e.line(), e.column(),
                       "aggregate it, e.g. MAX(" + e.columnName() + "), or add it to BY");
    }
    items.emplace_back(name, aggregates.substitute(bound));
  }
  PlanNodePtr below = pending.empty() ? input : eval(input, std::move(pending));
  auto aggregate = makeNode(PlanKind::kAggregate, below);
  aggregate->schema.clear();
  for (int channel : groupChannels) aggregate->schema.push_back(below->schema[channel]);
  for (const AggregateSpec& spec : aggregates.specs()) {
    aggregate->schema.push_back({spec.name, aggregateResultType(spec.function, spec.inputType)});
  }
  aggregate->mode = AggregatorMode::kSingle;
  aggregate->groupChannels = groupChannels;
  aggregate->aggregates = aggregates.specs();
  // An item that is one spec is that column; every other is evaluated after.
  std::vector<std::pair<std::string, BoundExprPtr>> after;
  std::vector<int> channels;
  std::vector<std::string> names;
  const int aggregateWidth = static_cast<int>(aggregate->schema.size());
  for (auto& [name, value] : items) {
    if (value->kind == BoundExpr::Kind::kColumn) {
      channels.push_back(value->column);
    } else {
      channels.push_back(aggregateWidth + static_cast<int>(after.size()));
      after.emplace_back(name, value);
    }
    names.push_back(name);
  }
  PlanNodePtr above = after.empty() ? aggregate : eval(aggregate, after);
  // ES|QL's order: the aggregates, then the groups, under their output names.
  for (int g = 0; g < groups; ++g) {
    channels.push_back(g);
    names.push_back(groupNames[g]);
  }
  return project(above, std::move(channels), std::move(names));
}

}  // namespace

/// STATS. A constant BY key (`BY one = 1, URL`, ClickBench's Q35) divides no group:
/// the other keys are grouped and its value is added to each group after, rather
/// than hashed and stored with every group. Not when every key is constant: an
/// empty input has no group, where no key would give it one.
PlanNodePtr planStats(PlanNodePtr input, const StatsCommand& stats, std::string_view text) {
  std::vector<bool> constant(stats.groups.size(), false);
  std::set<std::string> names;
  bool anyConstant = false;
  bool allConstant = true;
  for (size_t i = 0; i < stats.groups.size(); ++i) {
    if (!names.insert(itemName(stats.groups[i], text)).second)
      return planGroupedStats(input, stats, text);
    try {
      constant[i] =
          bindExpression(stats.groups[i].expr, input->schema)->kind == BoundExpr::Kind::kLiteral;
    } catch (const std::exception&) {
      return planGroupedStats(input, stats, text);  // which says what is wrong with the key
    }
    anyConstant = anyConstant || constant[i];
    allConstant = allConstant && constant[i];
  }
  if (!anyConstant || allConstant) return planGroupedStats(input, stats, text);
  StatsCommand grouped;
  std::vector<std::pair<std::string, BoundExprPtr>> constants;
  for (size_t i = 0; i < stats.groups.size(); ++i) {
    const StatsItem& group = stats.groups[i];
    if (!constant[i]) {
      grouped.groups.push_back(group);
      continue;
    }
    constants.emplace_back(itemName(group, text), bindExpression(group.expr, input->schema));
  }
  for (StatsItem item : stats.aggregates) {
    // Named as written (the name comes from the text at the item's position).
    if (!item.name && !isAggregateCall(item.expr) && !item.expr.is<ColumnRef>())
      item.name = Identifier{{itemName(item, text)}, item.expr.position};
    for (size_t i = 0; i < stats.groups.size(); ++i) {
      if (constant[i])
        item.expr =
            replaceGroupReference(item.expr, itemName(stats.groups[i], text), stats.groups[i].expr);
    }
    grouped.aggregates.push_back(std::move(item));
  }
  PlanNodePtr plan = planGroupedStats(std::move(input), grouped, text);
  const int items = static_cast<int>(stats.aggregates.size());
  const int width = static_cast<int>(plan->schema.size());
  plan = eval(std::move(plan), constants);
  // ES|QL's order: the aggregates, then the groups as written.
  std::vector<int> channels;
  std::vector<std::string> outputNames;
  for (int k = 0; k < items; ++k) {
    channels.push_back(k);
    outputNames.push_back(plan->schema[k].name);
  }
  int nextGrouped = items;
  int nextConstant = width;
  for (size_t i = 0; i < stats.groups.size(); ++i) {
    channels.push_back(constant[i] ? nextConstant++ : nextGrouped++);
    outputNames.push_back(itemName(stats.groups[i], text));
  }
  return project(std::move(plan), std::move(channels), std::move(outputNames));
}

}  // namespace quarry::engine::planning
