#include "quarry/engine/plan/planner.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "quarry/common/error.h"
#include "quarry/common/name_hint.h"
#include "quarry/engine/expr/dissect_pattern.h"
#include "quarry/engine/expr/expression_binder.h"
#include "quarry/engine/expr/grok_pattern.h"
#include "quarry/engine/expr/scalar_functions.h"
#include "quarry/engine/parse/expr_walk.h"
#include "quarry/engine/parse/query_printer.h"
#include "quarry/engine/plan/aggregate_arguments.h"

namespace quarry::engine {

namespace {

// ---- Names -------------------------------------------------------------------

/// The column `name` names; an unknown one is the binder's QueryError (the same
/// message and hint as in an expression).
int requireColumn(const Schema& schema, const Identifier& name) {
  return bindExpression(Expr{ColumnRef{name}, name.position}, schema)->column;
}

std::string columnHint(const Schema& schema, const std::string& name) {
  std::vector<std::string> names;
  for (const Field& field : schema) names.push_back(field.name);
  return closestHint(name, names, "the columns are");
}

bool hasWildcard(const Identifier& name) { return name.pattern; }

/// Matches `*` (any run, dots included) against a whole name.
bool wildcardMatch(std::string_view pattern, std::string_view name) {
  size_t p = 0, n = 0, star = std::string_view::npos, mark = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

/// The columns `names` select, in the order named (a pattern's matches in schema
/// order, each column once).
std::vector<int> selectColumns(const Schema& schema, const std::vector<Identifier>& names) {
  std::vector<int> out;
  std::vector<bool> taken(schema.size(), false);
  for (const Identifier& name : names) {
    if (!hasWildcard(name)) {
      const int index = requireColumn(schema, name);
      if (!taken[index]) out.push_back(index);
      taken[index] = true;
      continue;
    }
    const std::string pattern = name.dotted();
    bool any = false;
    for (size_t i = 0; i < schema.size(); ++i) {
      if (!wildcardMatch(pattern, schema[i].name)) continue;
      any = true;
      if (!taken[i]) out.push_back(static_cast<int>(i));
      taken[i] = true;
    }
    if (!any) {
      throw QueryError("no column matches `" + pattern + "`", name.position.line, name.position.column,
                       columnHint(schema, pattern));
    }
  }
  return out;
}

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
    while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) ++i;  // continuation bytes
  }
  return i <= text.size() ? i : std::string_view::npos;
}

bool isWordByte(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

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
    if ((c == 'B' || c == 'b') && i + 1 < text.size() && (text[i + 1] == 'Y' || text[i + 1] == 'y') &&
        (i == start || !isWordByte(text[i - 1])) && (i + 2 >= text.size() || !isWordByte(text[i + 2]))) {
      break;
    }
  }
  std::string_view item = text.substr(start, i - start);
  while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back()))) item.remove_suffix(1);
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

// ---- Which metadata columns the query names -------------------------------------

std::set<std::string> namesInQuery(const Query& query) {
  std::set<std::string> out;
  for (const Command& command : query.commands) {
    forEachCommandExpression(command, [&](const Expr& top) {
      forEachNode(top, [&](const Expr& expr) {
        if (expr.is<ColumnRef>()) out.insert(expr.as<ColumnRef>().name.dotted());
      });
    });
    std::visit(
        [&](const auto& c) {
          using T = std::decay_t<decltype(c)>;
          if constexpr (std::is_same_v<T, KeepCommand> || std::is_same_v<T, DropCommand>) {
            for (const Identifier& name : c.columns) out.insert(name.dotted());
          } else if constexpr (std::is_same_v<T, RenameCommand>) {
            for (const RenamePair& pair : c.renames) out.insert(pair.from.dotted());
          } else if constexpr (std::is_same_v<T, LookupJoinCommand>) {
            for (const Identifier& key : c.keys) out.insert(key.dotted());
          } else if constexpr (std::is_same_v<T, MvExpandCommand> ||
                               std::is_same_v<T, DissectCommand> ||
                               std::is_same_v<T, GrokCommand>) {
            out.insert(c.column.dotted());
          }
        },
        command.node);
  }
  return out;
}

// ---- Building the chain ----------------------------------------------------------

PlanNodePtr makeNode(PlanKind kind, PlanNodePtr input) {
  auto node = std::make_shared<PlanNode>();
  node->kind = kind;
  if (input) {
    node->schema = input->schema;
    node->children.push_back(std::move(input));
  }
  return node;
}

PlanNodePtr project(PlanNodePtr input, std::vector<int> channels, std::vector<std::string> names) {
  auto node = makeNode(PlanKind::kProject, input);
  node->schema.clear();
  for (size_t i = 0; i < channels.size(); ++i) {
    node->schema.push_back({names[i], input->schema[channels[i]].type});
  }
  node->channels = std::move(channels);
  return node;
}

/// Keeps every column but those in `dropped`.
PlanNodePtr projectWithout(PlanNodePtr input, const std::set<int>& dropped) {
  std::vector<int> channels;
  std::vector<std::string> names;
  for (size_t i = 0; i < input->schema.size(); ++i) {
    if (dropped.count(static_cast<int>(i))) continue;
    channels.push_back(static_cast<int>(i));
    names.push_back(input->schema[i].name);
  }
  return project(std::move(input), std::move(channels), std::move(names));
}

/// Appends columns computed by `evals` (bound against `input`'s schema).
PlanNodePtr eval(PlanNodePtr input, std::vector<std::pair<std::string, BoundExprPtr>> evals) {
  auto node = makeNode(PlanKind::kEval, input);
  for (const auto& [name, expr] : evals) node->schema.push_back({name, expr->type});
  node->evals = std::move(evals);
  return node;
}

/// Evaluates `expr` into a column of its own unless it is a plain column;
/// returns the channel. New columns are appended to `pending`, to be added by
/// one EvalExec. `scalarUse` names the use that refuses a list (requireScalar);
/// null where a list is taken (an aggregate's argument: its elements).
int channelFor(const Expr& expr, const Schema& schema, const std::string& tempName,
               std::vector<std::pair<std::string, BoundExprPtr>>& pending, const char* scalarUse) {
  BoundExprPtr bound = bindExpression(expr, schema);
  if (scalarUse != nullptr) requireScalar(*bound, expr.position, scalarUse);
  if (bound->kind == BoundExpr::Kind::kColumn) return bound->column;
  pending.emplace_back(tempName, std::move(bound));
  return static_cast<int>(schema.size() + pending.size() - 1);
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
  if (bound.kind != BoundExpr::Kind::kBinary || bound.type.kind != TypeKind::kInt32) return std::nullopt;
  if (bound.binaryOp != BinaryOp::kAdd && bound.binaryOp != BinaryOp::kSubtract) return std::nullopt;
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
  if (bound.binaryOp == BinaryOp::kAdd && isConstant(*left) && isOperand(*right)) return SumOffset{right, left, false};
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
      return Expr{CaseExpr{{WhenClause{*filter, std::move(argument)}}, std::nullopt}, filter->position};
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
    spec.inputChannel = argumentChannel(
        filtered(star ? Expr{Literal{BooleanLiteral{true}}, at} : call.args[0]), spec.inputType, "$arg");
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

PlanNodePtr planGroupedStats(PlanNodePtr input, const StatsCommand& stats, std::string_view text);

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
    if (!names.insert(itemName(stats.groups[i], text)).second) return planGroupedStats(input, stats, text);
    try {
      constant[i] = bindExpression(stats.groups[i].expr, input->schema)->kind == BoundExpr::Kind::kLiteral;
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
        item.expr = replaceGroupReference(item.expr, itemName(stats.groups[i], text), stats.groups[i].expr);
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

/// The channel of a SORT key. A list sorts by one of its values (ES|QL):
/// ascending by its least element, descending by its greatest (mv_min /
/// mv_max); a list without a value sorts as null.
int sortChannelFor(const SortKey& key, const Schema& schema, const std::string& tempName,
                   std::vector<std::pair<std::string, BoundExprPtr>>& pending) {
  BoundExprPtr bound = bindExpression(key.expr, schema);
  if (!bound->type.isList()) return channelFor(key.expr, schema, tempName, pending, "a SORT key");
  auto call = std::make_shared<BoundExpr>();
  call->kind = BoundExpr::Kind::kCall;
  call->name = key.ascending ? "mv_min" : "mv_max";
  call->type = bound->type.elementType();
  call->children.push_back(std::move(bound));
  pending.emplace_back(tempName, std::move(call));
  return static_cast<int>(schema.size() + pending.size() - 1);
}

PlanNodePtr planSort(PlanNodePtr input, const SortCommand& sort, std::optional<int64_t> limit) {
  const size_t width = input->schema.size();
  std::vector<std::pair<std::string, BoundExprPtr>> pending;
  std::vector<SortSpec> keys;
  for (size_t i = 0; i < sort.keys.size(); ++i) {
    const SortKey& key = sort.keys[i];
    SortSpec spec;
    spec.channel = sortChannelFor(key, input->schema, "$sort" + std::to_string(i), pending);
    spec.ascending = key.ascending;
    spec.nullsFirst = key.nullsFirst;
    keys.push_back(spec);
  }
  const bool temporaries = !pending.empty();
  PlanNodePtr below = temporaries ? eval(input, std::move(pending)) : input;
  auto topN = makeNode(PlanKind::kTopN, below);
  topN->sortKeys = std::move(keys);
  topN->limit = limit;
  if (!temporaries) return topN;
  std::set<int> dropped;
  for (size_t i = width; i < topN->schema.size(); ++i) dropped.insert(static_cast<int>(i));
  return projectWithout(topN, dropped);
}

/// The commands in the order they are planned: a LIMIT moves up past the commands
/// that map each row to one row and keep the order (EVAL, KEEP, DROP, RENAME,
/// DISSECT, GROK), to
/// a SORT just before them, with which it commutes. So `SORT x | KEEP a, x | LIMIT 10`
/// is planned as `SORT x | LIMIT 10 | KEEP a, x`: one top-N of 10 rows rather than
/// a sort of every row, and the EVALs between compute 10 rows.
std::vector<const Command*> withLimitsNextToSorts(const std::vector<Command>& commands) {
  std::vector<const Command*> ordered;
  for (const Command& command : commands) ordered.push_back(&command);
  const auto rowWise = [](const Command* c) {
    return c->is<EvalCommand>() || c->is<KeepCommand>() || c->is<DropCommand>() || c->is<RenameCommand>() ||
           c->is<DissectCommand>() || c->is<GrokCommand>();
  };
  for (size_t s = 0; s < ordered.size(); ++s) {
    if (!ordered[s]->is<SortCommand>()) continue;
    size_t next = s + 1;
    while (next < ordered.size() && rowWise(ordered[next])) ++next;
    if (next == s + 1 || next == ordered.size() || !ordered[next]->is<LimitCommand>()) continue;
    std::rotate(ordered.begin() + static_cast<ptrdiff_t>(s + 1), ordered.begin() + static_cast<ptrdiff_t>(next),
                ordered.begin() + static_cast<ptrdiff_t>(next + 1));
  }
  return ordered;
}

/// MV_EXPAND of a list column; of a single-valued one, nothing (each row has one
/// value, ES|QL).
PlanNodePtr planMvExpand(PlanNodePtr input, const MvExpandCommand& expand) {
  const int channel = requireColumn(input->schema, expand.column);
  if (!input->schema[channel].type.isList()) return input;
  auto node = makeNode(PlanKind::kMvExpand, input);
  node->channels = {channel};
  node->schema[channel].type = node->schema[channel].type.elementType();
  return node;
}

/// DISSECT or GROK of a string column: the pattern's columns appended, an input
/// column of the same name dropped (ES|QL). `command` names the command in errors.
PlanNodePtr planExtract(PlanNodePtr input, const Identifier& column, const char* command,
                        SourcePosition patternPosition,
                        const std::function<std::shared_ptr<const RowExtractor>()>& make) {
  const int channel = requireColumn(input->schema, column);
  const DataType& type = input->schema[channel].type;
  if (type.kind != TypeKind::kString) {
    throw QueryError(std::string(command) + " takes a string column; " + column.dotted() + " is " +
                         type.toString(),
                     column.position.line, column.position.column,
                     type.isList()
                         ? "take one value per row first: MV_EXPAND " + column.dotted()
                         : "convert it first: EVAL s = TO_STRING(" + column.dotted() + ")");
  }
  std::shared_ptr<const RowExtractor> extractor;
  try {
    extractor = make();
  } catch (const InvalidArgument& e) {
    throw QueryError(e.what(), patternPosition.line, patternPosition.column);
  }
  std::set<int> shadowed;
  for (const Field& field : extractor->fields()) {
    const int index = fieldIndex(input->schema, field.name);
    if (index >= 0) shadowed.insert(index);
  }
  auto node = makeNode(PlanKind::kExtract, input);
  node->channels = {channel};
  for (const Field& field : extractor->fields()) node->schema.push_back(field);
  node->extractor = std::move(extractor);
  return shadowed.empty() ? node : projectWithout(node, shadowed);
}

/// The conversion function that makes a value of `type`, for a hint.
std::string conversionTo(const DataType& type) {
  switch (type.kind) {
    case TypeKind::kInt32:
      return "TO_INTEGER";
    case TypeKind::kInt64:
      return "TO_LONG";
    case TypeKind::kUInt64:
      return "TO_UNSIGNED_LONG";
    case TypeKind::kDouble:
      return "TO_DOUBLE";
    case TypeKind::kString:
      return "TO_STRING";
    case TypeKind::kBoolean:
      return "TO_BOOLEAN";
    default:
      return "";
  }
}

/// LOOKUP JOIN: the file's columns but the keys appended after the input's; an
/// input column of the same name as one of them is dropped (ES|QL: the lookup's
/// columns override). Each key must be a column of both, of the same type.
PlanNodePtr planLookupJoin(PlanNodePtr input, const LookupJoinCommand& join,
                           const std::shared_ptr<const LookupFile>& lookup) {
  auto node = makeNode(PlanKind::kLookupJoin, input);
  node->lookup = lookup;
  std::set<std::string> keyNames;
  for (const Identifier& key : join.keys) {
    const int channel = requireColumn(input->schema, key);
    const std::string name = key.dotted();
    if (!keyNames.insert(name).second) {
      throw QueryError("LOOKUP JOIN names the key " + name + " twice", key.position.line,
                       key.position.column);
    }
    const int inLookup = fieldIndex(lookup->schema, name);
    if (inLookup < 0) {
      std::vector<std::string> names;
      for (const Field& field : lookup->schema) names.push_back(field.name);
      std::string columns;
      for (size_t i = 0; i < names.size(); ++i) columns += (i > 0 ? ", " : "") + names[i];
      throw QueryError(
          "the LOOKUP JOIN file " + join.uri + " has no column " + name, key.position.line,
          key.position.column,
          "its columns are " + columns + "; RENAME the query's column to the file's name");
    }
    const DataType& left = input->schema[channel].type;
    const DataType& right = lookup->schema[inLookup].type;
    if (left.isList() || right.isList()) {
      throw QueryError("LOOKUP JOIN takes single-valued keys; " + name + " is " +
                           (left.isList() ? left.toString() + " in the query"
                                          : right.toString() + " in " + join.uri),
                       key.position.line, key.position.column,
                       "take one value per row first: MV_EXPAND " + name);
    }
    if (!(left == right)) {
      const std::string convert = conversionTo(right);
      throw QueryError(
          "LOOKUP JOIN key " + name + " is " + left.toString() + " in the query but " +
              right.toString() + " in " + join.uri + "; the key's types must be the same",
          key.position.line, key.position.column,
          convert.empty() ? ""
                          : "convert it first: EVAL " + name + " = " + convert + "(" + name + ")");
    }
    node->channels.push_back(channel);
    node->lookupKeys.push_back(inLookup);
  }
  std::set<int> shadowed;
  for (size_t c = 0; c < lookup->schema.size(); ++c) {
    const Field& field = lookup->schema[c];
    if (keyNames.count(field.name)) continue;
    node->lookupColumns.push_back(static_cast<int>(c));
    node->schema.push_back(field);
    const int index = fieldIndex(input->schema, field.name);
    if (index >= 0) shadowed.insert(index);
  }
  return shadowed.empty() ? node : projectWithout(node, shadowed);
}

// ---- The exchange ----------------------------------------------------------------

/// The nodes of a linear chain from the root down to the source.
std::vector<PlanNodePtr> chainOf(const PlanNodePtr& root) {
  std::vector<PlanNodePtr> chain;
  for (PlanNodePtr node = root; node; node = node->children.empty() ? nullptr : node->children[0]) {
    chain.push_back(node);
  }
  return chain;
}

bool isBreaker(const PlanNode& node) {
  return node.kind == PlanKind::kAggregate || node.kind == PlanKind::kTopN || node.kind == PlanKind::kLimit;
}

/// Splits the chain at its first pipeline breaker or LOOKUP JOIN (see planner.h).
PlanNodePtr distribute(const PlanNodePtr& root, int threads) {
  std::vector<PlanNodePtr> chain = chainOf(root);  // root first
  int breaker = -1;
  for (int i = static_cast<int>(chain.size()) - 1; i >= 0; --i) {
    if (isBreaker(*chain[i]) || chain[i]->kind == PlanKind::kLookupJoin) {
      breaker = i;
      break;
    }
  }
  auto exchangeOver = [&](PlanNodePtr fragment) {
    auto exchange = makeNode(PlanKind::kExchange, std::move(fragment));
    exchange->threads = threads;
    return exchange;
  };
  if (breaker < 0) return exchangeOver(root);

  PlanNodePtr node = chain[breaker];
  PlanNodePtr below = node->input();
  PlanNodePtr top;  // replaces `node` in the chain
  if (node->kind == PlanKind::kAggregate) {
    auto initial = std::make_shared<PlanNode>(*node);
    initial->mode = AggregatorMode::kInitial;
    initial->schema.clear();
    for (int channel : node->groupChannels) initial->schema.push_back(below->schema[channel]);
    std::vector<AggregateSpec> finals;
    for (const AggregateSpec& spec : node->aggregates) {
      AggregateSpec final = spec;
      final.inputChannel = static_cast<int>(initial->schema.size());
      final.weightChannel = -1;  // the FINAL reads the intermediate columns only
      for (const Field& field : intermediateFields(spec)) initial->schema.push_back(field);
      finals.push_back(final);
    }
    auto final = std::make_shared<PlanNode>(*node);
    final->mode = AggregatorMode::kFinal;
    final->threads = threads;  // a merge of many groups is split over as many tables
    final->children = {exchangeOver(initial)};
    final->groupChannels.clear();
    for (size_t g = 0; g < node->groupChannels.size(); ++g) final->groupChannels.push_back(static_cast<int>(g));
    final->aggregates = finals;
    top = final;
  } else if ((node->kind == PlanKind::kTopN && !node->limit) ||
             node->kind == PlanKind::kLookupJoin) {
    top = std::make_shared<PlanNode>(*node);
    top->children = {exchangeOver(below)};
  } else {  // TopN with a limit, or a limit: the same node on both sides
    top = std::make_shared<PlanNode>(*node);
    top->children = {exchangeOver(node)};
  }
  if (breaker == 0) return top;
  // Re-link the nodes above the breaker (copies: the chain is rebuilt).
  PlanNodePtr current = top;
  for (int i = breaker - 1; i >= 0; --i) {
    auto copy = std::make_shared<PlanNode>(*chain[i]);
    copy->children = {current};
    current = copy;
  }
  return current;
}

/// A name that is no column may be one a file holds but the engine does not read
/// (a map, a list of structs, ...; FormatReader's unreadColumns): then the query
/// is told so, at the same place, rather than "unknown column".
void throwIfUnread(const UnknownColumnError& e, const ResolvedSource& source) {
  const std::string& name = e.columnName();
  for (const ResolvedFile& file : source.files) {
    for (const UnreadColumn& column : file.metadata.unreadColumns) {
      if (name != column.name && !name.starts_with(column.name + ".")) continue;
      throw QueryError("column " + column.name + " is " + column.what + ", which quarry does not read yet",
                       e.line(), e.column(),
                       "in " + file.uri + "; quarry reads primitive columns, the leaves of structs (as s.x) "
                       "and lists of a primitive");
    }
  }
}

/// ROW's one row: a page of one position and no column, then each field
/// evaluated over it as EVAL's assignments are.
PlanNodePtr planRow(const RowSource& row) {
  auto node = makeNode(PlanKind::kLocalSource, nullptr);
  node->description = "ROW";
  // Each copy of the supplier (each run of the plan) gives its row once.
  node->supplier = [given = false]() mutable -> std::optional<Page> {
    if (given) return std::nullopt;
    given = true;
    return Page({}, 1);
  };
  PlanNodePtr current = node;
  for (const Assignment& field : row.fields) {
    const std::string name = field.name.dotted();
    const int shadowed = fieldIndex(current->schema, name);
    current = eval(current, {{name, bindExpression(field.value, current->schema)}});
    if (shadowed >= 0) current = projectWithout(current, {shadowed});
  }
  return current;
}

PlanNodePtr externalSource(const Query& query, ResolvedSource& source) {
  Schema sourceSchema = source.schema;
  const std::set<std::string> named = namesInQuery(query);
  if (named.count(kFilePathColumn) && fieldIndex(sourceSchema, kFilePathColumn) < 0) {
    sourceSchema.push_back({kFilePathColumn, DataType::string()});
  }
  if (named.count(kFileSizeColumn) && fieldIndex(sourceSchema, kFileSizeColumn) < 0) {
    sourceSchema.push_back({kFileSizeColumn, DataType::int64()});
  }
  auto sourceNode = makeNode(PlanKind::kExternalSource, nullptr);
  sourceNode->schema = sourceSchema;
  size_t splitCount = 0;
  for (const ResolvedFile& file : source.files) splitCount += file.metadata.splits.size();
  sourceNode->splits.reserve(splitCount);
  for (ResolvedFile& file : source.files) {
    for (FileSplit& split : file.metadata.splits)
      sourceNode->splits.push_back({file.reader, std::move(split)});
    file.metadata.splits.clear();
  }
  for (const Field& field : sourceSchema) sourceNode->request.columns.push_back(field.name);
  sourceNode->request.outputSchema = sourceSchema;
  for (const Field& field : source.partitionColumns) sourceNode->request.partitionColumns.push_back(field.name);
  sourceNode->filesPrunedByPartition = source.filesPrunedByPartition;
  sourceNode->listedPrefixes = source.listedPrefixes;
  return sourceNode;
}

}  // namespace

PlanNodePtr planQuery(const Query& query, ResolvedSource& source, const PlannerOptions& options) {
  PlanNodePtr current = query.row ? planRow(*query.row) : externalSource(query, source);
  const std::vector<const Command*> commands = withLimitsNextToSorts(query.commands);
  try {
    for (size_t c = 0; c < commands.size(); ++c) {
      const Command& command = *commands[c];
      if (command.is<WhereCommand>()) {
        const Expr& condition = command.as<WhereCommand>().condition;
        BoundExprPtr predicate = bindExpression(condition, current->schema);
        requireScalar(*predicate, condition.position, "WHERE");
        if (predicate->type.kind != TypeKind::kBoolean && predicate->type.kind != TypeKind::kNull) {
          throw QueryError("WHERE needs a boolean condition, not " + predicate->type.toString(),
                           condition.position.line, condition.position.column,
                           "compare it, e.g. " + printExpr(condition) + " IS NOT NULL");
        }
        auto filter = makeNode(PlanKind::kFilter, current);
        filter->predicate = std::move(predicate);
        current = filter;
      } else if (command.is<EvalCommand>()) {
        for (const Assignment& assignment : command.as<EvalCommand>().assignments) {
          const std::string name = assignment.name.dotted();
          const int shadowed = fieldIndex(current->schema, name);
          current = eval(current, {{name, bindExpression(assignment.value, current->schema)}});
          if (shadowed >= 0) current = projectWithout(current, {shadowed});
        }
      } else if (command.is<StatsCommand>()) {
        current = planStats(current, command.as<StatsCommand>(), options.text);
      } else if (command.is<SortCommand>()) {
        std::optional<int64_t> limit;
        if (c + 1 < commands.size() && commands[c + 1]->is<LimitCommand>()) {
          limit = commands[++c]->as<LimitCommand>().count;
        }
        current = planSort(current, command.as<SortCommand>(), limit);
      } else if (command.is<KeepCommand>()) {
        std::vector<int> channels = selectColumns(current->schema, command.as<KeepCommand>().columns);
        std::vector<std::string> names;
        for (int channel : channels) names.push_back(current->schema[channel].name);
        current = project(current, std::move(channels), std::move(names));
      } else if (command.is<DropCommand>()) {
        std::vector<int> channels = selectColumns(current->schema, command.as<DropCommand>().columns);
        current = projectWithout(current, std::set<int>(channels.begin(), channels.end()));
      } else if (command.is<RenameCommand>()) {
        std::vector<std::string> names;
        for (const Field& field : current->schema) names.push_back(field.name);
        std::set<int> replaced;
        for (const RenamePair& pair : command.as<RenameCommand>().renames) {
          const int from = requireColumn(current->schema, pair.from);
          const std::string to = pair.to.dotted();
          for (size_t i = 0; i < names.size(); ++i) {
            if (names[i] == to && static_cast<int>(i) != from) replaced.insert(static_cast<int>(i));
          }
          names[from] = to;
        }
        std::vector<int> channels;
        std::vector<std::string> kept;
        for (size_t i = 0; i < names.size(); ++i) {
          if (replaced.count(static_cast<int>(i))) continue;
          channels.push_back(static_cast<int>(i));
          kept.push_back(names[i]);
        }
        current = project(current, std::move(channels), std::move(kept));
      } else if (command.is<DissectCommand>()) {
        const DissectCommand& dissect = command.as<DissectCommand>();
        current = planExtract(current, dissect.column, "DISSECT", dissect.patternPosition, [&] {
          return std::make_shared<DissectPattern>(dissect.pattern, dissect.appendSeparator);
        });
      } else if (command.is<GrokCommand>()) {
        const GrokCommand& grok = command.as<GrokCommand>();
        current = planExtract(current, grok.column, "GROK", grok.patternPosition,
                              [&] { return std::make_shared<GrokPattern>(grok.pattern); });
      } else if (command.is<SampleCommand>()) {
        const SampleCommand& sample = command.as<SampleCommand>();
        auto node = makeNode(PlanKind::kSample, current);
        node->sampleProbability = sample.probability;
        std::random_device entropy;
        node->sampleSeed = sample.seed ? *sample.seed : (uint64_t{entropy()} << 32) ^ entropy();
        current = node;
      } else if (command.is<MvExpandCommand>()) {
        current = planMvExpand(current, command.as<MvExpandCommand>());
      } else if (command.is<LookupJoinCommand>()) {
        const LookupJoinCommand& join = command.as<LookupJoinCommand>();
        const auto lookup = options.lookups.find(join.uri);
        if (lookup == options.lookups.end()) {
          throw InvalidArgument("the LOOKUP JOIN file " + join.uri +
                                " was not read before planning");
        }
        current = planLookupJoin(current, join, lookup->second);
      } else if (command.is<LimitCommand>()) {
        auto limit = makeNode(PlanKind::kLimit, current);
        limit->limit = command.as<LimitCommand>().count;
        current = limit;
      }
    }
  } catch (const UnknownColumnError& e) {
    throwIfUnread(e, source);
    throw;
  }
  // ROW's one row is not split among drivers.
  return options.exchange && !query.row ? distribute(current, options.threads) : current;
}

}  // namespace quarry::engine
