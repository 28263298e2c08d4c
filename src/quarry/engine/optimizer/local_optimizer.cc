#include "quarry/engine/optimizer/local_optimizer.h"

#include <cmath>
#include <set>

#include "quarry/engine/exec/executor.h"
#include "quarry/engine/exec/mixed_statistics_supplier.h"
#include "quarry/engine/expr/decimal_arithmetic.h"
#include "quarry/engine/source/file_stats_supplier.h"
#include "quarry/engine/source/format_reader.h"

namespace quarry::engine {

using parquet::FilterPredicate;
using parquet::PredicateLiteral;

namespace {

// ---- Columns of expressions -----------------------------------------------------

void columnsOf(const BoundExpr& expr, std::set<int>& out) {
  if (expr.kind == BoundExpr::Kind::kColumn) out.insert(expr.column);
  for (const BoundExprPtr& child : expr.children) columnsOf(*child, out);
}

BoundExprPtr remap(const BoundExprPtr& expr, const std::vector<int>& mapping) {
  auto copy = std::make_shared<BoundExpr>(*expr);
  if (copy->kind == BoundExpr::Kind::kColumn) copy->column = mapping.at(copy->column);
  for (BoundExprPtr& child : copy->children) child = remap(child, mapping);
  return copy;
}

// ---- PruneColumns ------------------------------------------------------------------

/// Prunes `node`'s outputs to the `required` ones (and what it needs itself);
/// returns for each old output channel its new channel, or -1.
std::vector<int> prune(PlanNode& node, std::vector<bool> required, bool& changed) {
  const size_t width = node.schema.size();
  std::vector<int> identity(width);
  for (size_t i = 0; i < width; ++i) identity[i] = static_cast<int>(i);
  auto childRequired = [&](const std::vector<bool>& outputs) {
    std::vector<bool> in(node.input()->schema.size(), false);
    for (size_t i = 0; i < outputs.size() && i < in.size(); ++i) in[i] = outputs[i];
    return in;
  };
  switch (node.kind) {
    case PlanKind::kExternalSource: {
      std::vector<int> kept;
      for (size_t i = 0; i < width; ++i) {
        if (required[i]) kept.push_back(static_cast<int>(i));
      }
      if (kept.empty() && width > 0) {
        // Rows must still be counted: keep the narrowest column (a list is the widest).
        auto cost = [&](size_t i) {
          return node.schema[i].type.isList() ? 2 : node.schema[i].type.isBytes() ? 1 : 0;
        };
        size_t best = 0;
        for (size_t i = 0; i < width; ++i) {
          if (cost(i) < cost(best)) best = i;
        }
        kept.push_back(static_cast<int>(best));
      }
      if (kept.size() == width) return identity;
      changed = true;
      std::vector<int> mapping(width, -1);
      Schema schema;
      std::vector<std::string> columns;
      for (size_t k = 0; k < kept.size(); ++k) {
        mapping[kept[k]] = static_cast<int>(k);
        schema.push_back(node.schema[kept[k]]);
        columns.push_back(node.request.columns[kept[k]]);
      }
      node.schema = schema;
      node.request.columns = columns;
      node.request.outputSchema = schema;
      return mapping;
    }
    case PlanKind::kLocalSource:
      return identity;
    case PlanKind::kFilter: {
      std::vector<bool> in = childRequired(required);
      std::set<int> used;
      columnsOf(*node.predicate, used);
      for (int c : used) in[c] = true;
      std::vector<int> mapping = prune(*node.input(), in, changed);
      node.predicate = remap(node.predicate, mapping);
      node.schema = node.input()->schema;
      return mapping;
    }
    case PlanKind::kLimit:
    case PlanKind::kExchange: {
      std::vector<int> mapping = prune(*node.input(), required, changed);
      node.schema = node.input()->schema;
      return mapping;
    }
    case PlanKind::kTopN: {
      std::vector<bool> in = required;
      for (const SortSpec& key : node.sortKeys) in[key.channel] = true;
      std::vector<int> mapping = prune(*node.input(), in, changed);
      for (SortSpec& key : node.sortKeys) key.channel = mapping[key.channel];
      node.schema = node.input()->schema;
      return mapping;
    }
    case PlanKind::kEval: {
      const size_t inputWidth = node.input()->schema.size();
      std::vector<bool> in = childRequired(required);
      for (size_t j = 0; j < node.evals.size(); ++j) {
        if (!required[inputWidth + j]) continue;
        std::set<int> used;
        columnsOf(*node.evals[j].second, used);
        for (int c : used) in[c] = true;
      }
      std::vector<int> childMapping = prune(*node.input(), in, changed);
      std::vector<int> mapping(width, -1);
      for (size_t i = 0; i < inputWidth; ++i) mapping[i] = childMapping[i];
      std::vector<std::pair<std::string, BoundExprPtr>> evals;
      Schema schema = node.input()->schema;
      for (size_t j = 0; j < node.evals.size(); ++j) {
        if (!required[inputWidth + j]) {
          changed = true;
          continue;
        }
        mapping[inputWidth + j] = static_cast<int>(schema.size());
        evals.emplace_back(node.evals[j].first, remap(node.evals[j].second, childMapping));
        schema.push_back(node.schema[inputWidth + j]);
      }
      node.evals = std::move(evals);
      node.schema = std::move(schema);
      return mapping;
    }
    case PlanKind::kProject: {
      std::vector<bool> in(node.input()->schema.size(), false);
      for (size_t i = 0; i < width; ++i) {
        if (required[i]) in[node.channels[i]] = true;
      }
      std::vector<int> childMapping = prune(*node.input(), in, changed);
      std::vector<int> mapping(width, -1);
      std::vector<int> channels;
      Schema schema;
      for (size_t i = 0; i < width; ++i) {
        if (!required[i]) {
          changed = true;
          continue;
        }
        mapping[i] = static_cast<int>(channels.size());
        channels.push_back(childMapping[node.channels[i]]);
        schema.push_back(node.schema[i]);
      }
      node.channels = std::move(channels);
      node.schema = std::move(schema);
      return mapping;
    }
    case PlanKind::kAggregate: {
      std::vector<bool> in(node.input()->schema.size(), false);
      for (int c : node.groupChannels) in[c] = true;
      const bool intermediateInput =
          node.mode == AggregatorMode::kIntermediate || node.mode == AggregatorMode::kFinal;
      for (const AggregateSpec& spec : node.aggregates) {
        if (spec.inputChannel < 0) continue;
        const size_t columns = intermediateInput ? intermediateFields(spec).size() : 1;
        for (size_t k = 0; k < columns; ++k) in[spec.inputChannel + k] = true;
      }
      std::vector<int> childMapping = prune(*node.input(), in, changed);
      for (int& c : node.groupChannels) c = childMapping[c];
      for (AggregateSpec& spec : node.aggregates) {
        if (spec.inputChannel >= 0) spec.inputChannel = childMapping[spec.inputChannel];
      }
      return identity;
    }
  }
  return identity;
}

// ---- PushFiltersToSource ----------------------------------------------------------

bool isZero(double v) { return v == 0.0; }

/// The literal `value` (of type `literalType`) as a predicate literal for a
/// column of `columnType`, when the conversion is exact.
std::optional<PredicateLiteral> literalFor(const Scalar& value, const DataType& literalType,
                                           const DataType& columnType) {
  if (std::holds_alternative<std::monostate>(value)) return std::nullopt;
  auto asInt64 = [&]() -> std::optional<int64_t> {
    if (literalType.kind == TypeKind::kInt32) return std::get<int32_t>(value);
    if (literalType.kind == TypeKind::kInt64) return std::get<int64_t>(value);
    return std::nullopt;
  };
  switch (columnType.kind) {
    case TypeKind::kBoolean:
      if (literalType.kind == TypeKind::kBoolean) return PredicateLiteral(std::get<uint8_t>(value) != 0);
      return std::nullopt;
    case TypeKind::kInt32: {
      auto v = asInt64();
      if (!v || *v < INT32_MIN || *v > INT32_MAX) return std::nullopt;
      return PredicateLiteral(static_cast<int32_t>(*v));
    }
    case TypeKind::kInt64: {
      auto v = asInt64();
      if (!v) return std::nullopt;
      return PredicateLiteral(*v);
    }
    case TypeKind::kDouble: {
      double d;
      if (literalType.kind == TypeKind::kDouble) {
        d = std::get<double>(value);
      } else if (literalType.kind == TypeKind::kDecimal) {
        d = decimalToDouble(std::get<Int128>(value), literalType.scale);  // as the evaluator converts it
      } else if (auto v = asInt64(); v && std::abs(*v) < (int64_t{1} << 53)) {
        d = static_cast<double>(*v);
      } else {
        return std::nullopt;
      }
      // The predicate orders -0.0 below +0.0; the engine holds them equal.
      if (std::isnan(d) || isZero(d)) return std::nullopt;
      return PredicateLiteral(d);
    }
    case TypeKind::kString:
      if (literalType.kind == TypeKind::kString) return PredicateLiteral(std::get<std::string>(value));
      return std::nullopt;
    case TypeKind::kDate:
      if (literalType.kind == TypeKind::kDate) return PredicateLiteral(Date{std::get<int32_t>(value)});
      return std::nullopt;
    case TypeKind::kDecimal: {
      if (!(literalType == columnType) && !(literalType.kind == TypeKind::kDecimal &&
                                            literalType.scale == columnType.scale)) {
        return std::nullopt;
      }
      Int128 unscaled = std::get<Int128>(value);
      Decimal decimal;
      decimal.scale = columnType.scale;
      decimal.unscaledBigEndian.resize(16);
      for (int i = 15; i >= 0; --i) {
        decimal.unscaledBigEndian[i] = static_cast<uint8_t>(static_cast<unsigned __int128>(unscaled) & 0xff);
        unscaled = static_cast<Int128>(static_cast<unsigned __int128>(unscaled) >> 8);
      }
      return PredicateLiteral(std::move(decimal));
    }
    case TypeKind::kTimestamp: {
      if (!(literalType == columnType)) return std::nullopt;
      const int64_t v = std::get<int64_t>(value);
      const int64_t perSecond = unitsPerSecond(columnType.unit);
      Instant instant = Instant::ofEpochUnits(v, perSecond);
      if (columnType.utcAdjusted) return PredicateLiteral(instant);
      return PredicateLiteral(LocalDateTime{instant.epochSeconds, instant.nanos});
    }
    default:
      return std::nullopt;
  }
}

/// Whether `expr` is a column the source can filter on. Not a list: a format
/// reader's predicate (and its statistics: a list leaf's count elements, not
/// rows) would see the elements, so `tags IS NULL` stays above the source.
bool isSourceColumn(const BoundExpr& expr, const Schema& schema) {
  return expr.kind == BoundExpr::Kind::kColumn && expr.column >= 0 &&
         static_cast<size_t>(expr.column) < schema.size() &&
         schema[expr.column].name.rfind("_file.", 0) != 0 && !schema[expr.column].type.isList();
}

std::optional<FilterPredicate> comparison(BinaryOp op, const BoundExpr& left, const BoundExpr& right,
                                          const Schema& schema) {
  const BoundExpr* column = &left;
  const BoundExpr* literal = &right;
  if (!isSourceColumn(*column, schema)) {
    std::swap(column, literal);
    switch (op) {  // literal OP column is column OP' literal
      case BinaryOp::kLt:
        op = BinaryOp::kGt;
        break;
      case BinaryOp::kLe:
        op = BinaryOp::kGe;
        break;
      case BinaryOp::kGt:
        op = BinaryOp::kLt;
        break;
      case BinaryOp::kGe:
        op = BinaryOp::kLe;
        break;
      default:
        break;
    }
  }
  if (!isSourceColumn(*column, schema) || literal->kind != BoundExpr::Kind::kLiteral) return std::nullopt;
  const Field& field = schema[column->column];
  std::optional<PredicateLiteral> value = literalFor(literal->literal, literal->type, field.type);
  if (!value) return std::nullopt;
  if (field.type.kind == TypeKind::kBoolean && op != BinaryOp::kEq && op != BinaryOp::kNe) return std::nullopt;
  FilterPredicate::Op predicateOp;
  switch (op) {
    case BinaryOp::kEq:
      predicateOp = FilterPredicate::Op::kEq;
      break;
    case BinaryOp::kNe:
      predicateOp = FilterPredicate::Op::kNotEq;
      break;
    case BinaryOp::kLt:
      predicateOp = FilterPredicate::Op::kLt;
      break;
    case BinaryOp::kLe:
      predicateOp = FilterPredicate::Op::kLtEq;
      break;
    case BinaryOp::kGt:
      predicateOp = FilterPredicate::Op::kGt;
      break;
    case BinaryOp::kGe:
      predicateOp = FilterPredicate::Op::kGtEq;
      break;
    default:
      return std::nullopt;
  }
  return FilterPredicate::compareLiteral(predicateOp, field.name, std::move(*value));
}

/// `weaker`: the result may keep more rows than the predicate (AND may drop
/// conjuncts); under NOT it must be exact.
std::optional<FilterPredicate> translate(const BoundExpr& expr, const Schema& schema, bool weaker) {
  switch (expr.kind) {
    case BoundExpr::Kind::kBinary: {
      if (expr.binaryOp == BinaryOp::kAnd || expr.binaryOp == BinaryOp::kOr) {
        std::vector<FilterPredicate> parts;
        for (const BoundExprPtr& child : expr.children) {
          std::optional<FilterPredicate> part = translate(*child, schema, weaker);
          if (part) {
            parts.push_back(std::move(*part));
          } else if (expr.binaryOp == BinaryOp::kOr || !weaker) {
            return std::nullopt;
          }
        }
        if (parts.empty()) return std::nullopt;
        if (parts.size() == 1) return std::move(parts[0]);
        return expr.binaryOp == BinaryOp::kAnd ? FilterPredicate::and_(std::move(parts))
                                               : FilterPredicate::or_(std::move(parts));
      }
      if (expr.children.size() != 2) return std::nullopt;
      return comparison(expr.binaryOp, *expr.children[0], *expr.children[1], schema);
    }
    case BoundExpr::Kind::kUnary: {
      if (expr.unaryOp != UnaryOp::kNot || expr.children.size() != 1) return std::nullopt;
      std::optional<FilterPredicate> inner = translate(*expr.children[0], schema, false);
      if (!inner) return std::nullopt;
      return FilterPredicate::not_(std::move(*inner));
    }
    case BoundExpr::Kind::kIsNull: {
      if (expr.children.size() != 1 || !isSourceColumn(*expr.children[0], schema)) return std::nullopt;
      const std::string& name = schema[expr.children[0]->column].name;
      return expr.negated ? FilterPredicate::isNotNull(name) : FilterPredicate::isNull(name);
    }
    case BoundExpr::Kind::kIn: {
      // x NOT IN (...) is not pushed: a null in the list makes it null for every x.
      if (expr.negated || expr.children.size() < 2 || !isSourceColumn(*expr.children[0], schema)) {
        return std::nullopt;
      }
      const Field& field = schema[expr.children[0]->column];
      if (field.type.kind == TypeKind::kBoolean) return std::nullopt;
      std::vector<PredicateLiteral> values;
      for (size_t i = 1; i < expr.children.size(); ++i) {
        const BoundExpr& item = *expr.children[i];
        if (item.kind != BoundExpr::Kind::kLiteral) return std::nullopt;
        if (std::holds_alternative<std::monostate>(item.literal)) continue;  // never equal
        std::optional<PredicateLiteral> value = literalFor(item.literal, item.type, field.type);
        if (!value) return std::nullopt;
        values.push_back(std::move(*value));
      }
      if (values.empty()) return std::nullopt;
      return FilterPredicate::inLiterals(field.name, std::move(values));
    }
    default:
      return std::nullopt;
  }
}

template <typename F>
bool forEachNode(PlanNode& node, F&& f) {
  bool changed = f(node);
  for (PlanNodePtr& child : node.children) changed |= forEachNode(*child, f);
  return changed;
}

}  // namespace

std::optional<FilterPredicate> toFilterPredicate(const BoundExpr& predicate, const Schema& schema) {
  return translate(predicate, schema, true);
}

bool pruneColumns(PlanNode& root) {
  bool changed = false;
  prune(root, std::vector<bool>(root.schema.size(), true), changed);
  return changed;
}

bool pushFiltersToSource(PlanNode& root) {
  return forEachNode(root, [](PlanNode& node) {
    if (node.kind != PlanKind::kFilter || node.input()->kind != PlanKind::kExternalSource) return false;
    PlanNode& source = *node.input();
    std::optional<FilterPredicate> pushed = toFilterPredicate(*node.predicate, source.schema);
    if (!pushed) return false;
    source.request.filter = source.request.filter ? FilterPredicate::and_(*source.request.filter, *pushed)
                                                  : std::move(*pushed);
    return true;
  });
}

bool pushLimitToExternalSource(PlanNode& root) {
  return forEachNode(root, [](PlanNode& node) {
    if (node.kind != PlanKind::kLimit || !node.limit) return false;
    PlanNode* below = node.input().get();
    while (below->kind == PlanKind::kProject) below = below->input().get();
    if (below->kind != PlanKind::kExternalSource || below->request.filter) return false;
    if (below->request.limit && *below->request.limit <= *node.limit) return false;
    below->request.limit = *node.limit;
    return true;
  });
}

namespace {

/// Whether `expr` holds an IN list with a null item: the translation drops the
/// item, which under NOT keeps rows the query rejects, so it is not exact.
bool hasNullInList(const BoundExpr& expr) {
  if (expr.kind == BoundExpr::Kind::kIn) {
    for (size_t i = 1; i < expr.children.size(); ++i) {
      const BoundExpr& item = *expr.children[i];
      if (item.kind == BoundExpr::Kind::kLiteral && std::holds_alternative<std::monostate>(item.literal)) return true;
    }
  }
  for (const BoundExprPtr& child : expr.children) {
    if (hasNullInList(*child)) return true;
  }
  return false;
}

/// The WHERE of `aggregate` as an exact predicate over the source's columns
/// (nullopt without a FilterExec below); `why` receives the reason when the
/// WHERE has no exact form or is not the predicate the source was handed.
std::optional<FilterPredicate> exactFilter(const PlanNode& aggregate, std::string& why) {
  const PlanNode& below = *aggregate.input();
  if (below.kind != PlanKind::kFilter) return std::nullopt;
  const PlanNode& source = *below.input();
  std::optional<FilterPredicate> exact = translate(*below.predicate, source.schema, false);
  if (!exact || hasNullInList(*below.predicate)) {
    why = "the WHERE is not wholly a source predicate (rows are rechecked)";
    return std::nullopt;
  }
  if (!source.request.filter || source.request.filter->toString() != exact->toString()) {
    why = "the source's predicate is not the WHERE";
    return std::nullopt;
  }
  return exact;
}

/// The ExternalSourceExec `aggregate` reads, directly or through a FilterExec; nullptr otherwise.
const PlanNode* aggregatedSource(const PlanNode& aggregate) {
  if (aggregate.kind != PlanKind::kAggregate || aggregate.children.empty()) return nullptr;
  const PlanNode* below = aggregate.input().get();
  if (below->kind == PlanKind::kFilter) below = below->input().get();
  return below->kind == PlanKind::kExternalSource ? below : nullptr;
}

/// Why `aggregate` (over an ExternalSourceExec) cannot be answered from
/// statistics, or "" when it may be.
std::string pushdownObstacle(const PlanNode& aggregate) {
  const PlanNode& source = *aggregatedSource(aggregate);
  if (aggregate.mode != AggregatorMode::kSingle && aggregate.mode != AggregatorMode::kInitial) {
    return "the aggregate merges intermediate values";
  }
  if (!aggregate.groupChannels.empty()) return "the aggregate is grouped";
  if (aggregate.input()->kind != PlanKind::kFilter && source.request.filter) return "the source is filtered";
  if (source.request.limit) return "the source is limited";
  for (const AggregateSpec& spec : aggregate.aggregates) {
    if (!FileStatsSupplier::supports(spec)) {
      return std::string(aggregateName(spec.function)) + " of " + spec.inputType.toString() +
             " is not answered from statistics";
    }
  }
  for (const SplitTask& task : source.splits) {
    if (task.reader == nullptr || task.reader->aggregatePushdownSupport() != AggregatePushdownSupport::kFromStatistics) {
      return "format " + task.split.format + " does not answer aggregates from statistics";
    }
  }
  return "";
}

std::string count(size_t n, const char* what) { return std::to_string(n) + " " + what; }

/// EXPLAIN's account of the decisions made at planning.
std::string describe(const UnitDecisions& d, const std::optional<FilterPredicate>& filter) {
  std::vector<std::string> parts;
  const bool mixed = !d.scanned.empty() || !d.undecided.empty();
  if (!d.answered.empty() || !mixed) parts.push_back("statistics of " + count(d.answered.size(), "splits"));
  if (d.skippedSplits > 0) parts.push_back(count(d.skippedSplits, "splits skipped by statistics"));
  if (!d.undecided.empty()) {
    parts.push_back(std::string("FileStatsSupplier per row group") + (filter ? " and page" : "") +
                    " over " + count(d.undecided.size(), "splits") + ", else a scan");
  }
  if (!d.scanned.empty()) parts.push_back("scan of " + count(d.scanned.size(), "splits"));
  if (mixed) parts.push_back("mixed");
  if (filter) parts.push_back("filter=" + filter->toString());
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : ", ") + part;
  return out;
}

}  // namespace

bool pushAggregatesToExternalSource(PlanNode& root, std::string* why) {
  int threads = 1;  // of the nearest exchange above
  return forEachNode(root, [why, &threads](PlanNode& node) {
    if (node.kind == PlanKind::kExchange) threads = node.threads;
    const PlanNode* found = aggregatedSource(node);
    if (found == nullptr) return false;
    std::string obstacle = pushdownObstacle(node);
    StatisticsPushdown pushdown;
    if (obstacle.empty()) pushdown.filter = exactFilter(node, obstacle);
    if (!obstacle.empty()) {
      if (why != nullptr) *why = obstacle;
      return false;
    }
    pushdown.original = std::make_shared<PlanNode>(node);
    pushdown.threads = threads;
    UnitDecisions decisions = decideSplits(pushdown);
    if (decisions.answered.empty() && decisions.skippedSplits == 0 && decisions.undecided.empty()) {
      // Every split is one unit whose statistics cannot answer: the plan stays,
      // its splits back in its source.
      chainBottom(*pushdown.original).splits = std::move(decisions.scanned);
      if (why != nullptr) *why = "a statistic an aggregate needs is unknown in every split";
      return false;
    }
    ScanMetrics* metrics = found->request.metrics;
    node.description = describe(decisions, pushdown.filter);
    std::optional<Page> answer;
    if (decisions.scanned.empty() && decisions.undecided.empty()) {
      // Phase 2: the splits' statistics answer now, with no I/O.
      answer = FileStatsSupplier(found->request.columns, node.aggregates, node.mode).answer(decisions.answered);
    }
    if (answer) {
      node.answeredAtPlanning = true;
      auto page = std::make_shared<Page>(std::move(*answer));
      auto delivered = std::make_shared<bool>(false);
      const uint64_t splits = decisions.answered.size() + decisions.skippedSplits, answered = decisions.answeredUnits,
                     skipped = decisions.skippedUnits;
      node.supplier = [page, delivered, metrics, splits, answered, skipped]() -> std::optional<Page> {
        if (*delivered) return std::nullopt;
        *delivered = true;
        if (metrics != nullptr) {
          metrics->splits += splits;
          metrics->rowGroupsTotal += answered + skipped;
          metrics->rowGroupsAnsweredFromStatistics += answered;
          metrics->rowGroupsPrunedByStatistics += skipped;
        }
        return *page;
      };
    } else {
      // Mixed: footers of the undecided splits are read when the plan runs;
      // units that cannot answer are scanned and merged with the answer.
      auto mixed = std::make_shared<MixedStatisticsSupplier>(std::move(pushdown), std::move(decisions));
      node.supplier = [mixed]() { return mixed->next(); };
    }
    node.kind = PlanKind::kLocalSource;
    node.children.clear();
    return true;
  });
}

std::vector<RuleOutcome> optimize(PlanNode& root) {
  std::vector<RuleOutcome> outcomes;
  outcomes.push_back({"PruneColumns", pruneColumns(root), ""});
  outcomes.push_back({"PushFiltersToSource", pushFiltersToSource(root), ""});
  outcomes.push_back({"PushLimitToExternalSource", pushLimitToExternalSource(root), ""});
  std::string why;
  const bool pushed = pushAggregatesToExternalSource(root, &why);
  outcomes.push_back({"PushAggregatesToExternalSource", pushed, pushed ? "" : why});
  return outcomes;
}

}  // namespace quarry::engine
