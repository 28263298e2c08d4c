#include "quarry/engine/plan/planner.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <random>
#include <set>

#include "quarry/common/error.h"
#include "quarry/common/name_hint.h"
#include "quarry/engine/expr/dissect_pattern.h"
#include "quarry/engine/expr/expression_binder.h"
#include "quarry/engine/expr/grok_pattern.h"
#include "quarry/engine/parse/expr_walk.h"
#include "quarry/engine/parse/query_printer.h"
#include "quarry/engine/plan/plan_building.h"
#include "quarry/engine/plan/stats_planning.h"

namespace quarry::engine {

namespace {

using planning::channelFor;
using planning::eval;
using planning::makeNode;
using planning::planStats;
using planning::project;
using planning::projectWithout;

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
